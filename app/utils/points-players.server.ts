import type { PlayerStats, PointsDays } from '@custom-room/contract';
import { getEnv } from './env.server';
import { call } from './gateway.server';
import { provisionalCacheControl, provisionalNotes, type ProvisionalNote } from './points-provisional';
import { publicPageHeaders } from './public-cache.server';

/** Issue 30 (decision 076): the points page's calls for Top fraggers and provisional marks. Public, cached by the gateway. */

type Scope = { stage?: number; group?: number };
const open = { auth: false } as const;

/** The days the table has something on, and its provisional matches (left out by the gateway when none). */
export const pointsDaysAnswer = (request: Request, id: number, scope: Scope): Promise<PointsDays> =>
  call(request, 'pointsTableDays', { params: { id }, query: scope }, open);

/** Top fraggers of a scope (neither stage nor group: the whole tournament), at most 100 rows. */
export const playersOf = (request: Request, id: number, scope: Scope): Promise<PlayerStats> =>
  call(request, 'playerStats', { params: { id }, query: scope }, open);

/** The provisional notes the page shows now, and its headers: as every public page's, shorter while a window is open. */
export function provisionalPage(
  request: Request,
  answer: PointsDays,
  day: number,
): { notes: ProvisionalNote[]; headers: Record<string, string> } {
  const now = Date.now();
  const notes = provisionalNotes(answer.provisional, { day, now, timeZone: getEnv().APP_TIME_ZONE });
  const headers = publicPageHeaders(request);
  const cacheControl = provisionalCacheControl(notes, now);
  // A signed-in page is never stored (private, no-store): only the anonymous page's lifetime changes.
  if (cacheControl && /\bpublic\b/.test(headers['Cache-Control'] ?? ''))
    return { notes, headers: { ...headers, 'Cache-Control': cacheControl } };
  return { notes, headers };
}
