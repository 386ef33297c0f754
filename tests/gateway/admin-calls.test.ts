import { beforeAll, describe, expect, it } from 'vitest';
import { FakeClock } from '../../gateway/src/lib/clock.js';
import {
  createTournamentWithTeams,
  isoIn,
  unique,
  uniqueUtr,
  type RegisteredTeam,
  type TestGateway,
  type TestUser,
  useGatewayWithPlayers,
} from './helpers.js';

describe('admin calls for the tournament list and payments', () => {
  let gw: TestGateway;
  let admin: string;
  let players: TestUser[];

  // The gateway's time: a rewrite would carry a later timestamp once the clock moves.
  const clock = new FakeClock();
  const setup = useGatewayWithPlayers(4, { clock });
  beforeAll(() => ({ gw, admin, players } = setup));

  const names = (n: number) => Array.from({ length: n }, (_, i) => `Squad ${String.fromCharCode(65 + i)} ${unique()}`);
  const withTeams = (n: number, overrides: Record<string, string> = {}) =>
    createTournamentWithTeams(gw.api, admin, players, names(n), overrides);

  /** The player at index i reports a UPI payment for their team. */
  const reportPayment = async (tid: number, i: number) => {
    const res = await gw.api.post(`/registrations/${tid}/payment`, { upiReference: uniqueUtr() }, players[i]!.token);
    expect(res.status).toBe(200);
    expect(res.body.paymentStatus).toBe('submitted');
  };
  /** What the player at index i sees of their own team's payment. */
  const playerSees = async (tid: number, i: number) => {
    const res = await gw.api.get(`/registrations/${tid}`, players[i]!.token);
    expect(res.status).toBe(200);
    return res.body.paymentStatus as string;
  };
  /** rid → the UPI reference the admin is shown: what a verify or reject must carry (decision 029). */
  const shown = async (tid: number): Promise<Record<string, string>> => {
    const res = await gw.api.get(`/registrations/tournament/${tid}`, admin);
    expect(res.status).toBe(200);
    return Object.fromEntries(res.body.map((r: any) => [r.rid, r.paymentReference]));
  };
  const statuses = async (tid: number) => {
    const res = await gw.api.get(`/registrations/tournament/${tid}`, admin);
    expect(res.status).toBe(200);
    return Object.fromEntries(res.body.map((r: any) => [r.rid, [r.paymentStatus, r.updatedAt]]));
  };

  describe('GET /tournaments/admin/summary', () => {
    const summary = async (token: string | undefined = admin) => gw.api.get('/tournaments/admin/summary', token);

    it('lists every live tournament with registered/max teams and payments awaiting verification', async () => {
      const busy = await withTeams(4, { maxTeams: '20', startDate: isoIn(30), endDate: isoIn(31), registrationClose: isoIn(29) });
      const empty = await withTeams(0, { maxTeams: '12', startDate: isoIn(20), endDate: isoIn(21), registrationClose: isoIn(19) });
      const gone = await withTeams(1);
      await reportPayment(busy.tid, 0);
      await reportPayment(busy.tid, 1);
      await reportPayment(busy.tid, 2);
      const [, , c, d] = busy.teams as RegisteredTeam[];
      const references = await shown(busy.tid);
      expect(
        (
          await gw.api.put(
            `/registrations/admin/${c!.rid}/payment`,
            { paymentStatus: 'verified', expectedUpiReference: references[c!.rid] },
            admin,
          )
        ).status,
      ).toBe(200);
      expect(
        (
          await gw.api.put(
            `/registrations/admin/${d!.rid}/payment`,
            { paymentStatus: 'rejected', expectedUpiReference: references[d!.rid] },
            admin,
          )
        ).status,
      ).toBe(200);
      expect((await gw.api.delete(`/tournaments/admin/delete${gone.tid}`, admin)).status).toBe(200);

      const res = await summary();
      expect(res.status).toBe(200);
      expect(res.headers.get('cache-control')).toBe('private, no-store');
      const ids = res.body.map((t: any) => t.id);
      expect(ids).not.toContain(gone.tid);
      // Soonest start first, like the public list.
      expect(ids.indexOf(empty.tid)).toBeLessThan(ids.indexOf(busy.tid));
      const row = res.body.find((t: any) => t.id === busy.tid);
      expect(row).toEqual({
        id: busy.tid,
        name: expect.any(String),
        game: 'BGMI',
        status: 'Registration Ongoing',
        startDate: expect.any(String),
        endDate: expect.any(String),
        registrationClose: expect.any(String),
        phase: 'registration-open', // issue 27: the derived phase, added
        maxTeams: 20,
        entryFee: 100,
        pointsSystem: 'bgis-10',
        registeredTeams: 4,
        paymentsAwaiting: 2,
        payments: { pending: 0, submitted: 2, verified: 1, rejected: 1 },
      });
      expect(res.body.find((t: any) => t.id === empty.tid)).toMatchObject({
        maxTeams: 12,
        registeredTeams: 0,
        paymentsAwaiting: 0,
        payments: { pending: 0, submitted: 0, verified: 0, rejected: 0 },
      });
      // Every live tournament of the public list is there, with the same team count.
      const publicList = (await gw.api.get('/tournaments')).body as any[];
      expect(ids).toEqual(publicList.map((t) => t.id));
      for (const t of publicList) expect(res.body.find((s: any) => s.id === t.id).registeredTeams).toBe(t.registeredTeams);
    });

    it('is for admins only: 401 anonymous, 403 for a player', async () => {
      expect((await summary('')).status).toBe(401);
      expect((await summary('not-a-token')).status).toBe(401);
      const player = await summary(players[0]!.token);
      expect(player.status).toBe(403);
      expect(player.body).toEqual({ message: 'Admins only.' });
    });

    it('leaves GET /tournaments/{id} and DELETE /tournaments/admin/delete{id} as they were', async () => {
      const { tid } = await withTeams(0);
      expect((await gw.api.get(`/tournaments/${tid}`)).body.id).toBe(tid);
      expect((await gw.api.get('/tournaments/summary')).status).toBe(400);
      expect((await gw.api.delete(`/tournaments/admin/delete${tid}`, admin)).body).toEqual({ message: 'Tournament deleted successfully!' });
      expect((await gw.api.get(`/tournaments/${tid}`)).status).toBe(404);
    });
  });

  describe('PUT /registrations/admin/payments', () => {
    const setMany = (body: unknown, token: string | undefined = admin) => gw.api.put('/registrations/admin/payments', body, token);

    /** A tournament whose first three teams reported a payment; the fourth has not. */
    async function paidTournament() {
      const t = await withTeams(4);
      for (const i of [0, 1, 2]) await reportPayment(t.tid, i);
      return { ...t, rids: t.teams.map((team) => team.rid) };
    }

    it('sets the status of several teams at once; each player sees it, the others stay', async () => {
      const { tid, rids } = await paidTournament();
      const before = await statuses(tid);
      const res = await setMany({
        tournamentId: tid,
        rids: [rids[1], rids[0], rids[0]],
        paymentStatus: 'verified',
        expectedUpiReferences: await shown(tid),
      });
      expect(res.status).toBe(200);
      expect(res.body.map((r: any) => [r.rid, r.tid, r.paymentStatus])).toEqual([
        [rids[0], tid, 'verified'],
        [rids[1], tid, 'verified'],
      ]);
      expect(res.body[0].paymentReference).toMatch(/^[0-9]{12}$/);
      expect(await playerSees(tid, 0)).toBe('verified');
      expect(await playerSees(tid, 1)).toBe('verified');
      expect(await playerSees(tid, 2)).toBe('submitted');
      expect(await playerSees(tid, 3)).toBe('pending');
      const after = await statuses(tid);
      expect(after[rids[2]!]).toEqual(before[rids[2]!]);
      expect(after[rids[3]!]).toEqual(before[rids[3]!]);

      const rejected = await setMany({
        tournamentId: String(tid),
        rids: [String(rids[2]), rids[3]],
        paymentStatus: 'rejected',
        expectedUpiReferences: await shown(tid),
      });
      expect(rejected.status).toBe(200);
      expect(await playerSees(tid, 2)).toBe('rejected');
      expect(await playerSees(tid, 3)).toBe('rejected');
      const row = (await gw.api.get('/tournaments/admin/summary', admin)).body.find((t: any) => t.id === tid);
      expect(row).toMatchObject({
        registeredTeams: 4,
        paymentsAwaiting: 0,
        payments: { pending: 0, submitted: 0, verified: 2, rejected: 2 },
      });
    });

    it('rewrites nothing when sent again', async () => {
      const { tid, rids } = await paidTournament();
      const body = { tournamentId: tid, rids: rids.slice(0, 2), paymentStatus: 'verified', expectedUpiReferences: await shown(tid) };
      const first = await setMany(body);
      expect(first.status).toBe(200);
      clock.advance(60_000); // a rewrite would carry a later timestamp
      const again = await setMany(body);
      expect(again.status).toBe(200);
      expect(again.body).toEqual(first.body);
    });

    it('refuses a rid of another tournament, or no registration at all, and changes nothing', async () => {
      const { tid, rids } = await paidTournament();
      const other = await withTeams(1);
      const foreign = other.teams[0]!.rid;
      const before = await statuses(tid);
      const otherBefore = await statuses(other.tid);

      const res = await setMany({ tournamentId: tid, rids: [rids[0], foreign, rids[1]], paymentStatus: 'verified' });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        message: `Registration ${foreign} is not a team of this tournament. Nothing was changed.`,
        errors: { rids: `Registration ${foreign} is not a team of this tournament.` },
      });
      const two = await setMany({ tournamentId: tid, rids: [rids[0], foreign, 2_000_000_000], paymentStatus: 'rejected' });
      expect(two.status).toBe(400);
      expect(two.body.errors).toEqual({ rids: `Registrations ${foreign}, 2000000000 are not teams of this tournament.` });

      expect(await statuses(tid)).toEqual(before);
      expect(await statuses(other.tid)).toEqual(otherBefore);
      expect(await playerSees(tid, 0)).toBe('submitted');
    });

    it('validates the body with a field error for each bad value', async () => {
      const { tid, rids } = await paidTournament();
      const before = await statuses(tid);
      const cases: [unknown, string][] = [
        [{ tournamentId: tid, rids: [rids[0]], paymentStatus: 'paid' }, 'paymentStatus'],
        [{ tournamentId: tid, rids: [rids[0]] }, 'paymentStatus'],
        [{ tournamentId: tid, rids: [], paymentStatus: 'verified' }, 'rids'],
        [{ tournamentId: tid, paymentStatus: 'verified' }, 'rids'],
        [{ tournamentId: tid, rids: [rids[0], 'abc'], paymentStatus: 'verified' }, 'rids.1'],
        [{ tournamentId: tid, rids: [1.5], paymentStatus: 'verified' }, 'rids.0'],
        [{ rids: [rids[0]], paymentStatus: 'verified' }, 'tournamentId'],
        [{ tournamentId: 'x', rids: [rids[0]], paymentStatus: 'verified' }, 'tournamentId'],
      ];
      for (const [body, field] of cases) {
        const res = await setMany(body);
        expect(res.status, JSON.stringify(body)).toBe(400);
        expect(Object.keys(res.body.errors), JSON.stringify(body)).toEqual([field]);
      }
      expect(await statuses(tid)).toEqual(before);
    });

    it('answers 404 for a tournament that does not exist or was deleted', async () => {
      const { tid, rids } = await paidTournament();
      const missing = await setMany({ tournamentId: 2_000_000_000, rids: [rids[0]], paymentStatus: 'verified' });
      expect(missing.status).toBe(404);
      expect(missing.body).toEqual({ message: 'Tournament not found.' });
      expect((await gw.api.delete(`/tournaments/admin/delete${tid}`, admin)).status).toBe(200);
      expect((await setMany({ tournamentId: tid, rids: [rids[0]], paymentStatus: 'verified' })).status).toBe(404);
    });

    it('is for admins only: 401 anonymous (whatever the body), 403 for a player', async () => {
      const { tid, rids } = await paidTournament();
      const before = await statuses(tid);
      const body = { tournamentId: tid, rids: [rids[0]], paymentStatus: 'verified' };
      const anonymous = await setMany(body, '');
      expect(anonymous.status).toBe(401);
      const anonymousBad = await setMany({ rids: 'nonsense' }, '');
      expect(anonymousBad.status).toBe(401);
      expect(anonymousBad.body.errors).toBeUndefined();
      const player = await setMany(body, players[0]!.token);
      expect(player.status).toBe(403);
      expect(player.body).toEqual({ message: 'Admins only.' });
      expect(await statuses(tid)).toEqual(before);
    });

    it('leaves the one-team call as it was', async () => {
      const { tid, rids } = await paidTournament();
      const res = await gw.api.put(
        `/registrations/admin/${rids[0]}/payment`,
        { paymentStatus: 'rejected', expectedUpiReference: (await shown(tid))[rids[0]!] },
        admin,
      );
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ rid: rids[0], paymentStatus: 'rejected' });
      expect(await playerSees(tid, 0)).toBe('rejected');
    });
  });

  it('documents both calls in the OpenAPI description, for admins', async () => {
    const { paths } = (await gw.api.get('/openapi.json')).body;
    expect(paths['/tournaments/admin/summary']?.get?.security).toEqual([{ bearerAuth: [] }]);
    expect(paths['/registrations/admin/payments']?.put?.security).toEqual([{ bearerAuth: [] }]);
  });
});
