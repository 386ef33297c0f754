import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  adminToken,
  Api,
  createStorage,
  createTournament,
  createUser,
  dialectName,
  freePort,
  spawnGateway,
  startGateway,
  teamFields,
  type GatewayProcess,
  type TestGateway,
  type TestUser,
} from './helpers.js';

const PLAYERS = 200;
const SLOTS = 16;
const BATCH = 25;

describe(`registration slot cap under concurrency (${dialectName})`, () => {
  let gw: TestGateway;
  let admin: string;

  beforeAll(async () => {
    gw = await startGateway();
    admin = await adminToken(gw.api);
  });
  afterAll(() => gw.stop());

  // 10-15 s on an idle 2-core machine, the 200 registrations themselves 1-4 s; argon2 for 200 sign-ups and logins
  // dominates, so the limit leaves room for a loaded machine.
  it(`lets exactly ${SLOTS} of ${PLAYERS} simultaneous registrations in`, { timeout: 120_000 }, async () => {
    const users: TestUser[] = [];
    for (let i = 0; i < PLAYERS; i += BATCH) {
      users.push(...(await Promise.all(Array.from({ length: Math.min(BATCH, PLAYERS - i) }, () => createUser(gw.api)))));
    }
    const t = await createTournament(gw.api, admin, { maxTeams: String(SLOTS) });

    const results = await Promise.all(users.map((u) => gw.api.post(`/registrations/${t.id}`, teamFields(), u.token)));

    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(SLOTS);
    expect(statuses.filter((s) => s === 409)).toHaveLength(PLAYERS - SLOTS);
    for (const r of results.filter((r) => r.status === 409)) expect(r.body).toEqual({ message: 'Registration is full.' });

    expect((await gw.api.get(`/tournaments/${t.id}`)).body.registeredTeams).toBe(SLOTS);
    const listed = await gw.api.get(`/registrations/tournament/${t.id}`, admin);
    expect(listed.body).toHaveLength(SLOTS);
    const winners = new Set(results.filter((r) => r.status === 201).map((r) => r.body.rid));
    expect(new Set(listed.body.map((r: any) => r.rid))).toEqual(winners);
  });
});

// Several gateway instances on one database (the deployment DESIGN.md allows): the cap must hold across
// processes too. On SQLite this is what BEGIN IMMEDIATE is for; within one process the driver already serialises.
describe(`registration slot cap across two gateway processes (${dialectName})`, () => {
  const procs: GatewayProcess[] = [];
  afterAll(async () => {
    await Promise.all(procs.map((p) => p.stop()));
  });

  it(`lets exactly ${SLOTS} in when ${PLAYERS} registrations are split between two processes`, { timeout: 120_000 }, async () => {
    const storage = await createStorage();
    const env = { DATA_DIR: storage.dataDir, ...(storage.databaseUrl ? { DATABASE_URL: storage.databaseUrl } : {}) };
    const first = spawnGateway({ ...env, GATEWAY_PORT: String(await freePort()) });
    procs.push(first);
    await first.ready(); // migrations and the admin account first, then the second instance
    const second = spawnGateway({ ...env, GATEWAY_PORT: String(await freePort()) });
    procs.push(second);
    await second.ready();
    const apis = [new Api(first.url), new Api(second.url)];

    const users: TestUser[] = [];
    for (let i = 0; i < PLAYERS; i += BATCH) {
      users.push(...(await Promise.all(Array.from({ length: Math.min(BATCH, PLAYERS - i) }, (_, j) => createUser(apis[(i + j) % 2]!)))));
    }
    const t = await createTournament(apis[0]!, await adminToken(apis[0]!), { maxTeams: String(SLOTS) });

    const results = await Promise.all(users.map((u, i) => apis[i % 2]!.post(`/registrations/${t.id}`, teamFields(), u.token)));
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(SLOTS);
    expect(statuses.filter((s) => s === 409)).toHaveLength(PLAYERS - SLOTS);
    expect((await apis[1]!.get(`/tournaments/${t.id}`)).body.registeredTeams).toBe(SLOTS);
  });
});
