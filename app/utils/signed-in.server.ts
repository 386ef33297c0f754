import { decidedSession } from './client.server';
import { gateway, GatewayError } from './gateway.server';
import { destroySession, getSession, sessionState, type SessionUser } from './session.server';

/**
 * Whether the session's user is signed in as far as the gateway knows (decision 031). A token can be
 * revoked (logout, "Log out everywhere", a password reset) while it still verifies: only the gateway
 * knows (decision 019). The root loader (the nav) and the login page ask it, once per request.
 */
export type SignedIn =
  /** No token, or one that fails local verification: nobody. */
  | { state: 'none'; user: null }
  /** The gateway accepts the token now; username and roles as the gateway has them. */
  | { state: 'accepted'; user: SessionUser; unread: number }
  /** The gateway refused the token (401): nobody, and the cookie that carried it is to be cleared. */
  | { state: 'refused'; user: null; setCookie: string }
  /** The gateway could not say (down, slow, 5xx): the locally verified user, so an outage logs nobody out. */
  | { state: 'unconfirmed'; user: SessionUser };

export function signedIn(request: Request): Promise<SignedIn> {
  const decided = decidedSession(request);
  if (!decided) return askGateway(request);
  decided.confirmation ??= askGateway(request);
  return decided.confirmation;
}

async function askGateway(request: Request): Promise<SignedIn> {
  const { user } = await sessionState(request);
  if (!user) return { state: 'none', user: null };
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
