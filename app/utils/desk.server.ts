import { data, redirect } from '@remix-run/node';
import { standingAllows, type Desk, type StandingKind, type STANDING_RIGHTS } from '@custom-room/contract';
import { pageError } from './errors.server';
import { gateway, GatewayError, type Answer } from './gateway.server';
import { safeRedirectPath } from './redirect';
import { requireTournamentId } from './route-params.server';
import { currentPath, isAdmin, requireUser, type SessionUser } from './session.server';

/**
 * Issue 29 (decision 065): who may open the organiser's pages. A site admin always (no gateway call);
 * otherwise an approved organiser or a crew member of a live tournament, as the gateway's /desk says on
 * this request (a withdrawn right stops at once). The gateway still checks every call of every page.
 */
export interface DeskUser {
  user: SessionUser;
  siteAdmin: boolean;
  /** May create tournaments: a site admin or an approved organiser. */
  organises: boolean;
  /** The tournaments it works on; null for a site admin (every tournament). */
  tournamentIds: ReadonlySet<number> | null;
  /** Its part in each of them (owner, co-organiser, payments, lobby); empty for a site admin. */
  kinds: ReadonlyMap<number, StandingKind>;
  /** Those tournaments with its part in each (empty for a site admin). */
  tournaments: Desk['tournaments'];
  /** Its own organiser as the desk names it (any status); null for a site admin (not asked) or a crew member without one. */
  organiser: Answer<'desk'>['organiser'];
}

/** A signed-in user with a desk, or a redirect to the login page (as requireAdmin did: spec §6). */
export async function requireDesk(request: Request): Promise<DeskUser> {
  const user = await requireUser(request);
  if (isAdmin(user))
    return { user, siteAdmin: true, organises: true, tournamentIds: null, tournaments: [], kinds: new Map(), organiser: null };
  // A gateway without /desk (the spec's own, answering 404) or one that refuses it: no desk. Down: its page says so.
  const desk = await gateway.call(request, 'desk', {}).catch((err) => {
    if (err instanceof GatewayError && !err.unavailable) return null;
    return pageError(err); // the gateway down or slow: the 503 page that says so
  });
  const organises = desk?.organiser?.status === 'approved';
  if (!desk || (!organises && desk.tournaments.length === 0)) {
    throw redirect(`/login?${new URLSearchParams({ redirectTo: safeRedirectPath(currentPath(request)) })}`, {
      headers: { 'Cache-Control': 'private, no-store' },
    });
  }
  return {
    user,
    siteAdmin: false,
    organises,
    tournamentIds: new Set(desk.tournaments.map((t) => t.id)),
    tournaments: desk.tournaments,
    organiser: desk.organiser,
    kinds: new Map(desk.tournaments.map((t) => [t.id, t.kind])),
  };
}

type Right = keyof typeof STANDING_RIGHTS;

export const NOT_YOUR_TOURNAMENT = 'You do not run this tournament.';
const NOT_YOUR_PAGE: Record<Right, string> = {
  own: 'Only the organiser of this tournament uses this page.',
  run: 'Only the organiser and co-organisers of this tournament use this page.',
  payments: 'Only the organiser, co-organisers and the payments crew of this tournament use this page.',
  lobby: 'Only the organiser, co-organisers and the lobby managers of this tournament use this page.',
};

/**
 * requireDesk, and a part in this tournament that carries the right (decision 065's table): else the
 * 403 page that says whose page it is. Read from the same /desk answer: no call more. The gateway
 * still refuses every call the page makes; this keeps a crew member off a page whose forms it could
 * not use (a payments person on the stages page).
 */
export async function requireRight(
  request: Request,
  rawTournamentId: string | undefined,
  right: Right,
): Promise<DeskUser & { tournamentId: number }> {
  const desk = await requireDesk(request);
  const tournamentId = requireTournamentId(rawTournamentId);
  if (desk.siteAdmin) return { ...desk, tournamentId };
  const kind = desk.kinds.get(tournamentId);
  if (!kind) throw data({ message: NOT_YOUR_TOURNAMENT }, { status: 403, headers: { 'Cache-Control': 'private, no-store' } });
  if (!standingAllows(kind, right))
    throw data({ message: NOT_YOUR_PAGE[right] }, { status: 403, headers: { 'Cache-Control': 'private, no-store' } });
  return { ...desk, tournamentId };
}
