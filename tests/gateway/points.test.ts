import { beforeAll, describe, expect, it } from 'vitest';
import { addLobbyTeams, createTournament, teamFields, unique, type TestGateway, type TestUser, useGatewayWithPlayers } from './helpers.js';

interface Team {
  rid: number;
  teamName: string;
}

describe('points tables', () => {
  let gw: TestGateway;
  let admin: string;
  // Accounts are reused across tournaments (one team per account per tournament): argon2 is slow on purpose.
  let players: TestUser[];

  const setup = useGatewayWithPlayers(4);
  beforeAll(() => ({ gw, admin, players } = setup));

  /**
   * A tournament (admin-created, registration open) with one team per name, registered by distinct
   * players, in a lobby of 16 teams (the others never get a result): positions up to 16 and finishes
   * up to 60 are possible (decision 029).
   */
  async function tournamentWithTeams(teamNames: string[], overrides: Record<string, string> = {}) {
    const tournament = await createTournament(gw.api, admin, overrides);
    const teams: Team[] = [];
    for (const [i, teamName] of teamNames.entries()) {
      const res = await gw.api.post(`/registrations/${tournament.id}`, teamFields({ teamName }), players[i]!.token);
      if (res.status !== 200 && res.status !== 201) throw new Error(`registration failed: ${res.status} ${JSON.stringify(res.body)}`);
      teams.push({ rid: res.body.rid, teamName });
    }
    await addLobbyTeams(gw, tournament.id, LOBBY - teams.length);
    return { tid: tournament.id as number, teams };
  }
  const LOBBY = 16;

  const names = (n: number) => Array.from({ length: n }, (_, i) => `Squad ${String.fromCharCode(65 + i)} ${unique()}`);

  const submit = (tid: number, body: Record<string, unknown>, token: string | undefined = admin) =>
    gw.api.post(`/tournaments/${tid}/points-table`, { teamName: '', wins: 0, finishes: 0, position: 0, totalPoints: 0, ...body }, token);

  const overall = async (tid: number) => {
    const res = await gw.api.get(`/tournaments/${tid}/points-table/overall`);
    expect(res.status).toBe(200);
    return res.body as any[];
  };
  const dayTable = async (tid: number, day: number | string) => {
    const res = await gw.api.get(`/tournaments/${tid}/points-table/day?day=${day}`);
    expect(res.status).toBe(200);
    return res.body as any[];
  };

  describe('POST /tournaments/{id}/points-table', () => {
    const cases = [
      // [points system, positions -> expected placement points]
      [
        'bgis-10',
        [
          [1, 10],
          [2, 6],
          [8, 1],
          [9, 0],
        ],
      ],
      [
        'bmps-15',
        [
          [1, 15],
          [2, 12],
          [12, 1],
          [13, 0],
        ],
      ],
      [
        'freefire-12',
        [
          [1, 12],
          [2, 9],
          [10, 1],
          [11, 0],
        ],
      ],
    ] as const;

    for (const [system, expectations] of cases) {
      it(`computes placement points and totals with ${system}`, async () => {
        const { tid, teams } = await tournamentWithTeams(names(4), { pointsSystem: system });
        for (const [i, [position, points]] of expectations.entries()) {
          const finishes = i + 3;
          const res = await submit(tid, { day: 1, match: 1, teamId: teams[i]!.rid, position, finishes, wins: position === 1 ? 1 : 0 });
          expect(res.status).toBe(200);
          expect(res.body).toMatchObject({
            tid,
            day: 1,
            match: 1,
            teamId: teams[i]!.rid,
            position,
            positionPoints: points,
            finishes,
            totalPoints: points + finishes,
          });
        }
        const table = await overall(tid);
        for (const [i, [, points]] of expectations.entries()) {
          const row = table.find((r) => r.teamId === teams[i]!.rid);
          expect(row).toMatchObject({ positionPoints: points, finishes: i + 3, totalPoints: points + i + 3, matchesPlayed: 1 });
        }
      });
    }

    it('uses bgis-10 when the tournament names no points system', async () => {
      const { tid, teams } = await tournamentWithTeams(names(1));
      const res = await submit(tid, { day: 1, match: 1, teamId: teams[0]!.rid, position: 2, finishes: 1 });
      expect(res.body).toMatchObject({ positionPoints: 6, totalPoints: 7 });
    });

    it('ignores the totalPoints and teamName the client sends', async () => {
      const { tid, teams } = await tournamentWithTeams(names(1));
      const res = await submit(tid, {
        day: 1,
        match: 1,
        teamId: teams[0]!.rid,
        position: 1,
        wins: 1,
        finishes: 4,
        totalPoints: 999,
        teamName: 'Someone Else',
      });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        id: expect.any(Number),
        tid,
        day: 1,
        match: 1,
        teamId: teams[0]!.rid,
        teamName: teams[0]!.teamName,
        position: 1,
        positionPoints: 10,
        wins: 1,
        finishes: 4,
        totalPoints: 14,
      });
      expect((await overall(tid))[0]).toMatchObject({ teamName: teams[0]!.teamName, totalPoints: 14 });
    });

    it('replaces a re-submitted match instead of adding to it, and a new placement changes the totals', async () => {
      const { tid, teams } = await tournamentWithTeams(names(2));
      const [a, b] = teams as [Team, Team];
      const first = await submit(tid, { day: 1, match: 1, teamId: a.rid, position: 1, wins: 1, finishes: 5 });
      const again = await submit(tid, { day: 1, match: 1, teamId: a.rid, position: 1, wins: 1, finishes: 5 });
      expect(again.status).toBe(200);
      expect(again.body.id).toBe(first.body.id);
      await submit(tid, { day: 1, match: 1, teamId: b.rid, position: 2, finishes: 1 });
      let table = await overall(tid);
      expect(table.find((r) => r.teamId === a.rid)).toMatchObject({ totalPoints: 15, finishes: 5, wins: 1, matchesPlayed: 1 });

      // The admin corrects the match: A actually came 3rd with 2 finishes; 1st place is then free for B.
      const corrected = await submit(tid, { day: 1, match: 1, teamId: a.rid, position: 3, wins: 0, finishes: 2 });
      expect(corrected.body).toMatchObject({ id: first.body.id, positionPoints: 5, totalPoints: 7 });
      expect((await submit(tid, { day: 1, match: 1, teamId: b.rid, position: 1, wins: 1, finishes: 1 })).status).toBe(200);
      table = await overall(tid);
      expect(table.map((r) => [r.teamId, r.totalPoints, r.wins, r.matchesPlayed])).toEqual([
        [b.rid, 11, 1, 1],
        [a.rid, 7, 0, 1],
      ]);
    });

    it('refuses a placement another team already holds in the match, and writes nothing', async () => {
      const { tid, teams } = await tournamentWithTeams(names(2));
      const [a, b] = teams as [Team, Team];
      expect((await submit(tid, { day: 2, match: 3, teamId: a.rid, position: 4, finishes: 1 })).status).toBe(200);
      const res = await submit(tid, { day: 2, match: 3, teamId: b.rid, position: 4, finishes: 6 });
      expect(res.status).toBe(409);
      const message = `Placement 4 in day 2 match 3 is already taken by ${a.teamName}.`;
      expect(res.body).toEqual({ message, errors: { position: message } });
      expect((await overall(tid)).map((r) => r.teamId)).toEqual([a.rid]);
      // The same placement in another match, or on another day, is fine.
      expect((await submit(tid, { day: 2, match: 4, teamId: b.rid, position: 4 })).status).toBe(200);
      expect((await submit(tid, { day: 1, match: 3, teamId: b.rid, position: 4 })).status).toBe(200);
    });

    it('answers 409 to exactly one of two teams claiming a placement at the same moment', async () => {
      const { tid, teams } = await tournamentWithTeams(names(2));
      for (let match = 1; match <= 6; match++) {
        const results = await Promise.all(teams.map((t) => submit(tid, { day: 1, match, teamId: t.rid, position: 1, wins: 1 })));
        expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
        const loser = results.find((r) => r.status === 409)!;
        const winner = teams[results.findIndex((r) => r.status === 200)]!;
        expect(loser.body.message).toBe(`Placement 1 in day 1 match ${match} is already taken by ${winner.teamName}.`);
      }
      expect((await overall(tid)).reduce((n, r) => n + r.matchesPlayed, 0)).toBe(6);
    });

    it('lets several teams have no placement (position 0) in one match', async () => {
      const { tid, teams } = await tournamentWithTeams(names(3));
      for (const t of teams) {
        const res = await submit(tid, { day: 1, match: 1, teamId: t.rid, position: 0, finishes: 2 });
        expect(res.status).toBe(200);
        expect(res.body).toMatchObject({ positionPoints: 0, totalPoints: 2 });
      }
      expect(await overall(tid)).toHaveLength(3);
    });

    it('rejects a team of another tournament, or no team at all', async () => {
      const mine = await tournamentWithTeams(names(1));
      const other = await tournamentWithTeams(names(1));
      const notRegistered = {
        message: 'This team is not registered in the tournament.',
        errors: { teamId: 'This team is not registered in the tournament.' },
      };
      const res = await submit(mine.tid, { day: 1, match: 1, teamId: other.teams[0]!.rid, position: 1 });
      expect(res.status).toBe(400);
      expect(res.body).toEqual(notRegistered);
      const missing = await submit(mine.tid, { day: 1, match: 1, teamId: 2_000_000_000, position: 1 });
      expect(missing.status).toBe(400);
      expect(missing.body).toEqual(notRegistered);
      expect(await overall(mine.tid)).toEqual([]);
    });

    it('accepts only whole numbers in range, with a field error for each bad one', async () => {
      const { tid, teams } = await tournamentWithTeams(names(1));
      const good = { day: 1, match: 1, teamId: teams[0]!.rid, position: 1, wins: 1, finishes: 0 };
      const bad: [string, unknown, Record<string, unknown>?][] = [
        ['position', 1.5],
        ['position', -1],
        ['position', 'abc'],
        ['position', 101],
        ['position', null],
        ['finishes', 1.5],
        ['finishes', -1],
        ['finishes', 'abc'],
        ['finishes', 100],
        ['finishes', 61], // 4 × (16 − 1) other players in the lobby
        ['position', 17, { wins: 0 }], // 16 teams in the lobby
        ['wins', 1, { position: 2 }], // a win is placement 1
        ['wins', 2],
        ['wins', -1],
        ['wins', 0.5],
        ['day', 0],
        ['day', 8],
        ['day', 'abc'],
        ['match', 0],
        ['match', 7],
        ['match', 2.5],
        ['teamId', 'abc'],
        ['teamId', 1.5],
        ['teamId', -3],
      ];
      for (const [field, value, also] of bad) {
        const res = await submit(tid, { ...good, ...also, [field]: value });
        expect(res.status, `${field}=${JSON.stringify(value)}`).toBe(400);
        expect(Object.keys(res.body.errors), `${field}=${JSON.stringify(value)}`).toEqual([field]);
        expect(res.body.errors[field]).toMatch(/whole number|registration id|from 0 to 60|from 1 to 16|only the team placed 1st/);
      }
      // wins may be left out: it is derived from the position (decision 029).
      for (const field of ['day', 'match', 'teamId', 'position', 'finishes']) {
        const { [field]: _left, ...rest } = { ...good, teamName: '', totalPoints: 0 } as Record<string, unknown>;
        const res = await gw.api.post(`/tournaments/${tid}/points-table`, rest, admin);
        expect(res.status, `missing ${field}`).toBe(400);
        expect(res.body.errors[field], `missing ${field}`).toMatch(/required/);
      }
      expect(await overall(tid)).toEqual([]);
      // Numbers as digit strings (a plain form post) are read as numbers.
      const asText = await submit(tid, { day: '1', match: '1', teamId: String(teams[0]!.rid), position: '2', wins: '0', finishes: '3' });
      expect(asText.status).toBe(200);
      expect(asText.body).toMatchObject({ day: 1, match: 1, position: 2, positionPoints: 6, totalPoints: 9 });
    });

    it('is for admins only: 401 without a token, 403 for a player', async () => {
      const { tid, teams } = await tournamentWithTeams(names(1));
      const body = { day: 1, match: 1, teamId: teams[0]!.rid, position: 1 };
      const anonymous = await submit(tid, body, '');
      expect(anonymous.status).toBe(401);
      const player = await submit(tid, body, players[0]!.token);
      expect(player.status).toBe(403);
      expect(player.body.message).toEqual(expect.any(String));
      const invalidToken = await submit(tid, body, 'not-a-token');
      expect(invalidToken.status).toBe(401);
      expect(await overall(tid)).toEqual([]);
    });

    it('answers 404 for a tournament that does not exist or was deleted', async () => {
      const { tid, teams } = await tournamentWithTeams(names(1));
      const missing = await submit(2_000_000_000, { day: 1, match: 1, teamId: teams[0]!.rid, position: 1 });
      expect(missing.status).toBe(404);
      expect(missing.body.message).toBe('Tournament not found.');
      expect((await submit(tid, { day: 1, match: 1, teamId: teams[0]!.rid, position: 1 })).status).toBe(200);

      const deleted = await gw.api.delete(`/tournaments/admin/delete${tid}`, admin);
      expect(deleted.status).toBeLessThan(300);
      expect((await submit(tid, { day: 1, match: 2, teamId: teams[0]!.rid, position: 1 })).status).toBe(404);
      expect((await gw.api.get(`/tournaments/${tid}/points-table/overall`)).status).toBe(404);
      expect((await gw.api.get(`/tournaments/${tid}/points-table/day?day=1`)).status).toBe(404);
      expect((await gw.api.get(`/tournaments/${tid}/points-table/results?day=1&match=1`, admin)).status).toBe(404);
    });
  });

  describe('GET /tournaments/{id}/points-table/results', () => {
    it("returns one match's stored rows for the admin form: placed teams by position, then the rest", async () => {
      const { tid, teams } = await tournamentWithTeams(['Zeta Force ' + unique(), 'Alpha Force ' + unique(), 'Mid Force ' + unique()]);
      const [z, a, m] = teams as [Team, Team, Team];
      await submit(tid, { day: 1, match: 2, teamId: z.rid, position: 2, finishes: 3 });
      await submit(tid, { day: 1, match: 2, teamId: a.rid, position: 0, finishes: 1 });
      await submit(tid, { day: 1, match: 2, teamId: m.rid, position: 1, wins: 1, finishes: 7 });
      await submit(tid, { day: 1, match: 3, teamId: a.rid, position: 1, wins: 1 }); // another match: not listed

      const res = await gw.api.get(`/tournaments/${tid}/points-table/results?day=1&match=2`, admin);
      expect(res.status).toBe(200);
      expect(res.body.map((r: any) => [r.teamId, r.teamName, r.position, r.positionPoints, r.wins, r.finishes, r.totalPoints])).toEqual([
        [m.rid, m.teamName, 1, 10, 1, 7, 17],
        [z.rid, z.teamName, 2, 6, 0, 3, 9],
        [a.rid, a.teamName, 0, 0, 0, 1, 1],
      ]);
      expect(res.body[0]).toMatchObject({ tid, day: 1, match: 2, id: expect.any(Number) });
      expect((await gw.api.get(`/tournaments/${tid}/points-table/results?day=1&match=5`, admin)).body).toEqual([]);
    });

    it('is for admins only and validates day and match', async () => {
      const { tid } = await tournamentWithTeams([]);
      expect((await gw.api.get(`/tournaments/${tid}/points-table/results?day=1&match=1`)).status).toBe(401);
      expect((await gw.api.get(`/tournaments/${tid}/points-table/results?day=1&match=1`, players[0]!.token)).status).toBe(403);
      const bad = await gw.api.get(`/tournaments/${tid}/points-table/results?day=9&match=x`, admin);
      expect(bad.status).toBe(400);
      expect(Object.keys(bad.body.errors).sort()).toEqual(['day', 'match']);
      expect((await gw.api.get(`/tournaments/${tid}/points-table/results?day=1`, admin)).status).toBe(400);
      expect((await gw.api.get(`/tournaments/2000000000/points-table/results?day=1&match=1`, admin)).status).toBe(404);
    });
  });

  describe('GET day and overall tables', () => {
    it('sums one day for the day table and every day for overall; day 0 is overall', async () => {
      const { tid, teams } = await tournamentWithTeams(names(3));
      const [a, b, c] = teams as [Team, Team, Team];
      // Day 1: two matches for A and B; day 2: one match for A and C.
      await submit(tid, { day: 1, match: 1, teamId: a.rid, position: 1, wins: 1, finishes: 4 }); // 14
      await submit(tid, { day: 1, match: 1, teamId: b.rid, position: 2, finishes: 2 }); // 8
      await submit(tid, { day: 1, match: 2, teamId: b.rid, position: 1, wins: 1, finishes: 5 }); // 15
      await submit(tid, { day: 1, match: 2, teamId: a.rid, position: 5, finishes: 0 }); // 3
      await submit(tid, { day: 2, match: 1, teamId: c.rid, position: 1, wins: 1, finishes: 9 }); // 19
      await submit(tid, { day: 2, match: 1, teamId: a.rid, position: 3, finishes: 1 }); // 6

      const row = (r: any) => [r.rank, r.teamId, r.positionPoints, r.finishes, r.wins, r.totalPoints, r.matchesPlayed];
      expect((await dayTable(tid, 1)).map(row)).toEqual([
        [1, b.rid, 16, 7, 1, 23, 2],
        [2, a.rid, 13, 4, 1, 17, 2],
      ]);
      expect((await dayTable(tid, 2)).map(row)).toEqual([
        [1, c.rid, 10, 9, 1, 19, 1],
        [2, a.rid, 5, 1, 0, 6, 1],
      ]);
      const all = await overall(tid);
      expect(all.map(row)).toEqual([
        [1, a.rid, 18, 5, 1, 23, 3],
        [2, b.rid, 16, 7, 1, 23, 2],
        [3, c.rid, 10, 9, 1, 19, 1],
      ]);
      expect(all[0]).toEqual({
        rank: 1,
        teamId: a.rid,
        teamName: a.teamName,
        positionPoints: 18,
        finishes: 5,
        wins: 1,
        totalPoints: 23,
        matchesPlayed: 3,
      });
      expect(await dayTable(tid, 0)).toEqual(all);
      expect(await dayTable(tid, 3)).toEqual([]);
    });

    it('is public, and empty before any points', async () => {
      const { tid } = await tournamentWithTeams(names(2));
      expect(await overall(tid)).toEqual([]);
      expect(await dayTable(tid, 1)).toEqual([]);
    });

    it('needs a whole day number from 0 to 7', async () => {
      const { tid } = await tournamentWithTeams([]);
      for (const query of ['?day=8', '?day=x', '?day=-1', '?day=1.5', '?day=', '']) {
        const res = await gw.api.get(`/tournaments/${tid}/points-table/day${query}`);
        expect(res.status, query).toBe(400);
        expect(res.body.errors.day, query).toEqual(expect.any(String));
      }
      expect((await gw.api.get(`/tournaments/${tid}/points-table/day?day=7`)).status).toBe(200);
    });

    it('answers 404 for a tournament that does not exist, 400 for a bad id', async () => {
      expect((await gw.api.get('/tournaments/2000000000/points-table/overall')).status).toBe(404);
      expect((await gw.api.get('/tournaments/2000000000/points-table/day?day=1')).status).toBe(404);
      expect((await gw.api.get('/tournaments/abc/points-table/overall')).status).toBe(400);
    });

    it('breaks a points tie by wins before placement points', async () => {
      const { tid, teams } = await tournamentWithTeams(['Aaa Placers ' + unique(), 'Zzz Winners ' + unique()]);
      const [placers, winners] = teams as [Team, Team];
      await submit(tid, { day: 1, match: 1, teamId: winners.rid, position: 1, wins: 1, finishes: 2 }); // 10 + 2 = 12, 1 win
      await submit(tid, { day: 1, match: 1, teamId: placers.rid, position: 2, finishes: 0 }); // 6
      await submit(tid, { day: 1, match: 2, teamId: placers.rid, position: 2, finishes: 0 }); // 6 -> 12, 12 placement points, 0 wins
      const table = await overall(tid);
      expect(table.map((r) => [r.rank, r.teamId, r.totalPoints, r.wins, r.positionPoints])).toEqual([
        [1, winners.rid, 12, 1, 10],
        [2, placers.rid, 12, 0, 12],
      ]);
    });

    it('then by placement points before finishes', async () => {
      const { tid, teams } = await tournamentWithTeams(['Aaa Fraggers ' + unique(), 'Zzz Survivors ' + unique()]);
      const [fraggers, survivors] = teams as [Team, Team];
      await submit(tid, { day: 1, match: 1, teamId: fraggers.rid, position: 1, wins: 1, finishes: 3 }); // 13: 10 + 3
      await submit(tid, { day: 1, match: 1, teamId: survivors.rid, position: 5, finishes: 0 }); // 3
      await submit(tid, { day: 1, match: 2, teamId: survivors.rid, position: 1, wins: 1, finishes: 0 }); // 10 -> 13: 13 + 0
      const table = await overall(tid);
      expect(table.map((r) => [r.rank, r.teamId, r.totalPoints, r.wins, r.positionPoints, r.finishes])).toEqual([
        [1, survivors.rid, 13, 1, 13, 0],
        [2, fraggers.rid, 13, 1, 10, 3],
      ]);
    });

    it('then by team name, ignoring case', async () => {
      const u = unique();
      // Registered in an order that is neither the expected one nor the case-sensitive one.
      const { tid, teams } = await tournamentWithTeams([`Charlie ${u}`, `bravo ${u}`, `Alpha ${u}`]);
      const [charlie, bravo, alpha] = teams as [Team, Team, Team];
      await submit(tid, { day: 1, match: 1, teamId: charlie.rid, position: 3, finishes: 1 });
      await submit(tid, { day: 1, match: 2, teamId: bravo.rid, position: 3, finishes: 1 });
      await submit(tid, { day: 1, match: 3, teamId: alpha.rid, position: 3, finishes: 1 });
      const table = await overall(tid);
      expect(table.map((r) => [r.rank, r.teamName])).toEqual([
        [1, alpha.teamName],
        [2, bravo.teamName],
        [3, charlie.teamName],
      ]);
    });

    it('counts matches played per scope', async () => {
      const { tid, teams } = await tournamentWithTeams(names(1));
      const rid = teams[0]!.rid;
      for (const [day, match] of [
        [1, 1],
        [1, 2],
        [1, 3],
        [2, 1],
        [3, 6],
      ])
        await submit(tid, { day, match, teamId: rid, position: 0 });
      await submit(tid, { day: 1, match: 2, teamId: rid, position: 0, finishes: 1 }); // a re-submission is not another match
      expect((await overall(tid))[0].matchesPlayed).toBe(5);
      expect((await dayTable(tid, 1))[0].matchesPlayed).toBe(3);
      expect((await dayTable(tid, 3))[0].matchesPlayed).toBe(1);
    });
  });

  it('documents every points-table route in the OpenAPI description', async () => {
    const res = await gw.api.get('/openapi.json');
    const paths = Object.keys(res.body.paths);
    for (const p of [
      '/tournaments/{id}/points-table',
      '/tournaments/{id}/points-table/results',
      '/tournaments/{id}/points-table/day',
      '/tournaments/{id}/points-table/overall',
    ]) {
      expect(paths).toContain(p);
    }
    expect(res.body.paths['/tournaments/{id}/points-table'].post.security).toEqual([{ bearerAuth: [] }]);
  });
});
