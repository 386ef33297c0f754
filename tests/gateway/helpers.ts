import { spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { afterAll, beforeAll, expect } from 'vitest';
import { buildApp } from '../../gateway/src/app.js';
import { loadConfig, type Config } from '../../gateway/src/config.js';
import { bumpGeneration } from '../../gateway/src/db/generation.js';
import type { DatabaseHandle } from '../../gateway/src/db/index.js';
import { insertRegistration } from '../../gateway/src/db/registrations.js';
import { insertUser } from '../../gateway/src/db/users.js';
import type { Clock } from '../../gateway/src/lib/clock.js';
import { hashPassword } from '../../gateway/src/lib/passwords.js';
import { startSession } from '../../gateway/src/lib/sessions.js';
import type { TokenService } from '../../gateway/src/lib/tokens.js';
import { Api, type ApiResponse } from '../fixtures/api-client.js';
import { playerAccount, teamFields, toForm, tournamentFields, unique, uniquePhone } from '../support/builders';

export { Api, type ApiResponse } from '../fixtures/api-client.js';

/**
 * The suite runs on SQLite by default and on PostgreSQL when TEST_DATABASE_URL is set
 * (npm test and .ci/run start a throw-away cluster). Each gateway gets its own SQLite
 * directory, or its own PostgreSQL schema, so tests never see each other's data.
 */
export const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL || undefined;
export const dialectName = TEST_DATABASE_URL ? 'postgres' : 'sqlite';

export interface TestGateway {
  app: FastifyInstance;
  url: string;
  config: Config;
  /** Stops the server (data stays); start() again on the same storage for restart tests. */
  stop(): Promise<void>;
  start(): Promise<TestGateway>;
  api: Api;
}

export interface Storage {
  dataDir: string;
  databaseUrl?: string;
}

export async function createStorage(): Promise<Storage> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gw-test-'));
  if (!TEST_DATABASE_URL) return { dataDir };
  const schema = `t_${crypto.randomBytes(6).toString('hex')}`;
  const client = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await client.connect();
  await client.query(`create schema ${schema}`);
  await client.end();
  const url = new URL(TEST_DATABASE_URL);
  url.searchParams.set('options', `-c search_path=${schema}`);
  return { dataDir, databaseUrl: url.toString() };
}

export const ADMIN = { email: 'admin@test.example', password: 'admin-password-123', username: 'admin', phone: '9000000001' };

/**
 * Starts a real gateway on a free port. env overrides the test defaults (no demo data, no rate limits).
 * options.log receives every log line (JSON) at LOG_LEVEL, which then defaults to info.
 */
export async function startGateway(
  env: Record<string, string> = {},
  storage?: Storage,
  options: { log?: (line: string) => void; clock?: Clock } = {},
): Promise<TestGateway> {
  const store = storage ?? (await createStorage());
  const config = loadConfig({
    DATA_DIR: store.dataDir,
    ...(store.databaseUrl ? { DATABASE_URL: store.databaseUrl } : {}),
    GATEWAY_PORT: '0',
    SEED_DEMO: '0',
    RATE_LIMIT: 'off',
    LOG_LEVEL: options.log ? 'info' : 'silent',
    ADMIN_EMAIL: ADMIN.email,
    ADMIN_PASSWORD: ADMIN.password,
    ADMIN_USERNAME: ADMIN.username,
    ADMIN_PHONE: ADMIN.phone,
    // Tests drive the notification worker with app.notifier.runOnce (decision 044).
    NOTIFY_WORKER: 'off',
    ...env,
  });
  const logger = options.log
    ? { level: config.LOG_LEVEL, stream: { write: options.log } }
    : config.LOG_LEVEL === 'silent'
      ? false
      : undefined;
  const app = await buildApp({ config, logger, validateResponses: true, ...(options.clock ? { clock: options.clock } : {}) });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const url = `http://127.0.0.1:${port}`;
  const gw: TestGateway = {
    app,
    url,
    config,
    stop: () => app.close(),
    start: () => startGateway(env, store, options),
    api: new Api(url),
  };
  return gw;
}

// Test data builders (unique names, tournaments, teams, matches) live in tests/support, typed from the gateway's schemas.
export { isoIn, matchFields, teamFields, toForm, tournamentFields, unique, uniquePhone, uniqueUtr } from '../support/builders';
export { pngImage } from '../support/images';

export interface TestUser {
  email: string;
  phone: string;
  username: string;
  password: string;
  token: string;
  id: number;
}

