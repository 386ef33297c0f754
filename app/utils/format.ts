import { matchStartsAt } from '@custom-room/contract/constants';
/** Formatting per spec §9, in the app's time zone (passed in: the browser must render what the server rendered). */

const cache = new Map<string, Intl.DateTimeFormat>();
function formatter(timeZone: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = timeZone + JSON.stringify(options);
  let f = cache.get(key);
  if (!f) {
    f = new Intl.DateTimeFormat('en-GB', { timeZone, ...options });
    cache.set(key, f);
  }
  return f;
}

function valid(iso: string | null | undefined): Date | null {
  if (!iso) return null;
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? null : d;
}

/** Home screen: "05 March 2026". */
export function formatLongDate(iso: string | null | undefined, timeZone: string): string {
  const d = valid(iso);
  return d ? formatter(timeZone, { day: '2-digit', month: 'long', year: 'numeric' }).format(d) : '';
}

/** Everywhere else: "5 Mar 2026". */
export function formatShortDate(iso: string | null | undefined, timeZone: string): string {
  const d = valid(iso);
  if (!d) return '';
  // en-GB writes "Sept" for September; the spec's short month is three letters.
  return formatter(timeZone, { day: 'numeric', month: 'short', year: 'numeric' }).format(d).replace('Sept', 'Sep');
}

/**
 * "Sat 12 Dec": the calendar date of "Day N" of a tournament (day 1 is its start's date in timeZone, decision 016),
 * for the schedule's "Day 1" headings (issue 27); '' when the start cannot be read.
 */
export function formatDayDate(startDate: string | null | undefined, day: number, timeZone: string): string {
  const at = matchStartsAt(startDate, day, '12:00', timeZone);
  if (at === null) return '';
  return formatter(timeZone, { weekday: 'short', day: 'numeric', month: 'short' }).format(new Date(at)).replace('Sept', 'Sep');
}

/** "5 Mar 2026, 6:30 pm" for times that matter (registration closes, match starts). */
export function formatDateTime(iso: string | null | undefined, timeZone: string): string {
  const d = valid(iso);
  if (!d) return '';
  const date = formatShortDate(iso, timeZone);
  const time = formatter(timeZone, { hour: 'numeric', minute: '2-digit', hour12: true }).format(d).replace(/\s/g, ' ').toLowerCase();
  return `${date}, ${time}`;
}

const rupees = new Intl.NumberFormat('en-IN', { style: 'currency', currency: 'INR', maximumFractionDigits: 0 });

/** ₹1,00,000 (Indian grouping, whole rupees). */
export function formatRupees(amount: number | null | undefined): string {
  if (amount === null || amount === undefined || !Number.isFinite(amount)) return '';
  return rupees.format(amount);
}

/** Match time "HH:MM" from "HH:MM" or "HH:MM:SS" (§9: first 5 characters). */
export function formatMatchTime(time: string | null | undefined): string {
  return (time ?? '').slice(0, 5);
}

/** A UTC ISO string as the value of an <input type="datetime-local"> in timeZone: "2026-03-05T18:30". */
export function toDateTimeLocal(iso: string | null | undefined, timeZone: string): string {
  const d = valid(iso);
  if (!d) return '';
  const parts = Object.fromEntries(
    formatter(timeZone, { year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' })
      .formatToParts(d)
      .map((p) => [p.type, p.value]),
  );
  return `${parts.year}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}`;
}

/** An <input type="datetime-local"> value entered in timeZone, as a UTC ISO string; null when malformed. */
export function fromDateTimeLocal(value: string, timeZone: string): string | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/.exec(value.trim());
  if (!m) return null;
  const [, y, mo, d, h, mi] = m.map(Number) as number[];
  const asUtc = Date.UTC(y!, mo! - 1, d!, h!, mi!);
  // The zone's offset at that instant (two passes settle DST edges; India has none).
  let guess = asUtc;
  for (let i = 0; i < 2; i++) {
    const local = toDateTimeLocal(new Date(guess).toISOString(), timeZone);
    const [ly, lmo, ld, lh, lmi] = local.split(/[-T:]/).map(Number) as number[];
    guess += asUtc - Date.UTC(ly!, lmo! - 1, ld!, lh!, lmi!);
  }
  const result = new Date(guess);
  return toDateTimeLocal(result.toISOString(), timeZone) === value.trim() ? result.toISOString() : null;
}

const rupeesAndPaise = new Intl.NumberFormat('en-IN', {
  style: 'currency',
  currency: 'INR',
  minimumFractionDigits: 2,
  maximumFractionDigits: 2,
});

/** An amount in paise: ₹50 when whole rupees, else ₹40.50 (Indian grouping). */
export function formatPaise(paise: number | null | undefined): string {
  if (paise === null || paise === undefined || !Number.isFinite(paise)) return '';
  return paise % 100 === 0 ? rupees.format(paise / 100) : rupeesAndPaise.format(paise / 100);
}
