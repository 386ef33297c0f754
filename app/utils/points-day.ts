import { MATCH_DAY_MAX } from '@custom-room/contract/constants';

/** The points table's day picker: day 0 is Overall (spec §4), then the match days (1 to MATCH_DAY_MAX). */

export const OVERALL = 0;

export const dayLabel = (day: number) => (day === OVERALL ? 'Overall' : `Day ${day}`);

/** Issue 27: the days offered are Overall and the days the table has matches or results on, nothing more. */
export const offeredDays = (matchDays: readonly number[]): number[] => [OVERALL, ...matchDays.filter((d) => d !== OVERALL)];

/**
 * `?day=` from the URL. Missing or empty means Overall. Anything else that is not 0 to MATCH_DAY_MAX
 * ("9", "x", "1.5", "01") also shows Overall, flagged as invalid so the page can say so.
 */
export function parseDay(raw: string | null): { day: number; valid: boolean } {
  if (raw === null || raw === '') return { day: OVERALL, valid: true };
  if (/^\d$/.test(raw) && Number(raw) <= MATCH_DAY_MAX) return { day: Number(raw), valid: true };
  return { day: OVERALL, valid: false };
}

/** The note for an invalid ?day=. */
export const INVALID_DAY = `That day does not exist: match days run from Day 1 to Day ${MATCH_DAY_MAX}. Showing Overall.`;
