import { data } from '@remix-run/node';
import type { Tournament } from '~/utils/gateway.server';
import { getEnv } from './env.server';
import { isUnavailable, pageError, UNAVAILABLE_INIT } from './errors.server';
import { gateway } from './gateway.server';
import { publicPageHeaders } from './public-cache.server';
import { listOrder, type ListFilter } from './tournament';

/**
 * The loader of a page that lists every tournament (home, /tournaments). `pick` keeps only what the
 * page shows, pre-formatted, so the hydration data stays small; open tournaments come first (listOrder), and
 * `filter` keeps one group. Without the gateway the page still renders (503) with a notice and a retry
 * link rather than a misleading empty list.
 */
export async function loadTournamentList<T>(
  request: Request,
  pick: (t: Tournament, timeZone: string) => T,
  filter: ListFilter | null = null,
) {
  const timeZone = getEnv().APP_TIME_ZONE;
  try {
    const all = await gateway.listTournaments(request);
    const tournaments = listOrder(all, filter, Date.now()).map((t) => pick(t, timeZone));
    return data({ tournaments, unavailable: false }, { headers: publicPageHeaders(request) });
  } catch (err) {
    if (isUnavailable(err)) return data({ tournaments: [] as T[], unavailable: true }, UNAVAILABLE_INIT);
    return pageError(err);
  }
}
