// Issue 29 (decision 065): the access matrix. Every protected call of the endpoint table × every kind of
// caller (anonymous, a player, the organiser of another tournament, the owner, a co-organiser, a payments
// person, a lobby manager of group A, a site admin), and the lobby manager's writes on group A and on
// group B; on SQLite and on PostgreSQL (the security project runs on both). Rights come from the
// database on every call: a withdrawn crew member or organiser is refused on its next request.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { endpoints, type Endpoint, type StaffRight } from '@custom-room/contract';
import {
  addLobbyTeams,
  adminToken,
  createTournament,
  createUser,
  expectStatus,
  startGateway,
  teamFields,
  unique,
  type TestGateway,
  type TestUser,
} from './helpers.js';

type Role = 'anonymous' | 'player' | 'other organiser' | 'owner' | 'co-organiser' | 'payments' | 'lobby A' | 'site admin';
const ROLES: Role[] = ['anonymous', 'player', 'other organiser', 'owner', 'co-organiser', 'payments', 'lobby A', 'site admin'];

/** Who holds each right on T1 (decision 065's table). */
const HOLDERS: Record<StaffRight, Role[]> = {
  own: ['site admin', 'owner'],
  run: ['site admin', 'owner', 'co-organiser'],
  payments: ['site admin', 'owner', 'co-organiser', 'payments'],
  lobby: ['site admin', 'owner', 'co-organiser', 'lobby A'],
  organise: ['site admin', 'owner', 'other organiser'],
  desk: ['site admin', 'owner', 'other organiser', 'co-organiser', 'payments', 'lobby A'],
};
/** Calls naming their tournament only in the body: the first check lets any desk through, the body's tournament is checked after. */
const BODY_NAMED = new Set(['createMatch', 'setPaymentStatuses']);

function mayCall(role: Role, name: string, access: Endpoint['access']): boolean {
  if (role === 'anonymous') return false;
  if (access === 'user') return true;
  if (access === 'admin') return role === 'site admin';
  if (access === 'public') return true;
  const right = access.slice('staff:'.length) as StaffRight;
  return HOLDERS[BODY_NAMED.has(name) ? 'desk' : right].includes(role);
}

let gw: TestGateway;
let admin: string;
const users = {} as Record<Exclude<Role, 'anonymous' | 'site admin'>, TestUser>;
let t1: number;
let t2: number;
let stageId: number;
let groupA: number;
let groupB: number;
let matchA: number;
let matchB: number;
let playerRid: number;
let teamsA: number[];
let teamsB: number[];

const token = (role: Role) => (role === 'anonymous' ? undefined : role === 'site admin' ? admin : users[role].token);

async function organiser(user: TestUser, name: string) {
  const applied = expectStatus(await gw.api.post('/organisers', { name, contact: user.email }, user.token), 201, 'apply');
  expectStatus(await gw.api.post(`/organisers/${applied.slug}/approve`, { decision: 'approve' }, admin), 200, 'approve');
  return applied.slug as string;
}

async function crew(who: TestUser, role: string, scopes?: unknown) {
  const invited = expectStatus(
    await gw.api.post(`/tournaments/${t1}/staff`, { who: who.username, role, scopes }, users.owner.token),
    201,
    'invite',
  );
  expectStatus(await gw.api.post(`/staff-invitations/${invited.token}/accept`, {}, who.token), 200, 'accept');
}

