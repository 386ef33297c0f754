import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../gateway/src/db/index.js';
import { createTokenService } from '../../gateway/src/lib/tokens.js';
import {
  adminToken,
  Api,
  createStorage,
  createTournament,
  createPlayersDirect,
  dialectName,
  freePort,
  spawnGateway,
  startGateway,
  teamFields,
  type GatewayProcess,
  type TestGateway,
} from './helpers.js';

const PLAYERS = 200;
const SLOTS = 16;

describe(`registration slot cap under concurrency (${dialectName})`, () => {
  let gw: TestGateway;
  let admin: string;

  beforeAll(async () => {
    gw = await startGateway();
    admin = await adminToken(gw.api);
  });
  afterAll(() => gw.stop());

  it(`lets exactly ${SLOTS} of ${PLAYERS} simultaneous registrations in`, { timeout: 120_000 }, async () => {
    const users = await createPlayersDirect(gw.app.store, gw.app.tokens, PLAYERS);
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

    // The players, written through the repository and signed with the key the processes share (in DATA_DIR).
    const store = await openDatabase({ databaseUrl: storage.databaseUrl, dataDir: storage.dataDir });
    const tokens = await createTokenService({ dataDir: storage.dataDir, ttlSeconds: 3600 });
    const users = await createPlayersDirect(store, tokens, PLAYERS).finally(() => store.close());
    const t = await createTournament(apis[0]!, await adminToken(apis[0]!), { maxTeams: String(SLOTS) });

    const results = await Promise.all(users.map((u, i) => apis[i % 2]!.post(`/registrations/${t.id}`, teamFields(), u.token)));
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(SLOTS);
    expect(statuses.filter((s) => s === 409)).toHaveLength(PLAYERS - SLOTS);
    expect((await apis[1]!.get(`/tournaments/${t.id}`)).body.registeredTeams).toBe(SLOTS);
  });
});
