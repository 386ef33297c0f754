import { redirect } from '@remix-run/node';
import { pageError } from './errors.server';
import { gateway, GatewayError, type Answer } from './gateway.server';
import { safeRedirectPath } from './redirect';
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
  /** Its own organiser as the desk names it (any status); null for a site admin (not asked) or a crew member without one. */
  organiser: Answer<'desk'>['organiser'];
}

/** A signed-in user with a desk, or a redirect to the login page (as requireAdmin did: spec §6). */
export async function requireDesk(request: Request): Promise<DeskUser> {
  const user = await requireUser(request);
  if (isAdmin(user)) return { user, siteAdmin: true, organises: true, tournamentIds: null, organiser: null };
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
  return { user, siteAdmin: false, organises, tournamentIds: new Set(desk.tournaments.map((t) => t.id)), organiser: desk.organiser };
}
