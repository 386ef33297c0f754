import { beforeAll, describe, expect, it } from 'vitest';
import { groupName, POINTS_SYSTEMS } from '@custom-room/contract';
import {
  addLobbyTeams,
  createTournamentWithTeams,
  dialectName,
  expectedQualifiers,
  fillGroups,
  randomDrawOrder,
  rankTeams,
  snakeGroups,
  unique,
  type ApiResponse,
  type RegisteredTeam,
  type SentResult,
  type Standing,
  type TestGateway,
  type TestUser,
  useGatewayWithPlayers,
} from './helpers.js';

/**
 * Issue 18's "done means": a 1,000-squad BGMI tournament run over HTTP from the qualifiers to the grand
 * final, on the database of this pass (SQLite, or PostgreSQL with TEST_DATABASE_URL). The organiser's steps
 * are HTTP calls; 997 of the squads are written through the gateway's repository (addLobbyTeams), 3 are
 * real accounts registered over HTTP, to check what a player sees. Every invariant is re-computed here from
 * what the test sent: no team twice in a stage, slots unique and in range, balanced groups within the lobby,
 * qualifiers exactly by the rule, results only for a group's own teams, rooms only for one's own group.
 */
describe(`a 1,000-squad tournament, qualifiers to grand final (${dialectName})`, () => {
  let gw: TestGateway;
  let admin: string;
  let players: TestUser[];

  const setup = useGatewayWithPlayers(3);
  beforeAll(() => ({ gw, admin, players } = setup));

  const BMPS = POINTS_SYSTEMS['bmps-15'];
  const SQUAD = 4;
  const timings: string[] = [];

  /** A small seeded PRNG (mulberry32): the same placements on every run, so a failure can be replayed. */
  const prng = (seed: number) => () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let x = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
  const random = prng(18_1000);
  const shuffle = <T>(items: readonly T[]) => {
    const out = [...items];
    for (let i = out.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [out[i], out[j]] = [out[j]!, out[i]!];
    }
    return out;
  };

  const ok = <T>(res: ApiResponse<T>, status = 200, what = ''): T => {
    expect(res.status, `${what} ${JSON.stringify(res.body).slice(0, 500)}`).toBe(status);
    return res.body;
  };
  const timed = async <T>(label: string, fn: () => Promise<T>): Promise<T> => {
    const started = performance.now();
    const out = await fn();
    timings.push(`${label}: ${Math.round(performance.now() - started)} ms`);
    return out;
  };

  interface Grouped {
    id: number;
    name: string;
    teams: number[];
  }
  const groupsOf = (stage: any): Grouped[] =>
    stage.groups.map((g: any) => ({
      id: g.id,
      name: g.name,
      teams: [...g.slots].sort((a: any, b: any) => a.slot - b.slot).map((s: any) => s.teamId),
    }));

  /** Every invariant of a drawn stage: names A, B …, balanced sizes within the lobby, slots unique and in range, no team twice, exactly the entrants. */
  function checkStage(stage: any, entrants: readonly number[]) {
    const { lobbySize: lobby, firstSlot } = stage;
    expect(stage.groups).toHaveLength(Math.ceil(entrants.length / lobby));
    expect(stage.groups.map((g: any) => g.name)).toEqual(stage.groups.map((_: unknown, i: number) => groupName(i)));
    const sizes = stage.groups.map((g: any) => g.slots.length);
    expect(Math.max(...sizes) - Math.min(...sizes)).toBeLessThanOrEqual(1);
    expect(Math.max(...sizes)).toBeLessThanOrEqual(lobby);
    // Larger groups first.
    expect([...sizes].sort((a, b) => b - a)).toEqual(sizes);
    const seen = new Set<number>();
    for (const g of stage.groups) {
      const slots = g.slots.map((s: any) => s.slot);
      expect(new Set(slots).size, `slots of group ${g.name}`).toBe(slots.length);
      for (const slot of slots) {
        expect(slot).toBeGreaterThanOrEqual(firstSlot);
        expect(slot).toBeLessThanOrEqual(firstSlot + lobby - 1);
      }
      for (const s of g.slots) {
        expect(seen.has(s.teamId), `team ${s.teamId} twice in ${stage.name}`).toBe(false);
        seen.add(s.teamId);
      }
    }
    expect([...seen].sort((a, b) => a - b)).toEqual([...entrants].sort((a, b) => a - b));
  }

  /** Placements 1..n in a random order, finishes bounded by the other players (at most 4 × (n − 1) in all). */
  function randomMatch(teams: readonly number[], winner?: number): SentResult[] {
    const order = shuffle(teams.filter((t) => t !== winner));
    if (winner !== undefined && teams.includes(winner)) order.unshift(winner);
    const n = teams.length;
    // Up to 3 finishes each, up to 4 more for the top 5: never more than 3n + 20 ≤ 4(n − 1) for n ≥ 24; scaled down for smaller lobbies.
    const cap = Math.max(0, SQUAD * (n - 1));
    let left = cap;
    return order.map((teamId, i) => {
      const want = Math.floor(random() * 4) + (i < 5 ? Math.floor(random() * 5) : 0);
      const finishes = Math.min(want, left);
      left -= finishes;
      return { teamId, position: i + 1, finishes };
    });
  }

  const stagesUrl = (tid: number) => `/tournaments/${tid}/stages`;
  const stageUrl = (tid: number, sid: number) => `/tournaments/${tid}/stages/${sid}`;

  /** Publishes, schedules `matches` matches on `day`, sets every room in one PUT, then enters every group match's results. */
  async function play(tid: number, stage: any, day: number, matches: number, winner: number) {
    const sid = stage.id as number;
    const groups = groupsOf(stage);
    const label = `${stage.name} (${groups.length} ${groups.length === 1 ? 'group' : 'groups'})`;
    await timed(`${label}: publish`, async () => ok(await gw.api.post(`${stageUrl(tid, sid)}/publish`, {}, admin), 200, 'publish'));
    const rows = Array.from({ length: matches }, (_, i) => ({
      day,
      matchNo: i + 1,
      map: ['Erangel', 'Miramar', 'Sanhok', 'Vikendi'][i % 4],
      time: `1${i}:30`,
    }));
    const scheduled = await timed(`${label}: schedule ${matches} × ${groups.length}`, async () =>
      ok(await gw.api.post(`${stageUrl(tid, sid)}/matches`, { matches: rows }, admin), 200, 'schedule'),
    );
    expect(scheduled).toHaveLength(matches * groups.length);
    const roomOf = (groupName: string, matchNo: number) => `${stage.name.slice(0, 4)}-${groupName}-${day}-${matchNo}`;
    const rooms = scheduled.map((m: any) => ({ id: m.id, matchId: roomOf(m.groupName, m.matchNo), password: `pw${m.id}` }));
    const withRooms = await timed(`${label}: ${rooms.length} rooms in one PUT`, async () =>
      ok(await gw.api.put(`${stageUrl(tid, sid)}/rooms`, { rooms }, admin), 200, 'rooms'),
    );
    for (const m of withRooms) expect(m.matchId).toBe(roomOf(m.groupName, m.matchNo));

    const sent: (SentResult & { groupId: number; match: number })[] = [];
    const batchMs: number[] = [];
    for (const g of groups) {
      for (let match = 1; match <= matches; match++) {
        const results = randomMatch(g.teams, winner);
        const started = performance.now();
        const saved = ok(
          await gw.api.put(`/tournaments/${tid}/points-table/matches/${day}/${match}`, { groupId: g.id, results }, admin),
          200,
          `results of group ${g.name} match ${match}`,
        ) as any[];
        batchMs.push(performance.now() - started);
        expect(saved).toHaveLength(g.teams.length);
        expect(saved.every((r) => r.groupId === g.id)).toBe(true);
        for (const r of results) sent.push({ ...r, groupId: g.id, match });
      }
    }
    batchMs.sort((a, b) => a - b);
    timings.push(
      `${label}: ${batchMs.length} results batches, median ${Math.round(batchMs[batchMs.length >> 1]!)} ms, max ${Math.round(batchMs.at(-1)!)} ms`,
    );
    return { scheduled: withRooms as any[], sent, roomOf };
  }

  /** The rule, re-computed from what was sent, compared with what completing the stage answers. */
  async function completeAndCheck(
    tid: number,
    stage: any,
    sent: readonly (SentResult & { groupId: number })[],
    names: Map<number, string>,
  ) {
    const groups = groupsOf(stage);
    const named = (teams: readonly number[]) => teams.map((teamId) => ({ teamId, teamName: names.get(teamId)! }));
    const groupTables = groups.map((g) => ({
      name: g.name,
      standings: rankTeams(
        named(g.teams),
        sent.filter((r) => r.groupId === g.id),
        BMPS,
      ),
    }));
    const overall = rankTeams(named(groups.flatMap((g) => g.teams)), sent, BMPS);
    const expected = expectedQualifiers(groupTables, overall, stage.advancePerGroup, stage.advanceBest);

    // The stage's table and each group's table rank exactly as re-computed.
    const brief = (s: Standing) => [s.teamId, s.totalPoints, s.wins, s.positionPoints, s.finishes, s.matchesPlayed];
    const stageTable = ok(await gw.api.get(`/tournaments/${tid}/points-table/overall?stage=${stage.id}`), 200, 'stage table') as any[];
    expect(stageTable.map(brief)).toEqual(overall.map(brief));
    expect(stageTable.map((r) => r.rank)).toEqual(overall.map((_, i) => i + 1));
    const where = new Map(stage.groups.flatMap((g: any) => g.slots.map((s: any) => [s.teamId, `${g.name}/${s.slot}`])));
    for (const r of stageTable) expect(`${r.groupName}/${r.slot}`).toBe(where.get(r.teamId));
    for (const [i, g] of groups.entries()) {
      const groupTable = ok(await gw.api.get(`/tournaments/${tid}/points-table/overall?group=${g.id}`), 200, 'group table') as any[];
      expect(groupTable.map(brief), `group ${g.name}`).toEqual(groupTables[i]!.standings.map(brief));
    }

    const done = await timed(`${stage.name}: complete`, async () =>
      ok(await gw.api.post(`${stageUrl(tid, stage.id)}/complete`, {}, admin), 200, 'complete'),
    );
    const byId = (list: any[]) => [...list].sort((a, b) => a.teamId - b.teamId);
    const rankOf = new Map(overall.map((s, i) => [s.teamId, i + 1]));
    expect(byId(done.qualifiers).map((q) => [q.teamId, q.groupName, q.via, q.stageRank])).toEqual(
      byId(expected).map((q) => [q.teamId, q.groupName, q.via, rankOf.get(q.teamId)]),
    );
    for (const q of done.qualifiers) {
      const table = groupTables.find((g) => g.name === q.groupName)!.standings;
      expect(q.groupRank).toBe(table.findIndex((s) => s.teamId === q.teamId) + 1);
    }
    expect(done.stage.state).toBe('completed');
    return { done, overall, groupTables, expected };
  }

  it('draws, publishes, schedules, sets rooms, takes results and advances 1,000 → 160 → 16 squads', { timeout: 900_000 }, async () => {
    const startedAll = performance.now();
    // 1,000 confirmed squads: free entry, 3 of them real accounts registered over HTTP.
    const real = await createTournamentWithTeams(
      gw.api,
      admin,
      players,
      players.map((_, i) => `Real Squad ${i} ${unique()}`),
      { game: 'BGMI', maxTeams: '1000', entryFee: '0', pointsSystem: 'bmps-15' },
    );
    const tid = real.tid;
    const bulk: RegisteredTeam[] = await timed('997 squads written', () => addLobbyTeams(gw, tid, 997));
    const all = [...real.teams, ...bulk];
    const rids = all.map((t) => t.rid).sort((a, b) => a - b);
    const names = new Map(all.map((t) => [t.rid, t.teamName]));
    expect(ok(await gw.api.get(`/tournaments/${tid}`), 200, 'tournament').registeredTeams).toBe(1000);

    // ---- Qualifiers: lobby 25 by default for BGMI, top 4 per group. ----
    const q = ok(await gw.api.post(stagesUrl(tid), { name: 'Qualifiers', advancePerGroup: 4 }, admin), 201, 'qualifiers');
    expect(q).toMatchObject({ lobbySize: 25, firstSlot: 1, entrants: 1000, state: 'draft' });
    const semis = ok(await gw.api.post(stagesUrl(tid), { name: 'Semi-finals', advancePerGroup: 2, advanceBest: 2 }, admin), 201, 'semis');
    const SEED = 'bgmi-1000-squads';
    const qDrawn = await timed('Qualifiers: random draw of 1,000', async () =>
      ok(await gw.api.post(`${stageUrl(tid, q.id)}/groups`, { method: 'random', seed: SEED }, admin), 200, 'draw'),
    );
    expect(qDrawn.draw).toMatchObject({ method: 'random', seed: SEED });
    checkStage(qDrawn, rids);
    expect(qDrawn.groups).toHaveLength(40);
    expect(qDrawn.groups.every((g: any) => g.slots.length === 25)).toBe(true);
    // Anyone with the entrants and the seed repeats the draw.
    expect(groupsOf(qDrawn).map((g) => g.teams)).toEqual(fillGroups(randomDrawOrder(rids, SEED), 25));

    const realRid = real.teams.map((t) => t.rid);
    const champion = realRid[0]!; // wins every match it plays, so it goes all the way
    const qPlayed = await play(tid, qDrawn, 1, 4, champion);
    expect(qPlayed.scheduled).toHaveLength(160);

    // Results only for a group's own teams: a batch naming a team of another group is refused, the match unchanged.
    const qGroups = groupsOf(qDrawn);
    for (const [g, other] of [
      [qGroups[0]!, qGroups[1]!],
      [qGroups[17]!, qGroups[39]!],
      [qGroups[39]!, qGroups[0]!],
    ] as const) {
      const before = ok(await gw.api.get(`/tournaments/${tid}/points-table/results?day=1&match=2&group=${g.id}`, admin), 200, 'stored');
      const intruder = g.teams.slice(0, 24).map((teamId, i) => ({ teamId, position: i + 1, finishes: 0 }));
      intruder.push({ teamId: other.teams[0]!, position: 25, finishes: 0 });
      const refused = await gw.api.put(`/tournaments/${tid}/points-table/matches/1/2`, { groupId: g.id, results: intruder }, admin);
      expect(refused.status, JSON.stringify(refused.body)).toBe(400);
      expect(ok(await gw.api.get(`/tournaments/${tid}/points-table/results?day=1&match=2&group=${g.id}`, admin), 200, 'stored')).toEqual(
        before,
      );
    }

    // A player sees their own group's 4 rooms and no other group's (156 matches without a room).
    const checkRooms = async (stage: any, played: Awaited<ReturnType<typeof play>>) => {
      const groupOfTeam = new Map(groupsOf(stage).flatMap((g) => g.teams.map((t) => [t, g.name])));
      for (const [i, player] of players.entries()) {
        const own = groupOfTeam.get(realRid[i]!);
        const list = ok(await gw.api.get(`/matches/tournament/${tid}`, player.token), 200, 'matches') as any[];
        const ofStage = list.filter((m) => m.stageId === stage.id);
        expect(ofStage).toHaveLength(played.scheduled.length);
        for (const m of ofStage) {
          if (m.groupName === own) {
            expect([m.matchId, m.password], `player ${i}, own group ${own}`).toEqual([played.roomOf(m.groupName, m.matchNo), `pw${m.id}`]);
          } else {
            expect([m.matchId, m.password], `player ${i} (group ${own}) must not see group ${m.groupName}`).toEqual([null, null]);
          }
        }
      }
      const forAdmin = ok(await gw.api.get(`/matches/tournament/${tid}`, admin), 200, 'matches') as any[];
      expect(forAdmin.filter((m) => m.stageId === stage.id && m.matchId !== null)).toHaveLength(played.scheduled.length);
    };
    await checkRooms(qDrawn, qPlayed);

    const qResult = await completeAndCheck(tid, qDrawn, qPlayed.sent, names);
    expect(qResult.done.qualifiers).toHaveLength(160);
    expect(qResult.done.nextStage).toEqual({ id: semis.id, name: 'Semi-finals' });
    expect(qResult.done.cuts).toHaveLength(40);
    const qualifiedIds = new Set(qResult.expected.map((x) => x.teamId));
    for (const [i, player] of players.entries()) {
      const mine = ok(await gw.api.get(`/registrations/${tid}`, player.token), 200, 'my team');
      const groupTable = qResult.groupTables.find((g) => g.standings.some((s) => s.teamId === realRid[i]))!;
      expect(mine.placements).toEqual([
        {
          stageId: q.id,
          stageName: 'Qualifiers',
          stageState: 'completed',
          groupId: qGroups.find((g) => g.name === groupTable.name)!.id,
          groupName: groupTable.name,
          slot: expect.any(Number),
          outcome: {
            groupRank: groupTable.standings.findIndex((s) => s.teamId === realRid[i]) + 1,
            stageRank: qResult.overall.findIndex((s) => s.teamId === realRid[i]) + 1,
            qualified: qualifiedIds.has(realRid[i]!),
            nextStageName: 'Semi-finals',
            final: false,
          },
        },
      ]);
    }
    expect(qualifiedIds.has(champion)).toBe(true);

    // ---- Semi-finals: the 160 qualifiers, seeded by their qualifiers rank in snake order: 7 groups of 23/22. ----
    const entrants = ok(await gw.api.get(`${stageUrl(tid, semis.id)}/entrants`, admin), 200, 'entrants') as any[];
    const seedOf = new Map(qResult.overall.map((s, i) => [s.teamId, i + 1]));
    expect(entrants).toHaveLength(160);
    for (const e of entrants) {
      expect(qualifiedIds.has(e.teamId)).toBe(true);
      expect(e).toMatchObject({ via: 'qualified', seed: seedOf.get(e.teamId) });
    }
    const sDrawn = await timed('Semi-finals: seeded draw of 160', async () =>
      ok(await gw.api.post(`${stageUrl(tid, semis.id)}/groups`, { method: 'seeded' }, admin), 200, 'seeded draw'),
    );
    const seededOrder = [...qualifiedIds].sort((a, b) => seedOf.get(a)! - seedOf.get(b)!);
    checkStage(sDrawn, seededOrder);
    expect(sDrawn.groups.map((g: any) => g.slots.length)).toEqual([23, 23, 23, 23, 23, 23, 22]);
    const sorted = (list: readonly number[]) => [...list].sort((a, b) => a - b);
    expect(groupsOf(sDrawn).map((g) => sorted(g.teams))).toEqual(snakeGroups(seededOrder, 25).map(sorted));

    const final = ok(await gw.api.post(stagesUrl(tid), { name: 'Grand Final' }, admin), 201, 'final');
    const sPlayed = await play(tid, sDrawn, 2, 4, champion);
    expect(sPlayed.scheduled).toHaveLength(28);
    await checkRooms(sDrawn, sPlayed);
    const sResult = await completeAndCheck(tid, sDrawn, sPlayed.sent, names);
    expect(sResult.done.qualifiers).toHaveLength(16);
    expect(sResult.done.qualifiers.filter((x: any) => x.via === 'group')).toHaveLength(14);
    expect(sResult.done.qualifiers.filter((x: any) => x.via === 'best')).toHaveLength(2);
    expect(sResult.done.cuts.map((c: any) => c.scope)).toEqual([...groupsOf(sDrawn).map((g) => `Group ${g.name}`), 'Best of the rest']);

    // ---- Grand Final: 16 squads, one lobby. ----
    const finalists = sResult.expected.map((x) => x.teamId);
    const fSeed = new Map(sResult.overall.map((s, i) => [s.teamId, i + 1]));
    const fDrawn = ok(await gw.api.post(`${stageUrl(tid, final.id)}/groups`, { method: 'seeded' }, admin), 200, 'final draw');
    checkStage(fDrawn, finalists);
    expect(fDrawn.groups).toHaveLength(1);
    // One group: the snake is the seeding order, so slots follow the semi-final ranking.
    expect(sorted(groupsOf(fDrawn)[0]!.teams)).toEqual(sorted(finalists));
    expect(finalists.every((t) => fSeed.has(t))).toBe(true);
    const fPlayed = await play(tid, fDrawn, 3, 4, champion);
    await checkRooms(fDrawn, fPlayed);
    const fResult = await completeAndCheck(tid, fDrawn, fPlayed.sent, names);
    expect(fResult.done.qualifiers).toEqual([]);
    expect(fResult.done.nextStage).toBeNull();
    // The final stage's table is the tournament's final standings, and the points page's default.
    const standings = ok(await gw.api.get(`/tournaments/${tid}/points-table/overall`), 200, 'standings') as any[];
    expect(standings.map((r) => r.teamId)).toEqual(fResult.overall.map((s) => s.teamId));
    expect(standings[0].teamId).toBe(champion);
    const championPlacements = ok(await gw.api.get(`/registrations/${tid}`, players[0]!.token), 200, 'champion').placements;
    expect(championPlacements.map((p: any) => [p.stageName, p.outcome.qualified, p.outcome.final, p.outcome.stageRank])).toEqual([
      ['Qualifiers', true, false, expect.any(Number)],
      ['Semi-finals', true, false, expect.any(Number)],
      ['Grand Final', false, true, 1],
    ]);

    timings.push(`whole run: ${Math.round(performance.now() - startedAll)} ms`);
    console.info(`stages-1000 (${dialectName}):\n  ${timings.join('\n  ')}`);
  });
});
