import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { SignJWT, exportJWK, generateKeyPair } from 'jose';
import { ROLE_USER, TOKEN_AUDIENCE, TOKEN_ISSUER } from '@custom-room/contract/constants';

/**
 * A stand-in for the gateway on a real port, for web tests that call loaders and actions directly:
 * only the network is faked. It serves a JWKS (so session tokens verify), records every request
 * with its parsed JSON body, and answers the rest with the current handler.
 */

export interface SeenRequest {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: unknown;
}

export type StubHandler = (req: SeenRequest, res: http.ServerResponse) => void;

export interface GatewayStub {
  base: string;
  seen: SeenRequest[];
  /** Answer the next requests with this handler. */
  answer(handler: StubHandler): void;
  /** A token the web app accepts (signed with the stub's key). */
  token(claims?: { sub?: string; username?: string; roles?: string[]; iat?: number; exp?: number }): Promise<string>;
  close(): Promise<void>;
}

export function json(res: http.ServerResponse, status: number, body: unknown) {
  res.statusCode = status;
  res.setHeader('content-type', 'application/json');
  res.end(JSON.stringify(body));
}

export async function startGatewayStub(): Promise<GatewayStub> {
  const pair = await generateKeyPair('ES256');
  const publicJwk = { ...(await exportJWK(pair.publicKey)), kid: 'stub', alg: 'ES256', use: 'sig' };
  const privateKey: CryptoKey = pair.privateKey;
  const seen: SeenRequest[] = [];
  let handler: StubHandler = (_req, res) => json(res, 500, { message: 'no handler' });

  const server = http.createServer((req, res) => {
    if (req.url === '/.well-known/jwks.json') return json(res, 200, { keys: [publicJwk] });
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      let body: unknown = text;
      try {
        body = text ? JSON.parse(text) : undefined;
      } catch {
        // keep the raw text
      }
      const entry = { method: req.method ?? 'GET', url: req.url ?? '/', headers: req.headers, body };
      seen.push(entry);
      handler(entry, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    base,
    seen,
    answer(h) {
      handler = h;
    },
    token({ sub = '7', username = 'player_one', roles = [ROLE_USER], iat, exp } = {}) {
      // The claims the gateway's tokens carry (decision 019).
      return new SignJWT({ username, roles, sid: 'stub-session' })
        .setProtectedHeader({ alg: 'ES256', kid: 'stub' })
        .setIssuer(TOKEN_ISSUER)
        .setAudience(TOKEN_AUDIENCE)
        .setSubject(sub)
        .setIssuedAt(iat)
        .setExpirationTime(exp ?? '1h')
        .sign(privateKey);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Points the web app's environment at the stub (call before the first getEnv()). */
export async function useStubEnv(stub: GatewayStub) {
  await useGatewayEnv(stub.base, { timeoutMs: 1000 });
}

/**
 * Points the web app's environment at a gateway (a stub, or a real one from tests/gateway/helpers), with a
 * fresh DATA_DIR and a test session secret, plus any other variables; then reads the environment again.
 */
export async function useGatewayEnv(
  base: string,
  { timeoutMs = 5000, env = {} }: { timeoutMs?: number; env?: Record<string, string> } = {},
) {
  process.env.GATEWAY_URL = base;
  process.env.GATEWAY_TIMEOUT_MS = String(timeoutMs);
  process.env.DATA_DIR = fs.mkdtempSync(path.join(os.tmpdir(), 'web-test-'));
  process.env.SESSION_SECRET = 'web-test-secret-0123456789';
  Object.assign(process.env, env);
  (await import('~/utils/env.server')).resetEnvForTests();
}

/** A browser's cookie for a signed-in user (a gateway token and username), as the login action sets it. */
export async function sessionCookie(user: { token: string; username: string }, origin = 'http://localhost') {
  const session = await import('~/utils/session.server');
  return cookieOf(await session.createUserSession(new Request(`${origin}/login`), user.token, user.username, '/'));
}

/** A same-origin form post as a browser sends it. */
export function formPost(url: string, fields: Record<string, string>, headers: Record<string, string> = {}) {
  const origin = new URL(url).origin;
  return new Request(url, {
    method: 'POST',
    body: new URLSearchParams(fields),
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin, 'sec-fetch-site': 'same-origin', ...headers },
  });
}

/** The "name=value" of a Set-Cookie header, to send back as Cookie. */
export function cookieOf(res: Response): string {
  const set = res.headers.get('set-cookie');
  if (!set) throw new Error('no Set-Cookie on the response');
  return set.split(';')[0]!;
}

/** What an action/loader returned with data(): its body and status (plain objects count as 200). */
export function unwrap(result: unknown): { status: number; body: any } {
  if (result instanceof Response) return { status: result.status, body: null };
  if (result && typeof result === 'object' && (result as { type?: string }).type === 'DataWithResponseInit') {
    const r = result as { data: unknown; init: ResponseInit | null };
    return { status: r.init?.status ?? 200, body: r.data };
  }
  return { status: 200, body: result };
}

/** Runs fn and returns what it threw (a Response or data()), failing when it threw nothing. */
export async function thrown(fn: () => unknown): Promise<unknown> {
  try {
    await fn();
  } catch (err) {
    return err;
  }
  throw new Error('expected a throw');
}

type StubRoute = (req: SeenRequest) => [number, unknown];

/**
 * Route calls as the stub's organiser, for the tests of the organiser's pages (after useStubEnv):
 * requests carrying an admin session, a route module's arguments, the flash a redirect set, and a
 * table of stubbed gateway answers by "METHOD /path". stub: a getter, as tests start the stub in beforeAll.
 */
export function organiserCalls(stub: () => GatewayStub) {
  const session = () => import('~/utils/session.server');
  async function adminCookie() {
    const token = await stub().token({ username: 'organiser', roles: ['ROLE_USER', 'ROLE_ADMIN'] });
    return cookieOf(await (await session()).createUserSession(new Request('http://localhost/login'), token, 'x', '/'));
  }
  return {
    adminCookie,
    get: async (url: string) => new Request(url, { headers: { cookie: await adminCookie() } }),
    post: async (url: string, fields: [string, string][]) =>
      new Request(url, {
        method: 'POST',
        body: new URLSearchParams(fields),
        headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'http://localhost', cookie: await adminCookie() },
      }),
    args: (request: Request, params: Record<string, string>) => ({ request, params, context: {} }),
    flashOf: async (res: Response) =>
      (await (await session()).readFlash(new Request('http://localhost/', { headers: { cookie: cookieOf(res) } }))).message,
    routes(table: Record<string, StubRoute>) {
      stub().answer((req, res) => {
        const key = `${req.method} ${req.url.split('?')[0]}`;
        const route = table[key];
        if (!route) return json(res, 404, { message: `no stub for ${key}` });
        const [status, body] = route(req);
        json(res, status, body);
      });
    },
  };
}

/**
 * The calls a request made besides asking for the caller's desk (issue 29: a signed-in non-admin at an
 * organiser page is asked of the gateway whether it organises or is on a crew, and nothing else).
 */
export const besidesDesk = (seen: readonly SeenRequest[]) => seen.filter((r) => !(r.method === 'GET' && r.url === '/desk'));

/** The desk of a signed-in player who organises nothing and is on no crew (GET /desk). */
export const EMPTY_DESK = { organiser: null, siteAdmin: false, tournaments: [], invitations: [] };

/**
 * GET /tournaments/{tid}/schedule/mine (decision 087) composed from a test's answers to the calls it stands
 * for, each part asked of handle at its own path: the gateway answers each part as its own call would
 * (tests/gateway/schedule.test.ts holds it to that). A team or reports part that is not 200 is null; the
 * tournament's or the matches' refusal is the whole answer's. False when req asks for something else.
 */
export function composeSchedule(handle: StubHandler, req: SeenRequest, res: http.ServerResponse): boolean {
  const asked = /^\/tournaments\/(\d+)\/schedule\/mine$/.exec(req.url.split('?')[0]!);
  if (req.method !== 'GET' || !asked) return false;
  const tid = Number(asked[1]);
  const part = (path: string) => {
    const got = { status: 200, body: undefined as any };
    const fake = {
      set statusCode(status: number) {
        got.status = status;
      },
      setHeader() {},
      end(text?: string) {
        got.body = text ? JSON.parse(text) : null;
      },
      socket: { destroy: () => res.socket?.destroy() },
    } as unknown as http.ServerResponse;
    handle({ ...req, url: path }, fake);
    return got;
  };
  const tournament = part(`/tournaments/${tid}`);
  if (tournament.status !== 200) return (json(res, tournament.status, tournament.body), true);
  const matches = part(`/matches/tournament/${tid}`);
  if (matches.status !== 200) return (json(res, matches.status, matches.body), true);
  const team = part(`/registrations/${tid}`);
  const reports = part(`/tournaments/${tid}/reports/mine`);
  const stages = part(`/tournaments/${tid}/stages`);
  const own = new Set<number>(team.status === 200 ? (team.body.placements ?? []).map((p: any) => p.groupId) : []);
  json(res, 200, {
    tournament: tournament.body,
    ...splitForPage(matches.body, own),
    team: team.status === 200 ? team.body : null,
    reports: reports.status === 200 ? reports.body : null,
    checkInWindows:
      stages.status === 200
        ? stages.body.flatMap((s: any) =>
            s.checkIn ? [{ stageId: s.id, stageName: s.name, opensAt: s.checkIn.opensAt, closesAt: s.checkIn.closesAt }] : [],
          )
        : [],
  });
  return true;
}

/**
 * The schedule's split as the gateway makes it (gateway/src/services/schedule.ts, held to it by
 * tests/gateway/schedule.test.ts): the team's groups' matches and those outside the stages, and every other
 * group's without rooms, the groups of a stage that play the same matches once, by stage and group name.
 */
export function splitForPage(matches: any[], own: ReadonlySet<number>) {
  const mine: any[] = [];
  const others = new Map<number, { stageId: number; stageName: string; groupName: string; matches: any[] }>();
  for (const m of matches) {
    if (m.groupId === undefined || m.groupId === null || own.has(m.groupId)) mine.push(m);
    else {
      const g = others.get(m.groupId) ?? { stageId: m.stageId, stageName: m.stageName, groupName: m.groupName, matches: [] as any[] };
      g.matches.push(m);
      others.set(m.groupId, g);
    }
  }
  const byName = (a: string, b: string) => a.length - b.length || a.localeCompare(b);
  const shared = new Map<string, any>();
  for (const [groupId, g] of [...others].sort(([, a], [, b]) => a.stageId - b.stageId || byName(a.groupName, b.groupName))) {
    const key = `${g.stageId}|${g.matches.map((m) => `${m.day}/${m.matchNo}/${m.map}/${m.time}`).join(',')}`;
    const entry = shared.get(key);
    if (entry) entry.groups.push({ groupId, groupName: g.groupName });
    else
      shared.set(key, {
        stageId: g.stageId,
        stageName: g.stageName,
        groups: [{ groupId, groupName: g.groupName }],
        matches: g.matches.map((m) => ({ id: m.id, day: m.day, matchNo: m.matchNo, map: m.map, time: m.time })),
      });
  }
  return { matches: mine, otherGroups: [...shared.values()] };
}
