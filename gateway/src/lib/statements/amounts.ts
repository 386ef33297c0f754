import { plain } from './text.js';
import { type Cell } from './types.js';

/**
 * Amounts in rupees read exactly into paise (decision 080): the digits are read as integers, never through a
 * float, so '1,00,000.10' is 10000010 paise. Indian grouping (1,00,000), western grouping (100,000) and no
 * grouping; '₹', 'Rs', 'Rs.' or 'INR' before or after; a leading '+'; a trailing 'Cr'.
 */

const CURRENCY = String.raw`(?:₹|rs\.?|inr)`;
// Western groups of three; Indian groups of two before the last three; or no grouping. At most 2 decimals.
const DIGITS = String.raw`(\d{1,3}(?:,\d{3})+|\d{1,2}(?:,\d{2})*,\d{3}|\d+)(?:\.(\d{1,2}))?`;
const AMOUNT = new RegExp(String.raw`^(\+\s*)?(?:${CURRENCY}\s*)?(\+\s*)?${DIGITS}(?:\s*${CURRENCY})?(?:\s*\(?(cr|dr)\.?\)?)?$`, 'i');

type Unsigned = { paise: number; side: 'cr' | 'dr' | null };

/** The unsigned amount in text (no minus, no parentheses), with its 'Cr'/'Dr' suffix; null when it is none. */
function unsigned(text: string): Unsigned | null {
  const match = AMOUNT.exec(text);
  if (!match || (match[1] && match[2])) return null;
  const rupees = Number(match[3]!.replaceAll(',', ''));
  const paise = rupees * 100 + Number((match[4] ?? '').padEnd(2, '0'));
  if (!Number.isSafeInteger(paise)) return null;
  const side = match[5]?.toLowerCase();
  return { paise, side: side === 'cr' || side === 'dr' ? side : null };
}

/** Indian and plain amounts in rupees → paise: '1,00,000.00', '₹ 500', 'Rs. 1,000.50', 'INR 50', '500.00 Cr', '50'; null when not an amount. */
export function parseAmount(text: string): number | null {
  if (typeof text !== 'string') return null;
  const read = unsigned(plain(text).replace(/\s+/g, ' '));
  return read && read.side !== 'dr' ? read.paise : null;
}

/** A money cell with its direction: negative for '-500', '(500.00)', '500-' or a negative number. */
export type Money = { paise: number; negative: boolean; side: 'cr' | 'dr' | null };

/**
 * A money cell, signed: what parseAmount reads, plus the signs that make a debit (a leading or trailing minus,
 * parentheses, a 'Dr' suffix) for the debit rules. XLSX numbers are rupees: Math.round(x * 100) paise.
 */
export function readMoney(cell: Cell): Money | null {
  if (typeof cell === 'number') {
    if (!Number.isFinite(cell)) return null;
    const paise = Math.round(Math.abs(cell) * 100);
    return Number.isSafeInteger(paise) ? { paise, negative: cell < 0, side: null } : null;
  }
  if (typeof cell !== 'string') return null;
  let text = plain(cell)
    .replace(/\s+/g, ' ')
    .replace(/\u2212/g, '-');
  if (text === '') return null;
  let negative = false;
  const parenthesised = /^\((.*)\)(\s*(?:cr|dr)\.?)?$/i.exec(text);
  if (parenthesised) {
    negative = true;
    text = `${parenthesised[1]!.trim()}${parenthesised[2] ?? ''}`;
  }
  // One minus: in front, after the currency ('₹-50', 'Rs. -50') or at the end ('50.00-').
  const minus = /^-\s*|^(₹|rs\.?|inr)\s*-\s*|\s*-$/i;
  if (minus.test(text)) {
    negative = true;
    text = text.replace(minus, (_m, currency?: string) => currency ?? '');
  }
  const read = unsigned(text);
  return read ? { ...read, negative } : null;
}
