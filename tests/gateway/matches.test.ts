import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminToken, createTournament, createUser, matchFields, startGateway, teamFields, uniqueUtr, type TestGateway } from './helpers.js';

describe('matches', () => {
  let gw: TestGateway;
  let admin: string;

  beforeAll(async () => {
    gw = await startGateway();
    admin = await adminToken(gw.api);
  });
  afterAll(() => gw.stop());

  const addMatch = (fields: Record<string, unknown>, token = admin) => gw.api.post('/matches', fields, token);

  it('admins create matches; the schedule comes back ordered by day and match number', async () => {
    const t = await createTournament(gw.api, admin);
    const created = await addMatch(matchFields(t.id, { day: 2, matchNo: 1, map: 'Miramar', time: '19:00:30' }));
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: expect.any(Number),
      tid: t.id,
      day: 2,
      matchNo: 1,
      map: 'Miramar',
      matchId: '7654321',
      password: 'sq9x',
      time: '19:00:30',
    });
    expect((await addMatch(matchFields(t.id, { day: 1, matchNo: 2 }))).status).toBe(201);
    expect((await addMatch(matchFields(t.id, { day: 1, matchNo: 1, matchId: '', password: '' }))).status).toBe(201);

    const list = await gw.api.get(`/matches/tournament/${t.id}`, admin);
    expect(list.status).toBe(200);
    expect(list.body.map((m: any) => [m.day, m.matchNo])).toEqual([
      [1, 1],
      [1, 2],
      [2, 1],
    ]);
    expect(list.body[0]).toMatchObject({ matchId: '', password: '' });
  });

  it('shows the room ID and password only to confirmed teams and admins', async () => {
    const t = await createTournament(gw.api, admin);
    const [player, outsider] = [await createUser(gw.api), await createUser(gw.api)];
    const team = await gw.api.post(`/registrations/${t.id}`, teamFields(), player.token);
    expect(team.status).toBe(201);
    // Decision 029: confirmed = payment verified (the entry fee is ₹100).
    const utr = uniqueUtr();
    expect((await gw.api.post(`/registrations/${t.id}/payment`, { upiReference: utr }, player.token)).status).toBe(200);
    expect(
      (await gw.api.put(`/registrations/admin/${team.body.rid}/payment`, { paymentStatus: 'verified', expectedUpiReference: utr }, admin))
        .status,
    ).toBe(200);
    // A team in another tournament does not unlock this one's rooms.
    const elsewhere = await createTournament(gw.api, admin);
    expect((await gw.api.post(`/registrations/${elsewhere.id}`, teamFields(), outsider.token)).status).toBe(201);
    await addMatch(matchFields(t.id, { matchId: 'ROOM-123', password: 'secret' }));

    const forPlayer = await gw.api.get(`/matches/tournament/${t.id}`, player.token);
    expect(forPlayer.status).toBe(200);
    expect(forPlayer.body[0]).toMatchObject({ matchId: 'ROOM-123', password: 'secret', map: 'Erangel', time: '18:30' });

    const forAdmin = await gw.api.get(`/matches/tournament/${t.id}`, admin);
    expect(forAdmin.body[0]).toMatchObject({ matchId: 'ROOM-123', password: 'secret' });

    const forOutsider = await gw.api.get(`/matches/tournament/${t.id}`, outsider.token);
    expect(forOutsider.status).toBe(200);
    expect(forOutsider.body[0]).toMatchObject({ map: 'Erangel', time: '18:30', matchId: null, password: null });
    expect(forOutsider.headers.get('cache-control')).toContain('no-store');
  });

  it('needs a token to read the schedule and 404s for a missing tournament', async () => {
    const t = await createTournament(gw.api, admin);
    expect((await gw.api.get(`/matches/tournament/${t.id}`)).status).toBe(401);
    const user = await createUser(gw.api);
    const missing = await gw.api.get('/matches/tournament/999999', user.token);
    expect(missing.status).toBe(404);
    expect(missing.body.message).toBe('Tournament not found.');
  });

  it('allows one match per (tournament, day, match number)', async () => {
    const [t, other] = [await createTournament(gw.api, admin), await createTournament(gw.api, admin)];
    expect((await addMatch(matchFields(t.id, { day: 3, matchNo: 4 }))).status).toBe(201);
    const dup = await addMatch(matchFields(t.id, { day: 3, matchNo: 4, map: 'Sanhok' }));
    expect(dup.status).toBe(409);
    expect(dup.body).toEqual({ message: 'Day 3 match 4 already exists: update it instead.' });
    expect((await addMatch(matchFields(other.id, { day: 3, matchNo: 4 }))).status).toBe(201);
    expect((await gw.api.get(`/matches/tournament/${t.id}`, admin)).body).toHaveLength(1);
  });

  it('validates day 1-7, match 1-6, map, room fields and time with field errors', async () => {
    const t = await createTournament(gw.api, admin);
    const cases: [Record<string, unknown>, string][] = [
      [{ day: 0 }, 'day'],
      [{ day: 8 }, 'day'],
      [{ day: 1.5 }, 'day'],
      [{ day: undefined }, 'day'],
      [{ matchNo: 0 }, 'matchNo'],
      [{ matchNo: 7 }, 'matchNo'],
      [{ matchNo: 'two' }, 'matchNo'],
      [{ map: '' }, 'map'],
      [{ map: 'm'.repeat(41) }, 'map'],
      [{ matchId: 'r'.repeat(41) }, 'matchId'],
      [{ password: 'p'.repeat(41) }, 'password'],
      [{ time: '24:00' }, 'time'],
      [{ time: '7:30' }, 'time'],
      [{ time: '18:30:60' }, 'time'],
      [{ time: '' }, 'time'],
      [{ tid: undefined }, 'tid'],
    ];
    for (const [override, field] of cases) {
      const res = await addMatch({ ...matchFields(t.id), ...override });
      expect(res.status, JSON.stringify(override)).toBe(400);
      expect(res.body.errors[field], JSON.stringify(override)).toBeTruthy();
    }
    expect((await addMatch(matchFields(t.id, { day: 7, matchNo: 6, map: 'm'.repeat(40), time: '23:59:59' }))).status).toBe(201);
    expect((await addMatch(matchFields(t.id, { day: '2', matchNo: '3' }))).body).toMatchObject({ day: 2, matchNo: 3 });
    expect((await gw.api.get(`/matches/tournament/${t.id}`, admin)).body).toHaveLength(2);
  });

  it('creating a match needs an admin and an existing tournament', async () => {
    const t = await createTournament(gw.api, admin);
    const user = await createUser(gw.api);
    expect((await addMatch(matchFields(t.id), user.token)).status).toBe(403);
    expect((await gw.api.post('/matches', matchFields(t.id))).status).toBe(401);
    const missing = await addMatch(matchFields(999_999));
    expect(missing.status).toBe(404);
    expect(missing.body.message).toBe('Tournament not found.');
  });

  it('PUT /matches/{id} updates a match, 404s when missing and 409s onto a taken slot', async () => {
    const t = await createTournament(gw.api, admin);
    const m1 = (await addMatch(matchFields(t.id, { day: 1, matchNo: 1 }))).body;
    await addMatch(matchFields(t.id, { day: 1, matchNo: 2 }));

    const updated = await gw.api.put(
      `/matches/${m1.id}`,
      matchFields(t.id, { day: 1, matchNo: 1, map: 'Vikendi', matchId: 'NEW-ROOM', password: 'pw2', time: '20:15' }),
      admin,
    );
    expect(updated.status).toBe(200);
    expect(updated.body).toEqual({
      id: m1.id,
      tid: t.id,
      day: 1,
      matchNo: 1,
      map: 'Vikendi',
      matchId: 'NEW-ROOM',
      password: 'pw2',
      time: '20:15',
    });

    const clash = await gw.api.put(`/matches/${m1.id}`, matchFields(t.id, { day: 1, matchNo: 2 }), admin);
    expect(clash.status).toBe(409);
    expect(clash.body.message).toMatch(/^Day 1 match 2 already exists/);

    const moved = await gw.api.put(`/matches/${m1.id}`, matchFields(t.id, { day: 2, matchNo: 5 }), admin);
    expect(moved.status).toBe(200);
    expect(moved.body).toMatchObject({ id: m1.id, day: 2, matchNo: 5 });

    const missing = await gw.api.put('/matches/999999', matchFields(t.id), admin);
    expect(missing.status).toBe(404);
    expect(missing.body.message).toBe('Match not found.');

    const other = await createTournament(gw.api, admin);
    const elsewhere = await gw.api.put(`/matches/${m1.id}`, matchFields(other.id), admin);
    expect(elsewhere.status).toBe(400);
    expect(elsewhere.body.errors.tid).toBeTruthy();

    const bad = await gw.api.put(`/matches/${m1.id}`, matchFields(t.id, { matchNo: 9 }), admin);
    expect(bad.status).toBe(400);
    expect(bad.body.errors.matchNo).toBe('Match number must be between 1 and 6.');

    const user = await createUser(gw.api);
    expect((await gw.api.put(`/matches/${m1.id}`, matchFields(t.id), user.token)).status).toBe(403);
    const list = (await gw.api.get(`/matches/tournament/${t.id}`, admin)).body;
    expect(list.map((m: any) => [m.day, m.matchNo, m.map])).toEqual([
      [1, 2, 'Erangel'],
      [2, 5, 'Erangel'],
    ]);
  });
});
