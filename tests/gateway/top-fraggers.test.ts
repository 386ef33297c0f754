// Issue 30 (decision 076): the public side of captains' reports. GET .../points-table/days lists the
// matches whose confirmed results are still in their dispute window (and stops at its end with no write:
// the cached answer expires then), and Top fraggers has a share image like the points table's.
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { matchStartsAt } from '@custom-room/contract';
import { FakeClock } from '../../gateway/src/lib/clock.js';
import {
  adminToken,
  createTournament,
  createUser,
  expectStatus,
  matchFields,
  startGateway,
  teamFields,
  toForm,
  unique,
  type TestGateway,
  type TestUser,
} from './helpers.js';

const MINUTE = 60_000;

/** A different picture per seed (the duplicate check only informs; distinct pictures keep the lobby clean). */
const picture = (seed: number) =>
  sharp({ create: { width: 800, height: 450, channels: 3, background: { r: (seed * 53) % 256, g: (seed * 97) % 256, b: 40 } } })
    .png()
    .toBuffer();

/** A gateway on the test's clock, its admin's token, and a free tournament starting in two days. */
async function freeTournament(clock: FakeClock) {
  const gw = await startGateway({}, undefined, { clock });
  const admin = await adminToken(gw.api);
  const day = (n: number) => new Date(clock.now() + n * 24 * 60 * MINUTE).toISOString();
  const tid = (await createTournament(gw.api, admin, { entryFee: '0', startDate: day(2), endDate: day(4), registrationClose: day(1) }))
    .id as number;
  return { gw, admin, tid, startDate: day(2) };
}

