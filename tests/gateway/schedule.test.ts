// GET /tournaments/{id}/schedule/mine (issue 32, decision 087): the matches page's five reads in one answer.
// Each part must be exactly what its own call answers the same caller, rooms above all.
import type { KyselyPlugin } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { splitForPage } from '../support/gateway-stub.js';
import {
  addLobbyTeams,
  adminToken,
  createTournament,
  createUser,
  startGateway,
  teamFields,
  type TestGateway,
  type TestUser,
} from './helpers.js';

describe('the matches page in one answer', () => {
  let gw: TestGateway;
  let admin: string;
  let tid: number;
  let inA: TestUser;
  let inB: TestUser;
  let outsider: TestUser;
  let member: TestUser;
  const rooms = new Map<number, { matchId: string; password: string }>();

  beforeAll(async () => {
    gw = await startGateway();
    admin = await adminToken(gw.api);
    const t = await createTournament(gw.api, admin, { entryFee: '0', maxTeams: '100' });
    tid = t.id;
    [inA, inB, outsider, member] = [await createUser(gw.api), await createUser(gw.api), await createUser(gw.api), await createUser(gw.api)];
    // Drawn in registration order into lobbies of 3: the first player's team in A, the second's in B.
    // member: a player on Alpha's roster who did not register it (its reports, not its team).
    const alpha = teamFields({ teamName: 'Alpha Squad', player2Username: member.username });
    expect((await gw.api.post(`/registrations/${tid}`, alpha, inA.token)).status).toBe(201);
    await addLobbyTeams(gw, tid, 2);
    expect((await gw.api.post(`/registrations/${tid}`, teamFields({ teamName: 'Bravo Squad' }), inB.token)).status).toBe(201);
    await addLobbyTeams(gw, tid, 2);
    const base = `/tournaments/${tid}/stages`;
    const stage = await gw.api.post(base, { name: 'Qualifiers', lobbySize: 3, advancePerGroup: 1 }, admin);
    expect(stage.status, JSON.stringify(stage.body)).toBe(201);
    expect((await gw.api.post(`${base}/${stage.body.id}/groups`, { method: 'registration' }, admin)).status).toBe(200);
    const matches = await gw.api.post(
      `${base}/${stage.body.id}/matches`,
      { matches: [{ day: 1, matchNo: 1, map: 'Erangel', time: '18:30' }] },
      admin,
    );
    expect(matches.status, JSON.stringify(matches.body)).toBe(200);
    expect((await gw.api.post(`${base}/${stage.body.id}/publish`, {}, admin)).status).toBe(200);
    for (const m of matches.body) rooms.set(m.groupId, { matchId: String(8_000_000 + m.id), password: `pw-${m.groupId}` });
    const saved = await gw.api.put(
      `${base}/${stage.body.id}/rooms`,
      { rooms: matches.body.map((m: { id: number; groupId: number }) => ({ id: m.id, ...rooms.get(m.groupId) })) },
      admin,
    );
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    // A check-in window on the stage, so the windows part has something to carry.
    const window = { checkInOpensAt: '2030-06-01T12:00:00.000Z', checkInClosesAt: '2030-06-01T12:30:00.000Z' };
    expect((await gw.api.put(`${base}/${stage.body.id}`, window, admin)).status).toBe(200);
  });
  afterAll(() => gw?.stop());

  /** What the four calls answer the caller, and the stages' windows, as the one answer should carry them. */
  async function separately(token: string) {
    const [tournament, matches, team, reports, stages, me] = await Promise.all([
      gw.api.get(`/tournaments/${tid}`, token),
      gw.api.get(`/matches/tournament/${tid}`, token),
      gw.api.get(`/registrations/${tid}`, token),
      gw.api.get(`/tournaments/${tid}/reports/mine`, token),
      gw.api.get(`/tournaments/${tid}/stages`),
      gw.api.get('/api/auth/me', token),
    ]);
    for (const res of [tournament, matches, stages, me]) expect(res.status).toBe(200);
    for (const res of [team, reports]) expect([200, 404]).toContain(res.status);
    const own = new Set<number>(team.status === 200 ? team.body.placements.map((p: { groupId: number }) => p.groupId) : []);
    return {
      tournament: tournament.body,
      // The team's groups' matches first, every other group's once per shared schedule, without rooms.
      ...splitForPage(matches.body, own),
      team: team.status === 200 ? team.body : null,
      reports: reports.status === 200 ? reports.body : null,
      checkInWindows: stages.body
        .filter((s: { checkIn?: unknown }) => s.checkIn)
        .map((s: { id: number; name: string; checkIn: { opensAt: string; closesAt: string } }) => ({
          stageId: s.id,
          stageName: s.name,
          opensAt: s.checkIn.opensAt,
          closesAt: s.checkIn.closesAt,
        })),
      // The caller as GET /api/auth/me says it, without email and phone.
      viewer: { id: me.body.id, username: me.body.username, roles: me.body.roles, unreadNotifications: me.body.unreadNotifications },
    };
  }

  it('answers each caller what the separate calls answer it: a group its own room only, a stranger and the admin none (theirs are on the organiser pages)', async () => {
    for (const [who, token] of [
      ['group A', inA.token],
      ['group B', inB.token],
      ['no team', outsider.token],
      ['on a roster', member.token],
      ['admin', admin],
    ] as const) {
      const one = await gw.api.get(`/tournaments/${tid}/schedule/mine`, token);
      expect(one.status, who).toBe(200);
      expect(one.headers.get('cache-control'), who).toBe('private, no-store');
      expect(one.body, who).toEqual(await separately(token));
    }
    const [groupA, groupB] = [...rooms.keys()];
    const page = async (token: string) => (await gw.api.get(`/tournaments/${tid}/schedule/mine`, token)).body;
    const passwords = (body: { matches: { password: string | null }[] }) => body.matches.map((m) => m.password);
    // Each group's player: its own room only; the other group is a schedule without rooms.
    const a = await page(inA.token);
    expect(passwords(a)).toEqual([rooms.get(groupA!)!.password]);
    expect(a.otherGroups).toEqual([
      {
        stageId: expect.any(Number),
        stageName: 'Qualifiers',
        groups: [{ groupId: groupB, groupName: 'B' }],
        matches: [{ id: expect.any(Number), day: 1, matchNo: 1, map: 'Erangel', time: '18:30' }],
      },
    ]);
    expect(passwords(await page(inB.token))).toEqual([rooms.get(groupB!)!.password]);
    // No team (the admin neither): no group is its own, both groups play the same match, one entry.
    for (const token of [outsider.token, admin]) {
      const body = await page(token);
      expect(body.matches).toEqual([]);
      expect(body.otherGroups.map((g: { groups: { groupName: string }[] }) => g.groups.map((x) => x.groupName))).toEqual([['A', 'B']]);
    }
    expect(JSON.stringify(await page(outsider.token))).not.toMatch(/pw-/);
    const mine = (await gw.api.get(`/tournaments/${tid}/schedule/mine`, inA.token)).body;
    expect(mine.team.teamName).toBe('Alpha Squad');
    expect(mine.reports).toMatchObject({ teamName: 'Alpha Squad', captain: true });
    expect(mine.checkInWindows).toEqual([
      { stageId: expect.any(Number), stageName: 'Qualifiers', opensAt: '2030-06-01T12:00:00.000Z', closesAt: '2030-06-01T12:30:00.000Z' },
    ]);
    const stranger = (await gw.api.get(`/tournaments/${tid}/schedule/mine`, outsider.token)).body;
    expect(stranger).toMatchObject({ team: null, reports: null });
    // A player on the roster: no team of its own, its team's reports (not as the captain), no room (decision 041).
    const onRoster = (await gw.api.get(`/tournaments/${tid}/schedule/mine`, member.token)).body;
    expect(onRoster).toMatchObject({ team: null, reports: { teamName: 'Alpha Squad', captain: false } });
    expect(JSON.stringify(onRoster)).not.toMatch(/pw-/);
  });

  it('reads the tournament, the caller and its team once: a warm answer makes a fixed number of queries', async () => {
    const store = gw.app.store;
    const db = store.db;
    const queries: string[] = [];
    const counting: KyselyPlugin = {
      transformQuery: ({ node }) => {
        queries.push(db.getExecutor().compileQuery(node, { queryId: '' }).sql);
        return node;
      },
      transformResult: async ({ result }) => result,
    };
    await gw.api.get(`/tournaments/${tid}/schedule/mine`, inA.token);
    Object.assign(store, { db: db.withPlugin(counting) });
    try {
      expect((await gw.api.get(`/tournaments/${tid}/schedule/mine`, inA.token)).status).toBe(200);
    } finally {
      Object.assign(store, { db });
    }
    // The session (users joined), the deadline sweep, the registration, its groups, its placements, the
    // stage's check-ins (2), its report windows (3: matches, reporting, reports), the unread count, the
    // character ids (2), the crew standing. Not the tournament's row, matches, groups or stages: kept per change.
    expect(
      queries.filter((q) => /from "registrations" where "tournament_id" = (\?|\$\d+) and "user_id" = (\?|\$\d+)/.test(q)),
    ).toHaveLength(1);
    expect(queries.filter((q) => /from "tournaments"/.test(q) && !/from "tournaments" as "t" inner join "organisers"/.test(q))).toEqual([
      expect.stringMatching(/^select distinct "tournament_id" from "registrations"/),
    ]);
    expect(queries.length, queries.join('\n')).toBe(14);
  });

  it('shows a changed room at once: the schedule is kept only while nothing of the tournament changed', async () => {
    const matches = (await gw.api.get(`/matches/tournament/${tid}`, admin)).body as { id: number; groupId: number; matchId: string }[];
    const ownMatch = matches.find((m) => m.groupId === [...rooms.keys()][0])!;
    const stage = (await gw.api.get(`/tournaments/${tid}/stages`)).body[0];
    for (const password of ['changed-once', 'changed-twice']) {
      const saved = await gw.api.put(
        `/tournaments/${tid}/stages/${stage.id}/rooms`,
        { rooms: [{ id: ownMatch.id, matchId: ownMatch.matchId, password }] },
        admin,
      );
      expect(saved.status, JSON.stringify(saved.body)).toBe(200);
      expect((await gw.api.get(`/tournaments/${tid}/schedule/mine`, inA.token)).body.matches[0].password).toBe(password);
      expect(
        (await gw.api.get(`/matches/tournament/${tid}`, inA.token)).body.find((m: { id: number }) => m.id === ownMatch.id).password,
      ).toBe(password);
    }
  });

  it('is 401 without a session and 404 for a tournament that does not exist, as a whole', async () => {
    expect((await gw.api.get(`/tournaments/${tid}/schedule/mine`)).status).toBe(401);
    const missing = await gw.api.get('/tournaments/987654/schedule/mine', inA.token);
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ message: 'Tournament not found.' });
    expect((await gw.api.get('/tournaments/abc/schedule/mine', inA.token)).status).toBe(400);
  });
});