beforeAll(async () => {
  gw = await startGateway();
  admin = await adminToken(gw.api);
  for (const role of ['player', 'other organiser', 'owner', 'co-organiser', 'payments', 'lobby A'] as const)
    users[role] = await createUser(gw.api);
  await organiser(users.owner, `Owner Esports ${unique()}`);
  await organiser(users['other organiser'], `Other Esports ${unique()}`);
  t1 = (await createTournament(gw.api, users.owner.token, { entryFee: '0' })).id;
  t2 = (await createTournament(gw.api, users['other organiser'].token)).id;
  playerRid = expectStatus(await gw.api.post(`/registrations/${t1}`, teamFields(), users.player.token), 201, 'register').rid;
  await addLobbyTeams(gw, t1, 7);
  const stage = expectStatus(await gw.api.post(`/tournaments/${t1}/stages`, { name: 'Qualifiers', lobbySize: 4 }, users.owner.token), 201);
  stageId = stage.id;
  const drawn = expectStatus(
    await gw.api.post(`/tournaments/${t1}/stages/${stageId}/groups`, { method: 'registration' }, users.owner.token),
    200,
  );
  const group = (name: string) => drawn.groups.find((g: any) => g.name === name);
  [groupA, groupB] = [group('A').id, group('B').id];
  [teamsA, teamsB] = [group('A'), group('B')].map((g: any) =>
    [...g.slots].sort((p: any, q: any) => p.slot - q.slot).map((s: any) => s.teamId),
  );
  expectStatus(await gw.api.post(`/tournaments/${t1}/stages/${stageId}/publish`, {}, users.owner.token), 200, 'publish');
  const scheduled = expectStatus(
    await gw.api.post(
      `/tournaments/${t1}/stages/${stageId}/matches`,
      { matches: [{ day: 1, matchNo: 1, map: 'Erangel', time: '18:00' }] },
      users.owner.token,
    ),
    200,
    'schedule',
  );
  const matchOf = (g: number) => scheduled.find((m: any) => m.groupId === g).id as number;
  [matchA, matchB] = [matchOf(groupA), matchOf(groupB)];
  await crew(users['co-organiser'], 'co-organiser');
  await crew(users.payments, 'payments');
  await crew(users['lobby A'], 'lobby', [{ stageId, groupId: groupA }]);
});
afterAll(() => gw?.stop());

/** The path of a call on T1, every id real where the check reads it, and absent where an allowed call would change something. */
function pathOf(name: string, e: Endpoint): string {
  const values: Record<string, string | number> = {
    id: name === 'updateMatch' ? matchA : t1,
    tournamentId: t1,
    stageId: e.method === 'DELETE' ? 999_999 : stageId,
    teamId: 999_999,
    rid: playerRid,
    day: 1,
    match: 1,
    userId: 999_999,
    slug: 'nobody-organises-this',
    token: 'x'.repeat(32),
  };
  return e.url.replace(/:(\w+)/g, (_m, p: string) => String(values[p]));
}

/** A malformed JSON body: a caller let through gets 400 and nothing changes; a refused one gets 401/403 first. */
async function call(name: string, e: Endpoint, role: Role) {
  const body = e.method === 'GET' || e.method === 'DELETE' ? undefined : '{"broken": ';
  const headers: Record<string, string> = body ? { 'content-type': 'application/json' } : {};
  const t = token(role);
  if (t) headers.authorization = `Bearer ${t}`;
  const res = await fetch(gw.url + pathOf(name, e), { method: e.method, headers, body });
  return res.status;
}

// deleteTournament would delete T1 for those allowed: it has its own test below.
const calls = Object.entries(endpoints).filter(([name, e]) => e.access !== 'public' && name !== 'deleteTournament') as [string, Endpoint][];

describe('the access matrix: every protected call × every caller', () => {
  it('covers the crew calls', () => {
    expect(calls.filter(([, e]) => e.access.startsWith('staff:')).length).toBeGreaterThanOrEqual(36);
  });

  it.each(ROLES)('as %s', async (role) => {
    const wrong: string[] = [];
    for (const [name, e] of calls) {
      const status = await call(name, e, role);
      const allowed = mayCall(role, name, e.access);
      const refused = role === 'anonymous' ? status === 401 : status === 403;
      if (allowed === refused || (allowed && (status === 401 || status === 403))) wrong.push(`${name} (${e.access}): ${status}`);
    }
    expect(wrong).toEqual([]);
  });
});

