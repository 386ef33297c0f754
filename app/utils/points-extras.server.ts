import { gateway, GatewayError } from './gateway.server';
import { publicOrigin } from './link-preview.server';
import { isAnonymous } from './public-cache.server';

/**
 * The signed-in viewer's team in this tournament, to mark its row on the points tables (issue 20). Asked
 * only with a session (decision 045: the anonymous page stays the one shared cached copy, and a signed-in
 * page is never stored); any refusal, even a 401 or a 404 (no team), only leaves the mark out.
 */
export async function viewerTeamId(request: Request, tournamentId: number): Promise<number | null> {
  if (isAnonymous(request)) return null;
  try {
    const team = await gateway.call(request, 'myTeam', { params: { tournamentId } }, { unauthorizedAsError: true });
    return team.rid ?? null;
  } catch (err) {
    if (err instanceof GatewayError) return null;
    throw err;
  }
}

/** The page's absolute URL for sharing: the same origin as the link preview's (PUBLIC_URL, else the request's; decision 049) and the table's query. */
export const shareUrl = (request: Request, pathname: string, query: string) => `${publicOrigin(request)}${pathname}${query}`;
