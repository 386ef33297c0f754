import { createCookie } from '@remix-run/node';
import { SignJWT, generateKeyPair } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tournamentJson } from '../support';
import { captureLogs } from '../support/logs';
import { cookieOf, json, startGatewayStub, useStubEnv, type GatewayStub } from './support/gateway-stub';

// Decision 031: who is anonymous is decided once per request, with the session storage's own cookie
// parser and signature check and a local token check; the page cache, publicPageHeaders and the
// loaders all read that one answer. Signed in, for the nav and the login page, is what the gateway says.

let stub: GatewayStub;
let session: typeof import('~/utils/session.server');
let client: typeof import('~/utils/client.server');
let publicCache: typeof import('~/utils/public-cache.server');
let signedInModule: typeof import('~/utils/signed-in.server');

beforeAll(async () => {
  stub = await startGatewayStub();
  await useStubEnv(stub);
  session = await import('~/utils/session.server');
  client = await import('~/utils/client.server');
  publicCache = await import('~/utils/public-cache.server');
  signedInModule = await import('~/utils/signed-in.server');
});
afterAll(() => stub.close());

/** The "__session=…" of a session holding this token, signed with the app's secret. */
async function sessionCookie(token: string) {
  return cookieOf(await session.createUserSession(new Request('http://localhost/login'), token, 'player_one', '/'));
}
const valueOf = (cookie: string) => cookie.slice(cookie.indexOf('=') + 1);

describe('readSessionState: the one answer per request', () => {
  it('reads the cookie as the session storage does: a space or tab before "=", quotes, first of two', async () => {
    const cookie = await sessionCookie(await stub.token());
    const value = valueOf(cookie);
    for (const header of [
      cookie,
      `__session =${value}`,
      `__session\t=${value}`,
      `theme=dark;  __session = ${value} `,
      `__session="${value}"`,
      `${cookie}; __session=bogus`,
    ]) {
      const state = await session.readSessionState(header);
      expect(state.user?.username, header).toBe('player_one');
      expect(state.anonymous, header).toBe(false);
    }
  });

  it('treats no cookie, another cookie, a bogus or unsigned one, and a forged, foreign or expired token as anonymous', async () => {
    const otherSecret = createCookie('__session', { secrets: ['not-our-secret-0123456789'] });
    const alien = await generateKeyPair('ES256');
    const forged = await new SignJWT({ username: 'player_one', roles: ['ROLE_ADMIN'], sid: 's' })
      .setProtectedHeader({ alg: 'ES256', kid: 'stub' })
      .setIssuer('custom-room-gateway')
      .setAudience('custom-room')
      .setSubject('7')
      .setIssuedAt()
      .setExpirationTime('1h')
      .sign(alien.privateKey);
    const now = Math.floor(Date.now() / 1000);
    const expired = await stub.token({ iat: now - 2 * 24 * 3600, exp: now - 24 * 3600 });
    const headers = [
      null,
      'theme=dark; __device=abc',
      '__session=bogus',
      '__session=',
      `__session=${valueOf(await otherSecret.serialize({ token: await stub.token() }))}`,
      `__session=bogus; ${await sessionCookie(await stub.token())}`,
      await sessionCookie(forged),
      await sessionCookie('not-a-jwt'),
      await sessionCookie(expired),
    ];
    for (const header of headers) {
      const state = await session.readSessionState(header);
      expect([header, state.user, state.anonymous]).toEqual([header, null, true]);
    }
  });

  it('a flash message (or anything else of this visitor) is never anonymous, signed in or not', async () => {
    const res = await session.flash(new Request('http://localhost/'), 'Account created. Please log in.', '/login');
    const state = await session.readSessionState(cookieOf(res));
    expect(state).toMatchObject({ user: null, anonymous: false });
  });
});

describe('the session cookie, parsed once per header (decision 087)', () => {
  it('gives each read its own copy, and still refuses a forged signature the second time', async () => {
    const cookie = await sessionCookie(await stub.token());
    const request = () => new Request('http://localhost/', { headers: { cookie } });
    const first = await session.getSession(request());
    first.set('token', 'changed by one reader');
    first.unset('username');
    const second = await session.getSession(request());
    expect(second.get('token')).not.toBe('changed by one reader');
    expect(second.get('username')).toBe('player_one');
    // A header that differs in one character of its signature is another header: checked, and refused, every time.
    const forged = `${cookie.slice(0, -2)}${cookie.at(-2) === 'A' ? 'B' : 'A'}${cookie.at(-1)}`;
    for (let i = 0; i < 2; i++) {
      const refused = await session.getSession(new Request('http://localhost/', { headers: { cookie: forged } }));
      expect(refused.get('token')).toBeUndefined();
    }
  });
});