describe('a lobby manager of group A', () => {
  const lobby = () => users['lobby A'].token;
  const rows = (teams: number[]) => teams.map((teamId, i) => ({ teamId, position: i + 1, finishes: 0 }));

  it('posts rooms of group A, not of group B', async () => {
    const url = `/tournaments/${t1}/stages/${stageId}/rooms`;
    expectStatus(await gw.api.put(url, { rooms: [{ id: matchA, matchId: '1234567', password: 'aa11' }] }, lobby()), 200, 'A');
    const b = await gw.api.put(url, { rooms: [{ id: matchB, matchId: '7654321', password: 'bb22' }] }, lobby());
    expect(b.status).toBe(403);
    const both = await gw.api.put(
      url,
      {
        rooms: [
          { id: matchA, matchId: '1', password: 'x' },
          { id: matchB, matchId: '2', password: 'y' },
        ],
      },
      lobby(),
    );
    expect(both.status).toBe(403);
  });

  it('enters and reads results of group A, not of group B', async () => {
    const url = `/tournaments/${t1}/points-table/matches/1/1`;
    expectStatus(await gw.api.put(url, { groupId: groupA, results: rows(teamsA) }, lobby()), 200, 'A');
    expect((await gw.api.put(url, { groupId: groupB, results: rows(teamsB) }, lobby())).status).toBe(403);
    expectStatus(await gw.api.get(`/tournaments/${t1}/points-table/results?day=1&match=1&group=${groupA}`, lobby()), 200);
    expect((await gw.api.get(`/tournaments/${t1}/points-table/results?day=1&match=1&group=${groupB}`, lobby())).status).toBe(403);
    const one = { day: 1, match: 1, teamId: teamsB[0], position: 1, finishes: 1 };
    expect((await gw.api.post(`/tournaments/${t1}/points-table`, { ...one, groupId: groupB }, lobby())).status).toBe(403);
    // Nothing of group B was saved.
    expect(expectStatus(await gw.api.get(`/tournaments/${t1}/points-table/results?day=1&match=1&group=${groupB}`, admin), 200)).toEqual([]);
  });

  it('sees the rooms of group A only, not of group B nor the tournament-wide ones', async () => {
    const legacy = { tid: t1, day: 7, matchNo: 1, map: 'Miramar', matchId: 'everyone-room', password: 'everyone-pw', time: '18:30' };
    expectStatus(await gw.api.post('/matches', legacy, users.owner.token), 201, 'a match outside the stages');
    const matches = expectStatus(await gw.api.get(`/matches/tournament/${t1}`, lobby()), 200);
    const byGroup = (g: number) => matches.find((m: any) => m.groupId === g);
    expect(byGroup(groupA).matchId).toBe('1234567');
    expect(byGroup(groupB).matchId ?? null).toBeNull();
    expect(matches.find((m: any) => m.day === 7).matchId ?? null).toBeNull();
    expect(JSON.stringify(matches)).not.toMatch(/everyone-pw|7654321/);
  });

  // Decision 069: the reads of its "My groups" page (the matches are checked above).
  it('reads its standing with its group, and the stage with its groups', async () => {
    expect(expectStatus(await gw.api.get(`/tournaments/${t1}/staff/me`, lobby()), 200)).toEqual({
      kind: 'lobby',
      scopes: [{ stageId, groupId: groupA }],
    });
    const stages = expectStatus(await gw.api.get(`/tournaments/${t1}/stages`, lobby()), 200);
    expect(stages.find((s: any) => s.id === stageId).groups.map((g: any) => g.id)).toEqual(expect.arrayContaining([groupA, groupB]));
  });

  it('cannot settle the no-shows of the whole stage', async () => {
    expect((await gw.api.post(`/tournaments/${t1}/stages/${stageId}/no-shows`, { action: 'leave' }, lobby())).status).toBe(403);
  });
});

describe('calls that name their tournament in the body', () => {
  it('payments staff of T1 set payments of T1, not of T2', async () => {
    const body = (tournamentId: number) => ({ tournamentId, rids: [playerRid], paymentStatus: 'rejected', expectedUpiReferences: {} });
    expect((await gw.api.put('/registrations/admin/payments', body(t2), users.payments.token)).status).toBe(403);
    expect((await gw.api.put('/registrations/admin/payments', body(t1), users.payments.token)).status).not.toBe(403);
  });

  it('a co-organiser of T1 posts match rooms of T1, not of T2', async () => {
    const match = (tid: number) => ({ tid, day: 5, matchNo: 1, map: 'Erangel', matchId: '111', password: 'p', time: '18:30' });
    expect((await gw.api.post('/matches', match(t2), users['co-organiser'].token)).status).toBe(403);
    expect((await gw.api.post('/matches', match(t1), users['co-organiser'].token)).status).toBe(201);
  });
});

describe('one person, one part per tournament', () => {
  it('the crew cannot register a team, and a player cannot join the crew', async () => {
    const res = await gw.api.post(`/registrations/${t1}`, teamFields(), users.payments.token);
    expect(res.status).toBe(409);
    expect(res.body.message).toMatch(/run this tournament/);
    const invited = await gw.api.post(`/tournaments/${t1}/staff`, { who: users.player.username, role: 'payments' }, users.owner.token);
    expect(invited.status).toBe(409);
    expect(invited.body.errors.who).toMatch(/player cannot also be its staff/);
  });
});

