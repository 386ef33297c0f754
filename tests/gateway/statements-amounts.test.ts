import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseAmount } from '../../gateway/src/lib/statements/index.js';

// Decision 080: amounts in rupees are read into integer paise exactly, whatever grouping or currency mark.

/** Rupees written with Indian grouping: the last three digits, then groups of two (1,00,00,000). */
function indian(rupees: bigint): string {
  const digits = rupees.toString();
  if (digits.length <= 3) return digits;
  let head = digits.slice(0, -3);
  const groups: string[] = [];
  while (head.length > 2) {
    groups.unshift(head.slice(-2));
    head = head.slice(0, -2);
  }
  groups.unshift(head);
  return `${groups.join(',')},${digits.slice(-3)}`;
}

/** Rupees written with western grouping: groups of three (100,000,000). */
function western(rupees: bigint): string {
  return rupees.toString().replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/** The decimals of an amount of paise: '.05', '.5' or '' when they allow it, '.00' otherwise. */
function decimals(paise: bigint, style: 'two' | 'short'): string {
  const p = paise % 100n;
  if (style === 'two') return `.${p.toString().padStart(2, '0')}`;
  if (p === 0n) return '';
  return p % 10n === 0n ? `.${(p / 10n).toString()}` : `.${p.toString().padStart(2, '0')}`;
}

const PREFIXES = ['', '₹', '₹ ', 'Rs', 'Rs.', 'Rs. ', 'RS ', 'INR ', 'inr', '+', '+₹', ' '];
const SUFFIXES = ['', ' Cr', 'CR', ' cr.', ' INR', ' ', '\u00a0Cr'];

describe('parseAmount: examples', () => {
  it.each([
    ['1,00,000.00', 10_000_000],
    ['₹ 500', 50_000],
    ['Rs. 1,000.50', 100_050],
    ['INR 50', 5_000],
    ['500.00 Cr', 50_000],
    ['50', 5_000],
    ['1,00,000.10', 10_000_010],
    ['100,000.10', 10_000_010],
    ['0.07', 7],
    ['50.5', 5_050],
    ['+50.00', 5_000],
    ['  ₹50.00  ', 5_000],
    ['₹\u00a01,050.00', 105_000],
    ['12,34,56,789.99', 123_456_789_99],
    ['0', 0],
  ])('%j → %d paise', (text, paise) => {
    expect(parseAmount(text)).toBe(paise);
  });

  it.each([
    [''],
    ['-'],
    ['   '],
    ['abc'],
    ['Total'],
    ['50.123'],
    ['-50'],
    ['-50.00'],
    ['(500.00)'],
    ['50.00 Dr'],
    ['1,0000'],
    ['12,34'],
    ['1,00,0000'],
    ['₹'],
    ['.50'],
    ['50.'],
    ['1e5'],
    ['NaN'],
    ['5 0'],
    ['50,00'],
    ['++50'],
    ['99999999999999999999'],
  ])('%j is not an amount', (text) => {
    expect(parseAmount(text)).toBeNull();
  });
});

describe('parseAmount: properties', () => {
  const paise = fc.bigInt({ min: 1n, max: 100_000_000_000n });

  it('reads back any amount written with Indian grouping, with or without currency and Cr', () => {
    fc.assert(
      fc.property(
        paise,
        fc.constantFrom(...PREFIXES),
        fc.constantFrom(...SUFFIXES),
        fc.constantFrom('two' as const, 'short' as const),
        (p, pre, suf, style) => {
          const text = `${pre}${indian(p / 100n)}${decimals(p, style)}${suf}`;
          expect(parseAmount(text)).toBe(Number(p));
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('reads back any amount written with western grouping or none', () => {
    fc.assert(
      fc.property(paise, fc.boolean(), fc.constantFrom(...PREFIXES), fc.constantFrom(...SUFFIXES), (p, grouped, pre, suf) => {
        const rupees = grouped ? western(p / 100n) : (p / 100n).toString();
        expect(parseAmount(`${pre}${rupees}${decimals(p, 'two')}${suf}`)).toBe(Number(p));
      }),
      { numRuns: 2000 },
    );
  });

  it('never reads a negative, parenthesised, debit or three-decimal amount', () => {
    fc.assert(
      fc.property(paise, fc.integer({ min: 0, max: 3 }), (p, form) => {
        const text = indian(p / 100n) + decimals(p, 'two');
        const written = [`-${text}`, `(${text})`, `${text} Dr`, `${text}${(Number(p) % 10) + 0}`][form]!;
        expect(parseAmount(written)).toBeNull();
      }),
      { numRuns: 1000 },
    );
  });

  it('never throws, and answers null or whole paise ≥ 0', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.string({ unit: fc.constantFrom(...'0123456789,.₹Rs INRCr+-() ') })), (text) => {
        const result = parseAmount(text);
        expect(result === null || (Number.isSafeInteger(result) && result >= 0)).toBe(true);
      }),
      { numRuns: 3000 },
    );
  });
});
