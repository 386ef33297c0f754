import { type Cookie, createCookie, createCookieSessionStorage, redirect, type Session } from '@remix-run/node';
import { createRemoteJWKSet, decodeJwt, errors as joseErrors, jwtVerify } from 'jose';
import { LRUCache } from 'lru-cache';
import { ROLE_ADMIN, TOKEN_AUDIENCE, TOKEN_ISSUER } from '@custom-room/contract/constants';
import { decidedSession, isHttps } from './client.server';
import { getEnv } from './env.server';
import { safeRedirectPath } from './redirect';
import type { SessionState, SessionUser } from './session-state';

export type { SessionUser } from './session-state';

const twelveHours = 12 * 60 * 60;

/**
 * The session cookie, its parse kept by the cookie header's exact text (decision 087): a page reads the session
 * four or five times (the root, the route, each gateway call), and each read checked the HMAC signature again.
 * The same header always parses to the same data (the secrets change only with a restart); each read gets
 * its own copy, so a session changed by one reader is not changed under another.
 */
function keptCookie(cookie: Cookie): Cookie {
  const parsed = new LRUCache<string, { data: unknown }>({ max: 10_000 });
  return {
    get name() {
      return cookie.name;
    },
    get isSigned() {
      return cookie.isSigned;
    },
    get expires() {
      return cookie.expires;
    },
    async parse(header, options) {
      if (!header || options) return cookie.parse(header, options);
      const kept = parsed.get(header);
      if (kept) return structuredClone(kept.data);
      const data: unknown = await cookie.parse(header);
      parsed.set(header, { data: structuredClone(data) });
      return data;
    },
    serialize: (value, options) => cookie.serialize(value, options),
  };
}

let storage: ReturnType<typeof createCookieSessionStorage> | undefined;
function sessionStorage() {
  storage ??= createCookieSessionStorage({
    cookie: keptCookie(
      createCookie('__session', {
        httpOnly: true,
        sameSite: 'lax',
        path: '/',
        secrets: getEnv().sessionSecrets,
        maxAge: twelveHours,
      }),
    ),
  });
  return storage;
}

/** Secure cookies behind HTTPS (directly or via a trusted proxy, decision 020), plain ones on http so LAN logins work. */
export function cookieSecure(request: Request): boolean {
  const mode = getEnv().COOKIE_SECURE;
  if (mode !== 'auto') return mode === 'always';
  return isHttps(request);
}

export function getSession(request: Request): Promise<Session> {
  return sessionStorage().getSession(request.headers.get('Cookie'));
}

export function commitSession(request: Request, session: Session): Promise<string> {
  return sessionStorage().commitSession(session, { secure: cookieSecure(request) });
}

export function destroySession(request: Request, session: Session): Promise<string> {
  return sessionStorage().destroySession(session, { secure: cookieSecure(request) });
}

let jwks: ReturnType<typeof createRemoteJWKSet> | undefined;
function gatewayKeys() {
  jwks ??= createRemoteJWKSet(new URL('/.well-known/jwks.json', getEnv().GATEWAY_URL), {
    timeoutDuration: 2000,
    cooldownDuration: 30_000,
    cacheMaxAge: 10 * 60_000,
  });
  return jwks;
}

type Verdict = { user: SessionUser } | { user: null; rejected: boolean };

/** What the gateway puts in every token (decision 019); the web app checks the same, the gateway checks again. */
const CLOCK_SKEW_SECONDS = 60;
const TOKEN_CHECKS = {
  issuer: TOKEN_ISSUER,
  audience: TOKEN_AUDIENCE,
  algorithms: ['ES256'],
  requiredClaims: ['exp', 'iat', 'sub', 'sid'],
  clockTolerance: CLOCK_SKEW_SECONDS,
};

/** Without the key set (gateway down) the signed cookie's claims are trusted only if they still look like the gateway's. */
function claimsLookRight(claims: Record<string, unknown>): boolean {
  const now = Date.now() / 1000;
  const aud = Array.isArray(claims.aud) ? claims.aud : [claims.aud];
  return (
    claims.iss === TOKEN_ISSUER &&
    aud.includes(TOKEN_AUDIENCE) &&
    typeof claims.exp === 'number' &&
    claims.exp > now &&
    typeof claims.iat === 'number' &&
    claims.iat <= now + CLOCK_SKEW_SECONDS &&
    typeof claims.sid !== 'undefined'
  );
}

/**
 * Verifies the token against the gateway's JWKS. If the key set cannot be fetched (gateway down), the
 * claims are still trusted because the cookie that carries them is signed by us, but expiry is checked.
 */
export async function verifyToken(token: string): Promise<Verdict> {
  const known = verifiedTokens.get(token);
  if (known && Date.now() < known.until) return { user: known.user };
  let claims: Record<string, unknown>;
  try {
    claims = (await jwtVerify(token, gatewayKeys(), TOKEN_CHECKS)).payload;
    const user = userOf(claims, token);
    // Decision 086: a token verified against the key set is not verified again until it expires (as jwtVerify
    // counts it: exp plus the clock skew). Checking its ES256 signature cost more than a page's route matching.
    if (user && typeof claims.exp === 'number') verifiedTokens.set(token, { user, until: (claims.exp + CLOCK_SKEW_SECONDS) * 1000 });
    return user ? { user } : { user: null, rejected: true };
  } catch (err) {
    const keysUnreachable = err instanceof joseErrors.JWKSTimeout || (err instanceof Error && !(err instanceof joseErrors.JOSEError));
    if (!keysUnreachable) return { user: null, rejected: true };
    try {
      claims = decodeJwt(token);
    } catch {
      return { user: null, rejected: true };
    }
    if (!claimsLookRight(claims)) return { user: null, rejected: true };
  }
  const user = userOf(claims, token);
  return user ? { user } : { user: null, rejected: true };
}

