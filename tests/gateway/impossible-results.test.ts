// Issue 16, item 4: results that cannot happen are refused (decision 029). A win is placement 1, so
// wins are derived from the position (a 1 for another position is refused); positions run from 1 to
// the number of teams in the lobby (every registered team, while tournaments have no stages; 0 = not
// placed); finishes from 0 to the other players of the lobby, 4 × (teams − 1) for squads.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addLobbyTeams, adminToken, createTournament, startGateway, type RegisteredTeam, type TestGateway } from './helpers.js';

describe('impossible results', () => {
  let gw: TestGateway;
  let admin: string;
  let refused = 0;

  beforeAll(async () => {
    gw = await startGateway();
    admin = await adminToken(gw.api);
  });
  afterAll(async () => {
    console.log(`impossible results: ${refused} refused, none stored`);
    await gw.stop();
  });

  /** A tournament whose lobby is `size` registered teams. */
  async function lobby(size: number, overrides: Record<string, string> = {}) {
    const t = await createTournament(gw.api, admin, { maxTeams: '100', ...overrides });
    return { tid: t.id as number, teams: await addLobbyTeams(gw, t.id, size) };
  }
  const putMatch = (tid: number, results: unknown[], day = 1, match = 1) =>
    gw.api.put(`/tournaments/${tid}/points-table/matches/${day}/${match}`, { results }, admin);
  const postOne = (tid: number, body: Record<string, unknown>) =>
    gw.api.post(
      `/tournaments/${tid}/points-table`,
      { day: 1, match: 1, teamName: '', totalPoints: 0, wins: 0, finishes: 0, ...body },
      admin,
    );
  const stored = async (tid: number) => (await gw.api.get(`/tournaments/${tid}/points-table/results?day=1&match=1`, admin)).body as any[];
  const overall = async (tid: number) => (await gw.api.get(`/tournaments/${tid}/points-table/overall`)).body as any[];
  /** A full, possible match of a lobby: positions 1..n, a few finishes each. */
  const possible = (teams: RegisteredTeam[]) =>
    teams.map((t, i) => ({ teamId: t.rid, position: i + 1, wins: i === 0 ? 1 : 0, finishes: i % 4 }));

  it("the issue's match (two chicken dinners, a win for 3rd, none for 1st, position 30 in a 10-team lobby) is refused whole, naming each field", async () => {
    const { tid, teams } = await lobby(10);
    const rows = possible(teams);
    rows[0] = { ...rows[0]!, wins: 0 }; // no win for the 1st: read as "not given", the win is derived
    rows[2] = { ...rows[2]!, wins: 1 }; // a win for the 3rd: the second chicken dinner
    rows[9] = { ...rows[9]!, position: 30 }; // position 30 of 10
    const res = await putMatch(tid, rows);
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual({
      [`wins.${teams[2]!.rid}`]: 'Wins must be 0 for position 3: only the team placed 1st wins the match.',
      [`position.${teams[9]!.rid}`]: 'Position must be from 1 to 10: the lobby has 10 teams (0 = not placed).',
    });
    expect(await stored(tid)).toEqual([]);
    refused += 1;

    // Fixed, the same match stores one win, for the team placed 1st, whatever wins said.
    rows[2] = { ...rows[2]!, wins: 0 };
    rows[9] = { ...rows[9]!, position: 10 };
    const ok = await putMatch(tid, rows);
    expect(ok.status).toBe(200);
    expect(ok.body.filter((r: any) => r.wins === 1).map((r: any) => [r.teamId, r.position])).toEqual([[teams[0]!.rid, 1]]);
    expect((await overall(tid)).reduce((sum, r) => sum + r.wins, 0)).toBe(1);
  });

  it('positions run from 1 to the teams in the lobby, finishes from 0 to the other players (4 × (teams − 1) for squads)', async () => {
    const { tid, teams } = await lobby(10);
    const [a, b] = teams as [RegisteredTeam, RegisteredTeam];
    const bad: [Record<string, unknown>, string, RegExp][] = [
      [{ teamId: a.rid, position: 11 }, 'position', /from 1 to 10/],
      [{ teamId: a.rid, position: 100 }, 'position', /from 1 to 10/],
      [
        { teamId: a.rid, position: 2, finishes: 37 },
        'finishes',
        /^Finishes must be from 0 to 36: the other players in a lobby of 10 teams\.$/,
      ],
      [{ teamId: a.rid, position: 2, finishes: 99 }, 'finishes', /from 0 to 36/],
      [{ teamId: a.rid, position: 2, wins: 1 }, 'wins', /only the team placed 1st/],
      [{ teamId: a.rid, position: 0, wins: 1 }, 'wins', /position 0/],
    ];
    for (const [row, field, message] of bad) {
      const batch = await putMatch(tid, [{ wins: 0, finishes: 0, ...row }]);
      expect(batch.status, JSON.stringify(row)).toBe(400);
      expect(batch.body.errors, JSON.stringify(row)).toEqual({ [`${field}.${a.rid}`]: expect.stringMatching(message) });
      const one = await postOne(tid, row);
      expect(one.status, JSON.stringify(row)).toBe(400);
      expect(one.body.errors, JSON.stringify(row)).toEqual({ [field]: expect.stringMatching(message) });
      refused += 2;
    }
    expect(await stored(tid)).toEqual([]);

    // The edges are possible.
    expect(
      (
        await putMatch(tid, [
          { teamId: a.rid, position: 10, finishes: 36 },
          { teamId: b.rid, position: 1, finishes: 0 },
        ])
      ).status,
    ).toBe(200);
    expect((await postOne(tid, { teamId: a.rid, position: 0, finishes: 36 })).status).toBe(200);
  });

  it('the lobby grows with each registered team, and a duo or solo lobby has fewer players to finish', async () => {
    const squads = await lobby(2);
    expect((await postOne(squads.tid, { teamId: squads.teams[0]!.rid, position: 3 })).status).toBe(400);
    expect((await postOne(squads.tid, { teamId: squads.teams[0]!.rid, position: 2, finishes: 5 })).status).toBe(400);
    await addLobbyTeams(gw, squads.tid, 1);
    expect((await postOne(squads.tid, { teamId: squads.teams[0]!.rid, position: 3, finishes: 8 })).status).toBe(200);

    const duos = await lobby(10, { format: 'Duo' });
    const duo = await postOne(duos.tid, { teamId: duos.teams[0]!.rid, position: 2, finishes: 19 });
    expect(duo.body.errors).toEqual({ finishes: expect.stringMatching(/from 0 to 18/) });
    expect((await postOne(duos.tid, { teamId: duos.teams[0]!.rid, position: 2, finishes: 18 })).status).toBe(200);

    const solos = await lobby(10, { format: 'Solo' });
    expect((await postOne(solos.tid, { teamId: solos.teams[0]!.rid, position: 2, finishes: 10 })).body.errors).toEqual({
      finishes: expect.stringMatching(/from 0 to 9/),
    });
    refused += 4;
  });

  it('wins are derived from the position: left out, 0 or 1 for the winner all store one win for position 1 and none for the rest', async () => {
    const { tid, teams } = await lobby(4);
    const [a, b, c, d] = teams as [RegisteredTeam, RegisteredTeam, RegisteredTeam, RegisteredTeam];
    const res = await putMatch(tid, [
      { teamId: a.rid, position: 1, finishes: 0 },
      { teamId: b.rid, position: 2, wins: 0, finishes: 0 },
      { teamId: c.rid, position: 3, finishes: 1 },
      { teamId: d.rid, position: 0, finishes: 2 },
    ]);
    expect(res.status).toBe(200);
    expect(res.body.map((r: any) => [r.teamId, r.position, r.wins])).toEqual([
      [a.rid, 1, 1],
      [b.rid, 2, 0],
      [c.rid, 3, 0],
      [d.rid, 0, 0],
    ]);
    // The spec's per-team call sends wins typed by hand (0 when left empty): 0 for the winner still stores the win.
    const one = await postOne(tid, { day: 1, match: 2, teamId: b.rid, position: 1, wins: 0, finishes: 3 });
    expect(one.status).toBe(200);
    expect(one.body).toMatchObject({ position: 1, wins: 1, positionPoints: 10, totalPoints: 13 });
    const moved = await postOne(tid, { day: 1, match: 2, teamId: b.rid, position: 4, finishes: 3 });
    expect(moved.body).toMatchObject({ position: 4, wins: 0 });
  });
});