describe('rights come from the database on every call', () => {
  it('a removed crew member is refused on its next request', async () => {
    const url = `/tournaments/${t1}/points-table/matches/1/1`;
    const extra = await createUser(gw.api);
    await crew(extra, 'lobby', [{ stageId }]);
    const rowsA = teamsA.map((teamId, i) => ({ teamId, position: i + 1, finishes: 1 }));
    expectStatus(await gw.api.put(url, { groupId: groupA, results: rowsA }, extra.token), 200, 'before');
    expectStatus(await gw.api.delete(`/tournaments/${t1}/staff/${extra.id}`, users.owner.token), 200, 'remove');
    expect((await gw.api.put(url, { groupId: groupA, results: rowsA }, extra.token)).status).toBe(403);
  });

  it('a withdrawn organiser runs nothing from its next request, and again once approved', async () => {
    const other = users['other organiser'];
    const edit = () => gw.api.get(`/tournaments/${t2}/staff`, other.token);
    expectStatus(await edit(), 200, 'before');
    const slug = (expectStatus(await gw.api.get('/desk', other.token), 200).organiser as { slug: string }).slug;
    expectStatus(await gw.api.post(`/organisers/${slug}/approve`, { decision: 'withdraw' }, admin), 200);
    expect((await edit()).status).toBe(403);
    expectStatus(await gw.api.post(`/organisers/${slug}/approve`, { decision: 'approve' }, admin), 200);
    expectStatus(await edit(), 200, 'after');
  });

  it('the owner and a site admin delete a tournament; a co-organiser cannot', async () => {
    const t3 = (await createTournament(gw.api, users.owner.token)).id;
    const invited = expectStatus(
      await gw.api.post(`/tournaments/${t3}/staff`, { who: users['co-organiser'].username, role: 'co-organiser' }, users.owner.token),
      201,
    );
    expectStatus(await gw.api.post(`/staff-invitations/${invited.token}/accept`, {}, users['co-organiser'].token), 200);
    expect((await gw.api.delete(`/tournaments/admin/delete${t3}`, users['co-organiser'].token)).status).toBe(403);
    expect((await gw.api.delete(`/tournaments/admin/delete${t3}`, users['other organiser'].token)).status).toBe(403);
    expectStatus(await gw.api.delete(`/tournaments/admin/delete${t3}`, users.owner.token), 200);
  });
});

describe('the activity log', () => {
  it('names who did what', async () => {
    const log = expectStatus(await gw.api.get(`/tournaments/${t1}/activity`, users.owner.token), 200);
    const lines = log.entries.map((e: any) => `${e.actor}: ${e.action}${e.detail ? ` (${e.detail})` : ''}`);
    expect(lines).toContain(`${users['lobby A'].username}: Posted rooms (Qualifiers · Group A day 1 match 1)`);
    expect(lines.some((l: string) => l.startsWith(`${users['lobby A'].username}: Saved match results`) && l.includes('Group A'))).toBe(
      true,
    );
    expect(lines.some((l: string) => l.startsWith(`${users.owner.username}: Invited to the crew (${users.payments.username}`))).toBe(true);
    expect(lines.some((l: string) => l.startsWith(`${users.payments.username}: Joined the crew`))).toBe(true);
    // Refused calls are not logged.
    expect(lines.filter((l: string) => l.includes('Group B'))).toEqual([]);
    expect((await gw.api.get(`/tournaments/${t1}/activity`, users.payments.token)).status).toBe(403);
  });
});

describe('the desk’s tournament list', () => {
  it('gives a lobby manager no payment figures; the payments crew sees them', async () => {
    const row = async (role: Role) =>
      (expectStatus(await gw.api.get('/tournaments/admin/summary', token(role)), 200) as any[]).find((t) => t.id === t1);
    const paid = await row('payments');
    const sum = (p: Record<string, number>) => Object.values(p).reduce((a, b) => a + b, 0);
    expect(paid.registeredTeams).toBeGreaterThan(0);
    expect(sum(paid.payments)).toBe(paid.registeredTeams);
    const lobby = await row('lobby A');
    expect(lobby).toMatchObject({ id: t1, registeredTeams: paid.registeredTeams, paymentsAwaiting: 0 });
    expect(lobby.payments).toEqual({ pending: 0, submitted: 0, verified: 0, rejected: 0 });
    expect(lobby).not.toHaveProperty('payeeUpiId');
  });
});