/** Tokens verified against the key set, with the instant they stop counting (decision 086). */
const verifiedTokens = new LRUCache<string, { user: SessionUser; until: number }>({ max: 10_000 });

function userOf(claims: Record<string, unknown>, token: string): SessionUser | null {
  const id = Number(claims.sub);
  const roles = Array.isArray(claims.roles) ? claims.roles : Array.isArray(claims.authorities) ? claims.authorities : [];
  if (!Number.isInteger(id) || typeof claims.username !== 'string') return null;
  return { id, username: claims.username, roles: roles.map(String), token };
}

/** What a session holds for a signed-in user; any other key (a flash message) is this visitor's own. */
const SIGN_IN_KEYS = new Set(['token', 'username']);

/**
 * What a Cookie header's session amounts to (decision 031), read exactly as the session storage reads
 * it (Remix's cookie parser and signature check with SESSION_SECRET): a `__session` that does not
 * unsign is an empty session, and a token that fails verification against the gateway's key set
 * (forged, expired, foreign) is nobody. The key set is fetched once and kept; no call per request.
 */
export async function readSessionState(cookieHeader: string | null): Promise<SessionState> {
  const session: Session = await sessionStorage().getSession(cookieHeader);
  const keys = Object.keys(session.data);
  const token = session.get('token');
  const user = typeof token === 'string' && token ? (await verifyToken(token)).user : null;
  return { cookie: cookieHeader, user, anonymous: !user && keys.every((key) => SIGN_IN_KEYS.has(key)) };
}

/** This request's session: as the web server (server/) decided it before its page cache, or read now (dev server, unit tests). */
export function sessionState(request: Request): Promise<SessionState> {
  const decided = decidedSession(request);
  return decided ? Promise.resolve(decided) : readSessionState(request.headers.get('Cookie'));
}

/**
 * The signed-in user, or null (an expired or rejected token counts as none). Checked locally: the
 * gateway alone knows whether the token was revoked since (signed-in.server.ts asks it).
 */
export async function getUser(request: Request): Promise<SessionUser | null> {
  return (await sessionState(request)).user;
}

export const isAdmin = (user: SessionUser | null) => !!user?.roles.includes(ROLE_ADMIN);

/** The path (and query) of this request, to come back to after logging in. */
export function currentPath(request: Request): string {
  const url = new URL(request.url);
  return url.pathname + url.search;
}

/** Ends the session and sends the user to log in, coming back here afterwards. */
export async function loginRedirect(request: Request, redirectTo = currentPath(request)): Promise<Response> {
  const session = await getSession(request);
  const params = new URLSearchParams({ redirectTo: safeRedirectPath(redirectTo) });
  return redirect(`/login?${params}`, { headers: { 'Set-Cookie': await destroySession(request, session) } });
}

/** requireUser: the signed-in user, or throws a redirect to /login?redirectTo=… that also ends a stale session. */
export async function requireUser(request: Request): Promise<SessionUser> {
  const user = await getUser(request);
  if (!user) throw await loginRedirect(request);
  return user;
}

/** The organiser pages: /admin and everything under it. */
export const isAdminPath = (path: string) => /^\/admin(?=[/?#]|$)/.test(path);

/**
 * requireAdmin: a signed-in admin (ROLE_ADMIN in roles or authorities); anyone else goes to
 * /login?redirectTo=… (spec §6). A signed-in player keeps the session: the login page sees a
 * player headed for an organiser page and offers the organiser login instead of sending them back.
 */
export async function requireAdmin(request: Request): Promise<SessionUser> {
  const user = await requireUser(request);
  if (!isAdmin(user)) {
    throw redirect(`/login?${new URLSearchParams({ redirectTo: safeRedirectPath(currentPath(request)) })}`, {
      headers: { 'Cache-Control': 'private, no-store' },
    });
  }
  return user;
}

/** Starts the session after a successful login (or sign-up) and redirects, with a one-time message if given. */
export async function createUserSession(
  request: Request,
  token: string,
  username: string,
  redirectTo: string,
  flashMessage?: string,
): Promise<Response> {
  const session = await getSession(request);
  session.set('token', token);
  session.set('username', username);
  if (flashMessage) session.flash('flash', flashMessage);
  return redirect(safeRedirectPath(redirectTo), { headers: { 'Set-Cookie': await commitSession(request, session) } });
}

/** Ends the session (logout is a POST; the route ends the token at the gateway first) and goes to /login. */
export async function logout(request: Request, options: { everywhere?: boolean } = {}): Promise<Response> {
  // A fresh session that holds nothing but the message: the token is gone with the old one.
  const fresh: Session = await sessionStorage().getSession();
  fresh.flash('flash', options.everywhere ? 'You have logged out on every device.' : 'You have logged out.');
  return redirect('/login', { headers: { 'Set-Cookie': await commitSession(request, fresh) } });
}

/** A one-time message shown on the next page (post/redirect/get). */
export async function flash(request: Request, message: string, to: string): Promise<Response> {
  const session = await getSession(request);
  session.flash('flash', message);
  return redirect(safeRedirectPath(to), { headers: { 'Set-Cookie': await commitSession(request, session) } });
}

/** Reads (and so clears) the flash message; returns the Set-Cookie header to send when there was one. */
export async function readFlash(request: Request): Promise<{ message: string | null; headers?: HeadersInit }> {
  const session = await getSession(request);
  const message = session.get('flash');
  if (typeof message !== 'string') return { message: null };
  return { message, headers: { 'Set-Cookie': await commitSession(request, session) } };
}
