import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeClock } from '../../gateway/src/lib/clock.js';
import {
  addLobbyTeams,
  createTournamentWithTeams,
  dialectName,
  unique,
  type RegisteredTeam,
  type TestGateway,
  type TestUser,
  useGatewayWithPlayers,
} from './helpers.js';

interface Row {
  teamId: number;
  position: number;
  wins?: number;
  finishes?: number;
  [extra: string]: unknown;
}

describe('PUT /tournaments/{id}/points-table/matches/{day}/{match}', () => {
  let gw: TestGateway;
  let admin: string;
  let players: TestUser[];

  // The gateway's time: a rewrite would carry a later timestamp once the clock moves.
  const clock = new FakeClock();
  const setup = useGatewayWithPlayers(4, { clock });
  beforeAll(() => ({ gw, admin, players } = setup));

  const names = (n: number) => Array.from({ length: n }, (_, i) => `Squad ${String.fromCharCode(65 + i)} ${unique()}`);
  /** n teams of players, in a lobby of 16 (the other teams get no result): positions up to 16, finishes up to 60 (decision 029). */
  const withTeams = async (n: number, overrides: Record<string, string> = {}) => {
    const tournament = await createTournamentWithTeams(gw.api, admin, players, names(n), overrides);
    await addLobbyTeams(gw, tournament.tid, 16 - n);
    return tournament;
  };

  const putMatch = (tid: number, day: number | string, match: number | string, results: unknown, token: string | undefined = admin) =>
    gw.api.put(`/tournaments/${tid}/points-table/matches/${day}/${match}`, { results }, token);
  const rows = (...list: Row[]) => list.map((r) => ({ wins: 0, finishes: 0, ...r }));

  const stored = async (tid: number, day: number, match: number) => {
    const res = await gw.api.get(`/tournaments/${tid}/points-table/results?day=${day}&match=${match}`, admin);
    expect(res.status).toBe(200);
    return res.body as any[];
  };
  const overall = async (tid: number) => {
    const res = await gw.api.get(`/tournaments/${tid}/points-table/overall`);
    expect(res.status).toBe(200);
    return res.body as any[];
  };
  /** Everything a batch could have touched, to prove a refused one touched nothing. */
  const snapshot = async (tid: number) => ({ match: await stored(tid, 1, 1), other: await stored(tid, 1, 2), overall: await overall(tid) });
  const brief = (list: any[]) => list.map((r) => [r.teamId, r.position, r.positionPoints, r.wins, r.finishes, r.totalPoints]);

  it("stores a whole match, computing points with the tournament's system, and answers the stored rows", async () => {
    const { tid, teams } = await withTeams(4, { pointsSystem: 'bmps-15' });
    const [a, b, c, d] = teams as [RegisteredTeam, RegisteredTeam, RegisteredTeam, RegisteredTeam];
    const res = await putMatch(tid, 2, 3, [
      { teamId: c.rid, position: 2, wins: 0, finishes: 4, teamName: 'ignored', totalPoints: 999 },
      { teamId: a.rid, position: 1, wins: 1, finishes: 7 },
      { teamId: d.rid, position: 0, wins: 0, finishes: 1 },
      { teamId: b.rid, position: 13, wins: 0, finishes: 0 },
    ]);
    expect(res.status).toBe(200);
    expect(brief(res.body)).toEqual([
      [a.rid, 1, 15, 1, 7, 22],
      [c.rid, 2, 12, 0, 4, 16],
      [b.rid, 13, 0, 0, 0, 0],
      [d.rid, 0, 0, 0, 1, 1],
    ]);
    expect(res.body[0]).toEqual({
      id: expect.any(Number),
      tid,
      day: 2,
      match: 3,
      teamId: a.rid,
      teamName: a.teamName,
      position: 1,
      positionPoints: 15,
      wins: 1,
      finishes: 7,
      totalPoints: 22,
    });
    expect(await stored(tid, 2, 3)).toEqual(res.body);
    expect((await overall(tid)).map((r) => [r.teamId, r.totalPoints, r.matchesPlayed])).toEqual([
      [a.rid, 22, 1],
      [c.rid, 16, 1],
      [d.rid, 1, 1],
      [b.rid, 0, 1],
    ]);
  });

  it('replaces the match with exactly the rows given: unlisted teams lose their row, other matches stay', async () => {
    const { tid, teams } = await withTeams(3);
    const [a, b, c] = teams as [RegisteredTeam, RegisteredTeam, RegisteredTeam];
    expect(
      (
        await putMatch(
          tid,
          1,
          1,
          rows({ teamId: a.rid, position: 1, wins: 1 }, { teamId: b.rid, position: 2 }, { teamId: c.rid, position: 3 }),
        )
      ).status,
    ).toBe(200);
    expect((await putMatch(tid, 1, 2, rows({ teamId: c.rid, position: 1, wins: 1, finishes: 2 }))).status).toBe(200);

    const res = await putMatch(tid, 1, 1, rows({ teamId: b.rid, position: 1, wins: 1, finishes: 3 }));
    expect(res.status).toBe(200);
    expect(brief(res.body)).toEqual([[b.rid, 1, 10, 1, 3, 13]]);
    expect(brief(await stored(tid, 1, 2))).toEqual([[c.rid, 1, 10, 1, 2, 12]]);
    expect((await overall(tid)).map((r) => [r.teamId, r.totalPoints, r.matchesPlayed])).toEqual([
      [b.rid, 13, 1],
      [c.rid, 12, 1],
    ]);

    // An empty list clears the match.
    const cleared = await putMatch(tid, 1, 1, []);
    expect(cleared.status).toBe(200);
    expect(cleared.body).toEqual([]);
    expect((await overall(tid)).map((r) => r.teamId)).toEqual([c.rid]);
  });

  it('swaps two placements in one call, and the overall table changes exactly once', async () => {
    const { tid, teams } = await withTeams(3);
    const [a, b, c] = teams as [RegisteredTeam, RegisteredTeam, RegisteredTeam];
    const first = await putMatch(
      tid,
      1,
      1,
      rows(
        { teamId: a.rid, position: 1, wins: 1, finishes: 2 },
        { teamId: b.rid, position: 2, finishes: 5 },
        { teamId: c.rid, position: 3 },
      ),
    );
    expect(first.status).toBe(200);
    expect((await overall(tid)).map((r) => [r.teamId, r.totalPoints])).toEqual([
      [a.rid, 12],
      [b.rid, 11],
      [c.rid, 5],
    ]);

    const swapped = rows(
      { teamId: a.rid, position: 2, finishes: 2 },
      { teamId: b.rid, position: 1, wins: 1, finishes: 5 },
      { teamId: c.rid, position: 3 },
    );
    const res = await putMatch(tid, 1, 1, swapped);
    expect(res.status).toBe(200);
    expect(brief(res.body)).toEqual([
      [b.rid, 1, 10, 1, 5, 15],
      [a.rid, 2, 6, 0, 2, 8],
      [c.rid, 3, 5, 0, 0, 5],
    ]);
    // The rows were updated in place, not re-created.
    const idOf = (list: any[], rid: number) => list.find((r) => r.teamId === rid).id;
    for (const t of teams) expect(idOf(res.body, t.rid)).toBe(idOf(first.body, t.rid));

    const afterSwap = await overall(tid);
    expect(afterSwap.map((r) => [r.rank, r.teamId, r.totalPoints, r.wins, r.matchesPlayed])).toEqual([
      [1, b.rid, 15, 1, 1],
      [2, a.rid, 8, 0, 1],
      [3, c.rid, 5, 0, 1],
    ]);
    // Submitting the swapped form again changes nothing more.
    expect((await putMatch(tid, 1, 1, swapped)).status).toBe(200);
    expect(await overall(tid)).toEqual(afterSwap);
  });

  it('rotates three placements in one call', async () => {
    const { tid, teams } = await withTeams(3);
    const [a, b, c] = teams as [RegisteredTeam, RegisteredTeam, RegisteredTeam];
    await putMatch(tid, 1, 1, rows({ teamId: a.rid, position: 1 }, { teamId: b.rid, position: 2 }, { teamId: c.rid, position: 3 }));
    const res = await putMatch(
      tid,
      1,
      1,
      rows({ teamId: a.rid, position: 2 }, { teamId: b.rid, position: 3 }, { teamId: c.rid, position: 1 }),
    );
    expect(res.status).toBe(200);
    expect(res.body.map((r: any) => [r.position, r.teamId])).toEqual([
      [1, c.rid],
      [2, a.rid],
      [3, b.rid],
    ]);
  });

  it('takes a placement freed by a team it drops from the match', async () => {
    const { tid, teams } = await withTeams(2);
    const [a, b] = teams as [RegisteredTeam, RegisteredTeam];
    await putMatch(tid, 1, 1, rows({ teamId: a.rid, position: 1 }, { teamId: b.rid, position: 2 }));
    const res = await putMatch(tid, 1, 1, rows({ teamId: b.rid, position: 1 }));
    expect(res.status).toBe(200);
    expect(res.body.map((r: any) => [r.position, r.teamId])).toEqual([[1, b.rid]]);
  });

  it('is idempotent: re-sending the same body rewrites nothing', async () => {
    const { tid, teams } = await withTeams(3);
    const body = rows(...teams.map((t, i) => ({ teamId: t.rid, position: i + 1, wins: i === 0 ? 1 : 0, finishes: i * 2 })));
    const first = await putMatch(tid, 3, 4, body);
    expect(first.status).toBe(200);
    const updatedAt = () =>
      gw.app.store.db.selectFrom('match_results').select(['id', 'updated_at']).where('tournament_id', '=', tid).orderBy('id').execute();
    const before = await updatedAt();
    const table = await overall(tid);
    clock.advance(60_000); // a rewrite would carry a later timestamp
    const again = await putMatch(tid, 3, 4, body);
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    expect(await updatedAt()).toEqual(before);
    expect(await overall(tid)).toEqual(table);
  });

  describe('refusals change nothing', () => {
    /** A tournament with stored results in two matches, and a snapshot of them. */
    async function played() {
      const t = await withTeams(3);
      const [a, b, c] = t.teams as [RegisteredTeam, RegisteredTeam, RegisteredTeam];
      expect(
        (
          await putMatch(
            t.tid,
            1,
            1,
            rows({ teamId: a.rid, position: 1, wins: 1, finishes: 3 }, { teamId: b.rid, position: 2 }, { teamId: c.rid, position: 3 }),
          )
        ).status,
      ).toBe(200);
      expect((await putMatch(t.tid, 1, 2, rows({ teamId: c.rid, position: 1, wins: 1 }))).status).toBe(200);
      return { ...t, a, b, c, before: await snapshot(t.tid) };
    }

    it('refuses two teams with the same placement, naming both, beside both positions', async () => {
      const { tid, a, b, c, before } = await played();
      // The first rows are fine and would change the match: nothing of them may be stored.
      const res = await putMatch(
        tid,
        1,
        1,
        rows({ teamId: c.rid, position: 1, wins: 1 }, { teamId: a.rid, position: 2, finishes: 9 }, { teamId: b.rid, position: 2 }),
      );
      expect(res.status).toBe(409);
      expect(res.body.message).toContain(a.teamName);
      expect(res.body.message).toContain(b.teamName);
      expect(res.body.message).toBe(`Two teams cannot share a placement. Placement 2 is given to both ${a.teamName} and ${b.teamName}.`);
      expect(res.body.errors).toEqual({
        [`position.${a.rid}`]: `Placement 2 is also given to ${b.teamName}.`,
        [`position.${b.rid}`]: `Placement 2 is also given to ${a.teamName}.`,
      });
      expect(await snapshot(tid)).toEqual(before);
    });

    it('names every team of every shared placement', async () => {
      const { tid, a, b, c, before } = await played();
      const res = await putMatch(
        tid,
        1,
        1,
        rows({ teamId: a.rid, position: 4 }, { teamId: b.rid, position: 4 }, { teamId: c.rid, position: 4 }),
      );
      expect(res.status).toBe(409);
      expect(res.body.message).toBe(
        `Two teams cannot share a placement. Placement 4 is given to ${a.teamName}, ${b.teamName} and ${c.teamName}.`,
      );
      expect(Object.keys(res.body.errors).sort()).toEqual([a, b, c].map((t) => `position.${t.rid}`).sort());
      expect(await snapshot(tid)).toEqual(before);
    });

    it('refuses a team not registered in the tournament, naming it', async () => {
      const { tid, a, b, before } = await played();
      const other = await withTeams(1);
      const foreign = other.teams[0]!.rid;
      const res = await putMatch(
        tid,
        1,
        1,
        rows({ teamId: a.rid, position: 2 }, { teamId: b.rid, position: 1 }, { teamId: foreign, position: 3 }),
      );
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        message: `Team ${foreign} is not registered in this tournament.`,
        errors: { [`teamId.${foreign}`]: `Team ${foreign} is not registered in this tournament.` },
      });
      const missing = await putMatch(tid, 1, 1, rows({ teamId: a.rid, position: 2 }, { teamId: 2_000_000_000, position: 3 }));
      expect(missing.status).toBe(400);
      expect(Object.keys(missing.body.errors)).toEqual(['teamId.2000000000']);
      expect(await snapshot(tid)).toEqual(before);
      expect(await overall(other.tid)).toEqual([]);
    });

    it('refuses the same team twice', async () => {
      const { tid, a, b, before } = await played();
      const res = await putMatch(
        tid,
        1,
        1,
        rows({ teamId: a.rid, position: 3 }, { teamId: b.rid, position: 1 }, { teamId: a.rid, position: 2 }),
      );
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        message: `${a.teamName} is listed more than once.`,
        errors: { [`teamId.${a.rid}`]: `${a.teamName} is listed more than once.` },
      });
      expect(await snapshot(tid)).toEqual(before);
    });

    it('refuses a batch with one bad value, keyed by field and team', async () => {
      const { tid, a, b, c, before } = await played();
      const bad: [string, unknown][] = [
        ['position', 1.5],
        ['position', -1],
        ['position', 'abc'],
        ['position', 101],
        ['finishes', 100],
        ['finishes', null],
        ['wins', 2],
      ];
      for (const [field, value] of bad) {
        const res = await putMatch(
          tid,
          1,
          1,
          rows({ teamId: a.rid, position: 3 }, { teamId: b.rid, position: 2 }, { teamId: c.rid, position: 1, [field]: value }),
        );
        expect(res.status, `${field}=${JSON.stringify(value)}`).toBe(400);
        expect(Object.keys(res.body.errors), `${field}=${JSON.stringify(value)}`).toEqual([`${field}.${c.rid}`]);
        expect(res.body.errors[`${field}.${c.rid}`]).toMatch(/whole number/);
      }
      const noPosition = await putMatch(tid, 1, 1, [{ teamId: a.rid, wins: 0, finishes: 0 }]);
      expect(noPosition.status).toBe(400);
      expect(noPosition.body.errors).toEqual({ [`position.${a.rid}`]: 'Position is required.' });
      const noTeam = await putMatch(tid, 1, 1, [{ position: 1, wins: 0, finishes: 0 }]);
      expect(noTeam.status).toBe(400);
      expect(noTeam.body.errors).toEqual({ 'results.0.teamId': 'Team is required.' });
      const noResults = await gw.api.put(`/tournaments/${tid}/points-table/matches/1/1`, {}, admin);
      expect(noResults.status).toBe(400);
      expect(noResults.body.errors).toEqual({ results: 'Results are required.' });
      expect(await snapshot(tid)).toEqual(before);
    });

    it('needs a day from 1 to 7 and a match from 1 to 6 in the path', async () => {
      const { tid, a, before } = await played();
      for (const [day, match, field] of [
        [0, 1, 'day'],
        [8, 1, 'day'],
        ['x', 1, 'day'],
        [1, 0, 'match'],
        [1, 7, 'match'],
        [1, 1.5, 'match'],
      ] as const) {
        const res = await putMatch(tid, day, match, rows({ teamId: a.rid, position: 1 }));
        expect(res.status, `${day}/${match}`).toBe(400);
        expect(Object.keys(res.body.errors), `${day}/${match}`).toEqual([field]);
      }
      expect(await snapshot(tid)).toEqual(before);
    });

    it('is for admins only: 401 anonymous (whatever the body), 403 for a player', async () => {
      const { tid, a, b, before } = await played();
      const swap = rows({ teamId: a.rid, position: 2 }, { teamId: b.rid, position: 1 });
      const anonymous = await putMatch(tid, 1, 1, swap, '');
      expect(anonymous.status).toBe(401);
      expect(anonymous.body).toEqual({ message: 'Please log in to continue.' });
      const anonymousBadBody = await gw.api.put(`/tournaments/${tid}/points-table/matches/1/1`, { results: 'nonsense' });
      expect(anonymousBadBody.status).toBe(401);
      expect(anonymousBadBody.body.errors).toBeUndefined();
      expect((await putMatch(tid, 1, 1, swap, 'not-a-token')).status).toBe(401);
      const player = await putMatch(tid, 1, 1, swap, players[0]!.token);
      expect(player.status).toBe(403);
      expect(player.body).toEqual({ message: 'Admins only.' });
      expect(await snapshot(tid)).toEqual(before);
    });

    it('answers 404 for a tournament that does not exist or was deleted', async () => {
      const { tid, a, b } = await played();
      const missing = await putMatch(2_000_000_000, 1, 1, rows({ teamId: a.rid, position: 1 }));
      expect(missing.status).toBe(404);
      expect(missing.body).toEqual({ message: 'Tournament not found.' });
      expect((await gw.api.delete(`/tournaments/admin/delete${tid}`, admin)).status).toBe(200);
      const deleted = await putMatch(tid, 1, 1, rows({ teamId: a.rid, position: 2 }, { teamId: b.rid, position: 1 }));
      expect(deleted.status).toBe(404);
      const kept = await gw.app.store.db
        .selectFrom('match_results')
        .select(['registration_id', 'position'])
        .where('tournament_id', '=', tid)
        .where('day', '=', 1)
        .where('match_no', '=', 1)
        .where('registration_id', '=', a.rid)
        .executeTakeFirstOrThrow();
      expect(Number(kept.position)).toBe(1);
    });
  });

  it('serialises two batches for one match: the result is one of them whole, never a mix', async () => {
    const { tid, teams } = await withTeams(2);
    const [a, b] = teams as [RegisteredTeam, RegisteredTeam];
    const one = rows({ teamId: a.rid, position: 1, wins: 1, finishes: 1 }, { teamId: b.rid, position: 2, finishes: 2 });
    const two = rows({ teamId: a.rid, position: 2, finishes: 3 }, { teamId: b.rid, position: 1, wins: 1, finishes: 4 });
    for (let match = 1; match <= 4; match++) {
      const [r1, r2] = await Promise.all([putMatch(tid, 1, match, one), putMatch(tid, 1, match, two)]);
      expect([r1.status, r2.status]).toEqual([200, 200]);
      const key = (list: Row[]) =>
        JSON.stringify([...list].sort((x, y) => x.teamId - y.teamId).map((r) => [r.teamId, r.position, r.wins, r.finishes]));
      expect([key(one), key(two)]).toContain(key(await stored(tid, 1, match)));
    }
  });

  it('works beside the per-team call, which stays as it is', async () => {
    const { tid, teams } = await withTeams(2);
    const [a, b] = teams as [RegisteredTeam, RegisteredTeam];
    const single = await gw.api.post(
      `/tournaments/${tid}/points-table`,
      { day: 1, match: 1, teamId: a.rid, teamName: '', position: 1, wins: 1, finishes: 2, totalPoints: 0 },
      admin,
    );
    expect(single.status).toBe(200);
    const res = await putMatch(tid, 1, 1, rows({ teamId: a.rid, position: 2, finishes: 2 }, { teamId: b.rid, position: 1, wins: 1 }));
    expect(res.status).toBe(200);
    expect(res.body.find((r: any) => r.teamId === a.rid).id).toBe(single.body.id);
    const taken = await gw.api.post(
      `/tournaments/${tid}/points-table`,
      { day: 1, match: 1, teamId: a.rid, position: 1, wins: 0, finishes: 0 },
      admin,
    );
    expect(taken.status).toBe(409);
    expect(taken.body.message).toBe(`Placement 1 in day 1 match 1 is already taken by ${b.teamName}.`);
  });

  it('is documented in the OpenAPI description, for admins', async () => {
    const { paths } = (await gw.api.get('/openapi.json')).body;
    const op = paths['/tournaments/{id}/points-table/matches/{day}/{match}']?.put;
    expect(op).toBeDefined();
    expect(op.security).toEqual([{ bearerAuth: [] }]);
    expect(Object.keys(op.responses)).toEqual(expect.arrayContaining(['200', '400', '401', '403', '404', '409']));
  });
});

