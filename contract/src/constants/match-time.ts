// --- When a match starts (decisions 016, 041, 044) ---
/**
 * Decision 016 keeps a match's `time` as the organiser's wall-clock time in APP_TIME_ZONE and its `day` as
 * "Day N". Day 1 is the calendar date of the tournament's start in that zone, day N the (N−1)th day after
 * it. One copy for the gateway (match reminders) and the web app (the next match on the schedule).
 * Pure (Intl only): safe in the browser bundle.
 */

const formatters = new Map<string, Intl.DateTimeFormat>();

/** The wall-clock date and time of an instant in timeZone. */
function wallClock(ms: number, timeZone: string) {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-GB', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
    });
    formatters.set(timeZone, f);
  }
  const parts = Object.fromEntries(f.formatToParts(new Date(ms)).map((p) => [p.type, Number(p.value)]));
  return { year: parts.year!, month: parts.month!, day: parts.day!, hour: parts.hour!, minute: parts.minute!, second: parts.second! };
}

/**
 * When a match starts, as an instant: the tournament's start date (its calendar day in timeZone) plus
 * day − 1 days, at the match's wall-clock time (HH:MM or HH:MM:SS) in timeZone. null when the start date
 * or the time cannot be read.
 */
export function matchStartsAt(startDate: string | null | undefined, day: number, time: string, timeZone: string): number | null {
  if (!startDate) return null;
  const start = Date.parse(startDate);
  const m = /^(\d{1,2}):(\d{2})(?::(\d{2}))?/.exec(time);
  if (Number.isNaN(start) || !m) return null;
  const local = wallClock(start, timeZone);
  // The wall-clock date of day N, then that time on it, as if it were UTC; then back by the zone's offset
  // at that instant (found in two steps: a zone with daylight saving changes its offset).
  const asUtc = Date.UTC(local.year, local.month - 1, local.day + (day - 1), Number(m[1]), Number(m[2]), Number(m[3] ?? 0));
  let guess = asUtc;
  for (let i = 0; i < 2; i++) {
    const seen = wallClock(guess, timeZone);
    guess += asUtc - Date.UTC(seen.year, seen.month - 1, seen.day, seen.hour, seen.minute, seen.second);
  }
  return guess;
}

const zoneNames = new Map<string, Intl.DateTimeFormat>();

/** "IST" / "India Standard Time": a zone's name at an instant (match times are wall-clock times in it). */
export function timeZoneName(timeZone: string, style: 'short' | 'long', at: number = Date.now()): string {
  // Decision 086: one formatter per zone and style (making one cost more than a page's route matching).
  const key = `${style} ${timeZone}`;
  let f = zoneNames.get(key);
  if (!f) {
    f = new Intl.DateTimeFormat('en-IN', { timeZone, timeZoneName: style });
    zoneNames.set(key, f);
  }
  const parts = f.formatToParts(new Date(at));
  return parts.find((p) => p.type === 'timeZoneName')?.value ?? timeZone;
}

/** "18:30 IST": the time as the organiser entered it and the zone's short name at the match (decision 016). */
export const matchTimeText = (time: string, timeZone: string, at: number): string =>
  `${time.slice(0, 5)} ${timeZoneName(timeZone, 'short', at)}`;

/**
 * Issue 27: a group hosted `minutes` after the first: "12:00" + 90 → "13:30" (seconds kept). null when it
 * would pass midnight (a match's day is its own: the organiser schedules that one on the next day).
 */
export function addMinutes(time: string, minutes: number): string | null {
  const m = /^(\d{1,2}):(\d{2})(:\d{2})?$/.exec(time);
  if (!m) return null;
  const total = Number(m[1]) * 60 + Number(m[2]) + minutes;
  if (total >= 24 * 60) return null;
  return `${String(Math.floor(total / 60)).padStart(2, '0')}:${String(total % 60).padStart(2, '0')}${m[3] ?? ''}`;
}
