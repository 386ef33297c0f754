import { plain } from './text.js';

/**
 * What identifies a payment in a statement's cells (decision 080): the 12-digit UTR, the payment note's
 * registration id (the UPI link's `tn` is 'CR-<registrationId> <team name>'), the payer's UPI ID and name.
 */

// A 12-digit run not inside a longer number and not the start of a UPI ID ('919812345678@paytm').
const STANDALONE_UTR = /(?<!\d)(\d{12})(?![\d@])/;
// The same written in groups of four: 'UTR 3345 1234 5678'.
const GROUPED_UTR = /(?<![\d-])(\d{4})[ -](\d{4})[ -](\d{4})(?![\d@-])/;

/** A 12-digit UTR in a cell (spaces, dashes removed: '3345 1234 5678' → '334512345678'), else null. */
export function utrIn(text: string): string | null {
  if (typeof text !== 'string') return null;
  // An apostrophe in front is a spreadsheet's "keep this as text" mark.
  const cell = plain(text).replace(/^'/, '');
  const digits = cell.replace(/[\s-]/g, '');
  // All zeros is a bank's "no reference", not a UTR.
  if (/^0+$/.test(digits)) return null;
  if (/^\d{12}$/.test(digits)) return digits;
  // Some banks (HDFC) zero-pad the UTR to 16 digits in the reference column.
  const padded = /^0{1,10}([1-9]\d{11})$/.exec(digits);
  if (padded) return padded[1]!;
  const standalone = STANDALONE_UTR.exec(cell);
  if (standalone) return standalone[1]!;
  const grouped = GROUPED_UTR.exec(cell);
  return grouped ? `${grouped[1]}${grouped[2]}${grouped[3]}` : null;
}

// 'CR-42', 'CR 42', 'cr42', 'CR - 42'; not inside a word ('SCR42'), not a longer number, not an amount ('Cr 500.00').
const REGISTRATION = /(?<![\p{L}\p{N}])cr(?:[\s_#:]*-?[\s_#:]*)(\d{1,9})(?!\d|[.,]\d)/iu;

/** The registration id of the payment note 'CR-<id>' in text, else null. */
export function registrationIdIn(text: string): number | null {
  const match = REGISTRATION.exec(text);
  if (!match) return null;
  const id = Number(match[1]);
  return id > 0 ? id : null;
}

const VPA = /^([\w.-]{2,}@[a-z][a-z0-9.]{1,})$/i;

/** Whether a character code is a letter or digit of ASCII, or one of the extra characters given. */
function isWordCode(code: number, extra: string): boolean {
  return (
    (code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122) || extra.includes(String.fromCharCode(code))
  );
}

/**
 * A UPI ID (like 'name@okaxis', lowercased) in text. In a narration the fields are split on '/', or on '-'
 * when there is no '/' ('UPI-RAHUL KUMAR-RAHUL@OKSBI-SBIN0001234-…'), so a field's neighbour is not taken in.
 */
export function vpaIn(text: string): string | null {
  const local = text.includes('/') ? '_.-' : '_.';
  for (let at = text.indexOf('@'); at >= 0; at = text.indexOf('@', at + 1)) {
    let start = at;
    while (start > 0 && isWordCode(text.charCodeAt(start - 1), local)) start--;
    let end = at + 1;
    while (end < text.length && isWordCode(text.charCodeAt(end), '.')) end++;
    const match = VPA.exec(text.slice(start, end).replace(/^[.-]+|[.-]+$/g, ''));
    if (match) return match[1]!.toLowerCase();
  }
  return null;
}

/** Whether the whole text is one UPI ID. */
export function isVpa(text: string): boolean {
  return VPA.test(plain(text));
}

const NAME = /^[\p{L}][\p{L} .']{0,59}$/u;

/**
 * The payer's name in a bank's UPI narration, when it is plainly there: 'UPI-RAHUL KUMAR-rahul@oksbi-…',
 * 'UPI/CR/334512345678/RAHUL KU/SBIN/…', 'UPI/334512345678/Payment from Rahul/…'; else ''.
 */
export function payerInNarration(text: string): string {
  if (!/upi|payment from/i.test(text)) return '';
  const dashed = /^UPI-([^-/]+)-[\w.]+@[a-z]/i.exec(text);
  if (dashed && NAME.test(dashed[1]!.trim())) return dashed[1]!.trim();
  const slashed = /UPI\/(?:CR|DR)\/\d{12}\/([^/]+)\//i.exec(text);
  if (slashed && NAME.test(slashed[1]!.trim())) return slashed[1]!.trim();
  const from = /\/payment from ([^/]+)\//i.exec(text);
  if (from && NAME.test(from[1]!.trim())) return from[1]!.trim();
  return '';
}