describe('provisional results and the Top fraggers image (a tournament without stages)', () => {
  const clock = new FakeClock();
  let gw: TestGateway;
  let admin: string;
  let tid: number;
  const teams: { rid: number; captain: TestUser; igns: string[] }[] = [];
  const days = async () => expectStatus(await gw.api.get(`/tournaments/${tid}/points-table/days`), 200);
  const playersPng = (headers: Record<string, string> = {}) =>
    gw.api.request('GET', `/tournaments/${tid}/points-table/players.png`, { headers });

  const reportAndConfirm = async (match: number) => {
    for (const [i, t] of teams.entries()) {
      const fields = { position: String(i + 1), player1: t.igns[0]!, finishes1: String(3 - i), player2: t.igns[1]!, finishes2: '1' };
      const form = toForm(fields, [{ name: 'screenshot', data: await picture(match * 10 + i), filename: 'r.png', type: 'image/png' }]);
      expectStatus(await gw.api.request('POST', `/tournaments/${tid}/reports/1/${match}`, { token: t.captain.token, form }), 201, 'report');
    }
    const results = teams.map((t, i) => ({ teamId: t.rid, position: i + 1, finishes: 4 - i }));
    return expectStatus(await gw.api.post(`/tournaments/${tid}/reports/1/${match}/confirm`, { results }, admin), 200, 'confirm');
  };

  beforeAll(async () => {
    let startDate: string;
    ({ gw, admin, tid, startDate } = await freeTournament(clock));
    for (let i = 0; i < 2; i++) {
      const captain = await createUser(gw.api);
      const fields = teamFields({ teamName: `Fraggers ${i + 1} ${unique()}` });
      const rid = expectStatus(await gw.api.post(`/registrations/${tid}`, fields, captain.token), 201, 'register').rid;
      teams.push({ rid, captain, igns: [fields.player1Username, fields.player2Username] });
    }
    for (const matchNo of [1, 2]) expectStatus(await gw.api.post('/matches', matchFields(tid, { matchNo, time: '18:00' }), admin), 201);
    clock.set(matchStartsAt(startDate, 1, '18:00', gw.config.APP_TIME_ZONE)! + 40 * MINUTE);
  });
  afterAll(() => gw?.stop());

  it('answers the days without "provisional" before any confirmation (byte for byte as before)', async () => {
    const res = await gw.api.get(`/tournaments/${tid}/points-table/days`);
    expect(res.body).toEqual({ days: [1] });
  });

  it('draws Top fraggers as a PNG with an ETag: the empty card first, a new one after a confirmation', async () => {
    const empty = await playersPng();
    expect(empty.status).toBe(200);
    expect(empty.headers.get('content-type')).toBe('image/png');
    const table = await gw.api.request('GET', `/tournaments/${tid}/points-table.png`);
    expect(empty.headers.get('cache-control')).toBe(table.headers.get('cache-control'));
    expect(empty.headers.get('content-disposition')).toBe(`inline; filename="top-fraggers-${tid}.png"`);
    const etag = empty.headers.get('etag')!;
    expect(etag).toMatch(/^"png\d+-/);
    expect((await playersPng({ 'if-none-match': etag })).status).toBe(304);

    await reportAndConfirm(1);
    const drawn = await playersPng({ 'if-none-match': etag });
    expect(drawn.status).toBe(200);
    expect(drawn.headers.get('etag')).not.toBe(etag);
    const meta = await sharp(drawn.body as unknown as Buffer).metadata();
    expect([meta.width, meta.height]).toEqual([1080, 1350]);
    // The scopes are the players call's: a group that does not exist is a 404, as there.
    expect((await gw.api.request('GET', `/tournaments/${tid}/points-table/players.png?group=999999`)).status).toBe(404);
  });

  it('lists the confirmed match as provisional until its window ends, then drops it with no write in between', async () => {
    const until = new Date(clock.now() + 15 * MINUTE).toISOString();
    expect(await days()).toEqual({ days: [1], provisional: [{ day: 1, match: 1, until }] });
    clock.advance(14 * MINUTE);
    expect((await days()).provisional).toHaveLength(1); // still in the window: the cached answer stands
    clock.advance(MINUTE + 1);
    expect(await days()).toEqual({ days: [1] });
  });

  it('does not list a match confirmed with a window of 0 (final at once)', async () => {
    expectStatus(await gw.api.put(`/tournaments/${tid}/reports/settings`, { matchMinutes: 30, disputeMinutes: 0 }, admin), 200);
    expect((await reportAndConfirm(2)).provisionalUntil).toBeNull();
    expect(await days()).toEqual({ days: [1] });
  });
});

describe('provisional results of a stage: by group, in the stage’s and each group’s scope', () => {
  const clock = new FakeClock();
  let gw: TestGateway;
  let owner: string;
  let tid: number;
  let stageId: number;
  let groups: { id: number; name: string; teams: number[] }[];
  const captains = new Map<number, TestUser>();
  const days = async (query: string) => expectStatus(await gw.api.get(`/tournaments/${tid}/points-table/days${query}`), 200);

  beforeAll(async () => {
    let startDate: string;
    ({ gw, admin: owner, tid, startDate } = await freeTournament(clock));
    for (let i = 0; i < 4; i++) {
      const captain = await createUser(gw.api);
      captains.set(expectStatus(await gw.api.post(`/registrations/${tid}`, teamFields(), captain.token), 201).rid, captain);
    }
    stageId = expectStatus(await gw.api.post(`/tournaments/${tid}/stages`, { name: 'Qualifiers', lobbySize: 2 }, owner), 201).id;
    const drawn = expectStatus(await gw.api.post(`/tournaments/${tid}/stages/${stageId}/groups`, { method: 'registration' }, owner), 200);
    groups = drawn.groups.map((g: any) => ({ id: g.id, name: g.name, teams: g.slots.map((s: any) => s.teamId) }));
    expectStatus(await gw.api.post(`/tournaments/${tid}/stages/${stageId}/publish`, {}, owner), 200);
    const matches = [{ day: 1, matchNo: 1, map: 'Erangel', time: '18:00' }];
    expectStatus(await gw.api.post(`/tournaments/${tid}/stages/${stageId}/matches`, { matches }, owner), 200);
    clock.set(matchStartsAt(startDate, 1, '18:00', gw.config.APP_TIME_ZONE)! + 40 * MINUTE);
  });
  afterAll(() => gw?.stop());

  it('names the group of each provisional match; another group’s scope does not list it', async () => {
    const [a, b] = groups;
    for (const [i, rid] of b!.teams.entries()) {
      const form = toForm({ position: String(i + 1), player1: `p${rid}`, finishes1: '1' }, [
        { name: 'screenshot', data: await picture(rid), filename: 'r.png', type: 'image/png' },
      ]);
      expectStatus(await gw.api.request('POST', `/tournaments/${tid}/reports/1/1`, { token: captains.get(rid)!.token, form }), 201);
    }
    const results = b!.teams.map((teamId, i) => ({ teamId, position: i + 1, finishes: 1 }));
    expectStatus(await gw.api.post(`/tournaments/${tid}/reports/1/1/confirm?group=${b!.id}`, { results }, owner), 200);
    const until = new Date(clock.now() + 15 * MINUTE).toISOString();
    const listed = [{ day: 1, match: 1, groupId: b!.id, groupName: b!.name, until }];
    expect((await days(`?stage=${stageId}`)).provisional).toEqual(listed);
    expect((await days('')).provisional).toEqual(listed); // the current stage
    expect((await days(`?group=${b!.id}`)).provisional).toEqual(listed);
    expect(await days(`?group=${a!.id}`)).toEqual({ days: [1] });
    // Top fraggers' image of a group is its own (and a group of another stage is refused, as the players call does).
    expect(
      (await gw.api.request('GET', `/tournaments/${tid}/points-table/players.png?group=${b!.id}`)).headers.get('content-disposition'),
    ).toBe(`inline; filename="top-fraggers-${tid}-group-${b!.id}.png"`);
  });
});
