// Issue 27, items 4, 6, 7 and 8 (decision 053): groups hosted one after another, a stage that completes only
// with its results (or its matches marked not played), check-in and invitations that say what they do, a draw
// that asks before it splits a stage, and a match whose finishes cannot exceed its lobby's players.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { matchStartsAt } from '@custom-room/contract';
import { FakeClock } from '../../gateway/src/lib/clock.js';
import {
  addLobbyTeams,
  adminToken,
  createTournament,
  createTournamentWithTeams,
  createUser,
  isoIn,
  startGateway,
  unique,
  useGatewayWithPlayers,
  type ApiResponse,
  type TestGateway,
  type TestUser,
} from './helpers.js';

const expectStatus = <T>(res: ApiResponse<T>, status: number, what = ''): T => {
  expect(res.status, `${what} ${JSON.stringify(res.body)}`.trim()).toBe(status);
  return res.body;
};

/** The stage calls of one gateway, as an admin makes them. */
function stageCalls(get: () => { gw: TestGateway; admin: string }) {
  const url = (tid: number, sid?: number) => `/tournaments/${tid}/stages${sid ? `/${sid}` : ''}`;
  const api = () => get().gw.api;
  const admin = () => get().admin;
  return {
    url,
    addStage: async (tid: number, body: Record<string, unknown>) =>
      expectStatus(await api().post(url(tid), body, admin()), 201, 'create stage') as any,
    draw: (tid: number, sid: number, body: Record<string, unknown> = { method: 'registration' }) =>
      api().post(`${url(tid, sid)}/groups`, body, admin()),
    publish: async (tid: number, sid: number) => expectStatus(await api().post(`${url(tid, sid)}/publish`, {}, admin()), 200, 'publish'),
    schedule: (tid: number, sid: number, body: Record<string, unknown>) => api().post(`${url(tid, sid)}/matches`, body, admin()),
    complete: (tid: number, sid: number, body: Record<string, unknown> = {}) => api().post(`${url(tid, sid)}/complete`, body, admin()),
    advance: async (tid: number, sid: number) => expectStatus(await api().get(`${url(tid, sid)}/advance`, admin()), 200, 'advance') as any,
    stage: async (tid: number, sid: number, token?: string) =>
      (expectStatus(await api().get(url(tid), token ?? admin()), 200, 'stages') as any[]).find((s) => s.id === sid),
    saveGroupMatch: (tid: number, day: number, match: number, groupId: number, results: unknown[]) =>
      api().put(`/tournaments/${tid}/points-table/matches/${day}/${match}`, { groupId, results }, admin()),
  };
}

