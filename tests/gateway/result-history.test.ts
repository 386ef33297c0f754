// Issue 20 (decision 048): every change to a match result is kept, and GET .../points-table/history
// lists the edits (changes after a result's first entry), newest first, one entry per write call.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeClock } from '../../gateway/src/lib/clock.js';
import {
  ADMIN,
  addLobbyTeams,
  adminToken,
  createStorage,
  createTournamentWithTeams,
  createUser,
  startGateway,
  unique,
  type ApiResponse,
  type RegisteredTeam,
  type TestGateway,
  type TestUser,
} from './helpers.js';

// Now (to the minute), not a fixed date: the test tournaments' registration window is relative to the real date.
const START = Math.floor(Date.now() / 60_000) * 60_000;

describe('result history', () => {
  let gw: TestGateway;
  let admin: string;
  let players: TestUser[];
  const clock = new FakeClock(START);

  beforeAll(async () => {
    gw = await startGateway({}, await createStorage(), { clock });
    admin = await adminToken(gw.api);
    players = [];
    for (let i = 0; i < 8; i++) players.push(await createUser(gw.api));
  });
  afterAll(() => gw?.stop());

  const expectStatus = <T>(res: ApiResponse<T>, status: number, what = ''): T => {
    expect(res.status, `${what} ${JSON.stringify(res.body)}`.trim()).toBe(status);
    return res.body;
  };
  /** n player teams, in a lobby of 16 (positions up to 16, finishes up to 60), BMPS points. */
  const withTeams = async (n: number) => {
    const names = Array.from({ length: n }, (_, i) => `Squad ${String.fromCharCode(65 + i)} ${unique()}`);
    const tournament = await createTournamentWithTeams(gw.api, admin, players, names, { pointsSystem: 'bmps-15', entryFee: '0' });
    await addLobbyTeams(gw, tournament.tid, 16 - n);
    return tournament;
  };
  const post = (tid: number, body: Record<string, unknown>, token: string | undefined = admin) =>
    gw.api.post(`/tournaments/${tid}/points-table`, { wins: 0, ...body }, token);
  const put = (tid: number, day: number, match: number, body: Record<string, unknown>, token: string | undefined = admin) =>
    gw.api.put(`/tournaments/${tid}/points-table/matches/${day}/${match}`, body, token);
  const row = (teamId: number, position: number, finishes = 0, absent?: boolean) => ({
    teamId,
    position,
    finishes,
    wins: position === 1 ? 1 : 0,
    ...(absent ? { absent } : {}),
  });
  const history = async (tid: number, query = '', token?: string) =>
    expectStatus(await gw.api.get(`/tournaments/${tid}/points-table/history${query}`, token), 200, 'history') as {
      changes: any[];
      nextBefore: number | null;
    };
  const v = (position: number, finishes: number) => ({ position, wins: position === 1 ? 1 : 0, finishes });
  const at = () => new Date(clock.now()).toISOString();

  it('a first entry is kept but not listed; an edit is listed with who, when, and from what to what', async () => {
    const { tid, teams } = await withTeams(2);
    const [a] = teams as [RegisteredTeam];
    expect(await history(tid)).toEqual({ changes: [], nextBefore: null });

    expectStatus(await post(tid, { day: 1, match: 2, teamId: a.rid, position: 3, finishes: 4 }), 200, 'first entry');
    expect(await history(tid)).toEqual({ changes: [], nextBefore: null });
    // The first entry is stored (old values null), so a later edit has something to compare with.
    const stored = await gw.app.store.db.selectFrom('result_changes').selectAll().where('tournament_id', '=', tid).execute();
    expect(stored.map((r) => [r.old_position, r.new_position, r.new_finishes, r.changed_by_name])).toEqual([[null, 3, 4, ADMIN.username]]);

    // The same result again is no change.
    expectStatus(await post(tid, { day: 1, match: 2, teamId: a.rid, position: 3, finishes: 4 }), 200, 'same again');
    expect(await history(tid)).toEqual({ changes: [], nextBefore: null });

    clock.advance(60_000);
    const editedAt = at();
    expectStatus(await post(tid, { day: 1, match: 2, teamId: a.rid, position: 2, finishes: 6 }), 200, 'edit');
    const { changes, nextBefore } = await history(tid);
    expect(nextBefore).toBeNull();
    expect(changes).toEqual([
      {
        changeId: expect.any(Number),
        changedAt: editedAt,
        changedBy: ADMIN.username,
        day: 1,
        match: 2,
        teams: [{ teamId: a.rid, teamName: a.teamName, before: v(3, 4), after: v(2, 6) }],
      },
    ]);
    // Never the admin's email or phone.
    const text = JSON.stringify(changes);
    expect(text).not.toContain(ADMIN.email);
    expect(text).not.toContain(ADMIN.phone);

    // A second edit is listed first.
    clock.advance(60_000);
    expectStatus(await post(tid, { day: 1, match: 2, teamId: a.rid, position: 1, finishes: 6 }), 200, 'second edit');
    const again = (await history(tid)).changes;
    expect(again.map((c) => c.teams[0].before)).toEqual([v(2, 6), v(3, 4)]);
    expect(again.map((c) => c.teams[0].after)).toEqual([v(1, 6), v(2, 6)]);
    expect(again[0].changeId).toBeGreaterThan(again[1].changeId);
  });

  it('a whole-match save that swaps two teams is one change with two rows; a batch of several edits is one change', async () => {
    const { tid, teams } = await withTeams(4);
    const [a, b, c, d] = teams as [RegisteredTeam, RegisteredTeam, RegisteredTeam, RegisteredTeam];
    const first = [row(a.rid, 1, 5), row(b.rid, 2, 3), row(c.rid, 3, 0), row(d.rid, 4, 1)];
    expectStatus(await put(tid, 2, 3, { results: first }), 200, 'first save');
    expect((await history(tid)).changes).toEqual([]);
    // Re-sending the same match changes nothing.
    expectStatus(await put(tid, 2, 3, { results: first }), 200, 'same again');
    expect((await history(tid)).changes).toEqual([]);

    clock.advance(5 * 60_000);
    const swappedAt = at();
    const swapped = [row(a.rid, 2, 5), row(b.rid, 1, 3), row(c.rid, 3, 0), row(d.rid, 4, 1)];
    expectStatus(await put(tid, 2, 3, { results: swapped }), 200, 'swap');
    const [swap, ...rest] = (await history(tid)).changes;
    expect(rest).toEqual([]);
    expect(swap).toMatchObject({ changedAt: swappedAt, changedBy: ADMIN.username, day: 2, match: 3 });
    // In the corrected table's order (new position first), whatever order the write stored them in.
    expect(swap.teams).toEqual([
      { teamId: b.rid, teamName: b.teamName, before: v(2, 3), after: v(1, 3) },
      { teamId: a.rid, teamName: a.teamName, before: v(1, 5), after: v(2, 5) },
    ]);
    expect(swap).not.toHaveProperty('groupId');

    // Three teams corrected, one removed, one added: ONE change; the added team is a first entry, not an edit.
    clock.advance(60_000);
    const [x] = await addLobbyTeams(gw, tid, 1);
    const batch = [row(a.rid, 3, 6), row(b.rid, 1, 4), row(c.rid, 2, 0), row(x!.rid, 5, 2)];
    expectStatus(await put(tid, 2, 3, { results: batch }), 200, 'batch');
    const { changes } = await history(tid);
    expect(changes).toHaveLength(2);
    expect(changes[0].changeId).toBeGreaterThan(changes[1].changeId);
    expect(changes[0].teams.map((t: any) => [t.teamId, t.before, t.after])).toEqual([
      [b.rid, v(1, 3), v(1, 4)],
      [c.rid, v(3, 0), v(2, 0)],
      [a.rid, v(2, 5), v(3, 6)],
      [d.rid, v(4, 1), null], // removed: last
    ]);
    // All rows of the batch, the first entry too, share one change id in the store.
    const stored = await gw.app.store.db
      .selectFrom('result_changes')
      .select(['change_id', 'registration_id', 'old_position'])
      .where('tournament_id', '=', tid)
      .where('change_id', '=', changes[0].changeId)
      .execute();
    expect(stored).toHaveLength(5);
    expect(stored.find((r) => Number(r.registration_id) === x!.rid)?.old_position).toBeNull();

    // Clearing the match: every team's result removed, one change.
    clock.advance(60_000);
    expectStatus(await put(tid, 2, 3, { results: [] }), 200, 'clear');
    const cleared = (await history(tid)).changes[0];
    expect(cleared.teams).toHaveLength(4);
    expect(cleared.teams.every((t: any) => t.after === null)).toBe(true);
  });

  // Issue 27 item 14: clearing a match and entering new results must not read as two unrelated first entries.
  it('a result entered where an earlier one was removed is listed as a correction from the last recorded values', async () => {
    const { tid, teams } = await withTeams(3);
    const [a, b, c] = teams as [RegisteredTeam, RegisteredTeam, RegisteredTeam];
    expectStatus(await put(tid, 1, 1, { results: [row(a.rid, 1, 5), row(b.rid, 2, 3), row(c.rid, 3, 0)] }), 200, 'first entry');
    clock.advance(60_000);
    expectStatus(await put(tid, 1, 1, { results: [] }), 200, 'clear');
    clock.advance(60_000);
    // New results in a whole-match save: the winner changes; c gets exactly what it had before.
    expectStatus(await put(tid, 1, 1, { results: [row(b.rid, 1, 4), row(a.rid, 2, 5), row(c.rid, 3, 0)] }), 200, 're-entry');
    const [reentry, cleared] = (await history(tid)).changes;
    expect(cleared.teams.every((t: any) => t.after === null)).toBe(true);
    expect(reentry.changedAt).toBe(at());
    expect(reentry.teams.map((t: any) => [t.teamId, t.before, t.after])).toEqual([
      [b.rid, v(2, 3), v(1, 4)],
      [a.rid, v(1, 5), v(2, 5)],
      [c.rid, v(3, 0), v(3, 0)], // restored as it was: still shown, or the removal would stand unanswered
    ]);

    // The per-team call too: remove by a whole-match save without the team, then POST it back.
    clock.advance(60_000);
    expectStatus(await put(tid, 1, 1, { results: [row(b.rid, 1, 4), row(a.rid, 2, 5)] }), 200, 'remove c');
    clock.advance(60_000);
    expectStatus(await post(tid, { day: 1, match: 1, teamId: c.rid, position: 4, finishes: 1 }), 200, 'c back');
    const [back] = (await history(tid)).changes;
    expect(back.teams.map((t: any) => [t.teamId, t.before, t.after])).toEqual([[c.rid, v(3, 0), v(4, 1)]]);
  });

  it('pages with ?limit and ?before, newest first; refuses a bad limit', async () => {
    const { tid, teams } = await withTeams(1);
    const [a] = teams as [RegisteredTeam];
    for (const finishes of [0, 1, 2, 3, 4]) {
      clock.advance(1000);
      expectStatus(await post(tid, { day: 1, match: 1, teamId: a.rid, position: 2, finishes }), 200, `finishes ${finishes}`);
    }
    const all = await history(tid);
    expect(all.changes.map((c) => c.teams[0].after.finishes)).toEqual([4, 3, 2, 1]);
    expect(all.nextBefore).toBeNull();
    const page1 = await history(tid, '?limit=3');
    expect(page1.changes.map((c) => c.teams[0].after.finishes)).toEqual([4, 3, 2]);
    expect(page1.nextBefore).toBe(page1.changes[2].changeId);
    const page2 = await history(tid, `?limit=3&before=${page1.nextBefore}`);
    expect(page2).toEqual({ changes: all.changes.slice(3), nextBefore: null });
    for (const bad of ['0', '201', 'x'])
      expect((await gw.api.get(`/tournaments/${tid}/points-table/history?limit=${bad}`)).status).toBe(400);
    expect((await gw.api.get('/tournaments/999999/points-table/history')).status).toBe(404);
  });

  it('stage group results name the group and stage; absent teams are kept as absent', async () => {
    const { tid, teams } = await withTeams(8);
    const t = teams.map((x) => x.rid);
    const stage = expectStatus(await gw.api.post(`/tournaments/${tid}/stages`, { name: 'Qualifiers', lobbySize: 4 }, admin), 201, 'stage');
    const drawn = expectStatus(await gw.api.post(`/tournaments/${tid}/stages/${stage.id}/groups`, { method: 'registration' }, admin), 200);
    const groupA = drawn.groups.find((g: any) => g.name === 'A');
    expectStatus(await gw.api.post(`/tournaments/${tid}/stages/${stage.id}/publish`, {}, admin), 200, 'publish');
    const match = { day: 1, matchNo: 1, map: 'Erangel', time: '18:00' };
    expectStatus(await gw.api.post(`/tournaments/${tid}/stages/${stage.id}/matches`, { matches: [match] }, admin), 200, 'schedule');
    const members = [...groupA.slots].sort((p: any, q: any) => p.slot - q.slot).map((s: any) => s.teamId as number);
    expect(members.every((id) => t.includes(id))).toBe(true);
    const [m0, m1, m2, m3] = members as [number, number, number, number];

    expectStatus(await put(tid, 1, 1, { groupId: groupA.id, results: [row(m0, 1, 3), row(m1, 2), row(m2, 3), row(m3, 4)] }), 200, 'first');
    clock.advance(60_000);
    expectStatus(
      await put(tid, 1, 1, { groupId: groupA.id, results: [row(m0, 1, 3), row(m1, 2), row(m2, 3), row(m3, 0, 0, true)] }),
      200,
      'absent',
    );
    clock.advance(60_000);
    expectStatus(await post(tid, { day: 1, match: 1, groupId: groupA.id, teamId: m1, position: 2, finishes: 5 }), 200, 'single');
    const { changes } = await history(tid);
    const name = teams.find((x) => x.rid === m3)!.teamName;
    expect(changes.map((c) => [c.groupId, c.groupName, c.stageName, c.day, c.match])).toEqual([
      [groupA.id, 'A', 'Qualifiers', 1, 1],
      [groupA.id, 'A', 'Qualifiers', 1, 1],
    ]);
    expect(changes[1].teams).toEqual([
      { teamId: m3, teamName: name, before: v(4, 0), after: { position: 0, wins: 0, finishes: 0, absent: true } },
    ]);
    expect(changes[0].teams.map((x: any) => [x.teamId, x.before, x.after])).toEqual([[m1, v(2, 0), v(2, 5)]]);
  });

  it('only admins write (a refused write records nothing); anyone reads, with or without a token', async () => {
    const { tid, teams } = await withTeams(2);
    const [a] = teams as [RegisteredTeam];
    expectStatus(await post(tid, { day: 1, match: 1, teamId: a.rid, position: 2, finishes: 1 }), 200);
    expect((await post(tid, { day: 1, match: 1, teamId: a.rid, position: 3, finishes: 1 }, players[0]!.token)).status).toBe(403);
    expect(
      (await gw.api.post(`/tournaments/${tid}/points-table`, { day: 1, match: 1, teamId: a.rid, position: 3, finishes: 1 })).status,
    ).toBe(401);
    expect((await put(tid, 1, 1, { results: [row(a.rid, 4, 1)] }, players[0]!.token)).status).toBe(403);
    // A refused edit (impossible position) records nothing either.
    expect((await post(tid, { day: 1, match: 1, teamId: a.rid, position: 99, finishes: 1 })).status).toBe(400);
    expect(await history(tid)).toEqual({ changes: [], nextBefore: null });
    const rows = await gw.app.store.db.selectFrom('result_changes').select('id').where('tournament_id', '=', tid).execute();
    expect(rows).toHaveLength(1);

    // Another admin's edit carries their username.
    const second = players[7]!;
    await gw.app.store.db.updateTable('users').set({ roles: 'ROLE_USER,ROLE_ADMIN' }).where('id', '=', second.id).execute();
    expectStatus(await post(tid, { day: 1, match: 1, teamId: a.rid, position: 3, finishes: 1 }, second.token), 200, 'second admin');
    const seen = [await history(tid), await history(tid, '', players[0]!.token), await history(tid, '', admin)];
    for (const h of seen) expect(h.changes.map((c) => c.changedBy)).toEqual([second.username]);
  });

  it('the cached answer is new at once after a result write', async () => {
    const { tid, teams } = await withTeams(2);
    const [a, b] = teams as [RegisteredTeam, RegisteredTeam];
    const url = `/tournaments/${tid}/points-table/history`;
    expectStatus(await put(tid, 1, 1, { results: [row(a.rid, 1, 2), row(b.rid, 2, 0)] }), 200);
    const warm1 = await gw.api.get(url);
    const warm2 = await gw.api.get(url);
    expect(warm2.headers.get('etag')).toBe(warm1.headers.get('etag'));
    expect(warm2.body.changes).toEqual([]);
    expectStatus(await put(tid, 1, 1, { results: [row(a.rid, 2, 2), row(b.rid, 1, 0)] }), 200, 'swap');
    const after = await gw.api.get(url);
    expect(after.headers.get('etag')).not.toBe(warm1.headers.get('etag'));
    expect(after.body.changes).toHaveLength(1);
    // And after a single-result edit through POST.
    await gw.api.get(url);
    expectStatus(await post(tid, { day: 1, match: 1, teamId: b.rid, position: 1, finishes: 3 }), 200);
    expect((await gw.api.get(url)).body.changes).toHaveLength(2);
  });
});
