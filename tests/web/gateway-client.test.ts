import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { SignJWT, exportJWK, generateKeyPair } from 'jose';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { captureLogs } from '../support/logs';

// A stand-in for the gateway on a real port: it records what it receives and answers as told.
type Handler = (req: http.IncomingMessage, res: http.ServerResponse) => void;
let handler: Handler = (_req, res) => res.end();
const seen: http.IncomingMessage[] = [];
const server = http.createServer((req, res) => {
  seen.push(req);
  if (req.url === '/.well-known/jwks.json') {
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ keys: [publicJwk] }));
    return;
  }
  handler(req, res);
});
let publicJwk: Record<string, unknown>;
let privateKey: CryptoKey;
let base = '';

/** A token shaped like the gateway's (decision 019); `omit` drops standard claims to test the checks. */
async function token(claims: Record<string, unknown>, expiresIn = '1h', key = privateKey, aud = 'custom-room') {
  return new SignJWT({ sid: 's1', ...claims })
    .setProtectedHeader({ alg: 'ES256', kid: 'k1' })
    .setIssuer('custom-room-gateway')
    .setAudience(aud)
    .setSubject('7')
    .setIssuedAt()
    .setExpirationTime(expiresIn)
    .sign(key);
}

let mod: typeof import('~/utils/gateway.server');
let session: typeof import('~/utils/session.server');

beforeAll(async () => {
  const pair = await generateKeyPair('ES256');
  privateKey = pair.privateKey;
  publicJwk = { ...(await exportJWK(pair.publicKey)), kid: 'k1', alg: 'ES256' };
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  process.env.GATEWAY_URL = base;
  process.env.GATEWAY_TIMEOUT_MS = '300';
  process.env.SESSION_SECRET = 'test-secret-at-least-sixteen';
  const env = await import('~/utils/env.server');
  env.resetEnvForTests();
  mod = await import('~/utils/gateway.server');
  session = await import('~/utils/session.server');
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));
beforeEach(() => {
  seen.length = 0;
});

/** A browser request carrying a session cookie with this token. */
async function requestWithToken(t: string, url = 'http://localhost/tournaments?x=1') {
  const res = await session.createUserSession(new Request('http://localhost/login'), t, 'player', '/');
  const cookie = res.headers.get('set-cookie')!.split(';')[0]!;
  return new Request(url, { headers: { cookie } });
}

