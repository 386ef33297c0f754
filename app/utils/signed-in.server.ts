import { decidedSession } from './client.server';
import { gateway, GatewayError } from './gateway.server';
import { roomPageAnswer, roomPageTournament } from './room-page.server';
import { type SignedIn, type SessionUser } from './session-state';
import { destroySession, getSession, sessionState } from './session.server';

export type { SignedIn } from './session-state';

/** The gateway's word on the request's session (decision 031), asked at most once per request. */
export function signedIn(request: Request): Promise<SignedIn> {
  const decided = decidedSession(request);
  if (!decided) return askGateway(request);
  decided.confirmation ??= askGateway(request);
  return decided.confirmation;
}

async function askGateway(request: Request): Promise<SignedIn> {
  const { user } = await sessionState(request);
  if (!user) return { state: 'none', user: null };
  const confirmed = await byRoomPage(request, user);
  if (confirmed) return confirmed;
  try {
    const me = await gateway.me(request);
    // The unread notifications come with the same answer (decision 044): the nav's count costs no extra call.
    return { state: 'accepted', user: { ...user, username: me.username, roles: me.roles }, unread: me.unreadNotifications ?? 0 };
  } catch (err) {
    if (!(err instanceof GatewayError)) throw err;
    if (err.status === 401) return { state: 'refused', user: null, setCookie: await destroySession(request, await getSession(request)) };
    return { state: 'unconfirmed', user };
  }
}

/**
 * On the room page the page's own answer says who the caller is (decision 087): one gateway call for the
 * page instead of two, the minute a thousand players open it. A refused token sends the caller to /login
 * there as here; an unreachable or slow gateway leaves the user unconfirmed, as a failed `me` does; any other
 * failure (an unknown tournament, a gateway without the viewer) leaves the word to GET /api/auth/me.
 */
async function byRoomPage(request: Request, user: SessionUser): Promise<SignedIn | null> {
  const id = roomPageTournament(request);
  if (id === null) return null;
  try {
    const { viewer } = await roomPageAnswer(request, id);
    if (!viewer) return null;
    return { state: 'accepted', user: { ...user, username: viewer.username, roles: viewer.roles }, unread: viewer.unreadNotifications };
  } catch (err) {
    // Unreachable or too slow: asking again would only wait as long again (the page is the 503 page anyway).
    if (err instanceof GatewayError && err.unavailable) return { state: 'unconfirmed', user };
    if (err instanceof GatewayError) return null;
    throw err; // a refused token: the page's answer is the redirect to /login, the root's too
  }
}
