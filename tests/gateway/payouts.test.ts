// Issue 31 (decision 085): prize payouts. Once the final standings are in, the winners' captains give the UPI ID
// to be paid (and the PAN when asked); the organiser names the special prizes' winners and records each payout
// once, with its UTR and the TDS withheld; the team is told and sees it; the money page sums it up.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  adminToken,
  createTournamentWithTeams,
  createUser,
  expectStatus,
  startGateway,
  toForm,
  tournamentFields,
  unique,
  uniqueUtr,
  type TestGateway,
  type TestUser,
} from './helpers.js';

describe('prize payouts', () => {
  let gw: TestGateway;
  let admin: string;
  let players: TestUser[];

  beforeAll(async () => {
    gw = await startGateway();
    admin = await adminToken(gw.api);
    players = [];
    for (let i = 0; i < 5; i++) players.push(await createUser(gw.api));
  });
  afterAll(async () => {
    await gw?.stop();
  });

  const payouts = (tid: number, token = admin) => gw.api.get(`/tournaments/${tid}/payouts`, token);
  const mine = (tid: number, player: TestUser) => gw.api.get(`/tournaments/${tid}/money/mine`, player.token);
  const payee = (tid: number, player: TestUser, body: object) => gw.api.put(`/tournaments/${tid}/money/mine/payee`, body, player.token);
  const pay = (tid: number, rid: number, body: object, token = admin) => gw.api.post(`/tournaments/${tid}/payouts/${rid}`, body, token);
  const linesOf = async (player: TestUser, tid: number) =>
    ((await gw.api.get('/notifications?limit=100', player.token)).body.items as any[]).filter((n) => n.tournamentId === tid);
  const prizeTable = {
    ranks: [
      { rank: 1, amount: 5000 },
      { rank: 2, amount: 3000 },
    ],
    specials: [{ label: 'Top fragger', amount: 500 }],
  };

  /** One stage, "Final", of four teams (player i registers team i); finishing order: team 3, 2, 1, 0. */
  async function finalOfFour(askPan: boolean) {
    const names = ['Alpha', 'Bravo', 'Charlie', 'Delta'].map((n) => `${n} ${unique()}`);
    const { tid, teams } = await createTournamentWithTeams(gw.api, admin, players, names, { entryFee: '0', maxTeams: '16' });
    expectStatus(await gw.api.put(`/tournaments/${tid}/prizes`, { ...prizeTable, askPan }, admin), 200);
    const stage = expectStatus(await gw.api.post(`/tournaments/${tid}/stages`, { name: 'Final', lobbySize: 4 }, admin), 201);
    const drawn = expectStatus(await gw.api.post(`/tournaments/${tid}/stages/${stage.id}/groups`, { method: 'registration' }, admin), 200);
    expectStatus(
      await gw.api.post(
        `/tournaments/${tid}/stages/${stage.id}/matches`,
        { matches: [{ day: 1, matchNo: 1, map: 'Erangel', time: '18:00' }] },
        admin,
      ),
      200,
    );
    expectStatus(await gw.api.post(`/tournaments/${tid}/stages/${stage.id}/publish`, {}, admin), 200);
    const order = [...teams].reverse().map((t) => t.rid);
    const results = order.map((teamId, i) => ({ teamId, position: i + 1, finishes: 4 - i, wins: i === 0 ? 1 : 0 }));
    expectStatus(await gw.api.put(`/tournaments/${tid}/points-table/matches/1/1`, { groupId: drawn.groups[0].id, results }, admin), 200);
    const complete = () => gw.api.post(`/tournaments/${tid}/stages/${stage.id}/complete`, {}, admin);
    return { tid, teams, complete };
  }

  it('waits for the final standings, then lists the winners by rank and asks them where to be paid', async () => {
    const { tid, teams, complete } = await finalOfFour(true);
    const before = expectStatus(await payouts(tid), 200);
    expect(before).toMatchObject({ final: false, askPan: true, winners: [] });
    expect(before.specials).toEqual([{ label: 'Top fragger', amountPaise: 50000, registrationId: null }]);
    expect(expectStatus(await mine(tid, players[3]!), 200).prize).toBeNull();
    const early = await payee(tid, players[3]!, { upiId: 'delta@okaxis', pan: 'ABCDE1234F' });
    expect(early.status).toBe(409);
    expect(early.body.message).toMatch(/final standings are not in yet/);
    expect((await gw.api.post(`/tournaments/${tid}/payouts/remind`, {}, admin)).status).toBe(409);

    expectStatus(await complete(), 200);
    await gw.app.notifier.runOnce();
    // Delta (team 3) finished 1st: its final line names its prize and asks for the UPI ID.
    const [champion] = await linesOf(players[3]!, tid);
    expect(champion.kind).toBe('final-standing');
    expect(champion.body).toContain('Your prize is ₹5,000: give the UPI ID to be paid on your team page.');
    expect(champion.link).toBe(`/team/${tid}`);
    const [fourth] = await linesOf(players[0]!, tid);
    expect(fourth.body).not.toContain('prize');

    const after = expectStatus(await payouts(tid), 200);
    expect(after.final).toBe(true);
    expect(after.winners.map((w: any) => [w.teamName, w.rank, w.owedPaise, w.payee, w.payout])).toEqual([
      [teams[3]!.teamName, 1, 500000, null, null],
      [teams[2]!.teamName, 2, 300000, null, null],
    ]);
    expect(after.teams.map((t: any) => [t.registrationId, t.rank])).toEqual([3, 2, 1, 0].map((i, n) => [teams[i]!.rid, n + 1]));

    // The top fragger is Bravo (team 1, 3rd): it becomes a winner; the public table names it.
    const awarded = expectStatus(
      await gw.api.put(`/tournaments/${tid}/payouts/awards`, { awards: [{ label: 'Top fragger', registrationId: teams[1]!.rid }] }, admin),
      200,
    );
    expect(awarded.winners.map((w: any) => [w.teamName, w.rank, w.prizes])).toEqual([
      [teams[3]!.teamName, 1, [{ label: '1st place', amountPaise: 500000 }]],
      [teams[2]!.teamName, 2, [{ label: '2nd place', amountPaise: 300000 }]],
      [teams[1]!.teamName, null, [{ label: 'Top fragger', amountPaise: 50000 }]],
    ]);
    expect(expectStatus(await gw.api.get(`/tournaments/${tid}/prizes`), 200).specials).toEqual([
      { label: 'Top fragger', amountPaise: 50000, winner: teams[1]!.teamName },
    ]);
    const nobody = await gw.api.put(
      `/tournaments/${tid}/payouts/awards`,
      { awards: [{ label: 'MVP', registrationId: teams[1]!.rid }] },
      admin,
    );
    expect(nobody.status).toBe(400);

    const reminded = expectStatus(await gw.api.post(`/tournaments/${tid}/payouts/remind`, {}, admin), 200);
    expect(reminded).toEqual({ asked: 3, message: 'Asked 3 winning teams for the UPI ID to be paid.' });
    await gw.app.notifier.runOnce();
    const [asked] = await linesOf(players[1]!, tid);
    expect(asked).toMatchObject({ kind: 'prize-won', link: `/team/${tid}` });
    expect(asked.body).toContain('Give the UPI ID to be paid on your team page.');
    expect((await linesOf(players[0]!, tid)).some((n) => n.kind === 'prize-won')).toBe(false);
  });

  it('takes the captain’s UPI ID (and PAN when asked), records the payout once with its TDS, and tells the team', async () => {
    const { tid, teams, complete } = await finalOfFour(true);
    expectStatus(await complete(), 200);
    const champion = players[3]!;
    const rid = teams[3]!.rid;

    // Bad input is named by field; nothing is kept.
    const noPan = await payee(tid, champion, { upiId: 'delta@okaxis' });
    expect(noPan.status).toBe(400);
    expect(noPan.body.errors.pan).toMatch(/Enter the PAN/);
    const bad = await payee(tid, champion, { upiId: 'delta at okaxis', pan: '1234' });
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toMatchObject({ upiId: expect.stringMatching(/handle@provider/), pan: expect.stringMatching(/10 characters/) });
    expect(expectStatus(await mine(tid, champion), 200).prize).toMatchObject({
      owedPaise: 500000,
      askPan: true,
      payee: null,
      payout: null,
    });

    // Not before the captain said where: the organiser is told to ask.
    const early = await pay(tid, rid, { upiReference: uniqueUtr() });
    expect(early.status).toBe(409);
    expect(early.body.message).toMatch(/has not given the UPI ID/);

    const saved = expectStatus(await payee(tid, champion, { upiId: 'delta@okaxis', pan: ' abcde 1234f' }), 200);
    expect(saved.prize).toMatchObject({ rank: 1, owedPaise: 500000, payee: { upiId: 'delta@okaxis', panGiven: true }, payout: null });
    // Another team's captain, placed 4th, won nothing.
    const none = await payee(tid, players[0]!, { upiId: 'alpha@okaxis', pan: 'ABCDE1234F' });
    expect(none.status).toBe(409);
    expect(none.body.message).toBe('This team won no prize in this tournament.');

    const listed = expectStatus(await payouts(tid), 200).winners.find((w: any) => w.registrationId === rid);
    expect(listed.payee).toMatchObject({ upiId: 'delta@okaxis', pan: 'ABCDE1234F' });

    const tooMuch = await pay(tid, rid, { upiReference: uniqueUtr(), tds: 5000.01 });
    expect(tooMuch.status).toBe(400);
    expect(tooMuch.body.errors.tds).toBe('The TDS cannot be more than the prize, ₹5,000.');
    const badUtr = await pay(tid, rid, { upiReference: '12' });
    expect(badUtr.status).toBe(400);
    expect(badUtr.body.errors.upiReference).toBe('A UTR has 12 digits; this has 2.');

    const utr = uniqueUtr();
    const paid = expectStatus(await pay(tid, rid, { upiReference: utr, tds: '1500' }), 200);
    expect(paid.payout).toMatchObject({ grossPaise: 500000, tdsPaise: 150000, netPaise: 350000, upiId: 'delta@okaxis', utr, by: 'admin' });
    const again = await pay(tid, rid, { upiReference: uniqueUtr() });
    expect(again.status).toBe(409);
    expect(again.body.message).toBe("This team's prize is already paid: its payout is recorded.");

    // The team sees it, and is told.
    expect(expectStatus(await mine(tid, champion), 200).prize.payout).toMatchObject({ grossPaise: 500000, netPaise: 350000, utr });
    await gw.app.notifier.runOnce();
    const [told] = await linesOf(champion, tid);
    expect(told.kind).toBe('prize-paid');
    const name = expectStatus(await gw.api.get(`/tournaments/${tid}`), 200).name;
    expect(told.body).toBe(`${teams[3]!.teamName}: ₹5,000 prize for ${name} was paid: ₹3,500 sent after ₹1,500 TDS (UTR ${utr}).`);

    // Paid is paid: the UPI ID, the prize table and a paid team's special prizes stay.
    expect((await payee(tid, champion, { upiId: 'other@okaxis', pan: 'ABCDE1234F' })).status).toBe(409);
    const locked = await gw.api.put(`/tournaments/${tid}/prizes`, prizeTable, admin);
    expect(locked.status).toBe(409);
    expect(locked.body.message).toBe('Prize payouts are recorded: the prize table can no longer change.');
    const moved = await gw.api.put(
      `/tournaments/${tid}/payouts/awards`,
      { awards: [{ label: 'Top fragger', registrationId: rid }] },
      admin,
    );
    expect(moved.status).toBe(409);

    // The money page sums it up, with the PAN for the accountant.
    const money = expectStatus(await gw.api.get(`/tournaments/${tid}/money`, admin), 200);
    expect(money).toMatchObject({ prizesPaidPaise: 500000, prizesTdsPaise: 150000 });
    expect(money.teams.find((t: any) => t.registrationId === rid)).toMatchObject({
      prizeGrossPaise: 500000,
      prizeTdsPaise: 150000,
      prizeUtr: utr,
      prizeUpiId: 'delta@okaxis',
      prizePan: 'ABCDE1234F',
    });
  });

  it('without stages: the overall table of a completed tournament ranks the winners; no PAN unless asked', async () => {
    const names = ['Echo', 'Foxtrot', 'Golf'].map((n) => `${n} ${unique()}`);
    const fields = tournamentFields({ entryFee: '0', maxTeams: '16' });
    const { tid, teams } = await createTournamentWithTeams(gw.api, admin, players, names, fields);
    expectStatus(await gw.api.put(`/tournaments/${tid}/prizes`, prizeTable, admin), 200);
    const results = [teams[1]!, teams[0]!, teams[2]!].map((t, i) => ({
      teamId: t.rid,
      position: i + 1,
      finishes: 0,
      wins: i === 0 ? 1 : 0,
    }));
    expectStatus(await gw.api.put(`/tournaments/${tid}/points-table/matches/1/1`, { results }, admin), 200);
    expect(expectStatus(await payouts(tid), 200).final).toBe(false);
    const update = await gw.api.request('PUT', `/tournaments/admin/update/${tid}`, {
      token: admin,
      form: toForm({ ...fields, status: 'Completed' }),
    });
    expectStatus(update, 200);
    const list = expectStatus(await payouts(tid), 200);
    expect(list).toMatchObject({ final: true, askPan: false });
    expect(list.winners.map((w: any) => [w.registrationId, w.rank, w.owedPaise])).toEqual([
      [teams[1]!.rid, 1, 500000],
      [teams[0]!.rid, 2, 300000],
    ]);
    // No PAN asked: one sent is not kept.
    const saved = expectStatus(await payee(tid, players[1]!, { upiId: 'foxtrot@ybl', pan: 'ABCDE1234F' }), 200);
    expect(saved.prize.payee).toMatchObject({ upiId: 'foxtrot@ybl', panGiven: false });
    const changed = expectStatus(await payee(tid, players[1]!, { upiId: 'foxtrot.captain@ybl' }), 200);
    expect(changed.prize.payee.upiId).toBe('foxtrot.captain@ybl');
    const paid = expectStatus(await pay(tid, teams[1]!.rid, { upiReference: uniqueUtr() }), 200);
    expect(paid.payout).toMatchObject({ grossPaise: 500000, tdsPaise: 0, netPaise: 500000, upiId: 'foxtrot.captain@ybl' });
  });

  it('only the owner, co-organisers and payments staff see and record payouts; a player only its own team’s', async () => {
    const { tid, teams, complete } = await finalOfFour(false);
    expectStatus(await complete(), 200);
    const stranger = await createUser(gw.api);
    expect((await payouts(tid, players[3]!.token)).status).toBe(403);
    expect((await payouts(tid, stranger.token)).status).toBe(403);
    expect((await gw.api.get(`/tournaments/${tid}/payouts`)).status).toBe(401);
    expect((await pay(tid, teams[3]!.rid, { upiReference: uniqueUtr() }, players[3]!.token)).status).toBe(403);
    expect((await gw.api.post(`/tournaments/${tid}/payouts/remind`, {}, players[3]!.token)).status).toBe(403);
    expect((await mine(tid, stranger)).status).toBe(404);
    expect((await payee(tid, stranger, { upiId: 'stranger@okaxis' })).status).toBe(404);
  });
});