describe('stage lifecycle (issue 27)', () => {
  let gw: TestGateway;
  let admin: string;
  let players: TestUser[];
  const setup = useGatewayWithPlayers(9);
  beforeAll(() => ({ gw, admin, players } = setup));
  const s = stageCalls(() => ({ gw, admin }));

  /** n player teams, free entry (every team confirmed). */
  const withTeams = (n: number, overrides: Record<string, string> = {}) =>
    createTournamentWithTeams(
      gw.api,
      admin,
      players,
      Array.from({ length: n }, (_, i) => `T${i} ${unique()}`),
      { entryFee: '0', pointsSystem: 'bmps-15', maxTeams: '100', ...overrides },
    );

  describe('item 4: a time per group', () => {
    it('a gap between groups gives each group its own time, kept for the next rows; past midnight is refused, naming the field', async () => {
      const { tid } = await withTeams(6);
      const stage = await s.addStage(tid, { name: 'Qualifiers', lobbySize: 2 });
      expect(stage.groupGap).toBe(0);
      expectStatus(await s.draw(tid, stage.id), 200, 'draw');
      const first = expectStatus(
        await s.schedule(tid, stage.id, { matches: [{ day: 1, matchNo: 1, map: 'Erangel', time: '12:00' }], groupGap: 90 }),
        200,
        'schedule',
      ) as any[];
      expect(first.map((m) => `${m.groupName} ${m.time}`)).toEqual(['A 12:00', 'B 13:30', 'C 15:00']);
      expect((await s.stage(tid, stage.id)).groupGap).toBe(90);

      // The next call without a gap keeps the stage's: match 2 at 16:30 is 16:30, 18:00, 19:30.
      const second = expectStatus(
        await s.schedule(tid, stage.id, { matches: [{ day: 1, matchNo: 2, map: 'Miramar', time: '16:30' }] }),
        200,
        'schedule 2',
      ) as any[];
      expect(second.filter((m) => m.matchNo === 2).map((m) => `${m.groupName} ${m.time}`)).toEqual(['A 16:30', 'B 18:00', 'C 19:30']);

      // Group C of a 22:00 match would start at 01:00: refused whole, nothing changed.
      const late = await s.schedule(tid, stage.id, { matches: [{ day: 1, matchNo: 1, map: 'Erangel', time: '22:00' }] });
      expect(late.status).toBe(400);
      expect(late.body.errors['matches.0.time']).toMatch(/Group C of day 1 match 1 would start after midnight/);
      expect(late.body.errors.groupGap).toBeDefined();
      const stored = (await gw.api.get(`/matches/tournament/${tid}`, admin)).body as any[];
      expect(stored.filter((m) => m.matchNo === 1).map((m) => m.time)).toEqual(['12:00', '13:30', '15:00']);

      // A gap of 0 puts every group at the row's time again (as before issue 27).
      const same = expectStatus(
        await s.schedule(tid, stage.id, { matches: [{ day: 1, matchNo: 1, map: 'Erangel', time: '18:00' }], groupGap: 0 }),
        200,
        'gap 0',
      ) as any[];
      expect(same.filter((m) => m.matchNo === 1).map((m) => m.time)).toEqual(['18:00', '18:00', '18:00']);
      expect(
        expectStatus(await s.schedule(tid, stage.id, { matches: [{ day: 1, matchNo: 1, map: 'E', time: '18:00' }], groupGap: 721 }), 400)
          .errors.groupGap,
      ).toMatch(/from 0 to 720/);
    });

    it("a team's matches answer carries its own group's time", async () => {
      const { tid } = await withTeams(4);
      const stage = await s.addStage(tid, { name: 'Qualifiers', lobbySize: 2 });
      expectStatus(await s.draw(tid, stage.id), 200, 'draw');
      await s.publish(tid, stage.id);
      expectStatus(
        await s.schedule(tid, stage.id, { matches: [{ day: 1, matchNo: 1, map: 'Erangel', time: '12:00' }], groupGap: 90 }),
        200,
      );
      // players 0, 1 are group A; 2, 3 group B (registration order).
      const mine = (await gw.api.get(`/matches/tournament/${tid}`, players[3]!.token)).body as any[];
      expect(mine.find((m) => m.groupName === 'B').time).toBe('13:30');
      expect(mine.find((m) => m.groupName === 'A').time).toBe('12:00');
    });
  });

  describe('item 6: completing needs results, or matches marked not played', () => {
    /** A published stage of 4 teams in groups A and B, with day 1 matches 1 and 2 scheduled: 4 group-matches. */
    async function stageWithMatches() {
      const { tid, teams } = await withTeams(4);
      const stage = await s.addStage(tid, { name: `Qualifiers`, lobbySize: 2, advancePerGroup: 1 });
      const drawn = expectStatus(await s.draw(tid, stage.id), 200, 'draw') as any;
      await s.publish(tid, stage.id);
      const matches = expectStatus(
        await s.schedule(tid, stage.id, {
          matches: [
            { day: 1, matchNo: 1, map: 'Erangel', time: '12:00' },
            { day: 1, matchNo: 2, map: 'Miramar', time: '13:00' },
          ],
        }),
        200,
        'schedule',
      ) as any[];
      const group = (name: string) => drawn.groups.find((g: any) => g.name === name);
      return { tid, teams, stage, group, matches };
    }

    it('"1 of 4 group-matches have results": the stage, the preview and the refusal say it; then marked not played, it completes and the history shows it', async () => {
      const { tid, stage, group, matches } = await stageWithMatches();
      const a = group('A');
      const [a1, a2] = a.slots.map((x: any) => x.teamId);
      expectStatus(
        await s.saveGroupMatch(tid, 1, 1, a.id, [
          { teamId: a1, position: 1, finishes: 3 },
          { teamId: a2, position: 2, finishes: 1 },
        ]),
        200,
        'A results',
      );
      expect((await s.stage(tid, stage.id)).groupMatches).toEqual({ scheduled: 4, withResults: 1, notPlayed: 0 });
      // Anyone reading the stage list sees the same count.
      expect((await s.stage(tid, stage.id, '')).groupMatches).toEqual({ scheduled: 4, withResults: 1, notPlayed: 0 });

      const preview = await s.advance(tid, stage.id);
      expect(preview.missing.map((m: any) => `D${m.day} M${m.matchNo} ${m.groupName}`)).toEqual(['D1 M1 B', 'D1 M2 A', 'D1 M2 B']);

      const refused = await s.complete(tid, stage.id);
      expect(refused.status).toBe(409);
      expect(refused.body.message).toBe(
        '1 of 4 group-matches have results. Enter the results of Day 1 match 1 Group B, Day 1 match 2 Group A, Day 1 match 2 Group B, or mark them as not played.',
      );
      expect(refused.body.errors.notPlayed).toBe(refused.body.message);
      expect((await s.stage(tid, stage.id)).state).toBe('published');

      // Marking only some is still refused, and marks nothing.
      const some = preview.missing.slice(0, 2).map((m: any) => m.id);
      const partly = await s.complete(tid, stage.id, { notPlayed: some });
      expect(partly.status).toBe(409);
      expect(partly.body.message).toMatch(/^1 of 4 group-matches have results\. Enter the results of Day 1 match 2 Group B, or mark it/);
      expect((await s.stage(tid, stage.id)).groupMatches.notPlayed).toBe(0);

      // A match that has results, or another stage's, cannot be marked.
      const withResults = matches.find((m) => m.groupId === a.id && m.matchNo === 1).id;
      const wrong = await s.complete(tid, stage.id, { notPlayed: [...preview.missing.map((m: any) => m.id), withResults] });
      expect(wrong.status).toBe(400);
      expect(wrong.body.errors.notPlayed).toMatch(/without results can be marked not played/);
      expect((await s.complete(tid, stage.id, { notPlayed: 'all' })).status).toBe(400);

      const done = expectStatus(await s.complete(tid, stage.id, { notPlayed: preview.missing.map((m: any) => m.id) }), 200, 'complete');
      expect(done.stage.state).toBe('completed');
      expect(done.stage.groupMatches).toEqual({ scheduled: 4, withResults: 1, notPlayed: 3 });
      expect(done.missing.every((m: any) => m.notPlayed)).toBe(true);

      const history = expectStatus(await gw.api.get(`/tournaments/${tid}/points-table/history`), 200, 'history') as any;
      expect(history.notPlayed.map((n: any) => [n.day, n.match, n.groupName, n.stageName, n.markedBy])).toEqual([
        [1, 1, 'B', 'Qualifiers', 'admin'],
        [1, 2, 'A', 'Qualifiers', 'admin'],
        [1, 2, 'B', 'Qualifiers', 'admin'],
      ]);
      expect(Date.parse(history.notPlayed[0].markedAt)).not.toBeNaN();

      // Reopened, the marks stay: completing again needs nothing more.
      expectStatus(await gw.api.post(`${s.url(tid, stage.id)}/reopen`, {}, admin), 200, 'reopen');
      expectStatus(await s.complete(tid, stage.id), 200, 'complete again');
    });

    it('a stage with no scheduled match cannot be completed; with every result in, it completes without marks', async () => {
      const { tid } = await withTeams(4);
      const stage = await s.addStage(tid, { name: 'Final', lobbySize: 4 });
      const drawn = expectStatus(await s.draw(tid, stage.id), 200, 'draw') as any;
      await s.publish(tid, stage.id);
      const empty = await s.complete(tid, stage.id);
      expect(empty.status).toBe(409);
      expect(empty.body.message).toBe("Schedule Final's matches and enter their results before completing it.");
      expect((await s.stage(tid, stage.id)).groupMatches).toEqual({ scheduled: 0, withResults: 0, notPlayed: 0 });

      expectStatus(await s.schedule(tid, stage.id, { matches: [{ day: 1, matchNo: 1, map: 'Erangel', time: '12:00' }] }), 200);
      const ids = drawn.groups[0].slots.map((x: any) => x.teamId);
      expectStatus(
        await s.saveGroupMatch(
          tid,
          1,
          1,
          drawn.groups[0].id,
          ids.map((teamId: number, i: number) => ({ teamId, position: i + 1, finishes: 1 })),
        ),
        200,
      );
      const done = expectStatus(await s.complete(tid, stage.id), 200, 'complete');
      expect(done.stage.groupMatches).toEqual({ scheduled: 1, withResults: 1, notPlayed: 0 });
      expect(done.missing).toEqual([]);
      expect(((await gw.api.get(`/tournaments/${tid}/points-table/history`)).body as any).notPlayed).toBeUndefined();
    });
  });

  describe('item 7: check-in, invitations and the draw', () => {
    it('a stage with a check-in window says how many checked in, and the draw refusal says only they are drawn', async () => {
      const { tid } = await withTeams(3);
      const stage = await s.addStage(tid, {
        name: 'Qualifiers',
        lobbySize: 4,
        checkInOpensAt: isoIn(-1),
        checkInClosesAt: isoIn(1),
      });
      expect((await s.stage(tid, stage.id)).checkedIn).toBe(0);
      expect((await s.stage(tid, stage.id)).entrants).toBe(3);
      const refused = await s.draw(tid, stage.id);
      expect(refused.status).toBe(409);
      expect(refused.body.message).toContain('Qualifiers has 0. 0 of 3 entrants have checked in: only checked-in teams are drawn.');

      for (const p of players.slice(0, 2)) expectStatus(await gw.api.post(`${s.url(tid, stage.id)}/check-in`, {}, p.token), 200);
      expect((await s.stage(tid, stage.id)).checkedIn).toBe(2);
      const drawn = expectStatus(await s.draw(tid, stage.id), 200, 'draw') as any;
      expect(drawn.checkedIn).toBe(2);
      expect(drawn.groups.flatMap((g: any) => g.slots)).toHaveLength(2);

      // A stage without a window has no checkedIn key (the answers stay as they were).
      const plain = await s.addStage(tid, { name: 'Final', lobbySize: 4 });
      expect('checkedIn' in plain).toBe(false);
    });

    it('an invited team is told, counts as checked in and is drawn, unless the organiser asks it to check in', async () => {
      const { tid, teams } = await withTeams(6);
      const first = await s.addStage(tid, { name: 'Qualifiers', lobbySize: 4, advancePerGroup: 1 });
      const second = await s.addStage(tid, { name: 'Final', lobbySize: 8, checkInOpensAt: isoIn(-1), checkInClosesAt: isoIn(1) });
      const drawn = expectStatus(await s.draw(tid, first.id, { method: 'registration', confirmSplit: true }), 200, 'draw') as any;
      await s.publish(tid, first.id);
      const matches = expectStatus(
        await s.schedule(tid, first.id, { matches: [{ day: 1, matchNo: 1, map: 'Erangel', time: '12:00' }] }),
        200,
      ) as any[];
      const done = await s.complete(tid, first.id, { notPlayed: matches.map((m) => m.id) });
      expect(done.status, JSON.stringify(done.body)).toBe(200);
      const qualified = new Set(done.body.qualifiers.map((q: any) => q.teamId));
      const outsiders = teams.filter((t) => !qualified.has(t.rid));
      expect(drawn.groups).toHaveLength(2);

      const [told, asked] = [outsiders[0]!, outsiders[1]!];
      expectStatus(await gw.api.post(`${s.url(tid, second.id)}/invites`, { teamId: told.rid }, admin), 200, 'invite');
      expectStatus(await gw.api.post(`${s.url(tid, second.id)}/invites`, { teamId: asked.rid, checkIn: true }, admin), 200, 'invite');
      await gw.app.notifier.runOnce();
      const owner = (rid: number) => players[teams.findIndex((t) => t.rid === rid)]!;
      const lines = async (rid: number) =>
        ((await gw.api.get('/notifications?limit=100', owner(rid).token)).body.items as any[]).filter((n) => n.tournamentId === tid);
      const toldLine = (await lines(told.rid)).find((n) => n.kind === 'invited');
      expect(toldLine).toMatchObject({ title: `${told.teamName} is invited to Final` });
      expect(toldLine.body).toContain('Your group and slot follow when the groups are published.');
      expect((await lines(asked.rid)).find((n) => n.kind === 'invited').body).toContain(
        'Check in for it in its check-in window to be drawn.',
      );

      const checkIns = expectStatus(await gw.api.get(`${s.url(tid, second.id)}/check-ins`, admin), 200, 'check-ins') as any;
      const state = (rid: number) => checkIns.teams.find((t: any) => t.teamId === rid)?.state;
      expect(state(told.rid)).toBe('checked-in');
      expect(state(asked.rid)).toBe('open');
      expect((await s.stage(tid, second.id)).checkedIn).toBe(1);

      for (const rid of qualified)
        expectStatus(await gw.api.post(`${s.url(tid, second.id)}/check-in`, {}, owner(rid as number).token), 200);
      expect((await s.stage(tid, second.id)).checkedIn).toBe(3);
      const final = expectStatus(await s.draw(tid, second.id), 200, 'final draw') as any;
      const drawnIds = final.groups.flatMap((g: any) => g.slots.map((x: any) => x.teamId));
      expect(drawnIds).toContain(told.rid);
      expect(drawnIds).not.toContain(asked.rid);

      // Withdrawing the invitation takes its check-in with it.
      expectStatus(await gw.api.delete(`${s.url(tid, second.id)}/invites/${told.rid}`, admin), 200, 'uninvite');
      expect((await s.stage(tid, second.id)).checkedIn).toBe(2);
    });

    it('a draw that adds a group for a few teams past full lobbies asks first; confirmed, it draws', async () => {
      const { tid } = await withTeams(9);
      const stage = await s.addStage(tid, { name: 'Final', lobbySize: 8 });
      const refused = await s.draw(tid, stage.id);
      expect(refused.status).toBe(409);
      expect(refused.body.message).toBe(
        '9 teams are 1 more than one lobby of 8: the draw would make 2 groups of 5 and 4 teams. Confirm to draw them anyway, or change the lobby size or the entrants first.',
      );
      expect(refused.body.errors.confirmSplit).toBe(refused.body.message);
      expect((await s.stage(tid, stage.id)).groups).toEqual([]);
      const drawn = expectStatus(await s.draw(tid, stage.id, { method: 'registration', confirmSplit: true }), 200, 'confirmed') as any;
      expect(drawn.groups.map((g: any) => g.slots.length)).toEqual([5, 4]);

      // Full lobbies, or a split well past one, draw without asking.
      const { tid: tid2 } = await withTeams(8);
      const even = await s.addStage(tid2, { name: 'Qualifiers', lobbySize: 4 });
      expect((expectStatus(await s.draw(tid2, even.id), 200, 'even') as any).groups).toHaveLength(2);
      const { tid: tid3 } = await withTeams(7);
      const wide = await s.addStage(tid3, { name: 'Qualifiers', lobbySize: 4 });
      expect((expectStatus(await s.draw(tid3, wide.id), 200, 'wide') as any).groups.map((g: any) => g.slots.length)).toEqual([4, 3]);
    });
  });

  describe("item 8: a match's finishes add up to at most the lobby's players minus one", () => {
    it('the batch and the per-team call of a tournament without stages (the lobby: its registered teams), naming the total', async () => {
      const t = await createTournament(gw.api, admin, { maxTeams: '100' });
      const lobby = await addLobbyTeams(gw, t.id, 10); // 40 players: at most 39 finishes in one match
      const rows = (finishes: number[]) =>
        lobby.map((team, i) => ({ teamId: team.rid, position: i + 1, wins: i === 0 ? 1 : 0, finishes: finishes[i] ?? 0 }));
      const put = (finishes: number[]) => gw.api.put(`/tournaments/${t.id}/points-table/matches/1/1`, { results: rows(finishes) }, admin);
      const over = await put([36, 4]);
      expect(over.status).toBe(400);
      expect(over.body.message).toBe(
        'The finishes add up to 40: a lobby of 10 teams has 40 players, so one match has at most 39 finishes.',
      );
      expect(over.body.errors.finishes).toBe(over.body.message);
      expect((await gw.api.get(`/tournaments/${t.id}/points-table/results?day=1&match=1`, admin)).body).toEqual([]);
      expectStatus(await put([36, 3]), 200, 'at the limit');

      // One team at a time: the others' stored finishes count.
      const post = (teamId: number, finishes: number, position: number) =>
        gw.api.post(
          `/tournaments/${t.id}/points-table`,
          { day: 1, match: 2, teamId, position, finishes, wins: position === 1 ? 1 : 0, teamName: '', totalPoints: 0 },
          admin,
        );
      expectStatus(await post(lobby[0]!.rid, 30, 1), 200, 'first');
      const tooMany = await post(lobby[1]!.rid, 10, 2);
      expect(tooMany.status).toBe(400);
      expect(tooMany.body.errors.finishes).toBe(
        'The finishes add up to 40: a lobby of 10 teams has 40 players, so one match has at most 39 finishes.',
      );
      expectStatus(await post(lobby[1]!.rid, 9, 2), 200, 'second');
      // Re-sending the first team's row counts its new value, not old plus new.
      expectStatus(await post(lobby[0]!.rid, 30, 1), 200, 'again');
    });

    it("a group match's lobby is its group: 4 × teams − 1 for squads", async () => {
      const { tid } = await withTeams(4);
      const stage = await s.addStage(tid, { name: 'Qualifiers', lobbySize: 2 });
      const drawn = expectStatus(await s.draw(tid, stage.id), 200, 'draw') as any;
      await s.publish(tid, stage.id);
      expectStatus(await s.schedule(tid, stage.id, { matches: [{ day: 1, matchNo: 1, map: 'Erangel', time: '12:00' }] }), 200);
      const a = drawn.groups[0];
      const [x, y] = a.slots.map((z: any) => z.teamId);
      const over = await s.saveGroupMatch(tid, 1, 1, a.id, [
        { teamId: x, position: 1, finishes: 4 },
        { teamId: y, position: 2, finishes: 4 },
      ]);
      expect(over.status).toBe(400);
      expect(over.body.message).toBe('The finishes add up to 8: a lobby of 2 teams has 8 players, so one match has at most 7 finishes.');
      expectStatus(
        await s.saveGroupMatch(tid, 1, 1, a.id, [
          { teamId: x, position: 1, finishes: 4 },
          { teamId: y, position: 2, finishes: 3 },
        ]),
        200,
      );
    });
  });
});

