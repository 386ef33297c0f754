/**
 * When a match starts, as an instant (decision 044). Decision 016 keeps a match's `time` as the
 * organiser's wall-clock time in APP_TIME_ZONE and its `day` as "Day N"; a reminder needs a date, so day 1
 * is the calendar date of the tournament's start in APP_TIME_ZONE and day N the (N−1)th day after it.
 */
export function matchStartsAt(tournamentStart: string, day: number, time: string, timeZone: string): number | undefined {
  const start = Date.parse(tournamentStart);
  const m = /^(\d{1,2}):(\d{2})(?::(\d{2}))?/.exec(time);
  if (Number.isNaN(start) || !m) return undefined;
  const local = wallClock(start, timeZone);
  // The wall-clock date of day N, then that time on it, as if it were UTC; then back by the zone's offset.
  const asUtc = Date.UTC(local.year, local.month - 1, local.day + (day - 1), Number(m[1]), Number(m[2]), Number(m[3] ?? 0));
  let guess = asUtc;
  for (let i = 0; i < 2; i++) {
    const seen = wallClock(guess, timeZone);
    guess += asUtc - Date.UTC(seen.year, seen.month - 1, seen.day, seen.hour, seen.minute, seen.second);
  }
  return guess;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

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

/** "18:30 IST": the time as the organiser entered it and the zone's short name (decision 016). */
export function matchTimeText(time: string, timeZone: string, at: number): string {
  const zone =
    new Intl.DateTimeFormat('en-IN', { timeZone, timeZoneName: 'short' }).formatToParts(new Date(at)).find((p) => p.type === 'timeZoneName')
      ?.value ?? timeZone;
  return `${time.slice(0, 5)} ${zone}`;
}
