import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { createCookie } from '@remix-run/node';
import { SignJWT, exportJWK, generateKeyPair, importPKCS8 } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unique, type Player, type Tournament } from '../e2e/support/api';
import { GatewayApi, Stack, errorLines, getPage, logSince, logSize, postForm, webLogin } from './web-helpers';

// Issue 16, items 6, 7 and 11 (decision 031), against the production build and a real gateway (rate
// limits on, so accounts lock):
// 6. A signed-in page was kept by the page cache and sent to everyone when the cookie read
//    `__session =…` (Remix's parser takes it, the cache's regular expression did not).
// 7. With a session revoked elsewhere, a refused login answered `302 /` and home still showed the
//    name; a signed-in player trying a locked account was redirected instead of told.
// 11. A bogus session cookie skipped the page cache (every request rendered): now it is anonymous.

let stack: Stack;
let api: GatewayApi;
let tournament: Tournament;
let pages: string[];
let logStart: number;

const profileLabel = (username: string) => `Your profile (${username})`;
const ANONYMOUS_NAV = 'Profile and login';

beforeAll(async () => {
  stack = await Stack.start({ label: 'web-sessions', gatewayEnv: { RATE_LIMIT: 'on' } });
  api = new GatewayApi(stack.info);
  tournament = await api.createTournament({ name: `Session Cup ${unique()}` });
  pages = ['/', '/tournaments', `/tournaments/${tournament.id}`, `/tournaments/${tournament.id}/points-table`, '/about'];
  logStart = logSize(stack.info.webLog);
}, 90_000);

afterAll(async () => {
  if (stack) expect(errorLines(logSince(stack.info.webLog, logStart)), 'errors in the web log').toEqual([]);
  await stack?.stop();
});

async function page(pathname: string, cookie = '') {
  const res = await getPage(stack.info.webUrl, pathname, cookie);
  return { res, html: await res.text(), cache: res.headers.get('x-page-cache'), cacheControl: res.headers.get('cache-control') };
}

/** Fetches anonymously until the page answers from the cache. */
async function warm(pathname: string) {
  for (let i = 0; i < 3; i++) {
    const answer = await page(pathname);
    expect(answer.res.status, pathname).toBe(200);
    if (answer.cache === 'hit') return answer;
  }
  throw new Error(`${pathname} never came from the page cache`);
}

const valueOf = (cookie: string) => cookie.slice(cookie.indexOf('=') + 1);

/** A GET with one Cookie header line per value (fetch would join them into one). */
function rawGet(pathname: string, cookies: string[]): Promise<{ body: string; cache?: string; cacheControl?: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(stack.info.webUrl + pathname, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () =>
        resolve({ body, cache: res.headers['x-page-cache'] as string | undefined, cacheControl: res.headers['cache-control'] }),
      );
    });
    req.setHeader('cookie', cookies);
    req.on('error', reject);
    req.end();
  });
}

/** A `__session` cookie signed with the stack's own SESSION_SECRET, holding what we like: only the server could make one. */
async function signedSession(data: Record<string, unknown>) {
  const secret = fs.readFileSync(path.join(stack.info.dataDir, 'session-secret'), 'utf8').trim().split(',');
  return `__session=${valueOf(await createCookie('__session', { secrets: secret }).serialize(data))}`;
}

/** A token signed with the gateway's real key (from its DATA_DIR), with the claims given: an expired one still has a good signature. */
async function gatewaySignedToken(claims: { sub: string; username: string; iat: number; exp: number }) {
  const pem = fs.readFileSync(path.join(stack.info.dataDir, 'jwt-private.pem'), 'utf8');
  const publicJwk = await exportJWK(crypto.createPublicKey(pem));
  const kid = crypto.createHash('sha256').update(JSON.stringify(publicJwk)).digest('base64url').slice(0, 16);
  return new SignJWT({ username: claims.username, roles: ['ROLE_USER'], sid: 'forged-session' })
    .setProtectedHeader({ alg: 'ES256', kid, typ: 'JWT' })
    .setSubject(claims.sub)
    .setIssuer('custom-room-gateway')
    .setAudience('custom-room')
    .setIssuedAt(claims.iat)
    .setExpirationTime(claims.exp)
    .sign(await importPKCS8(pem, 'ES256'));
}

