import { unique, type GatewayApi, type Player, type Registration, type Tournament } from './api';

/** A stage as GET /tournaments/{id}/stages answers it (the fields these tests read). */
export interface StageJson {
  id: number;
  name: string;
  state: string;
  groups: { id: number; name: string; slots: { slot: number; teamId: number; teamName: string }[] }[];
}
interface StageMatchJson {
  id: number;
  day: number;
  matchNo: number;
  groupId: number;
  groupName: string;
  matchId: string | null;
  password: string | null;
}

export interface StagedTournament {
  t: Tournament;
  player: Player;
  team: Registration;
  stage: StageJson;
  /** The player's group (B: the team registered fifth) and another one. */
  own: StageJson['groups'][number];
  other: StageJson['groups'][number];
  rooms: Map<number, { matchId: string; password: string }>;
  matches: StageMatchJson[];
}

/**
 * Through the gateway API (issue 18): a free tournament (every team confirmed) with 12 teams, the player's the
 * fifth; a stage "Qualifiers" with lobbies of 4 (3 groups), the top 2 of each advancing, drawn in registration
 * order, published (a draft "Semi-finals" after it), two matches scheduled per group, rooms set; results for the player's group only, which
 * puts the player's team 2nd; then completed (unless complete: false).
 */
export async function stagedTournament(api: GatewayApi, options: { complete?: boolean } = {}): Promise<StagedTournament> {
  const admin = await api.adminToken();
  const t = await api.createTournament({ entryFee: '0', maxTeams: '16' });
  const players = await Promise.all(Array.from({ length: 12 }, () => api.createPlayer()));
  const teams: Registration[] = [];
  // One at a time: the draw goes by registration order.
  for (const p of players) teams.push(await api.registerTeam(t.id, p, `Squad ${unique()}`));
  const base = `/tournaments/${t.id}/stages`;
  let stage = await api.request<StageJson>('POST', base, {
    token: admin,
    json: { name: 'Qualifiers', lobbySize: 4, advancePerGroup: 2 },
    what: 'create stage',
  });
  // The next stage, a draft: the qualifiers' words name it ("Qualified for Semi-finals"); nobody else sees it.
  await api.request('POST', base, { token: admin, json: { name: 'Semi-finals', lobbySize: 4 }, what: 'create next stage' });
  stage = await api.request<StageJson>('POST', `${base}/${stage.id}/groups`, {
    token: admin,
    json: { method: 'registration' },
    what: 'draw',
  });
  stage = await api.request<StageJson>('POST', `${base}/${stage.id}/publish`, { token: admin, json: {}, what: 'publish' });
  const matches = await api.request<StageMatchJson[]>('POST', `${base}/${stage.id}/matches`, {
    token: admin,
    json: {
      matches: [
        { day: 1, matchNo: 1, map: 'Erangel', time: '18:30' },
        { day: 1, matchNo: 2, map: 'Miramar', time: '19:15' },
      ],
    },
    what: 'schedule',
  });
  const u = unique();
  const rooms = new Map(
    matches.map((m) => [m.id, { matchId: `R${m.groupName}${m.matchNo}x${u}`, password: `pw${m.groupName}${m.matchNo}-${u}` }]),
  );
  await api.request('PUT', `${base}/${stage.id}/rooms`, {
    token: admin,
    json: { rooms: matches.map((m) => ({ id: m.id, ...rooms.get(m.id)! })) },
    what: 'rooms',
  });
  const player = players[4]!;
  const team = teams[4]!;
  const own = stage.groups.find((g) => g.slots.some((s) => s.teamId === team.rid))!;
  const other = stage.groups.find((g) => g !== own)!;
  // The player's group: another team wins both matches, the player's team comes 2nd.
  const rest = own.slots.filter((s) => s.teamId !== team.rid);
  const order = [rest[0]!, own.slots.find((s) => s.teamId === team.rid)!, ...rest.slice(1)];
  for (const match of [1, 2]) {
    await api.request('PUT', `/tournaments/${t.id}/points-table/matches/1/${match}`, {
      token: admin,
      json: { groupId: own.id, results: order.map((s, i) => ({ teamId: s.teamId, position: i + 1, finishes: 4 - i })) },
      what: 'results',
    });
  }
  if (options.complete !== false) {
    // The other group's matches have no results: marked not played (issue 27).
    const notPlayed = matches.filter((m) => m.groupId !== own.id).map((m) => m.id);
    await api.request('POST', `${base}/${stage.id}/complete`, { token: admin, json: { notPlayed }, what: 'complete' });
  }
  return { t, player, team, stage, own, other, rooms, matches };
}