describe('item 4: reminders follow each group its own time (fake clock)', () => {
  let gw: TestGateway;
  let admin: string;
  const clock = new FakeClock();
  beforeAll(async () => {
    gw = await startGateway({}, undefined, { clock });
    admin = await adminToken(gw.api);
  });
  afterAll(() => gw?.stop());
  const s = stageCalls(() => ({ gw, admin }));

  it('group A hears 15 minutes before 12:00, group B 15 minutes before 13:30, not before', async () => {
    const players = [await createUser(gw.api), await createUser(gw.api), await createUser(gw.api), await createUser(gw.api)];
    const { tid } = await createTournamentWithTeams(
      gw.api,
      admin,
      players,
      players.map((_, i) => `R${i} ${unique()}`),
      { entryFee: '0', maxTeams: '100' },
    );
    const stage = await s.addStage(tid, { name: 'Qualifiers', lobbySize: 2 });
    expectStatus(await s.draw(tid, stage.id), 200, 'draw');
    await s.publish(tid, stage.id);
    const matches = expectStatus(
      await s.schedule(tid, stage.id, { matches: [{ day: 1, matchNo: 1, map: 'Erangel', time: '12:00' }], groupGap: 90 }),
      200,
    ) as any[];
    expectStatus(
      await gw.api.put(
        `${s.url(tid, stage.id)}/rooms`,
        { rooms: matches.map((m) => ({ id: m.id, matchId: `R${m.groupName}`, password: 'pw' })) },
        admin,
      ),
      200,
    );
    const reminders = async (player: TestUser) =>
      ((await gw.api.get('/notifications?limit=100', player.token)).body.items as any[]).filter(
        (n) => n.tournamentId === tid && n.kind === 'match-reminder',
      );
    const start = (await gw.api.get(`/tournaments/${tid}`)).body.startDate;
    const at = (time: string) => matchStartsAt(start, 1, time, gw.config.APP_TIME_ZONE)!;

    clock.set(at('12:00') - 15 * 60_000 + 1_000);
    await gw.app.notifier.runOnce();
    expect(await reminders(players[0]!)).toHaveLength(1);
    expect((await reminders(players[0]!))[0].body).toContain('starts at 12:00 IST');
    expect(await reminders(players[2]!)).toHaveLength(0); // group B plays at 13:30

    clock.set(at('13:30') - 15 * 60_000 - 60_000);
    await gw.app.notifier.runOnce();
    expect(await reminders(players[2]!)).toHaveLength(0);
    clock.advance(61_000);
    await gw.app.notifier.runOnce();
    const b = await reminders(players[2]!);
    expect(b).toHaveLength(1);
    expect(b[0].body).toContain('starts at 13:30 IST');
  });
});
