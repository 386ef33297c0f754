import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseStatementDate } from '../../gateway/src/lib/statements/index.js';

// Decision 080: statement dates are day first (India), two-digit years are 20yy, and a day must exist.

const SHORT = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const LONG = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

function leap(y: number): boolean {
  return (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
}
function daysIn(y: number, m: number): number {
  return [31, leap(y) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][m - 1]!;
}
const p2 = (n: number) => String(n).padStart(2, '0');

/** Every supported way of writing day d of month m of year y (without a time). */
function writings(y: number, m: number, d: number, caseOf: (s: string) => string): string[] {
  const short = caseOf(SHORT[m - 1]!);
  const long = caseOf(LONG[m - 1]!);
  const yy = p2(y % 100);
  return [
    `${p2(d)}/${p2(m)}/${y}`,
    `${d}/${m}/${y}`,
    `${p2(d)}-${p2(m)}-${y}`,
    `${p2(d)}.${p2(m)}.${y}`,
    `${p2(d)}/${p2(m)}/${yy}`,
    `${p2(d)}-${p2(m)}-${yy}`,
    `${p2(d)}-${short}-${y}`,
    `${p2(d)}-${short}-${yy}`,
    `${d} ${short} ${y}`,
    `${p2(d)} ${long} ${y}`,
    `${y}-${p2(m)}-${p2(d)}`,
    `${short} ${d}, ${y}`,
    `${long} ${p2(d)}, ${y}`,
  ];
}

const TIMES = ['', ' 14:35', ' 14:35:12', ' 02:35 PM', ' 2:35 pm', ' 09:05:00 AM', ' 23:59:59'];

const validDate = fc
  .record({ y: fc.integer({ min: 2000, max: 2099 }), m: fc.integer({ min: 1, max: 12 }), d: fc.integer({ min: 1, max: 31 }) })
  .filter(({ y, m, d }) => d <= daysIn(y, m));

describe('parseStatementDate: examples', () => {
  it.each([
    ['28/11/2026', '2026-11-28'],
    ['28-11-2026', '2026-11-28'],
    ['28-Nov-2026', '2026-11-28'],
    ['28 Nov 2026', '2026-11-28'],
    ['28/11/26', '2026-11-28'],
    ['2026-11-28', '2026-11-28'],
    ['28.11.2026', '2026-11-28'],
    ['Nov 28, 2026', '2026-11-28'],
    ['28/11/2026 14:35:12', '2026-11-28'],
    ['28-11-2026 02:35 PM', '2026-11-28'],
    ['Nov 28, 2026 02:35 PM', '2026-11-28'],
    ['2026-11-28T14:35:12+05:30', '2026-11-28'],
    ['03/04/2026', '2026-04-03'],
    ['29/02/2028', '2028-02-29'],
    ['  28 NOVEMBER 2026 ', '2026-11-28'],
    ['Sat, 28 Nov 2026', '2026-11-28'],
  ])('%j → %s', (text, iso) => {
    expect(parseStatementDate(text)).toBe(iso);
  });

  it.each([
    ['31/02/2026'],
    ['31/04/2026'],
    ['29/02/2026'],
    ['12/31/2026'],
    ['13/13/2026'],
    ['00/11/2026'],
    ['28/11'],
    ['28-Nox-2026'],
    ['28/11-2026'],
    ['28/11/2026 25:00'],
    ['28/11/2026 13:00 PM'],
    ['Opening Balance'],
    [''],
    ['334512345678'],
    ['46354'],
  ])('%j is not a date', (text) => {
    expect(parseStatementDate(text)).toBeNull();
  });

  it('reads Excel serial numbers (days from 1899-12-30) and Date objects by their UTC day', () => {
    expect(parseStatementDate(46354)).toBe('2026-11-28');
    expect(parseStatementDate(46354.99)).toBe('2026-11-28');
    expect(parseStatementDate(36526)).toBe('2000-01-01');
    expect(parseStatementDate(0)).toBeNull();
    expect(parseStatementDate(-5)).toBeNull();
    expect(parseStatementDate(Number.NaN)).toBeNull();
    expect(parseStatementDate(new Date(Date.UTC(2026, 10, 28)))).toBe('2026-11-28');
    expect(parseStatementDate(new Date(Date.UTC(2026, 10, 28, 23, 30)))).toBe('2026-11-28');
    expect(parseStatementDate(new Date('not a date'))).toBeNull();
  });
});

describe('parseStatementDate: properties', () => {
  it('reads back any date of 2000–2099 in every supported writing, any case, with or without a time', () => {
    fc.assert(
      fc.property(
        validDate,
        fc.constantFrom(
          (s: string) => s,
          (s: string) => s.toUpperCase(),
          (s: string) => s.toLowerCase(),
        ),
        fc.constantFrom(...TIMES),
        ({ y, m, d }, caseOf, time) => {
          const iso = `${y}-${p2(m)}-${p2(d)}`;
          for (const text of writings(y, m, d, caseOf)) expect([text + time, parseStatementDate(text + time)]).toEqual([text + time, iso]);
        },
      ),
      { numRuns: 1500 },
    );
  });

  it('reads back any date of 2000–2099 from its Excel serial number and its Date', () => {
    fc.assert(
      fc.property(validDate, fc.double({ min: 0, max: 0.999, noNaN: true }), ({ y, m, d }, timeOfDay) => {
        const iso = `${y}-${p2(m)}-${p2(d)}`;
        const serial = (Date.UTC(y, m - 1, d) - Date.UTC(1899, 11, 30)) / 86_400_000;
        expect(parseStatementDate(serial + timeOfDay)).toBe(iso);
        expect(parseStatementDate(new Date(Date.UTC(y, m - 1, d, 12)))).toBe(iso);
      }),
      { numRuns: 1000 },
    );
  });

  it('refuses a day the month does not have (31 April, 30 February, 29 February of a common year)', () => {
    const missing = fc
      .record({ y: fc.integer({ min: 2000, max: 2099 }), m: fc.integer({ min: 1, max: 12 }), d: fc.integer({ min: 29, max: 31 }) })
      .filter(({ y, m, d }) => d > daysIn(y, m));
    fc.assert(
      fc.property(missing, ({ y, m, d }) => {
        for (const text of writings(y, m, d, (s) => s)) expect([text, parseStatementDate(text)]).toEqual([text, null]);
      }),
      { numRuns: 300 },
    );
  });

  it('never reads month first: a d/m/y with a "day" over 12 in the month place is no date', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 12 }), fc.integer({ min: 13, max: 31 }), fc.integer({ min: 2000, max: 2099 }), (m, d, y) => {
        expect(parseStatementDate(`${p2(m)}/${p2(d)}/${y}`)).toBeNull();
      }),
      { numRuns: 300 },
    );
  });

  it('never throws on any string, and answers null or a YYYY-MM-DD', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.string({ unit: fc.constantFrom(...'0123456789/-.: NovDecAMPM,') })), (text) => {
        const result = parseStatementDate(text);
        expect(result === null || /^\d{4}-\d{2}-\d{2}$/.test(result)).toBe(true);
      }),
      { numRuns: 3000 },
    );
  });
});