describe(`batch and per-team saves racing for one match (${dialectName}; decision 032)`, () => {
  let gw: TestGateway;
  let admin: string;
  let players: TestUser[];

  const setup = useGatewayWithPlayers(8);
  beforeAll(() => ({ gw, admin, players } = setup));

  /** Deterministic pseudo-random numbers (mulberry32), so a failure can be replayed. */
  function random(seed: number) {
    return () => {
      seed = (seed + 0x6d2b79f5) | 0;
      let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
      t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
  }

  it('60 batches against 60 per-team saves, three times: no 5xx, and a consistent match and table', { timeout: 120_000 }, async () => {
    const next = random(20261124);
    const pick = (n: number) => Math.floor(next() * n);
    for (let round = 0; round < 3; round++) {
      const { tid, teams } = await createTournamentWithTeams(
        gw.api,
        admin,
        players,
        players.map(() => `Race ${unique()}`),
      );
      // Batches of a random subset of the teams on shuffled placements 1 to the lobby's size (decision 029);
      // per-team saves of a random team and placement (0 = not placed).
      const batch = () => {
        const places = Array.from({ length: teams.length }, (_, k) => k + 1).sort(() => next() - 0.5);
        const results = teams
          .filter(() => next() < 0.7)
          .map((t, j) => ({ teamId: t.rid, position: places[j], wins: places[j] === 1 ? 1 : 0, finishes: pick(6) }));
        return gw.api.put(`/tournaments/${tid}/points-table/matches/1/1`, { results }, admin);
      };
      const single = () =>
        gw.api.post(
          `/tournaments/${tid}/points-table`,
          { day: 1, match: 1, teamId: teams[pick(teams.length)]!.rid, position: pick(teams.length + 1), wins: 0, finishes: pick(6) },
          admin,
        );
      const answers = await Promise.all(Array.from({ length: 60 }, () => [batch(), single()]).flat());

      const failed = answers.filter((r) => r.status !== 200 && r.status !== 409);
      expect(failed.map((r) => `${r.status} ${JSON.stringify(r.body)}`)).toEqual([]);

      const stored = (await gw.api.get(`/tournaments/${tid}/points-table/results?day=1&match=1`, admin)).body as any[];
      const placed = stored.map((r) => r.position).filter((p) => p > 0);
      expect(new Set(placed).size).toBe(placed.length);
      for (const row of stored) expect(row.totalPoints).toBe(row.positionPoints + row.finishes);
      const overall = (await gw.api.get(`/tournaments/${tid}/points-table/overall`)).body as any[];
      const byTeam = (list: any[]) => list.map((r) => [r.teamId, r.totalPoints]).sort((a, b) => a[0] - b[0]);
      expect(byTeam(overall)).toEqual(byTeam(stored));
    }
  });
});

// A deadlock forced by a trigger in the gateway's own schema: SQLSTATE 40P01, as PostgreSQL raises it,
// for the first `fail_first` attempts counted by a sequence (a sequence survives the rollback).
if (dialectName === 'postgres')
  describe('a PostgreSQL deadlock is retried once, then answered 503 (decision 032)', () => {
    let gw: TestGateway;
    let admin: string;
    let players: TestUser[];
    let client: pg.Client;

    const setup = useGatewayWithPlayers(2);
    beforeAll(async () => {
      ({ gw, admin, players } = setup);
      client = new pg.Client({ connectionString: setup.storage.databaseUrl });
      await client.connect();
      await client.query(`
      create sequence save_attempts;
      create table deadlock_plan (fail_first integer not null);
      insert into deadlock_plan values (0);
      create function force_deadlock() returns trigger language plpgsql as $$
      begin
        if nextval('save_attempts') <= (select fail_first from deadlock_plan) then
          raise exception 'deadlock detected' using errcode = '40P01';
        end if;
        return new;
      end $$;
      create trigger force_deadlock before insert or update on match_results for each row execute function force_deadlock();
    `);
    });
    afterAll(() => client.end());

    /** The next save fails its first `n` statements on match_results; answers how many ran. */
    async function plan(n: number) {
      await client.query('alter sequence save_attempts restart with 1');
      await client.query('update deadlock_plan set fail_first = $1', [n]);
      return async () =>
        Number(
          (await client.query(`select last_value, is_called from save_attempts`)).rows.map((r) => (r.is_called ? r.last_value : 0))[0],
        );
    }

    it('a deadlock once: the save is run again and succeeds, stored once', async () => {
      // Two teams, so that 2nd place and 3 finishes are a possible result (decision 029).
      const { tid, teams } = await createTournamentWithTeams(gw.api, admin, players, [`Lock ${unique()}`, `Lock ${unique()}`]);
      const attempts = await plan(1);
      const res = await gw.api.post(
        `/tournaments/${tid}/points-table`,
        { day: 1, match: 1, teamId: teams[0]!.rid, position: 2, wins: 0, finishes: 3 },
        admin,
      );
      expect(res.status).toBe(200);
      expect(await attempts()).toBe(2);
      const stored = (await gw.api.get(`/tournaments/${tid}/points-table/results?day=1&match=1`, admin)).body as any[];
      expect(stored.map((r) => [r.teamId, r.position, r.finishes, r.totalPoints])).toEqual([[teams[0]!.rid, 2, 3, 9]]);
    });

    it('a deadlock twice: 503 with Retry-After and a message, tried exactly twice, nothing stored', async () => {
      const { tid, teams } = await createTournamentWithTeams(gw.api, admin, players, [`Lock ${unique()}`, `Lock ${unique()}`]);
      for (const save of [
        () =>
          gw.api.post(
            `/tournaments/${tid}/points-table`,
            { day: 1, match: 1, teamId: teams[0]!.rid, position: 1, wins: 1, finishes: 3 },
            admin,
          ),
        () =>
          gw.api.put(
            `/tournaments/${tid}/points-table/matches/1/1`,
            { results: teams.map((t, i) => ({ teamId: t.rid, position: i + 1, wins: i === 0 ? 1 : 0, finishes: 1 })) },
            admin,
          ),
      ]) {
        const attempts = await plan(1000);
        const res = await save();
        expect(res.status).toBe(503);
        expect(res.headers.get('retry-after')).toBe('2');
        expect(res.body).toEqual({
          message: 'Many changes to the same data arrived at once and yours could not be saved. Please try again.',
        });
        expect(await attempts()).toBe(2);
      }
      await plan(0);
      expect((await gw.api.get(`/tournaments/${tid}/points-table/results?day=1&match=1`, admin)).body).toEqual([]);
      expect((await gw.api.get('/healthz')).body).toEqual({ status: 'ok' }); // a conflict is not a storage fault
    });
  });
