import { data } from '@remix-run/node';
import { TOURNAMENT_DELETED } from '@custom-room/contract/constants';
import { requireDesk } from './desk.server';
import { getEnv } from './env.server';
import { formatShortDate } from './format';
import { GatewayError, gateway } from './gateway.server';

/** The contract's messages, as this module has always exported them. */
export { TOURNAMENT_DELETED };

export const FETCH_FAILED = 'Failed to fetch tournaments.';
export const DELETE_FAILED = 'Failed to delete tournament.';

/** The two paths of the manage list (spec §2: the page and the /admin layout's child); a delete returns to the one it came from. */
export const MANAGE_PATHS = ['/admin/manage-tournaments', '/admin/manage-tournament'] as const;
export const manageReturnPath = (given: unknown): string => MANAGE_PATHS.find((p) => p === given) ?? MANAGE_PATHS[0];

export interface ManagedTournament {
  id: number;
  name: string;
  game: string;
  status: string;
  starts: string;
  teams: string;
}

/** The manage list's loader: every live tournament, or "Failed to fetch tournaments." in the page (not an error page). */
export async function loadManageList(request: Request) {
  const desk = await requireDesk(request);
  const headers = { 'Cache-Control': 'private, no-store' };
  try {
    const timeZone = getEnv().APP_TIME_ZONE;
    const all = await gateway.listTournaments(request);
    // Issue 29: an organiser or a crew member manages the tournaments it works on; a site admin, every one.
    const mine = desk.tournamentIds ? all.filter((t) => desk.tournamentIds!.has(t.id)) : all;
    const tournaments: ManagedTournament[] = mine.map((t) => ({
      id: t.id,
      name: t.name,
      game: t.game,
      status: t.status,
      starts: formatShortDate(t.startDate, timeZone),
      teams: `${t.registeredTeams}/${t.maxTeams}`,
    }));
    return data({ tournaments, error: null as string | null }, { headers });
  } catch (err) {
    if (!(err instanceof GatewayError)) throw err;
    const status = err.unavailable ? 503 : err.status >= 400 ? err.status : 502;
    return data({ tournaments: [] as ManagedTournament[], error: FETCH_FAILED }, { status, headers });
  }
}
