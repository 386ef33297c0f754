import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unique, type Player } from '../e2e/support/api';
import { GatewayApi, Stack, webLogin } from './web-helpers';

// Issue 32 (decision 086), the room rush at a test's size: a stage of 8 groups of 5 squads, every group's room
// posted, then all 40 players (one account each, one address for all, as behind a carrier's NAT) open
// /tournament/{id}/matches at once on a web server of two processes (WEB_CONCURRENCY=2). Every answer is 200
// and shows that player's own group's room, and no other group's. The full size (1,000 squads) is
// `npm run bench:room-rush`.

const GROUPS = 8;
const LOBBY = 5;

let stack: Stack;
let api: GatewayApi;

beforeAll(async () => {
  stack = await Stack.start({ label: 'room-rush', webEnv: { WEB_CONCURRENCY: '2', WEB_MAX_ACTIVE_REQUESTS: '8' } });
  api = new GatewayApi(stack.info);
}, 90_000);

afterAll(async () => {
  await stack?.stop();
});

describe('the room minute (decision 086)', () => {
  it('40 players at once, two web processes: each sees its own group’s room and no other', async () => {
    const admin = await api.adminToken();
    const t = await api.createTournament({ entryFee: '0', maxTeams: String(GROUPS * LOBBY) });
    const players: Player[] = await Promise.all(Array.from({ length: GROUPS * LOBBY }, () => api.createPlayer()));
    const teams: { rid: number }[] = [];
    for (const p of players) teams.push(await api.registerTeam(t.id, p, `Rush ${unique()}`));
    const base = `/tournaments/${t.id}/stages`;
    const stage = await api.request<{ id: number }>('POST', base, {
      token: admin,
      json: { name: 'Qualifiers', lobbySize: LOBBY },
      what: 'stage',
    });
    const drawn = await api.request<{ groups: { id: number; slots: { teamId: number }[] }[] }>('POST', `${base}/${stage.id}/groups`, {
      token: admin,
      json: { method: 'registration' },
      what: 'draw',
    });
    expect(drawn.groups).toHaveLength(GROUPS);
    const matches = await api.request<{ id: number; groupId: number }[]>('POST', `${base}/${stage.id}/matches`, {
      token: admin,
      json: { matches: [{ day: 1, matchNo: 1, map: 'Erangel', time: '18:30' }] },
      what: 'schedule',
    });
    await api.request('POST', `${base}/${stage.id}/publish`, { token: admin, json: {}, what: 'publish' });
    const roomOf = new Map(
      matches.map((m) => [m.groupId, { matchId: `77${m.id}${unique().slice(0, 4)}`, password: `pw-${m.groupId}-${unique()}` }]),
    );
    await api.request('PUT', `${base}/${stage.id}/rooms`, {
      token: admin,
      json: { rooms: matches.map((m) => ({ id: m.id, ...roomOf.get(m.groupId)! })) },
      what: 'rooms',
    });
    const groupOfTeam = new Map(drawn.groups.flatMap((g) => g.slots.map((s) => [s.teamId, g.id] as const)));
    const cookies = await Promise.all(players.map(async (p) => (await webLogin(stack.info.webUrl, p.email, p.password)).cookie));

    const pages = await Promise.all(
      cookies.map(async (cookie) => {
        const res = await fetch(`${stack.info.webUrl}/tournament/${t.id}/matches`, { headers: { cookie } });
        return { status: res.status, body: await res.text() };
      }),
    );
    pages.forEach((page, i) => {
      const own = groupOfTeam.get(teams[i]!.rid)!;
      expect(page.status, `player ${i}`).toBe(200);
      expect(page.body, `player ${i} sees its room`).toContain(roomOf.get(own)!.password);
      for (const [group, room] of roomOf)
        if (group !== own) expect(page.body, `player ${i} sees group ${group}'s room`).not.toContain(room.password);
    });
  });
});