describe('publicPageHeaders and getUser read the answer the server decided', () => {
  const decided = async (header: string | null) => ({ address: '127.0.0.1', session: await session.readSessionState(header) });

  it('public for an anonymous request (a bogus cookie too), private for a signed-in one, whatever the cookie looks like', async () => {
    const signedIn = `__session =${valueOf(await sessionCookie(await stub.token()))}`;
    for (const [header, cacheControl, user] of [
      ['__session=bogus', /^public\b/, null],
      [signedIn, /^private, no-store$/, 'player_one'],
    ] as const) {
      const request = new Request('http://localhost/about', { headers: { cookie: header } });
      const info = await decided(header);
      const [headers, found] = await client.runWithClient(
        info,
        async () => [publicCache.publicPageHeaders(request), await session.getUser(request)] as const,
      );
      expect(headers['Cache-Control'], header).toMatch(cacheControl);
      expect(found?.username ?? null, header).toBe(user);
    }
  });

  it('without a decision (dev server, unit tests) any cookie the parser would read as the session counts as one', () => {
    for (const cookie of ['__session=abc', 'theme=dark; __session=abc', '__session =abc', '\t__session\t=abc', 'a=1;__session=abc']) {
      expect(publicCache.publicPageHeaders(new Request('http://localhost/', { headers: { cookie } })), cookie).toEqual({
        'Cache-Control': 'private, no-store',
      });
    }
    for (const cookie of ['theme=dark; other__session=1', '__sessionX=1', '__device=abc']) {
      expect(publicCache.publicPageHeaders(new Request('http://localhost/', { headers: { cookie } }))['Cache-Control'], cookie).toMatch(
        /^public/,
      );
    }
  });
});

describe('signedIn: the gateway has the last word on a token', () => {
  const me = { id: 7, username: 'player_renamed', email: 'p@example.com', phone: '9876543210', roles: ['ROLE_USER'] };

  it('accepted: the user as the gateway has them; asked once per request however many loaders ask', async () => {
    stub.seen.length = 0;
    stub.answer((_req, res) => json(res, 200, me));
    const cookie = await sessionCookie(await stub.token());
    const request = new Request('http://localhost/login', { headers: { cookie } });
    const info = { address: '127.0.0.1', session: await session.readSessionState(cookie) };
    const [a, b] = await client.runWithClient(info, () =>
      Promise.all([signedInModule.signedIn(request), signedInModule.signedIn(request)]),
    );
    expect(a).toMatchObject({ state: 'accepted', user: { username: 'player_renamed' } });
    expect(b).toBe(a);
    expect(stub.seen.map((r) => r.url)).toEqual(['/api/auth/me']);
  });

  it("the room page: the page's own answer says who the caller is, one gateway call for the root and the page (decision 087)", async () => {
    const viewer = { id: 7, username: 'player_renamed', roles: ['ROLE_USER'], unreadNotifications: 3 };
    const schedule = {
      tournament: tournamentJson({ id: 5 }),
      matches: [],
      otherGroups: [],
      team: null,
      reports: null,
      checkInWindows: [],
      viewer,
    };
    stub.seen.length = 0;
    stub.answer((req, res) => (req.url === '/tournaments/5/schedule/mine' ? json(res, 200, schedule) : json(res, 200, me)));
    const cookie = await sessionCookie(await stub.token());
    const request = new Request('http://localhost/tournament/5/matches', { headers: { cookie } });
    const info = { address: '127.0.0.1', session: await session.readSessionState(cookie) };
    const roomPage = await import('~/utils/room-page.server');
    const [signed, answer] = await client.runWithClient(info, () =>
      Promise.all([signedInModule.signedIn(request), roomPage.roomPageAnswer(request, 5)]),
    );
    expect(signed).toEqual({ state: 'accepted', user: expect.objectContaining({ username: 'player_renamed' }), unread: 3 });
    expect(answer.viewer).toEqual(viewer);
    expect(stub.seen.map((r) => r.url)).toEqual(['/tournaments/5/schedule/mine']);

    // Any other page, or a room page whose answer failed (an unknown tournament): GET /api/auth/me as before.
    for (const url of ['http://localhost/tournaments/5', 'http://localhost/tournament/6/matches']) {
      stub.seen.length = 0;
      stub.answer((req, res) => (req.url === '/api/auth/me' ? json(res, 200, me) : json(res, 404, { message: 'Tournament not found.' })));
      const other = new Request(url, { headers: { cookie } });
      const result = await client.runWithClient({ address: '127.0.0.1', session: await session.readSessionState(cookie) }, () =>
        signedInModule.signedIn(other),
      );
      expect(result, url).toMatchObject({ state: 'accepted', user: { username: 'player_renamed' } });
      expect(stub.seen.map((r) => r.url).at(-1), url).toBe('/api/auth/me');
    }
  });

  it('refused (revoked): nobody, and the cookie is cleared', async () => {
    stub.answer((_req, res) => json(res, 401, { message: 'Session ended.' }));
    const cookie = await sessionCookie(await stub.token());
    const result = await signedInModule.signedIn(new Request('http://localhost/', { headers: { cookie } }));
    expect(result.state).toBe('refused');
    expect(result.user).toBeNull();
    if (result.state === 'refused') expect(result.setCookie).toMatch(/^__session=;.*(Max-Age=0|Expires=Thu, 01 Jan 1970)/i);
  });

  it('unconfirmed (gateway down): the locally verified user stays, nobody is logged out by an outage', async () => {
    stub.answer((_req, res) => res.socket?.destroy());
    const logs = captureLogs();
    const cookie = await sessionCookie(await stub.token());
    const result = await signedInModule.signedIn(new Request('http://localhost/', { headers: { cookie } }));
    expect(result).toMatchObject({ state: 'unconfirmed', user: { username: 'player_one' } });
    expect(logs).toContainEqual(expect.objectContaining({ level: 'error', msg: 'gateway unreachable' }));
  });

  it('none: no call to the gateway for a visitor without a valid token', async () => {
    stub.seen.length = 0;
    expect(await signedInModule.signedIn(new Request('http://localhost/', { headers: { cookie: '__session=bogus' } }))).toEqual({
      state: 'none',
      user: null,
    });
    expect(stub.seen).toEqual([]);
  });
});