describe('item 6: who is anonymous is read as the session reads the cookie', () => {
  let player: Player;
  let cookie: string;

  beforeAll(async () => {
    player = await api.createPlayer();
    cookie = (await webLogin(stack.info.webUrl, player.email, player.password)).cookie;
  });

  /** The same session cookie, written the ways Remix's cookie parser still reads as `__session`. */
  const variants = () => {
    const value = valueOf(cookie);
    return [
      `__session =${value}`,
      `__session\t=${value}`,
      `__session = ${value}`,
      `__session="${value}"`,
      `theme=dark;__session =${value}`,
      ` \t__session\t= ${value}; theme=dark`,
      `${cookie}; __session=bogus`,
    ];
  };

  it('a page first rendered for the signed-in player is private and never reaches the next anonymous visitor', async () => {
    for (const header of variants()) {
      for (const pathname of pages) {
        const url = `${pathname}?p=${unique()}`;
        const mine = await page(url, header);
        expect(mine.res.status, `${url} with ${JSON.stringify(header.slice(0, 14))}`).toBe(200);
        expect(mine.html, url).toContain(profileLabel(player.username));
        expect(mine.cacheControl, url).toBe('private, no-store');
        expect(mine.cache, url).toBeNull();
        const next = await page(url);
        expect(next.html, url).not.toContain(player.username);
        expect(next.html, url).toContain(ANONYMOUS_NAV);
        expect(next.cache, url).toBe('miss');
      }
    }
  });

  it('with the page warm, the signed-in player gets their own page, not the shared copy', async () => {
    for (const pathname of pages) {
      const shared = await warm(pathname);
      for (const header of variants()) {
        const mine = await page(pathname, header);
        expect(mine.cache, pathname).toBeNull();
        expect(mine.html, pathname).toContain(profileLabel(player.username));
        expect(mine.cacheControl, pathname).toBe('private, no-store');
      }
      // Two Cookie header lines (the server joins them with "; "), the session in the second.
      const split = await rawGet(pathname, ['theme=dark', `__session =${valueOf(cookie)}`]);
      expect([split.cache, split.cacheControl], pathname).toEqual([undefined, 'private, no-store']);
      expect(split.body, pathname).toContain(profileLabel(player.username));
      const after = await page(pathname);
      expect(after.cache, pathname).toBe('hit');
      expect(after.html, pathname).toBe(shared.html);
    }
  });
});

describe('item 11: a bogus or unverifiable session cookie is anonymous, so it is served from the page cache', () => {
  it('bogus, unsigned, foreign-signed, forged, expired and empty sessions all get the shared page, public', async () => {
    const player = await api.createPlayer();
    const realUser = (await api.request<{ id: number }>('GET', '/api/auth/me', { token: player.token, expect: [200] })).id;
    const alien = await generateKeyPair('ES256');
    const now = Math.floor(Date.now() / 1000);
    const forged = await new SignJWT({ username: player.username, roles: ['ROLE_ADMIN'], sid: 'x' })
      .setProtectedHeader({ alg: 'ES256', kid: 'made-up' })
      .setSubject(String(realUser))
      .setIssuer('custom-room-gateway')
      .setAudience('custom-room')
      .setIssuedAt()
      .setExpirationTime('1h')
      .sign(alien.privateKey);
    const expired = await gatewaySignedToken({ sub: String(realUser), username: player.username, iat: now - 13 * 3600, exp: now - 3600 });
    const otherSecret = createCookie('__session', { secrets: ['some-other-secret-0123456789'] });
    const cookies = [
      '__session=bogus',
      `__session=${'A'.repeat(3000)}`,
      '__session=',
      '__session =bogus',
      `__session=${valueOf(await otherSecret.serialize({ token: player.token, username: player.username }))}`,
      await signedSession({ token: forged, username: player.username }),
      await signedSession({ token: expired, username: player.username }),
      await signedSession({ token: 'not-a-token', username: player.username }),
      await signedSession({}),
    ];
    for (const pathname of pages) {
      const shared = await warm(pathname);
      for (const header of cookies) {
        const answer = await page(pathname, header);
        expect([answer.res.status, answer.cache, answer.cacheControl], `${pathname} with ${header.slice(0, 40)}`).toEqual([
          200,
          'hit',
          shared.cacheControl,
        ]);
        expect(answer.html).toBe(shared.html);
      }
    }
    // Rendered for such a visitor (a miss), the page is the anonymous one, public, and is shared afterwards.
    const url = `/about?bogus=${unique()}`;
    const miss = await page(url, cookies[0]);
    expect([miss.cache, miss.cacheControl]).toEqual(['miss', 'public, max-age=30, stale-while-revalidate=60']);
    expect(miss.html).toContain(ANONYMOUS_NAV);
    expect((await page(url)).cache).toBe('hit');

    // A real session, or a flash message in an otherwise empty one, still is not: rendered, private, never shared.
    const { cookie } = await webLogin(stack.info.webUrl, player.email, player.password);
    const mine = await page('/about', cookie);
    expect([mine.cache, mine.cacheControl]).toEqual([null, 'private, no-store']);
    expect(mine.html).toContain(profileLabel(player.username));
    const flash = await page('/about', await signedSession({ __flash_flash__: 'Your password has been reset. Please log in.' }));
    expect([flash.cache, flash.cacheControl]).toEqual([null, 'private, no-store']);
    expect(flash.html).toContain('Your password has been reset. Please log in.');
  });
});

