import type { PointsDays } from '@custom-room/contract';
import { OVERALL } from './points-day';

/**
 * Issue 30 (decision 076): results confirmed from the teams' reports are provisional until their dispute
 * window ends. The gateway's days answer lists those matches with the window's end; the page says so
 * above the table and marks their columns. Pure: the loader passes the time.
 */

export type ProvisionalMatch = NonNullable<PointsDays['provisional']>[number];

export interface ProvisionalNote {
  key: string;
  day: number;
  match: number;
  /** "Day 1 match 2 (Group B): provisional until 18:45 — teams may dispute it" */
  text: string;
  until: string;
}

/** "18:45" in the site's time zone. */
const clockTime = (iso: string, timeZone: string) =>
  new Intl.DateTimeFormat('en-GB', { hour: '2-digit', minute: '2-digit', hourCycle: 'h23', timeZone }).format(new Date(iso));

/**
 * The notes for the shown table: windows that have not ended by `now` (the gateway's answer may be a
 * little older than this render), of the shown day only on a day's table.
 */
export function provisionalNotes(
  list: readonly ProvisionalMatch[] | undefined,
  options: { day: number; now: number; timeZone: string },
): ProvisionalNote[] {
  return (list ?? [])
    .filter((p) => Date.parse(p.until) > options.now && (options.day === OVERALL || p.day === options.day))
    .map((p) => ({
      key: `${p.groupId ?? 0}:${p.day}:${p.match}`,
      day: p.day,
      match: p.match,
      until: p.until,
      text: `Day ${p.day} match ${p.match}${p.groupName ? ` (Group ${p.groupName})` : ''}: provisional until ${clockTime(p.until, options.timeZone)} — teams may dispute it`,
    }));
}

/** Whether a breakdown column (a day's match, every group of it) has provisional results. */
export const isProvisional = (notes: readonly ProvisionalNote[], m: { day: number; match: number }) =>
  notes.some((n) => n.day === m.day && n.match === m.match);

/** The longest a shared copy of the page may be kept (the page cache's own limit, MAX_PAGE_AGE_MS). */
const PAGE_AGE_SECONDS = 30;

/**
 * Cache-Control for an anonymous page that shows provisional marks: no copy (the web's page cache, a CDN,
 * a browser) may outlive the first window's end, so no stale-while-revalidate, and when that end is nearer
 * than the page cache's 30 seconds, no-cache (the page cache never stores it; shared caches ask again).
 */
export function provisionalCacheControl(notes: readonly ProvisionalNote[], now: number): string | null {
  if (notes.length === 0) return null;
  const left = Math.floor((Math.min(...notes.map((n) => Date.parse(n.until))) - now) / 1000);
  return left >= PAGE_AGE_SECONDS ? `public, max-age=${PAGE_AGE_SECONDS}` : 'public, no-cache';
}
