/** Words and badge tones of the organiser's stage screens (pure: the browser renders them too). */

export const stateTone = (state: string) => (state === 'completed' ? 'b-done' : state === 'published' ? 'b-live' : 'b-soon');

/** "Top 2 per group + best 1 of the rest", or "Final: nobody advances". */
export function advanceWords(s: { advancePerGroup: number; advanceBest: number }): string {
  if (s.advancePerGroup === 0 && s.advanceBest === 0) return 'Final: nobody advances';
  const parts: string[] = [];
  if (s.advancePerGroup > 0) parts.push(`top ${s.advancePerGroup} per group`);
  if (s.advanceBest > 0) parts.push(`best ${s.advanceBest} of the rest`);
  const words = parts.join(' + ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}
