// Issue 27 item 21 (decision 057): GET .../points-table/days answers the days a table has matches or
// results on, so the points page offers only those days instead of Day 1 to Day 5 whatever happened.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  addLobbyTeams,
  adminToken,
  createStorage,
  createTournamentWithTeams,
  createUser,
  matchFields,
  startGateway,
  unique,
  type ApiResponse,
  type TestGateway,
  type TestUser,
} from './helpers.js';

describe('points table days', () => {
  let gw: TestGateway;
  let admin: string;
  let players: TestUser[];

  beforeAll(async () => {
    gw = await startGateway({}, await createStorage());
    admin = await adminToken(gw.api);
    players = [];
    for (let i = 0; i < 8; i++) players.push(await createUser(gw.api));
  });
  afterAll(() => gw?.stop());

  const expectStatus = <T>(res: ApiResponse<T>, status: number, what = ''): T => {
    expect(res.status, `${what} ${JSON.stringify(res.body)}`.trim()).toBe(status);
    return res.body;
  };
  const withTeams = async (n: number) => {
    const names = Array.from({ length: n }, (_, i) => `Squad ${String.fromCharCode(65 + i)} ${unique()}`);
    const tournament = await createTournamentWithTeams(gw.api, admin, players, names, { pointsSystem: 'bmps-15', entryFee: '0' });
    await addLobbyTeams(gw, tournament.tid, 16 - n);
    return tournament;
  };
  const put = (tid: number, day: number, match: number, body: Record<string, unknown>) =>
    gw.api.put(`/tournaments/${tid}/points-table/matches/${day}/${match}`, body, admin);
  const row = (teamId: number, position: number) => ({ teamId, position, finishes: 0, wins: position === 1 ? 1 : 0 });
  const days = async (tid: number, query = '') =>
    (expectStatus(await gw.api.get(`/tournaments/${tid}/points-table/days${query}`), 200, `days${query}`) as { days: number[] }).days;

  it('a tournament without stages: the days with a scheduled match or a result, ascending, and nothing else', async () => {
    const { tid, teams } = await withTeams(2);
    const [a, b] = teams.map((x) => x.rid) as [number, number];
    expect(await days(tid)).toEqual([]);

    // Day 2 is scheduled (no results yet); day 1 has results without a scheduled match; day 6 is scheduled too.
    expectStatus(await gw.api.post('/matches', matchFields(tid, { day: 2, matchNo: 1 }), admin), 201, 'day 2');
    expectStatus(await gw.api.post('/matches', matchFields(tid, { day: 6, matchNo: 1 }), admin), 201, 'day 6');
    expectStatus(await put(tid, 1, 1, { results: [row(a, 1), row(b, 2)] }), 200, 'd1m1');
    // Anonymous, as the public page asks; a new match shows at once (the answer's cache moves with the write).
    expect(await days(tid)).toEqual([1, 2, 6]);

    // A day's results cleared and no match scheduled on it: the day is gone again.
    expectStatus(await put(tid, 1, 1, { results: [] }), 200, 'clear d1m1');
    expect(await days(tid)).toEqual([2, 6]);

    expectStatus(await gw.api.get('/tournaments/999999/points-table/days'), 404, 'unknown tournament');
    expectStatus(await gw.api.get(`/tournaments/${tid}/points-table/days?stage=x`), 400, 'bad stage');
  });

  it('stage and group tables: only their own group matches, not the matches outside any group', async () => {
    const { tid } = await withTeams(8);
    const stage = expectStatus(await gw.api.post(`/tournaments/${tid}/stages`, { name: 'Qualifiers', lobbySize: 4 }, admin), 201, 'stage');
    const drawn = expectStatus(await gw.api.post(`/tournaments/${tid}/stages/${stage.id}/groups`, { method: 'registration' }, admin), 200);
    const groupA = drawn.groups.find((g: { name: string }) => g.name === 'A');
    // A match outside any group on day 4, and a draft stage's schedule: neither is the tables' (nor public).
    expectStatus(await gw.api.post('/matches', matchFields(tid, { day: 4, matchNo: 1 }), admin), 201, 'day 4');
    const schedule = (day: number) => ({ day, matchNo: 1, map: 'Erangel', time: '18:00' });
    expectStatus(await gw.api.post(`/tournaments/${tid}/stages/${stage.id}/matches`, { matches: [schedule(1), schedule(2)] }, admin), 200);
    // Before the stage is published the tables are the whole tournament's: only the match outside any group counts.
    expect(await days(tid)).toEqual([4]);

    expectStatus(await gw.api.post(`/tournaments/${tid}/stages/${stage.id}/publish`, {}, admin), 200, 'publish');
    // The current stage (asked without a scope), the stage, and one group: days 1 and 2.
    for (const query of ['', `?stage=${stage.id}`, `?group=${groupA.id}`, `?stage=${stage.id}&group=${groupA.id}`])
      expect(await days(tid, query)).toEqual([1, 2]);

    expectStatus(await gw.api.get(`/tournaments/${tid}/points-table/days?group=999999`), 404, 'unknown group');
    expectStatus(await gw.api.get(`/tournaments/${tid}/points-table/days?stage=999999`), 404, 'unknown stage');
  });
});
