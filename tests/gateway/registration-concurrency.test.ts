import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminToken, createTournament, createUser, dialectName, startGateway, teamFields, type TestGateway, type TestUser } from './helpers.js';

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
