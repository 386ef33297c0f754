import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  adminToken,
  createTournamentWithTeams,
  createUser,
  matchFields,
  startGateway,
  unique,
  type TestGateway,
  type TestUser,
} from './helpers.js';

// Issue 27, item 20 (decision 054): a player's matches answer (GET /matches/tournament/{id}) listed a draft
// stage's matches with their stage and group names (the draw before the organiser published it). Nothing of
// a draft stage reaches players; the organiser sees it all; matches outside the stages are as before.
describe("a draft stage's matches", () => {
  let gw: TestGateway;
  let admin: string;
  let players: TestUser[];

  beforeAll(async () => {
    gw = await startGateway();
    admin = await adminToken(gw.api);
    players = await Promise.all(Array.from({ length: 4 }, () => createUser(gw.api)));
  });
  afterAll(() => gw?.stop());

  const matchesAs = async (tid: number, token: string) => {
    const res = await gw.api.get(`/matches/tournament/${tid}`, token);
    expect(res.status).toBe(200);
    return res.body as { day: number; matchNo: number; map: string; groupName?: string; stageName?: string; matchId: string | null }[];
  };

  it('reach no player, in the draw or not, until the stage is published', async () => {
    const { tid } = await createTournamentWithTeams(
      gw.api,
      admin,
      players,
      players.map((_, i) => `D${i} ${unique()}`),
      { entryFee: '0' },
    );
    // A match outside the stages: everyone's, as before.
    expect((await gw.api.post('/matches', matchFields(tid, { day: 1, matchNo: 1, map: 'Sanhok' }), admin)).status).toBe(201);
    const stage = (await gw.api.post(`/tournaments/${tid}/stages`, { name: `Secret Qualifiers ${unique()}`, lobbySize: 2 }, admin)).body;
    const groups = (await gw.api.post(`/tournaments/${tid}/stages/${stage.id}/groups`, { method: 'registration' }, admin)).body;
    expect(groups.groups.length).toBe(2);
    const scheduled = await gw.api.post(
      `/tournaments/${tid}/stages/${stage.id}/matches`,
      { matches: [{ day: 2, matchNo: 1, map: 'Erangel', time: '18:00' }] },
      admin,
    );
    expect(scheduled.status).toBe(200);

    // The organiser sees the draft's matches; players (drawn or not) only the match outside the stages.
    expect((await matchesAs(tid, admin)).filter((m) => m.stageName === stage.name)).toHaveLength(2);
    const outsider = await createUser(gw.api);
    for (const player of [...players, outsider]) {
      const seen = await matchesAs(tid, player.token);
      expect(
        seen.map((m) => [m.day, m.matchNo, m.map]),
        player.username,
      ).toEqual([[1, 1, 'Sanhok']]);
      expect(JSON.stringify(seen)).not.toContain(stage.name);
    }

    await gw.api.post(`/tournaments/${tid}/stages/${stage.id}/publish`, {}, admin);
    const after = await matchesAs(tid, players[0]!.token);
    expect(
      after
        .filter((m) => m.stageName === stage.name)
        .map((m) => m.groupName)
        .sort(),
    ).toEqual(['A', 'B']);
  });
});