describe('gateway client', () => {
  it('sends the bearer token from the session and a request id, and parses the answer with the schema', async () => {
    handler = (_req, res) => {
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ value: 42 }));
    };
    const t = await token({ username: 'player', roles: ['ROLE_USER'] });
    const request = await requestWithToken(t);
    const result = await mod.callGateway(request, '/thing', { schema: z.object({ value: z.number() }) });
    expect(result).toEqual({ value: 42 });
    const got = seen.find((r) => r.url === '/thing')!;
    expect(got.headers.authorization).toBe(`Bearer ${t}`);
    expect(got.headers['x-request-id']).toBe(mod.requestId(request));
  });

  it('forwards a sane x-request-id from the incoming request', async () => {
    handler = (_req, res) => {
      res.setHeader('content-type', 'application/json');
      res.end('null');
    };
    const request = new Request('http://localhost/', { headers: { 'x-request-id': 'proxy-id-1' } });
    await mod.callGateway(request, '/thing', { schema: z.null(), auth: false });
    expect(seen[0]!.headers['x-request-id']).toBe('proxy-id-1');
  });

  it('reads error messages and field errors from JSON bodies, and plain text bodies too', async () => {
    handler = (_req, res) => {
      res.statusCode = 409;
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ message: 'Taken.', errors: { email: 'An account with this email already exists.' } }));
    };
    const err = await mod.callGateway(new Request('http://localhost/'), '/x', { schema: z.any(), auth: false }).catch((e) => e);
    expect(err).toBeInstanceOf(mod.GatewayError);
    expect(err).toMatchObject({
      status: 409,
      message: 'Taken.',
      fieldErrors: { email: 'An account with this email already exists.' },
      unavailable: false,
    });

    expect(mod.readErrorBody('Bad credentials', 'text/plain')).toEqual({ message: 'Bad credentials', errors: {} });
    expect(mod.readErrorBody('<html>oops</html>', 'text/html').message).toBe('');
  });

  it('treats an answer its schema refuses as unavailable (502), and logs the first issues with the request id', async () => {
    handler = (_req, res) => {
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ value: 'not a number' }));
    };
    const logs = captureLogs();
    const request = new Request('http://localhost/', { headers: { 'x-request-id': 'odd-1' } });
    const err = await mod.callGateway(request, '/odd', { schema: z.object({ value: z.number() }), auth: false }).catch((e) => e);
    expect(err).toMatchObject({ status: 502, unavailable: true, message: mod.UNAVAILABLE_MESSAGE });
    expect(logs).toEqual([
      expect.objectContaining({
        level: 'error',
        msg: 'gateway answer did not match schema',
        reqId: 'odd-1',
        method: 'GET',
        path: '/odd',
        issues: [expect.objectContaining({ path: ['value'] })],
      }),
    ]);
  });

  it('treats a 5xx answer as unavailable without leaking its body', async () => {
    handler = (_req, res) => {
      res.statusCode = 500;
      res.end('stack trace here');
    };
    const logs = captureLogs();
    const err = await mod.callGateway(new Request('http://localhost/'), '/x', { schema: z.any(), auth: false }).catch((e) => e);
    expect(err).toMatchObject({ status: 503, unavailable: true, message: mod.UNAVAILABLE_MESSAGE });
    expect(logs).toContainEqual(expect.objectContaining({ level: 'error', msg: 'gateway error', status: 500 }));
  });

  it('gives up after the timeout and logs one line with the request id', async () => {
    handler = () => {
      /* never answers */
    };
    const logs = captureLogs();
    const request = new Request('http://localhost/', { headers: { 'x-request-id': 'slow-1' } });
    const started = Date.now();
    const err = await mod.callGateway(request, '/slow', { schema: z.any(), auth: false }).catch((e) => e);
    expect(Date.now() - started).toBeLessThan(2000);
    expect(err).toMatchObject({ status: 503, unavailable: true });
    expect(logs.filter((line) => line.reqId === 'slow-1')).toEqual([
      expect.objectContaining({ level: 'error', msg: 'gateway unreachable' }),
    ]);
  });

  it('ends the session and redirects to /login?redirectTo= when the gateway refuses the token', async () => {
    handler = (_req, res) => {
      res.statusCode = 401;
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ message: 'Please log in to continue.' }));
    };
    const request = await requestWithToken(await token({ username: 'player', roles: [] }), 'http://localhost/profile?tab=1');
    const thrown = await mod.callGateway(request, '/api/profile/get', { schema: z.any() }).catch((e) => e);
    expect(thrown).toBeInstanceOf(Response);
    expect(thrown.status).toBe(302);
    expect(thrown.headers.get('location')).toBe('/login?redirectTo=%2Fprofile%3Ftab%3D1');
    expect(thrown.headers.get('set-cookie')).toMatch(/__session=;.*Expires=Thu, 01 Jan 1970/);
  });
});