describe('item 7: the answer to a login is always shown', () => {
  it('with a session revoked elsewhere, a wrong password shows the error, ends the stale cookie, and home shows nobody', async () => {
    const player = await api.createPlayer();
    const { cookie } = await webLogin(stack.info.webUrl, player.email, player.password);
    expect((await page('/', cookie)).html).toContain(profileLabel(player.username));
    // While the gateway accepts the token, the login page sends the player on.
    const signedIn = await getPage(stack.info.webUrl, '/login?redirectTo=%2Fmy-tournaments', cookie);
    expect([signedIn.status, signedIn.headers.get('location')]).toEqual([302, '/my-tournaments']);
    // "Log out everywhere" on another device.
    await api.request('POST', '/api/auth/logout-all', { token: player.token, json: {}, expect: [200] });

    const res = await postForm(
      stack.info.webUrl,
      '/login',
      { emailOrPhone: player.email, password: 'not-the-password', redirectTo: '/' },
      { cookie },
    );
    const html = await res.text();
    expect(res.status).toBe(401);
    expect(html).toContain('Invalid email/phone or password.');
    expect(html).not.toContain(profileLabel(player.username));
    expect(res.headers.get('set-cookie')).toMatch(/^__session=;/);

    const home = await page('/', cookie);
    expect(home.html).not.toContain(profileLabel(player.username));
    expect(home.html).toContain(ANONYMOUS_NAV);
    expect(home.res.headers.get('set-cookie')).toMatch(/^__session=;/);
    // The login page itself stays (no redirect away) and the right password signs in again.
    expect((await getPage(stack.info.webUrl, '/login', cookie)).status).toBe(200);
    const again = await postForm(
      stack.info.webUrl,
      '/login',
      { emailOrPhone: player.email, password: player.password, redirectTo: '/' },
      { cookie },
    );
    expect(again.status).toBe(302);
    expect((await page('/', again.headers.get('set-cookie')!.split(';')[0]!)).html).toContain(profileLabel(player.username));
  });

  it('a signed-in player trying an account that is locked gets the lockout message, not a redirect', async () => {
    const me = await api.createPlayer();
    const locked = await api.createPlayer();
    const { cookie } = await webLogin(stack.info.webUrl, me.email, me.password);
    for (let i = 0; i < 10; i++) {
      await api.request('POST', '/api/auth/login', { json: { emailOrPhone: locked.email, password: `wrong-${i}` }, expect: [401] });
    }
    const res = await postForm(
      stack.info.webUrl,
      '/login',
      { emailOrPhone: locked.email, password: locked.password, redirectTo: '/' },
      { cookie },
    );
    const html = await res.text();
    expect(res.status).toBe(429);
    expect(html).toMatch(/Too many attempts\. Please wait \d+ seconds and try again\./);
    expect(html).toContain(locked.email); // what was typed is kept
    // Still signed in as themselves: the failed attempt changed nothing.
    expect(html).toContain(profileLabel(me.username));
    expect(res.headers.get('set-cookie')).toBeNull();
  });
});
