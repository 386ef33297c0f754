/** The points table's day picker: day 0 is Overall (spec §4), days 1 to 5 (spec §5, §9). */

export const POINTS_DAYS = [0, 1, 2, 3, 4, 5] as const;
export const OVERALL = 0;

export const dayLabel = (day: number) => (day === OVERALL ? 'Overall' : `Day ${day}`);

/**
 * `?day=` from the URL. Missing or empty means Overall. Anything else that is not 0 to 5
 * ("9", "x", "1.5", "01") also shows Overall, flagged as invalid so the page can say so.
 */
export function parseDay(raw: string | null): { day: number; valid: boolean } {
  if (raw === null || raw === '') return { day: OVERALL, valid: true };
  if (/^[0-5]$/.test(raw)) return { day: Number(raw), valid: true };
  return { day: OVERALL, valid: false };
}
