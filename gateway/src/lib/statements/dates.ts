import { plain } from './text.js';

/**
 * Statement dates → 'YYYY-MM-DD' (decision 080). Day first, as Indian banks write them: '03/04/2026' is
 * 3 April, never 4 March. Two-digit years are 20yy. A date that does not exist (31/02/2026) is not a date.
 */

const MONTH_NAMES = [
  'january',
  'february',
  'march',
  'april',
  'may',
  'june',
  'july',
  'august',
  'september',
  'october',
  'november',
  'december',
];

/** The month (1–12) of an English month name, full or its first three letters ('Sept' too), any case. */
function monthOf(name: string): number | undefined {
  const n = name.toLowerCase();
  if (n === 'sept') return 9;
  const i = MONTH_NAMES.findIndex((m) => n === m || n === m.slice(0, 3));
  return i >= 0 ? i + 1 : undefined;
}

// An optional time after the date: '14:35', '14:35:12', '02:35 PM', '14:35:12.000', with an optional zone.
const TIME = String.raw`(?:(?:\s+|T|,\s*)(\d{1,2}):(\d{2})(?::(\d{2})(?:\.\d{1,6})?)?\s*([ap]\.?m\.?)?(?:\s*(?:z|[+-]\d{2}:?\d{2}|ist|utc|gmt))?)?`;
const WEEKDAY = String.raw`(?:(?:mon|tue|wed|thu|fri|sat|sun)[a-z]*\.?,?\s+)?`;
const DAY_MONTH_YEAR = new RegExp(String.raw`^(\d{1,2})([/.-])(\d{1,2})\2(\d{4}|\d{2})${TIME}$`, 'i');
const DAY_NAME_YEAR = new RegExp(String.raw`^${WEEKDAY}(\d{1,2})(?:[\s/.-]*)([a-z]{3,9})\.?(?:[\s/.,-]*)(\d{4}|\d{2})${TIME}$`, 'i');
const YEAR_MONTH_DAY = new RegExp(String.raw`^(\d{4})([/.-])(\d{1,2})\2(\d{1,2})${TIME}$`, 'i');
const NAME_DAY_YEAR = new RegExp(String.raw`^${WEEKDAY}([a-z]{3,9})\.?\s+(\d{1,2})(?:st|nd|rd|th)?,?\s+(\d{4})${TIME}$`, 'i');

// Excel's serial days count from 1899-12-30 (its leap day 1900-02-29 is before 61 and not read).
const EXCEL_EPOCH = Date.UTC(1899, 11, 30);
const DAY_MS = 86_400_000;

function pad(n: number, width = 2): string {
  return String(n).padStart(width, '0');
}

/** The date as 'YYYY-MM-DD' when the day exists in that month of that year (1900–2999), else null. */
function ymd(year: number, month: number, day: number): string | null {
  if (year < 1900 || year > 2999 || month < 1 || month > 12 || day < 1) return null;
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  const last = month === 2 ? (leap ? 29 : 28) : [4, 6, 9, 11].includes(month) ? 30 : 31;
  return day > last ? null : `${pad(year, 4)}-${pad(month)}-${pad(day)}`;
}

function fullYear(text: string): number {
  return text.length === 2 ? 2000 + Number(text) : Number(text);
}

/** Whether the optional time is a time: hours to 23 (1–12 with AM/PM), minutes and seconds to 59. */
function timeOk(hours?: string, minutes?: string, seconds?: string, meridiem?: string): boolean {
  if (hours === undefined) return true;
  const h = Number(hours);
  if (meridiem ? h < 1 || h > 12 : h > 23) return false;
  return Number(minutes) <= 59 && (seconds === undefined || Number(seconds) <= 59);
}

function fromText(text: string): string | null {
  let m = DAY_MONTH_YEAR.exec(text);
  if (m) return timeOk(m[5], m[6], m[7], m[8]) ? ymd(fullYear(m[4]!), Number(m[3]), Number(m[1])) : null;
  m = YEAR_MONTH_DAY.exec(text);
  if (m) return timeOk(m[5], m[6], m[7], m[8]) ? ymd(Number(m[1]), Number(m[3]), Number(m[4])) : null;
  m = DAY_NAME_YEAR.exec(text);
  if (m) {
    const month = monthOf(m[2]!);
    return month && timeOk(m[4], m[5], m[6], m[7]) ? ymd(fullYear(m[3]!), month, Number(m[1])) : null;
  }
  m = NAME_DAY_YEAR.exec(text);
  if (m) {
    const month = monthOf(m[1]!);
    return month && timeOk(m[4], m[5], m[6], m[7]) ? ymd(Number(m[3]), month, Number(m[2])) : null;
  }
  return null;
}

/** '28/11/2026', '28-11-2026', '28-Nov-2026', '28 Nov 2026', '28/11/26', '2026-11-28', '28.11.2026', 'Nov 28, 2026', with an optional time after ('28/11/2026 14:35:12', '28-11-2026 02:35 PM'); Excel serial numbers and Date objects too → 'YYYY-MM-DD'; null when not a date. Day-first (India), never month-first for d/m/y. */
export function parseStatementDate(value: string | number | Date): string | null {
  if (value instanceof Date) {
    if (Number.isNaN(value.getTime())) return null;
    // Dates from an XLSX are UTC midnights (read-excel-file); the UTC day is the day written in the cell.
    return ymd(value.getUTCFullYear(), value.getUTCMonth() + 1, value.getUTCDate());
  }
  if (typeof value === 'number') {
    if (!Number.isFinite(value) || value < 61 || value >= 2_958_466) return null;
    const day = new Date(EXCEL_EPOCH + Math.floor(value) * DAY_MS);
    return ymd(day.getUTCFullYear(), day.getUTCMonth() + 1, day.getUTCDate());
  }
  if (typeof value !== 'string') return null;
  const text = plain(value).replace(/\s+/g, ' ');
  return text.length > 60 ? null : fromText(text);
}