/** Registers a new account over HTTP and logs it in. */
export async function createUser(api: Api, overrides: Partial<Omit<TestUser, 'token' | 'id'>> = {}): Promise<TestUser> {
  const user = playerAccount(overrides);
  const reg = await api.post('/api/auth/register', user);
  if (reg.status !== 201) throw new Error(`register failed: ${reg.status} ${JSON.stringify(reg.body)}`);
  const login = await api.post('/api/auth/login', { emailOrPhone: user.email, password: user.password });
  if (login.status !== 200) throw new Error(`login failed: ${login.status} ${JSON.stringify(login.body)}`);
  const sub = JSON.parse(Buffer.from(login.body.token.split('.')[1], 'base64url').toString()).sub;
  return { ...user, token: login.body.token, id: Number(sub) };
}

/** The answer's body, after checking its status (the body is in the failure's message). */
export function expectStatus<T = any>(res: ApiResponse<T>, status: number, what = ''): T {
  expect(res.status, `${what} ${JSON.stringify(res.body)}`.trim()).toBe(status);
  return res.body;
}

export async function adminToken(api: Api): Promise<string> {
  const res = await api.post('/api/auth/login', { emailOrPhone: ADMIN.email, password: ADMIN.password });
  if (res.status !== 200) throw new Error(`admin login failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.token;
}

export interface GatewayWithPlayers {
  gw: TestGateway;
  /** The admin's token. */
  admin: string;
  /** Accounts made over HTTP and logged in; reuse them across tournaments (one team per account per tournament). */
  players: TestUser[];
  storage: Storage;
}

/**
 * The suites' common preamble: one gateway for the test file (or describe block), started in
 * beforeAll with its admin's token and `count` players, stopped in afterAll. Each test then creates
 * its own tournaments and teams. Read the fields inside hooks and tests (they are set in beforeAll):
 *
 *   const setup = useGatewayWithPlayers(4);
 *   beforeAll(() => ({ gw, admin, players } = setup));
 */
export function useGatewayWithPlayers(count: number, options: { env?: Record<string, string>; clock?: Clock } = {}): GatewayWithPlayers {
  const setup = {} as GatewayWithPlayers;
  beforeAll(async () => {
    setup.storage = await createStorage();
    setup.gw = await startGateway(options.env, setup.storage, options.clock ? { clock: options.clock } : {});
    setup.admin = await adminToken(setup.gw.api);
    setup.players = [];
    for (let i = 0; i < count; i++) setup.players.push(await createUser(setup.gw.api));
  });
  afterAll(() => setup.gw?.stop());
  return setup;
}

/** Creates a tournament as admin and returns its JSON. */
export async function createTournament(api: Api, token: string, overrides: Record<string, string> = {}): Promise<any> {
  const res = await api.request('POST', '/tournaments/add', { token, form: toForm(tournamentFields(overrides)) });
  if (res.status !== 200 && res.status !== 201) throw new Error(`create tournament failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

/** The compiled gateway (npm test builds it first), as operators run it. */
export const COMPILED_SERVER = path.resolve('gateway/dist/server.js');

export interface GatewayProcess {
  child: import('node:child_process').ChildProcess;
  url: string;
  exited: Promise<number | null>;
  stdout(): string;
  stderr(): string;
  /** Resolves once /healthz answers; rejects if the process exits first. */
  ready(): Promise<void>;
  stop(): Promise<number | null>;
}

export { freePort } from '../../scripts/lib/ports.mjs';

/** Starts `node gateway/dist/server.js` with the given environment (plus quiet test defaults). */
export function spawnGateway(env: Record<string, string>, port = 0): GatewayProcess {
  const child = spawn(process.execPath, [COMPILED_SERVER], {
    env: {
      PATH: process.env.PATH,
      NODE_ENV: 'production',
      SEED_DEMO: '0',
      RATE_LIMIT: 'off',
      LOG_LEVEL: 'warn',
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      ADMIN_USERNAME: ADMIN.username,
      ADMIN_PHONE: ADMIN.phone,
      GATEWAY_PORT: String(port),
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (err += d));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const url = `http://127.0.0.1:${env.GATEWAY_PORT ?? port}`;
  return {
    child,
    url,
    exited,
    stdout: () => out,
    stderr: () => err,
    async ready() {
      let gone = false;
      void exited.then(() => (gone = true));
      for (let i = 0; i < 300 && !gone; i++) {
        try {
          if ((await fetch(`${url}/healthz`)).ok) return;
        } catch {
          // not listening yet
        }
        await new Promise((r) => setTimeout(r, 100));
      }
      throw new Error(`gateway process did not come up: ${err || out}`);
    },
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      return exited;
    },
  };
}

/**
 * Many players at once, for the concurrency tests: accounts written through the gateway's own
 * repository with one shared argon2 hash, and real tokens signed with the gateway's key. Creating
 * 200 players over HTTP costs 400 argon2 operations, which is the sign-up path's business, not these tests'.
 */
export async function createPlayersDirect(store: DatabaseHandle, tokens: TokenService, count: number): Promise<TestUser[]> {
  const password = 'correct horse battery';
  const passwordHash = await hashPassword(password);
  const users: TestUser[] = [];
  for (let i = 0; i < count; i++) {
    const u = unique();
    const user = { email: `bulk${u}@test.example`, phone: uniquePhone(), username: `bulk_${u}`.slice(0, 20), password };
    const id = await insertUser(
      store.db,
      {
        email: user.email,
        phone: `+91${user.phone}`,
        username: user.username,
        passwordHash,
        roles: ['ROLE_USER'],
      },
      new Date().toISOString(),
    );
    const { token } = await startSession(store.db, tokens, { id, username: user.username, roles: ['ROLE_USER'] });
    users.push({ ...user, id, token });
  }
  return users;
}

export interface RegisteredTeam {
  rid: number;
  teamName: string;
}

/**
 * An admin-created tournament (registration open) with one team per name, each registered by the
 * player at the same index (one team per account per tournament, so reuse accounts across tournaments).
 */
export async function createTournamentWithTeams(
  api: Api,
  admin: string,
  players: readonly TestUser[],
  teamNames: readonly string[],
  overrides: Record<string, string> = {},
): Promise<{ tid: number; teams: RegisteredTeam[] }> {
  if (teamNames.length > players.length) throw new Error(`${teamNames.length} teams need as many players, got ${players.length}`);
  const tournament = await createTournament(api, admin, overrides);
  const teams: RegisteredTeam[] = [];
  for (const [i, teamName] of teamNames.entries()) {
    const res = await api.post(`/registrations/${tournament.id}`, teamFields({ teamName }), players[i]!.token);
    if (res.status !== 201) throw new Error(`registration failed: ${res.status} ${JSON.stringify(res.body)}`);
    teams.push({ rid: res.body.rid, teamName });
  }
  return { tid: tournament.id as number, teams };
}

/**
 * More teams in a tournament, written through the gateway's repository with accounts that cannot log
 * in: a full lobby (decision 029 bounds positions and finishes by the registered teams) without signing
 * up a player per team. teams: how many (named "Lobby …"), or their names as given (the API refuses
 * some names, hidden characters say; old rows may have them).
 */
export async function addLobbyTeams(gw: TestGateway, tid: number, teams: number | readonly string[]): Promise<RegisteredTeam[]> {
  const names = typeof teams === 'number' ? Array.from({ length: teams }, () => null) : teams;
  const added: RegisteredTeam[] = [];
  const now = new Date().toISOString();
  await gw.app.store.writeTransaction(async (trx) => {
    for (const name of names) {
      const u = unique();
      const account = { email: `lobby${u}@test.example`, phone: `+91${uniquePhone()}`, username: `lobby_${u}`.slice(0, 20) };
      const userId = await insertUser(trx, { ...account, passwordHash: 'x', roles: ['ROLE_USER'] }, now);
      const team = { ...teamFields(), teamName: name ?? `Lobby ${u}` };
      const row = await insertRegistration(trx, tid, userId, team as Parameters<typeof insertRegistration>[3], {
        place: 'placed',
        payBy: null,
        now,
      });
      added.push({ rid: row.id, teamName: team.teamName });
    }
    await bumpGeneration(trx, tid); // registeredTeams
  });
  return added;
}

// ---- Stages, groups and slots (issue 18, decision 041): independent re-computations for the tests ----

/** One team's sums in a stage or group, as the tables rank them. */
export interface Standing {
  teamId: number;
  teamName: string;
  totalPoints: number;
  wins: number;
  positionPoints: number;
  finishes: number;
  matchesPlayed: number;
}

const lowerName = (a: string, b: string) => {
  const x = a.toLowerCase();
  const y = b.toLowerCase();
  return x < y ? -1 : x > y ? 1 : 0;
};

/** The points table's order (decision 029): total points, wins, placement points, finishes, team name. */
export const compareStanding = (a: Standing, b: Standing) =>
  b.totalPoints - a.totalPoints ||
  b.wins - a.wins ||
  b.positionPoints - a.positionPoints ||
  b.finishes - a.finishes ||
  lowerName(a.teamName, b.teamName) ||
  a.teamId - b.teamId;

/** The first tie-breaker that puts a above b: 'total' | 'wins' | 'placement' | 'finishes' | 'name'. */
export function decidingTieBreak(a: Standing, b: Standing): 'total' | 'wins' | 'placement' | 'finishes' | 'name' {
  if (a.totalPoints !== b.totalPoints) return 'total';
  if (a.wins !== b.wins) return 'wins';
  if (a.positionPoints !== b.positionPoints) return 'placement';
  if (a.finishes !== b.finishes) return 'finishes';
  return 'name';
}

/** A submitted result (what the test sent), to re-compute the tables from. */
export interface SentResult {
  teamId: number;
  position: number;
  finishes: number;
  absent?: boolean;
}

/**
 * Sums and ranks `teams` over `results` with placement points from `table` (index 0 = 1st place);
 * every team listed, also those without a result; absent rows score nothing and are not a match played.
 */
export function rankTeams(
  teams: readonly { teamId: number; teamName: string }[],
  results: readonly SentResult[],
  table: readonly number[],
): Standing[] {
  const byId = new Map<number, Standing>(
    teams.map((t) => [
      t.teamId,
      { teamId: t.teamId, teamName: t.teamName, totalPoints: 0, wins: 0, positionPoints: 0, finishes: 0, matchesPlayed: 0 },
    ]),
  );
  for (const r of results) {
    const s = byId.get(r.teamId);
    if (!s || r.absent) continue;
    const pp = r.position >= 1 ? (table[r.position - 1] ?? 0) : 0;
    s.positionPoints += pp;
    s.finishes += r.finishes;
    s.totalPoints += pp + r.finishes;
    s.wins += r.position === 1 ? 1 : 0;
    s.matchesPlayed += 1;
  }
  return [...byId.values()].sort(compareStanding);
}

/** Decision 041's random draw: Fisher–Yates over the entrants (by rid), j from SHA-256(`{seed}:{i}`). */
export function randomDrawOrder<T>(entrantsByRid: readonly T[], seed: string): T[] {
  const items = [...entrantsByRid];
  for (let i = items.length - 1; i >= 1; i--) {
    const digest = crypto.createHash('sha256').update(`${seed}:${i}`).digest();
    const j = digest.readUIntBE(0, 6) % (i + 1);
    [items[i], items[j]] = [items[j]!, items[i]!];
  }
  return items;
}

/** Group sizes for n entrants: ceil(n / lobby) groups, differing by at most one, the larger first. */
export function groupSizes(n: number, lobby: number): number[] {
  const count = Math.ceil(n / lobby);
  return Array.from({ length: count }, (_, i) => Math.floor(n / count) + (i < n % count ? 1 : 0));
}

/** Fills groups in order: the first sizes[0] items to A, and so on (registration and random draws). */
export function fillGroups<T>(ordered: readonly T[], lobby: number): T[][] {
  const groups: T[][] = [];
  let at = 0;
  for (const size of groupSizes(ordered.length, lobby)) {
    groups.push(ordered.slice(at, at + size));
    at += size;
  }
  return groups;
}

/**
 * Deals ranked items in snake order: 1st to A, 2nd to B … kth to the last group, then back from the last
 * group to A (seeded draws). A group that already has its size of groupSizes() is passed over, so the
 * groups stay balanced with the larger ones first.
 */
export function snakeGroups<T>(ranked: readonly T[], lobby: number): T[][] {
  const sizes = groupSizes(ranked.length, lobby);
  const k = sizes.length;
  const groups: T[][] = sizes.map(() => []);
  const at = (step: number) => (step % (2 * k) < k ? step % (2 * k) : 2 * k - 1 - (step % (2 * k)));
  let step = 0;
  for (const item of ranked) {
    while (groups[at(step)]!.length >= sizes[at(step)]!) step++;
    groups[at(step)]!.push(item);
    step++;
  }
  return groups;
}

/** Decision 041's qualifiers: the top N of each group, then the best M of the others by the stage's overall order. */
export function expectedQualifiers(
  groups: readonly { name: string; standings: readonly Standing[] }[],
  overall: readonly Standing[],
  perGroup: number,
  best: number,
): { teamId: number; groupName: string; via: 'group' | 'best' }[] {
  const out: { teamId: number; groupName: string; via: 'group' | 'best' }[] = [];
  const groupOf = new Map<number, string>();
  for (const g of groups) {
    for (const s of g.standings) groupOf.set(s.teamId, g.name);
    for (const s of g.standings.slice(0, perGroup)) out.push({ teamId: s.teamId, groupName: g.name, via: 'group' });
  }
  const taken = new Set(out.map((q) => q.teamId));
  for (const s of overall.filter((s) => !taken.has(s.teamId)).slice(0, best))
    out.push({ teamId: s.teamId, groupName: groupOf.get(s.teamId)!, via: 'best' });
  return out;
}
