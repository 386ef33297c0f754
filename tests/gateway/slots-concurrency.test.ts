import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase, type DatabaseHandle } from '../../gateway/src/db/index.js';
import { createTokenService } from '../../gateway/src/lib/tokens.js';
import {
  adminToken,
  Api,
  createPlayersDirect,
  createStorage,
  createTournament,
  dialectName,
  freePort,
  spawnGateway,
  startGateway,
  teamFields,
  type GatewayProcess,
  type TestUser,
} from './helpers.js';

const MAX = 40;
const FIRST = 80; // 40 placed, 40 waitlisted
const LATE = 140; // join the waitlist while 60 teams leave: 200 calls

/**
 * Decision 043 under load: 200 calls at once (placed and waitlisted teams withdraw, the organiser releases
 * placed teams, new teams join the waitlist), split over the given gateways. Afterwards: never more than
 * Max Teams placed, exactly Max Teams while teams wait, one promotion per team and per freed place, no
 * promotion lost, waitlist positions 1…n.
 */
async function churn(apis: Api[], store: DatabaseHandle, users: TestUser[]) {
  const admin = await adminToken(apis[0]!);
  const t = await createTournament(apis[0]!, admin, { maxTeams: String(MAX), entryFee: '100', paymentDeadlineHours: '6' });
  const api = (i: number) => apis[i % apis.length]!;
  const [first, late] = [users.slice(0, FIRST), users.slice(FIRST, FIRST + LATE)];

  const joined = await Promise.all(
    first.map((u, i) => api(i).post(`/registrations/${t.id}`, { ...teamFields(), waitlist: true }, u.token)),
  );
  expect(joined.map((r) => r.status)).toEqual(first.map(() => 201));
  expect(joined.filter((r) => r.body.place === 'placed')).toHaveLength(MAX);
  const placed = joined.filter((r) => r.body.place === 'placed').map((r) => r.body);
  const waiting = joined.filter((r) => r.body.place === 'waitlist').map((r) => r.body);
  const owner = new Map(joined.map((r, i) => [r.body.rid, first[i]!]));

  const calls = [
    ...placed.slice(0, 30).map((r, i) => api(i).post(`/registrations/${t.id}/withdraw`, {}, owner.get(r.rid)!.token)),
    ...placed.slice(30).map((r, i) => api(i + 1).post(`/registrations/admin/${r.rid}/release`, {}, admin)),
    ...waiting.slice(0, 20).map((r, i) => api(i).post(`/registrations/${t.id}/withdraw`, {}, owner.get(r.rid)!.token)),
    ...late.map((u, i) => api(i + 1).post(`/registrations/${t.id}`, { ...teamFields(), waitlist: true }, u.token)),
  ];
  expect(calls).toHaveLength(200);
  const results = await Promise.all(calls);
  // A withdrawal may find its waitlisted team promoted meanwhile: it withdraws from the place then. All succeed.
  expect(results.map((r) => r.status).filter((s) => s >= 300)).toEqual([]);

  const rows = await store.db
    .selectFrom('registrations')
    .select(['id', 'place', 'placed_at', 'released_reason'])
    .where('tournament_id', '=', t.id)
    .orderBy('id')
    .execute();
  const count = (place: string) => rows.filter((r) => r.place === place).length;
  expect(rows).toHaveLength(FIRST + LATE);
  expect(count('placed')).toBe(MAX); // 40 left, 20 + 140 waited: every freed place was filled, none twice
  expect(count('withdrawn')).toBe(50);
  expect(count('released')).toBe(10);
  expect(count('waitlist')).toBe(FIRST + LATE - MAX - 60);

  const events = await store.db.selectFrom('notification_events').select(['kind', 'audience']).where('tournament_id', '=', t.id).execute();
  const promoted = events.filter((e) => e.kind === 'promoted').map((e) => JSON.parse(e.audience).registrations[0] as number);
  expect(new Set(promoted).size).toBe(promoted.length); // never promoted twice
  // Every team placed now got there by registering into a free place (the waitlist empty then) or by
  // exactly one promotion: none lost, none doubled.
  const placedOnArrival = new Set(
    [...placed, ...results.slice(60).map((r) => r.body)].filter((r) => r.place === 'placed').map((r) => r.rid),
  );
  for (const row of rows.filter((r) => r.place === 'placed')) {
    expect(placedOnArrival.has(row.id) !== promoted.includes(row.id), `rid ${row.id}`).toBe(true);
  }
  expect(events.filter((e) => e.kind === 'released')).toHaveLength(10);

  const list = (await apis[0]!.get(`/registrations/tournament/${t.id}`, admin)).body;
  const positions = list.filter((r: any) => r.place === 'waitlist').map((r: any) => r.waitlistPosition);
  expect(positions).toEqual(positions.map((_: number, i: number) => i + 1));
  expect((await apis[0]!.get(`/tournaments/${t.id}`)).body.registeredTeams).toBe(MAX);
}

describe(`places under concurrency (${dialectName})`, () => {
  it('200 withdrawals, releases and waitlist joins at once in one process', { timeout: 180_000 }, async () => {
    const gw = await startGateway();
    try {
      const users = await createPlayersDirect(gw.app.store, gw.app.tokens, FIRST + LATE);
      await churn([gw.api], gw.app.store, users);
    } finally {
      await gw.stop();
    }
  });
});

describe(`places across two gateway processes (${dialectName})`, () => {
  const procs: GatewayProcess[] = [];
  afterAll(async () => {
    await Promise.all(procs.map((p) => p.stop()));
  });

  it('the same 200 calls split between two processes', { timeout: 180_000 }, async () => {
    const storage = await createStorage();
    const env = { DATA_DIR: storage.dataDir, ...(storage.databaseUrl ? { DATABASE_URL: storage.databaseUrl } : {}) };
    const first = spawnGateway({ ...env, GATEWAY_PORT: String(await freePort()), PAYMENT_SWEEP_INTERVAL_MS: '200' });
    procs.push(first);
    await first.ready();
    const second = spawnGateway({ ...env, GATEWAY_PORT: String(await freePort()), PAYMENT_SWEEP_INTERVAL_MS: '200' });
    procs.push(second);
    await second.ready();
    const store = await openDatabase({ databaseUrl: storage.databaseUrl, dataDir: storage.dataDir });
    try {
      const tokens = await createTokenService({ dataDir: storage.dataDir, ttlSeconds: 3600 });
      const users = await createPlayersDirect(store, tokens, FIRST + LATE);
      await churn([new Api(first.url), new Api(second.url)], store, users);
    } finally {
      await store.close();
    }
  });
});
