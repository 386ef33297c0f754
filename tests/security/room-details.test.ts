// Issue 16, item 1: room details reach only confirmed teams (decision 029): payment verified, or any
// registered team when the entry fee is 0. Admins always. Every other caller gets the schedule with
// matchId and password null, whatever the team did short of a verified payment.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTournament,
  matchFields,
  teamFields,
  unique,
  uniqueUtr,
  type TestGateway,
  type TestUser,
  useGatewayWithPlayers,
} from './helpers.js';

describe('room ID and password only for confirmed teams', () => {
  let gw: TestGateway;
  let admin: string;
  let players: TestUser[];
  const tried: string[] = [];

  const setup = useGatewayWithPlayers(6);
  beforeAll(() => ({ gw, admin, players } = setup));
  afterAll(() => console.log(`room details: ${tried.length} reads by callers who must not see the room, none saw it`));

  /** A tournament with one match whose room ID and password are unique strings. */
  async function scheduled(overrides: Record<string, string> = {}) {
    const t = await createTournament(gw.api, admin, overrides);
    const room = { matchId: `R${unique()}`, password: `pw${unique()}` };
    expect((await gw.api.post('/matches', matchFields(t.id, room), admin)).status).toBe(201);
    return { tid: t.id as number, room };
  }
  const register = async (tid: number, player: TestUser) => {
    const res = await gw.api.post(`/registrations/${tid}`, teamFields(), player.token);
    expect(res.status).toBe(201);
    return res.body.rid as number;
  };
  const pay = async (tid: number, player: TestUser) => {
    const utr = uniqueUtr();
    expect((await gw.api.post(`/registrations/${tid}/payment`, { upiReference: utr }, player.token)).status).toBe(200);
    return utr;
  };
  const judge = async (rid: number, paymentStatus: string, expectedUpiReference?: string) =>
    expect((await gw.api.put(`/registrations/admin/${rid}/payment`, { paymentStatus, expectedUpiReference }, admin)).status).toBe(200);

  /** The schedule as this caller gets it, and whether anything of the room is in the answer. */
  async function view(tid: number, token: string, room: { matchId: string; password: string }) {
    const res = await gw.api.get(`/matches/tournament/${tid}`, token);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toContain('no-store');
    const text = JSON.stringify(res.body);
    return { body: res.body as any[], leaks: text.includes(room.matchId) || text.includes(room.password) };
  }
  async function expectNoRoom(tid: number, token: string, room: { matchId: string; password: string }, who: string) {
    tried.push(who);
    const { body, leaks } = await view(tid, token, room);
    expect(leaks, who).toBe(false);
    expect(body, who).toEqual([expect.objectContaining({ map: 'Erangel', time: '18:30', matchId: null, password: null })]);
  }
  async function expectRoom(tid: number, token: string, room: { matchId: string; password: string }, who: string) {
    expect((await view(tid, token, room)).body[0], who).toMatchObject(room);
  }

  it('a paid tournament: pending, submitted and rejected teams get the schedule without the room; verified teams and admins get it; a free one confirms at once', async () => {
    const { tid, room } = await scheduled({ entryFee: '100' });
    const [pending, submitted, rejected, verified, outsider] = players as [TestUser, TestUser, TestUser, TestUser, TestUser];
    await register(tid, pending);
    await register(tid, submitted);
    await pay(tid, submitted);
    const rejectedRid = await register(tid, rejected);
    await judge(rejectedRid, 'rejected', await pay(tid, rejected));
    const verifiedRid = await register(tid, verified);
    await judge(verifiedRid, 'verified', await pay(tid, verified));

    await expectNoRoom(tid, pending.token, room, 'pending (registered, never paid)');
    await expectNoRoom(tid, submitted.token, room, 'submitted (not yet checked)');
    await expectNoRoom(tid, rejected.token, room, 'rejected');
    await expectNoRoom(tid, outsider.token, room, 'not registered');
    await expectRoom(tid, verified.token, room, 'verified');
    await expectRoom(tid, admin, room, 'admin');

    const free = await scheduled({ entryFee: '0' });
    await register(free.tid, pending);
    await expectRoom(free.tid, pending.token, free.room, 'registered in a free tournament');
    await expectNoRoom(free.tid, outsider.token, free.room, 'not registered in a free tournament');
  });

  it('a verified payment elsewhere unlocks nothing here, and a verification taken back takes the room away', async () => {
    const elsewhere = await scheduled({ entryFee: '50' });
    const here = await scheduled({ entryFee: '50' });
    const player = players[2]!;
    await judge(await register(elsewhere.tid, player), 'verified', await pay(elsewhere.tid, player));
    const rid = await register(here.tid, player);
    await expectRoom(elsewhere.tid, player.token, elsewhere.room, 'verified in that tournament');
    await expectNoRoom(here.tid, player.token, here.room, 'pending here, verified elsewhere');

    const utr = await pay(here.tid, player);
    await judge(rid, 'verified', utr);
    await expectRoom(here.tid, player.token, here.room, 'verified here');
    await judge(rid, 'rejected', utr);
    await expectNoRoom(here.tid, player.token, here.room, 'verification taken back');
    await judge(rid, 'pending');
    await expectNoRoom(here.tid, player.token, here.room, 'set back to pending');
  });

  it('an admin reading first puts nothing in a cache that an unconfirmed team then gets', async () => {
    const { tid, room } = await scheduled({ entryFee: '100' });
    const player = players[3]!;
    await register(tid, player);
    for (let i = 0; i < 3; i++) {
      await expectRoom(tid, admin, room, 'admin');
      await expectNoRoom(tid, player.token, room, `pending after an admin read (${i + 1})`);
    }
  });
});
