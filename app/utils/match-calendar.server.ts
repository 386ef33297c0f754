import { TZDate } from '@date-fns/tz';
import { getVtimezoneComponent } from '@touch4it/ical-timezones';
import ical from 'ical-generator';
import { matchStartsAt } from '@custom-room/contract/constants';
import { splitByGroup, type StageMatch } from './stages';

/**
 * Issue 20's calendar (decision 050): a registered team's matches as an iCalendar file. One event per match,
 * in APP_TIME_ZONE (TZID with its VTIMEZONE), a UID that stays the same across downloads and edits, the map
 * and a link back to the room card. Never the room ID or password: the matches given here may carry them
 * (the gateway fills them for confirmed teams) and nothing of them is read.
 */

/** How long a match is shown as lasting: a classic Free Fire match is about 20 minutes, BGMI's about 30. */
export function matchMinutes(game: string): number {
  return /free\s*fire/i.test(game) ? 20 : 30;
}

export interface CalendarTournament {
  id: number;
  name: string;
  game: string;
  startDate: string | null;
}

export interface CalendarOptions {
  tournament: CalendarTournament;
  matches: readonly StageMatch[];
  /** The team's groups (one per stage it is drawn in); empty for a tournament without stages. */
  ownGroupIds: readonly number[];
  timeZone: string;
  /** This site's origin as the visitor sees it ("https://customroom.in"), for the links and the UIDs. */
  origin: string;
  /** DTSTAMP: when the file was made. */
  now: Date;
}

/** The team's matches: every match of a tournament without stages; with stages, its own groups' and the all-teams ones. */
export function teamMatches<M extends StageMatch>(matches: readonly M[], ownGroupIds: readonly number[]): M[] {
  if (!matches.some((m) => m.groupId !== null)) return [...matches];
  const { own, ungrouped } = splitByGroup(matches, ownGroupIds);
  return [...own, ...ungrouped];
}

/** "monsoon-cup" for "Monsoon Cup!"; tournament-7 for a name with no Latin letters or digits. */
export function calendarFileName(t: { id: number; name: string }): string {
  const slug = t.name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60)
    .replace(/-+$/, '');
  return `${slug || `tournament-${t.id}`}-matches.ics`;
}

/** "Monsoon Cup · Day 1 · Match 2", then " · Qualifiers · Group A" for a group match. */
export function eventSummary(tournamentName: string, m: StageMatch): string {
  const group = m.groupName ? [m.stageName, `Group ${m.groupName}`].filter(Boolean).join(' · ') : '';
  return [tournamentName, `Day ${m.day} · Match ${m.matchNo}`, group].filter(Boolean).join(' · ');
}

// eslint-disable-next-line no-control-regex -- control characters are what this removes
const CONTROLS = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/g;

/**
 * A TEXT value as RFC 5545 (3.3.11) writes it: \\, \; and \, escaped, every line break as \n, and the control
 * characters TEXT may not hold removed. ical-generator escapes the events' texts but writes the calendar's
 * NAME and X-WR-CALNAME as given (issue 27: a tournament name with CR/LF added events to every team's file).
 */
export function icsText(value: string): string {
  return value
    .replace(CONTROLS, '')
    .replace(/[\\;,]/g, (c) => `\\${c}`)
    .replace(/\r\n|[\r\n\u0085\u2028\u2029]/g, '\\n');
}

/** An event's text for ical-generator (which escapes it): only the control characters removed. */
const eventText = (value: string) => value.replace(CONTROLS, '');

export function matchCalendar(options: CalendarOptions): string {
  const { tournament: t, timeZone, origin, now } = options;
  const host = new URL(origin).host;
  const page = `${origin}/tournament/${t.id}/matches`;
  const minutes = matchMinutes(t.game);
  const cal = ical({
    name: icsText(`${t.name}: matches`),
    prodId: { company: 'Custom Room', product: 'Match calendar', language: 'EN' },
    url: page,
  });
  // Times as TZID=APP_TIME_ZONE with the zone's VTIMEZONE (Outlook needs it; Google and Apple read the TZID).
  // A zone the package has no VTIMEZONE for: UTC times, which every calendar reads.
  const zoned = getVtimezoneComponent(timeZone) !== null;
  if (zoned) {
    // No calendar-wide name: ical-generator would then also write DTSTAMP in the zone, and DTSTAMP must be UTC.
    cal.timezone({ name: null, generator: getVtimezoneComponent });
    cal.x('X-WR-TIMEZONE', timeZone);
  }
  const sorted = teamMatches(options.matches, options.ownGroupIds).sort(
    (a, b) => a.day - b.day || a.matchNo - b.matchNo || a.time.localeCompare(b.time) || a.id - b.id,
  );
  for (const m of sorted) {
    const at = matchStartsAt(t.startDate, m.day, m.time, timeZone);
    if (at === null) continue; // no start date or an unreadable time: nothing to put in a calendar
    const link = `${page}#match-${m.id}`;
    const ends = at + minutes * 60_000;
    cal.createEvent({
      id: `match-${m.id}@${host}`,
      start: zoned ? new TZDate(at, timeZone) : new Date(at),
      end: zoned ? new TZDate(ends, timeZone) : new Date(ends),
      timezone: zoned ? timeZone : null,
      stamp: now,
      summary: eventText(eventSummary(t.name, m)),
      location: eventText(m.map),
      description: eventText(`Map: ${m.map}\nRoom ID and password on the matches page: ${link}`),
      url: link,
    });
  }
  return cal.toString();
}
