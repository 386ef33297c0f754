// Issue 20 (decision 048, "The points page"): GET .../points-table/breakdown answers a table's rows,
// ranked as GET .../points-table/day does, each with its placement and finishes in every match.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  addLobbyTeams,
  adminToken,
  createStorage,
  createTournamentWithTeams,
  createUser,
  startGateway,
  unique,
  type ApiResponse,
  type TestGateway,
  type TestUser,
} from './helpers.js';

describe('points breakdown', () => {
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
  const row = (teamId: number, position: number, finishes = 0, absent?: boolean) => ({
    teamId,
    position,
    finishes,
    wins: position === 1 ? 1 : 0,
    ...(absent ? { absent } : {}),
  });
  const breakdown = async (tid: number, query: string) =>
    expectStatus(await gw.api.get(`/tournaments/${tid}/points-table/breakdown${query}`), 200, 'breakdown') as {
      matches: { day: number; match: number }[];
      rows: any[];
    };

  it('a tournament without stages: the day table and overall, each team per match, rows as the table', async () => {
    const { tid, teams } = await withTeams(3);
    const [a, b, c] = teams.map((x) => x.rid) as [number, number, number];
    expect(await breakdown(tid, '?day=0')).toEqual({ matches: [], rows: [] });

    expectStatus(await put(tid, 1, 1, { results: [row(a, 1, 5), row(b, 2, 3), row(c, 3)] }), 200, 'd1m1');
    expectStatus(await put(tid, 1, 2, { results: [row(b, 1, 2), row(a, 4, 1)] }), 200, 'd1m2');
    expectStatus(await put(tid, 2, 1, { results: [row(c, 1, 7), row(a, 0, 0)] }), 200, 'd2m1');

    const day1 = await breakdown(tid, '?day=1');
    expect(day1.matches).toEqual([
      { day: 1, match: 1 },
      { day: 1, match: 2 },
    ]);
    const table1 = expectStatus(await gw.api.get(`/tournaments/${tid}/points-table/day?day=1`), 200, 'table');
    // The same rows in the same order, each with one result per match (null: none stored).
    expect(day1.rows.map(({ results: _, ...r }) => r)).toEqual(table1);
    expect(Object.fromEntries(day1.rows.map((r) => [r.teamId, r.results]))).toEqual({
      [a]: [
        { position: 1, finishes: 5 },
        { position: 4, finishes: 1 },
      ],
      [b]: [
        { position: 2, finishes: 3 },
        { position: 1, finishes: 2 },
      ],
      [c]: [{ position: 3, finishes: 0 }, null],
    });

    const overall = await breakdown(tid, '?day=0');
    expect(overall.matches).toEqual([
      { day: 1, match: 1 },
      { day: 1, match: 2 },
      { day: 2, match: 1 },
    ]);
    const tableAll = expectStatus(await gw.api.get(`/tournaments/${tid}/points-table/overall`), 200, 'overall');
    expect(overall.rows.map((r) => r.teamId)).toEqual(tableAll.map((r: any) => r.teamId));
    expect(overall.rows.find((r) => r.teamId === c)!.results).toEqual([{ position: 3, finishes: 0 }, null, { position: 1, finishes: 7 }]);
    expect(overall.rows.find((r) => r.teamId === a)!.results[2]).toEqual({ position: 0, finishes: 0 });

    // A day with no results: no columns, no rows (as the day table).
    expect(await breakdown(tid, '?day=3')).toEqual({ matches: [], rows: [] });
    // A correction shows at once (the cache's generation moves with the write).
    expectStatus(await put(tid, 1, 2, { results: [row(a, 1, 2), row(b, 4, 1)] }), 200, 'swap');
    expect((await breakdown(tid, '?day=1')).rows.find((r) => r.teamId === a).results[1]).toEqual({ position: 1, finishes: 2 });
  });

  it('stage and group tables: only their teams and matches; absent is kept; 400 and 404 as the day table', async () => {
    const { tid } = await withTeams(8);
    const stage = expectStatus(await gw.api.post(`/tournaments/${tid}/stages`, { name: 'Qualifiers', lobbySize: 4 }, admin), 201, 'stage');
    const drawn = expectStatus(await gw.api.post(`/tournaments/${tid}/stages/${stage.id}/groups`, { method: 'registration' }, admin), 200);
    const [groupA, groupB] = ['A', 'B'].map((n) => drawn.groups.find((g: any) => g.name === n));
    expectStatus(await gw.api.post(`/tournaments/${tid}/stages/${stage.id}/publish`, {}, admin), 200, 'publish');
    const match = { day: 1, matchNo: 1, map: 'Erangel', time: '18:00' };
    expectStatus(await gw.api.post(`/tournaments/${tid}/stages/${stage.id}/matches`, { matches: [match] }, admin), 200, 'schedule');
    const members = (g: any) => [...g.slots].sort((p: any, q: any) => p.slot - q.slot).map((s: any) => s.teamId as number);
    const [a0, a1, a2, a3] = members(groupA) as [number, number, number, number];
    const [b0, b1, b2, b3] = members(groupB) as [number, number, number, number];
    expectStatus(await put(tid, 1, 1, { groupId: groupA.id, results: [row(a0, 1, 3), row(a1, 2), row(a2, 3), row(a3, 0, 0, true)] }), 200);
    expectStatus(await put(tid, 1, 1, { groupId: groupB.id, results: [row(b0, 2), row(b1, 1, 4), row(b2, 3), row(b3, 4)] }), 200);

    const group = await breakdown(tid, `?day=1&group=${groupA.id}`);
    expect(group.matches).toEqual([{ day: 1, match: 1 }]);
    expect(group.rows.map((r) => r.teamId).sort()).toEqual([a0, a1, a2, a3].sort());
    expect(group.rows.find((r) => r.teamId === a3).results).toEqual([{ position: 0, finishes: 0, absent: true }]);
    expect(group.rows.every((r) => r.groupName === 'A')).toBe(true);

    // The stage's table (also the current stage's, asked without a scope): both groups in one column.
    for (const query of [`?day=0&stage=${stage.id}`, '?day=0']) {
      const whole = await breakdown(tid, query);
      expect(whole.matches).toEqual([{ day: 1, match: 1 }]);
      // Every team of the stage's groups, as the stage's table lists them; teams without a result have null.
      const table = expectStatus(await gw.api.get(`/tournaments/${tid}/points-table/day${query}`), 200, 'stage table');
      expect(whole.rows.map(({ results: _, ...r }) => r)).toEqual(table);
      expect(whole.rows.filter((r) => r.results[0] === null)).toHaveLength(table.length - 8);
      expect(whole.rows.find((r) => r.teamId === b1).results).toEqual([{ position: 1, finishes: 4 }]);
    }

    expectStatus(await gw.api.get(`/tournaments/${tid}/points-table/breakdown?day=1&group=999999`), 404, 'unknown group');
    expectStatus(await gw.api.get(`/tournaments/999999/points-table/breakdown?day=1`), 404, 'unknown tournament');
    expectStatus(await gw.api.get(`/tournaments/${tid}/points-table/breakdown?day=x`), 400, 'bad day');
    expectStatus(await gw.api.get(`/tournaments/${tid}/points-table/breakdown`), 400, 'no day');
  });
});
