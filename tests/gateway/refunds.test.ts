// Issue 31 (decision 082): paid teams that withdrew, were removed, or whose tournament was cancelled are
// owed their fee; the organiser records each refund's UTR once, the team is told and sees it.
import { beforeAll, describe, expect, it } from 'vitest';
import { bumpGeneration } from '../../gateway/src/db/generation.js';
import {
  createTournamentWithTeams,
  createUser,
  expectStatus,
  uniqueUtr,
  useGatewayWithPlayers,
  type TestGateway,
  type TestUser,
} from './helpers.js';

describe('refunds', () => {
  const setup = useGatewayWithPlayers(5);
  let gw: TestGateway;
  let admin: string;
  let players: TestUser[];
  beforeAll(() => ({ gw, admin, players } = setup));

  const refunds = (tid: number, token = admin) => gw.api.get(`/tournaments/${tid}/refunds`, token);
  const record = (tid: number, rid: number, body: object, token = admin) => gw.api.post(`/tournaments/${tid}/refunds/${rid}`, body, token);

  /** A ₹50 tournament: Alpha pays through a statement and withdraws; Bravo is verified by hand and removed; Charlie plays on; Delta never paid and withdrew. */
  async function event() {
    const names = ['Alpha', 'Bravo', 'Charlie', 'Delta'].map((n) => `${n} ${Date.now() % 100000}`);
    const { tid, teams } = await createTournamentWithTeams(gw.api, admin, players, names, { entryFee: '50' });
    const utrs = [uniqueUtr(), uniqueUtr(), uniqueUtr()];
    for (const i of [0, 1, 2])
      expectStatus(await gw.api.post(`/registrations/${tid}/payment`, { upiReference: utrs[i] }, players[i]!.token), 200);
    const csv = ['Date,UTR No,Payer Name,Payer VPA,Amount,Type', `28/11/2026,${utrs[0]},Rahul Kumar,rahul.k@okaxis,50.00,CR`].join('\n');
    const form = new FormData();
    form.append('statement', new Blob([csv]), 'phonepe.csv');
    const statement = expectStatus(await gw.api.request('POST', `/tournaments/${tid}/statements`, { token: admin, form }), 201);
    const verified = await gw.api.post(
      `/tournaments/${tid}/statements/${statement.id}/verify`,
      { rids: [teams[0]!.rid], expectedUpiReferences: { [teams[0]!.rid]: utrs[0] } },
      admin,
    );
    expect(expectStatus(verified, 200).verified).toBe(1);
    for (const i of [1, 2]) {
      const body = {
        tournamentId: tid,
        paymentStatus: 'verified',
        rids: [teams[i]!.rid],
        expectedUpiReferences: { [teams[i]!.rid]: utrs[i] },
      };
      expectStatus(await gw.api.put('/registrations/admin/payments', body, admin), 200);
    }
    expectStatus(await gw.api.post(`/registrations/${tid}/withdraw`, {}, players[0]!.token), 200);
    expectStatus(await gw.api.post(`/registrations/admin/${teams[1]!.rid}/remove`, {}, admin), 200);
    expectStatus(await gw.api.post(`/registrations/${tid}/withdraw`, {}, players[3]!.token), 200);
    return { tid, teams, utrs };
  }

  it('lists the paid teams that left, with the payer the statement names, and records each refund once', async () => {
    const { tid, teams, utrs } = await event();
    const owed = expectStatus(await refunds(tid), 200);
    const byRid = new Map(owed.map((r: any) => [r.registrationId, r]));
    // Not Charlie (still playing) nor Delta (never paid).
    expect([...byRid.keys()].sort()).toEqual([teams[0]!.rid, teams[1]!.rid].sort());
    expect(byRid.get(teams[1]!.rid)).toMatchObject({
      reason: 'removed',
      paidPaise: 5000,
      paidUtr: utrs[1],
      payerName: '',
      payerVpa: null,
      refund: null,
    });
    expect(byRid.get(teams[0]!.rid)).toMatchObject({
      reason: 'withdrew',
      place: 'withdrawn',
      paidPaise: 5000,
      paidUtr: utrs[0],
      payerName: 'Rahul Kumar',
      payerVpa: 'rahul.k@okaxis',
      refund: null,
    });

    const bad = await record(tid, teams[0]!.rid, { upiReference: '1234' });
    expect(bad.status).toBe(400);
    expect(bad.body.errors.upiReference).toMatch(/12 digits/);
    const tooMuch = await record(tid, teams[0]!.rid, { upiReference: uniqueUtr(), amount: 60 });
    expect(tooMuch.status).toBe(400);
    expect(tooMuch.body.errors.amount).toBe('At most the entry fee, ₹50.');

    const refundUtr = uniqueUtr();
    const done = expectStatus(
      await record(tid, teams[0]!.rid, { upiReference: `${refundUtr.slice(0, 6)} ${refundUtr.slice(6)}`, amount: 48.5 }),
      200,
    );
    expect(done).toMatchObject({ registrationId: teams[0]!.rid, refund: { amountPaise: 4850, utr: refundUtr, by: 'admin' } });
    const again = await record(tid, teams[0]!.rid, { upiReference: uniqueUtr() });
    expect(again.status).toBe(409);
    expect(again.body.message).toBe("This team's refund is already recorded.");
    expect((await record(tid, teams[2]!.rid, { upiReference: uniqueUtr() })).status).toBe(409); // still playing
    expect((await record(tid, teams[3]!.rid, { upiReference: uniqueUtr() })).status).toBe(409); // never paid
    expect((await record(tid, 999_999, { upiReference: uniqueUtr() })).status).toBe(404);

    // The team is told, and sees its refund; another team sees none.
    const told = await gw.app.store.db
      .selectFrom('notification_events')
      .select(['audience', 'data'])
      .where('tournament_id', '=', tid)
      .where('kind', '=', 'refund-recorded')
      .execute();
    expect(told.map((e) => [JSON.parse(e.audience), JSON.parse(e.data)])).toEqual([
      [{ registrations: [teams[0]!.rid] }, { teamName: teams[0]!.teamName, amountPaise: 4850, utr: refundUtr }],
    ]);
    const mine = expectStatus(await gw.api.get(`/tournaments/${tid}/money/mine`, players[0]!.token), 200);
    expect(mine).toEqual({ refund: { amountPaise: 4850, utr: refundUtr, at: expect.any(String), by: 'admin' }, prize: null });
    expect(expectStatus(await gw.api.get(`/tournaments/${tid}/money/mine`, players[2]!.token), 200)).toEqual({ refund: null, prize: null });
    const stranger = await createUser(gw.api);
    expect((await gw.api.get(`/tournaments/${tid}/money/mine`, stranger.token)).status).toBe(404);
    expect(expectStatus(await refunds(tid), 200).find((r: any) => r.registrationId === teams[0]!.rid).refund).toMatchObject({
      amountPaise: 4850,
      utr: refundUtr,
    });
  });

  it("sums the tournament's money: expected, received on statements, verified, refunded; a line per team that counts", async () => {
    const { tid, teams, utrs } = await event();
    const refundUtr = uniqueUtr();
    expectStatus(await record(tid, teams[0]!.rid, { upiReference: refundUtr, amount: 48.5 }), 200);
    const money = expectStatus(await gw.api.get(`/tournaments/${tid}/money`, admin), 200);
    // Placed: Charlie only. On the statement: Alpha's ₹50. Verified: Alpha, Bravo, Charlie. Refunded: Alpha's ₹48.50.
    expect(money).toMatchObject({
      feePaise: 5000,
      expectedPaise: 5000,
      receivedPaise: 5000,
      verifiedPaise: 15000,
      refundedPaise: 4850,
      statements: 1,
    });
    const lines = new Map(money.teams.map((t: any) => [t.registrationId, t]));
    expect([...lines.keys()].sort()).toEqual([teams[0]!.rid, teams[1]!.rid, teams[2]!.rid].sort()); // not Delta: never paid, gone
    expect(lines.get(teams[0]!.rid)).toMatchObject({
      place: 'withdrawn',
      paymentStatus: 'verified',
      upiReference: utrs[0],
      receivedPaise: 5000,
      payerName: 'Rahul Kumar',
      payerVpa: 'rahul.k@okaxis',
      refundPaise: 4850,
      refundUtr,
    });
    expect(lines.get(teams[2]!.rid)).toMatchObject({ place: 'placed', paymentStatus: 'verified', receivedPaise: null, refundPaise: null });
    expect((await gw.api.get(`/tournaments/${tid}/money`, players[2]!.token)).status).toBe(403);
  });

  it('a cancelled tournament owes every paid team its fee', async () => {
    const { tid, teams } = await event();
    await gw.app.store.writeTransaction(async (trx) => {
      await trx.updateTable('tournaments').set({ status: 'Cancelled' }).where('id', '=', tid).execute();
      await bumpGeneration(trx, tid);
    });
    const owed = expectStatus(await refunds(tid), 200);
    const reasons = Object.fromEntries(owed.map((r: any) => [r.registrationId, r.reason]));
    expect(reasons).toEqual({ [teams[0]!.rid]: 'withdrew', [teams[1]!.rid]: 'removed', [teams[2]!.rid]: 'cancelled' });
    expectStatus(await record(tid, teams[2]!.rid, { upiReference: uniqueUtr() }), 200);
  });

  it('only the payments crew sees and records refunds; a player only its own', async () => {
    const { tid, teams } = await event();
    const helper = await createUser(gw.api);
    const invited = expectStatus(await gw.api.post(`/tournaments/${tid}/staff`, { who: helper.username, role: 'payments' }, admin), 201);
    expectStatus(await gw.api.post(`/staff-invitations/${invited.token}/accept`, {}, helper.token), 200);
    expect((await refunds(tid, helper.token)).status).toBe(200);
    expect((await refunds(tid, players[2]!.token)).status).toBe(403);
    expect((await record(tid, teams[0]!.rid, { upiReference: uniqueUtr() }, players[0]!.token)).status).toBe(403);
    expect((await refunds(tid, '')).status).toBe(401);
    expectStatus(await record(tid, teams[0]!.rid, { upiReference: uniqueUtr() }, helper.token), 200);
  });
});