describe('public answers parsed once (decision 090)', () => {
  /** A gateway answer with an ETag, and a 304 when the caller already has it, as the gateway's response cache does. */
  let current = { etag: '"v1"', body: { tournaments: [{ id: 1, name: 'BGMI Cup' }] } };
  beforeEach(() => {
    handler = (req, res) => {
      res.setHeader('etag', current.etag);
      if (req.headers['if-none-match'] === current.etag) {
        res.statusCode = 304;
        res.end();
        return;
      }
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify(current.body));
    };
  });
  const schema = z.object({ tournaments: z.array(z.object({ id: z.number(), name: z.string() })) });
  const publicCall = (path: string) => mod.callGateway(new Request('http://localhost/'), path, { schema, auth: false });

  it('asks again every time, with If-None-Match; a 304 answers with the value parsed before, frozen', async () => {
    const first = await publicCall('/list-a');
    const second = await publicCall('/list-a');
    expect(second).toEqual({ tournaments: [{ id: 1, name: 'BGMI Cup' }] });
    expect(second).toBe(first);
    expect(seen.map((r) => r.headers['if-none-match'])).toEqual([undefined, '"v1"']);
    // shared by every request: a change throws instead of reaching another page
    expect(Object.isFrozen(second.tournaments[0])).toBe(true);
    expect(() => {
      (second.tournaments as unknown[]).push({ id: 2, name: 'x' });
    }).toThrow(TypeError);
  });

  it('takes the new answer when the gateway has one', async () => {
    await publicCall('/list-b');
    current = {
      etag: '"v2"',
      body: {
        tournaments: [
          { id: 1, name: 'BGMI Cup' },
          { id: 2, name: 'Free Fire Clash' },
        ],
      },
    };
    const changed = await publicCall('/list-b');
    expect(changed.tournaments.map((t) => t.name)).toEqual(['BGMI Cup', 'Free Fire Clash']);
    expect(seen.map((r) => r.headers['if-none-match'])).toEqual([undefined, '"v1"']);
    expect(await publicCall('/list-b')).toBe(changed);
    expect(seen[2]!.headers['if-none-match']).toBe('"v2"');
  });

  it("never for a call that sends a token: its answer may be that user's own", async () => {
    const request = await requestWithToken(await token({ username: 'player', roles: ['ROLE_USER'] }));
    const a = await mod.callGateway(request, '/list-c', { schema });
    const b = await mod.callGateway(request, '/list-c', { schema });
    expect(b).not.toBe(a);
    expect(seen.filter((r) => r.url === '/list-c').map((r) => r.headers['if-none-match'])).toEqual([undefined, undefined]);
  });
});

describe('session token verification', () => {
  it('accepts a token signed by the gateway key and reads username and roles', async () => {
    const verdict = await session.verifyToken(await token({ username: 'boss', roles: ['ROLE_USER', 'ROLE_ADMIN'] }));
    expect(verdict.user).toMatchObject({ id: 7, username: 'boss', roles: ['ROLE_USER', 'ROLE_ADMIN'] });
    expect(session.isAdmin(verdict.user)).toBe(true);
  });

  it('accepts the spec\'s "authorities" claim for roles', async () => {
    const verdict = await session.verifyToken(await token({ username: 'boss', authorities: ['ROLE_ADMIN'] }));
    expect(session.isAdmin(verdict.user)).toBe(true);
  });

  it('rejects an expired token and one signed by another key', async () => {
    expect((await session.verifyToken(await token({ username: 'x', roles: [] }, '-1m'))).user).toBeNull();
    const other = await generateKeyPair('ES256');
    expect((await session.verifyToken(await token({ username: 'x', roles: [] }, '1h', other.privateKey))).user).toBeNull();
  });

  it('rejects a token for another audience, or without a session id', async () => {
    expect((await session.verifyToken(await token({ username: 'x', roles: [] }, '1h', privateKey, 'another-app'))).user).toBeNull();
    expect((await session.verifyToken(await token({ username: 'x', roles: [], sid: undefined }))).user).toBeNull();
  });

  it('signs out a user whose token the gateway key rejects: requireUser redirects to login', async () => {
    const other = await generateKeyPair('ES256');
    const request = await requestWithToken(await token({ username: 'x', roles: [] }, '1h', other.privateKey), 'http://localhost/profile');
    const thrown = await session.requireUser(request).catch((e) => e);
    expect(thrown).toBeInstanceOf(Response);
    expect(thrown.headers.get('location')).toBe('/login?redirectTo=%2Fprofile');
  });

  it("sets Secure cookies on https (direct, or a trusted proxy's, which the server turns into the URL) and plain ones on http for LAN logins", async () => {
    const cookieFor = async (request: Request) =>
      (await session.createUserSession(request, await token({ username: 'p', roles: [] }), 'p', '/')).headers.get('set-cookie')!;
    const lan = await cookieFor(new Request('http://192.168.1.20:3000/login', { method: 'POST' }));
    expect(lan).toMatch(/HttpOnly/);
    expect(lan).toMatch(/SameSite=Lax/);
    expect(lan).not.toMatch(/Secure/);
    // The header alone proves nothing: the server turns a trusted proxy's X-Forwarded-Proto into the URL's scheme.
    expect(
      await cookieFor(new Request('http://web:3000/login', { method: 'POST', headers: { 'x-forwarded-proto': 'https' } })),
    ).not.toMatch(/; Secure/);
    expect(await cookieFor(new Request('https://play.example/login', { method: 'POST' }))).toMatch(/; Secure/);
  });
});
