import { decidedSession } from './client.server';
import { gateway, GatewayError } from './gateway.server';
import type { SignedIn } from './session-state';
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
