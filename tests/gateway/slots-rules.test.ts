import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { placeWords } from '@custom-room/contract';
import { FakeClock } from '../../gateway/src/lib/clock.js';
import { sweepDeadlines } from '../../gateway/src/services/places/sweep.js';
import {
  adminToken,
  createUser,
  dialectName,
  startGateway,
  teamFields,
  toForm,
  tournamentFields,
  uniqueUtr,
  type TestGateway,
  type TestUser,
} from './helpers.js';

const HOUR = 3_600_000;

// Issue 19, decision 043: the rules around a place that slots.test.ts leaves out (organiser edits,
// payment judgements, per-team check-ins) and the holes a read or a write could slip through.
describe(`the slot's rules (${dialectName})`, () => {
  let gw: TestGateway;
  let admin: string;
  const clock = new FakeClock();

  beforeAll(async () => {
    gw = await startGateway({ PAYMENT_SWEEP_INTERVAL_MS: String(24 * HOUR) }, undefined, { clock });
    admin = await adminToken(gw.api);
  });
  afterAll(() => gw.stop());

  const register = (tid: number, user: TestUser, extra: Record<string, unknown> = {}) =>
    gw.api.post(`/registrations/${tid}`, { ...teamFields(), ...extra }, user.token);
  const myTeam = async (tid: number, user: TestUser) => (await gw.api.get(`/registrations/${tid}`, user.token)).body;
  const adminList = async (tid: number) => (await gw.api.get(`/registrations/tournament/${tid}`, admin)).body;
  const events = async (tid: number) =>
    (await gw.app.store.db.selectFrom('notification_events').selectAll().where('tournament_id', '=', tid).orderBy('id').execute()).map(
      (e) => [e.kind, JSON.parse(e.audience).registrations[0]] as [string, number],
    );
  const pay = (tid: number, user: TestUser, utr = uniqueUtr()) =>
    gw.api.post(`/registrations/${tid}/payment`, { upiReference: utr }, user.token);
  const judge = (rid: number, paymentStatus: string, expectedUpiReference: string) =>
    gw.api.put(`/registrations/admin/${rid}/payment`, { paymentStatus, expectedUpiReference }, admin);

  /** A tournament (its form fields kept for updates) with maxTeams placed teams and `waiting` waitlisted ones. */
  async function tournament(maxTeams: number, waiting: number, overrides: Record<string, string> = {}) {
    const fields = tournamentFields({ maxTeams: String(maxTeams), entryFee: '100', paymentDeadlineHours: '6', ...overrides });
    const res = await gw.api.request('POST', '/tournaments/add', { token: admin, form: toForm(fields) });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const t = res.body;
    const placed: TestUser[] = [];
    const waitlisted: TestUser[] = [];
    for (let i = 0; i < maxTeams + waiting; i++) {
      const u = await createUser(gw.api);
      const joined = await register(t.id, u, { waitlist: true });
      expect(joined.status).toBe(201);
      (i < maxTeams ? placed : waitlisted).push(u);
    }
    const update = (changes: Record<string, string>) =>
      gw.api.request('PUT', `/tournaments/admin/update/${t.id}`, { token: admin, form: toForm({ ...fields, ...changes }) });
    return { t, placed, waitlisted, update };
  }

  it('raising Max Teams promotes waitlisted teams in order, each with its own payBy and a promoted event', async () => {
    const { t, waitlisted, update } = await tournament(2, 3);
    clock.advance(HOUR);
    const res = await update({ maxTeams: '4' });
    expect(res.status).toBe(200);
    expect(res.body.registeredTeams).toBe(4);
    const [w1, w2, w3] = await Promise.all(waitlisted.map((u) => myTeam(t.id, u)));
    for (const w of [w1, w2]) {
      expect(w).toMatchObject({ place: 'placed', placedAt: new Date(clock.now()).toISOString(), waitlistPosition: null });
      expect(Date.parse(w.payBy)).toBe(clock.now() + 6 * HOUR);
    }
    expect(w3).toMatchObject({ place: 'waitlist', waitlistPosition: 1, payBy: null });
    expect(await events(t.id)).toEqual([
      ['promoted', w1.rid],
      ['promoted', w2.rid],
    ]);
    // The public count follows at once (the read caches were told).
    expect((await gw.api.get(`/tournaments/${t.id}`)).body.registeredTeams).toBe(4);
  });

  it('changing the payment deadline restarts it from now for placed unpaid teams only', async () => {
    const { t, placed, waitlisted, update } = await tournament(3, 1);
    const utr = uniqueUtr();
    await pay(t.id, placed[0]!, utr);
    const verified = await myTeam(t.id, placed[0]!);
    expect((await judge(verified.rid, 'verified', utr)).status).toBe(200);
    await pay(t.id, placed[1]!); // submitted: still unpaid
    clock.advance(5 * HOUR);
    expect((await update({ paymentDeadlineHours: '3' })).status).toBe(200);
    const [submitted, pending] = [await myTeam(t.id, placed[1]!), await myTeam(t.id, placed[2]!)];
    expect(Date.parse(submitted.payBy)).toBe(clock.now() + 3 * HOUR);
    expect(Date.parse(pending.payBy)).toBe(clock.now() + 3 * HOUR);
    expect((await myTeam(t.id, placed[0]!)).payBy).toBeNull(); // verified: no deadline
    expect((await myTeam(t.id, waitlisted[0]!)).payBy).toBeNull();

    // A fixed time instead: the same teams get it.
    const at = new Date(clock.now() + 10 * HOUR).toISOString();
    expect((await update({ paymentDeadlineHours: '', paymentDeadlineAt: at })).status).toBe(200);
    expect((await myTeam(t.id, placed[2]!)).payBy).toBe(at);
    // Cleared: no deadline at all, nobody is released.
    expect((await update({ paymentDeadlineHours: '', paymentDeadlineAt: '' })).status).toBe(200);
    expect((await myTeam(t.id, placed[2]!)).payBy).toBeNull();
    clock.advance(100 * HOUR);
    expect((await myTeam(t.id, placed[2]!)).place).toBe('placed');
  });

  it('an edit does not rescue a team already overdue: it is released under the old deadline first', async () => {
    const { t, placed, waitlisted, update } = await tournament(2, 1);
    clock.advance(6 * HOUR);
    expect((await update({ paymentDeadlineHours: '48' })).status).toBe(200);
    expect(await myTeam(t.id, placed[0]!)).toMatchObject({ place: 'released', releasedReason: 'payment-deadline' });
    const promoted = await myTeam(t.id, waitlisted[0]!);
    expect(promoted.place).toBe('placed');
    expect(Date.parse(promoted.payBy)).toBe(clock.now() + 48 * HOUR);
  });

  it('a payment rejected after the deadline is released at once, in the answer of the rejection, and its place filled', async () => {
    const { t, placed, waitlisted } = await tournament(2, 1);
    const utrs = [uniqueUtr(), uniqueUtr()];
    await pay(t.id, placed[0]!, utrs[0]);
    await pay(t.id, placed[1]!, utrs[1]);
    const [a, b] = [await myTeam(t.id, placed[0]!), await myTeam(t.id, placed[1]!)];
    clock.advance(7 * HOUR); // both submitted: kept past the deadline
    expect((await myTeam(t.id, placed[0]!)).place).toBe('placed');

    const rejected = await judge(a.rid, 'rejected', utrs[0]!);
    expect(rejected.status).toBe(200);
    expect(rejected.body).toMatchObject({ place: 'released', releasedReason: 'payment-deadline', paymentStatus: 'rejected' });
    expect((await myTeam(t.id, waitlisted[0]!)).place).toBe('placed');

    // The bulk call too.
    const bulk = await gw.api.put(
      '/registrations/admin/payments',
      { tournamentId: t.id, rids: [b.rid], paymentStatus: 'rejected', expectedUpiReferences: { [b.rid]: utrs[1] } },
      admin,
    );
    expect(bulk.status).toBe(200);
    expect(bulk.body).toHaveLength(1);
    expect(bulk.body[0]).toMatchObject({ rid: b.rid, place: 'released', paymentStatus: 'rejected' });
    expect((await gw.api.get(`/tournaments/${t.id}`)).body.registeredTeams).toBe(1);
  });

  it('a payment rejected before the deadline keeps the place until the deadline', async () => {
    const { t, placed } = await tournament(2, 0);
    const utr = uniqueUtr();
    await pay(t.id, placed[0]!, utr);
    const team = await myTeam(t.id, placed[0]!);
    const rejected = await judge(team.rid, 'rejected', utr);
    expect(rejected.body).toMatchObject({ place: 'placed', paymentStatus: 'rejected' });
    expect(placeWords(rejected.body, () => 'later')).toBe('payment rejected (pay by later)');
  });

  it('a team promoted after a fixed deadline gets one hour to pay', async () => {
    const deadline = new Date(clock.now() + 2 * HOUR).toISOString();
    const { t, placed, waitlisted } = await tournament(2, 1, { paymentDeadlineHours: '', paymentDeadlineAt: deadline });
    expect((await myTeam(t.id, placed[0]!)).payBy).toBe(deadline);
    clock.advance(3 * HOUR); // past the fixed time: the placed team is released, the waitlisted one promoted
    const promoted = await myTeam(t.id, waitlisted[0]!);
    expect(promoted.place).toBe('placed');
    expect(Date.parse(promoted.payBy)).toBe(clock.now() + HOUR);
    // Promoted just before the fixed time, a team has until the fixed time or an hour, whichever is later.
    const early = new Date(clock.now() + 10 * HOUR).toISOString();
    const second = await tournament(2, 1, { paymentDeadlineHours: '', paymentDeadlineAt: early });
    clock.advance(HOUR);
    expect((await gw.api.post(`/registrations/${second.t.id}/withdraw`, {}, second.placed[0]!.token)).status).toBe(200);
    expect((await myTeam(second.t.id, second.waitlisted[0]!)).payBy).toBe(early);
  });

  it('a team that registers before a fixed deadline has until it, however near; one that registers after it, an hour', async () => {
    const near = new Date(clock.now() + 10 * 60_000).toISOString();
    const { t, placed, waitlisted } = await tournament(2, 1, { paymentDeadlineHours: '', paymentDeadlineAt: near });
    expect((await myTeam(t.id, placed[0]!)).payBy).toBe(near);
    clock.advance(11 * 60_000); // the fixed time passed: both released, the waitlisted team promoted with an hour
    expect((await myTeam(t.id, placed[0]!)).place).toBe('released');
    expect(Date.parse((await myTeam(t.id, waitlisted[0]!)).payBy)).toBe(clock.now() + HOUR);
    // The other freed place: a team registering after the fixed time gets the hour too.
    const late = await createUser(gw.api);
    expect((await register(t.id, late)).status).toBe(201);
    expect(Date.parse((await myTeam(t.id, late)).payBy)).toBe(clock.now() + HOUR);
  });

  it('payment-verified / payment-rejected events are written only when the status changes', async () => {
    const { t, placed } = await tournament(3, 0);
    const utrs = [uniqueUtr(), uniqueUtr(), uniqueUtr()];
    const teams = [];
    for (let i = 0; i < 3; i++) {
      await pay(t.id, placed[i]!, utrs[i]);
      teams.push(await myTeam(t.id, placed[i]!));
    }
    expect((await judge(teams[0].rid, 'verified', utrs[0]!)).status).toBe(200);
    expect((await judge(teams[0].rid, 'verified', utrs[0]!)).status).toBe(200); // again: no event
    const refs = new Map(teams.map((team, i) => [team.rid as number, utrs[i]!]));
    const bulk = (rids: number[], paymentStatus: string) =>
      gw.api.put(
        '/registrations/admin/payments',
        { tournamentId: t.id, rids, paymentStatus, expectedUpiReferences: Object.fromEntries(rids.map((r) => [r, refs.get(r)!])) },
        admin,
      );
    expect((await bulk([teams[0].rid, teams[1].rid], 'verified')).status).toBe(200); // only the second changes
    expect((await bulk([teams[2].rid], 'rejected')).status).toBe(200);
    expect((await bulk([teams[2].rid], 'rejected')).status).toBe(200); // again: no event
    expect((await judge(teams[2].rid, 'submitted', utrs[2]!)).status).toBe(200); // not a judgement: no event
    expect(await events(t.id)).toEqual([
      ['payment-verified', teams[0].rid],
      ['payment-verified', teams[1].rid],
      ['payment-rejected', teams[2].rid],
    ]);
  });

  it('a payment sent after the deadline, before any sweep, does not save the place', async () => {
    const { t, placed, waitlisted } = await tournament(2, 1);
    clock.advance(6 * HOUR);
    const late = await pay(t.id, placed[0]!);
    expect(late.status).toBe(409);
    expect(late.body.message).toBe('Your team no longer has a place in this tournament.');
    expect(await myTeam(t.id, placed[0]!)).toMatchObject({ place: 'released', paymentStatus: 'pending' });
    expect((await myTeam(t.id, waitlisted[0]!)).place).toBe('placed');
  });

  it('a submitted payment past the deadline may still correct its reference', async () => {
    const { t, placed } = await tournament(2, 0);
    expect((await pay(t.id, placed[0]!)).status).toBe(200);
    clock.advance(7 * HOUR);
    const fixed = await pay(t.id, placed[0]!);
    expect(fixed.status).toBe(200);
    expect(fixed.body).toMatchObject({ place: 'placed', paymentStatus: 'submitted' });
  });

  it('an overdue team cannot edit its team: it is released first', async () => {
    const { t, placed } = await tournament(2, 0);
    clock.advance(6 * HOUR);
    const res = await gw.api.put(`/registrations/${t.id}`, teamFields(), placed[0]!.token);
    expect(res.status).toBe(409);
    expect(res.body.message).toBe('Your team no longer has a place in this tournament.');
  });

  it('my tournaments shows a waitlisted team promoted into an overdue place (lazy release on that read too)', async () => {
    const { t, waitlisted } = await tournament(2, 1);
    clock.advance(6 * HOUR);
    const mine = (await gw.api.get('/registrations/user', waitlisted[0]!.token)).body;
    expect(mine.find((r: any) => r.tid === t.id)).toMatchObject({ place: 'placed', waitlistPosition: null });
  });

  it('the public registeredTeams follows a lazy release (its cache is told)', async () => {
    const { t } = await tournament(2, 0);
    expect((await gw.api.get(`/tournaments/${t.id}`)).body.registeredTeams).toBe(2);
    clock.advance(6 * HOUR);
    expect((await adminList(t.id)).map((r: any) => r.place)).toEqual(['released', 'released']);
    expect((await gw.api.get(`/tournaments/${t.id}`)).body.registeredTeams).toBe(0);
    expect((await gw.api.get('/tournaments')).body.find((x: any) => x.id === t.id)?.registeredTeams ?? 0).toBe(0);
  });

  it('a cancelled tournament releases nobody and tells nobody when deadlines pass', async () => {
    const { t, placed, update } = await tournament(2, 1);
    expect((await update({ status: 'Cancelled' })).status).toBe(200);
    clock.advance(7 * HOUR);
    expect(await sweepDeadlines(gw.app.store, clock.now(), [t.id])).toBe(0);
    expect((await myTeam(t.id, placed[0]!)).place).toBe('placed');
    expect(await events(t.id)).toEqual([]);
  });

  it('withdrawing a waitlisted team moves the waitlist up and promotes nobody', async () => {
    const { t, waitlisted } = await tournament(2, 3);
    const res = await gw.api.post(`/registrations/${t.id}/withdraw`, {}, waitlisted[0]!.token);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ place: 'withdrawn', paid: false, waitlistPosition: null, payBy: null });
    expect((await myTeam(t.id, waitlisted[1]!)).waitlistPosition).toBe(1);
    expect((await myTeam(t.id, waitlisted[2]!)).waitlistPosition).toBe(2);
    expect((await gw.api.get(`/tournaments/${t.id}`)).body.registeredTeams).toBe(2);
    expect((await adminList(t.id)).map((r: any) => [r.place, r.waitlistPosition])).toEqual([
      ['placed', null],
      ['placed', null],
      ['withdrawn', null],
      ['waitlist', 1],
      ['waitlist', 2],
    ]);
    expect(await events(t.id)).toEqual([]);
  });

  it('a waitlisted team may leave the waitlist after registration closes, until the tournament is over; a placed team may not', async () => {
    const withdraw = (tid: number, user: TestUser) => gw.api.post(`/registrations/${tid}/withdraw`, {}, user.token);
    const CLOSED = 'Registration has closed: the team can no longer withdraw. Contact the organiser.';

    // Registration closes by time (status still Registration Ongoing).
    const registrationClose = new Date(clock.now() + HOUR).toISOString();
    const byTime = await tournament(2, 3, { registrationClose });
    clock.advance(2 * HOUR);
    const placedLate = await withdraw(byTime.t.id, byTime.placed[0]!);
    expect(placedLate.status).toBe(409);
    expect(placedLate.body.message).toBe(CLOSED);
    const left = await withdraw(byTime.t.id, byTime.waitlisted[0]!);
    expect(left.status, JSON.stringify(left.body)).toBe(200);
    expect(left.body).toMatchObject({ place: 'withdrawn', paid: false, waitlistPosition: null, payBy: null });
    expect((await myTeam(byTime.t.id, byTime.waitlisted[1]!)).waitlistPosition).toBe(1);
    expect((await myTeam(byTime.t.id, byTime.placed[0]!)).place).toBe('placed');

    // By status: Registration Closed, then Ongoing; nobody is promoted, nobody told.
    const { t, placed, waitlisted, update } = await tournament(2, 3);
    expect((await update({ status: 'Registration Closed' })).status).toBe(200);
    expect((await withdraw(t.id, placed[1]!)).body.message).toBe(CLOSED);
    expect((await withdraw(t.id, waitlisted[0]!)).status).toBe(200);
    expect((await update({ status: 'Ongoing' })).status).toBe(200);
    expect((await withdraw(t.id, placed[1]!)).status).toBe(409);
    expect((await withdraw(t.id, waitlisted[2]!)).status).toBe(200);
    expect((await withdraw(t.id, waitlisted[2]!)).body.message).toBe('Your team has withdrawn from this tournament.');
    expect((await adminList(t.id)).map((r: any) => [r.place, r.waitlistPosition])).toEqual([
      ['placed', null],
      ['placed', null],
      ['withdrawn', null],
      ['waitlist', 1],
      ['withdrawn', null],
    ]);
    expect((await gw.api.get(`/tournaments/${t.id}`)).body.registeredTeams).toBe(2);
    expect(await events(t.id)).toEqual([]);

    // Completed or Cancelled: the waitlist no longer moves, so nobody leaves it either.
    expect((await update({ status: 'Completed' })).status).toBe(200);
    const over = await withdraw(t.id, waitlisted[1]!);
    expect(over.status).toBe(409);
    expect(over.body.message).toBe('The tournament is completed: the team can no longer leave the waitlist.');
    expect((await update({ status: 'Cancelled' })).status).toBe(200);
    expect((await withdraw(t.id, waitlisted[1]!)).body.message).toBe(
      'The tournament is cancelled: the team can no longer leave the waitlist.',
    );
    expect(await myTeam(t.id, waitlisted[1]!)).toMatchObject({ place: 'waitlist', waitlistPosition: 1 });
  });

  it('a team withdraws once; twice is refused and changes nothing; after registering again it may withdraw again', async () => {
    const { t, placed, waitlisted } = await tournament(2, 2);
    const both = await Promise.all([1, 2].map(() => gw.api.post(`/registrations/${t.id}/withdraw`, {}, placed[0]!.token)));
    expect(both.map((r) => r.status).sort()).toEqual([200, 409]);
    expect(both.find((r) => r.status === 409)!.body.message).toBe('Your team has withdrawn from this tournament.');
    expect((await myTeam(t.id, waitlisted[0]!)).place).toBe('placed');
    expect((await myTeam(t.id, waitlisted[1]!)).waitlistPosition).toBe(1); // one promotion only
    expect((await events(t.id)).filter(([kind]) => kind === 'promoted')).toHaveLength(1);
    expect((await register(t.id, placed[0]!, { waitlist: true })).body.place).toBe('waitlist');
    expect((await gw.api.post(`/registrations/${t.id}/withdraw`, {}, placed[0]!.token)).status).toBe(200);
    expect((await myTeam(t.id, waitlisted[1]!)).waitlistPosition).toBe(1);
  });

  it("registration answers carry each team's check-in per stage with a window (and none without one)", async () => {
    const { t, placed, waitlisted } = await tournament(3, 1, { entryFee: '0', paymentDeadlineHours: '' });
    const stageWithout = await gw.api.post(`/tournaments/${t.id}/stages`, { name: 'Warm-up' }, admin);
    expect(stageWithout.status).toBe(201);
    expect((await myTeam(t.id, placed[0]!)).checkIns).toBeUndefined(); // no window: the answer as before
    expect((await adminList(t.id)).every((r: any) => r.checkIns === undefined)).toBe(true);

    // A window on the first stage.
    const opensAt = new Date(clock.now() + HOUR).toISOString();
    const closesAt = new Date(clock.now() + 2 * HOUR).toISOString();
    const sid = stageWithout.body.id;
    expect(
      (await gw.api.put(`/tournaments/${t.id}/stages/${sid}`, { checkInOpensAt: opensAt, checkInClosesAt: closesAt }, admin)).status,
    ).toBe(200);
    const window = { stageId: sid, stageName: 'Warm-up', opensAt, closesAt };
    expect((await myTeam(t.id, placed[0]!)).checkIns).toEqual([{ ...window, state: 'not-open', checkedInAt: null }]);
    expect((await myTeam(t.id, waitlisted[0]!)).checkIns).toBeUndefined(); // not among the stage's teams

    clock.advance(HOUR);
    expect((await myTeam(t.id, placed[1]!)).checkIns).toEqual([{ ...window, state: 'open', checkedInAt: null }]);
    const done = await gw.api.post(`/tournaments/${t.id}/stages/${sid}/check-in`, {}, placed[0]!.token);
    expect(done.status).toBe(200);
    const checked = await myTeam(t.id, placed[0]!);
    expect(checked.checkIns).toEqual([{ ...window, state: 'checked-in', checkedInAt: done.body.checkedInAt }]);
    expect(placeWords({ ...checked, checkIn: checked.checkIns[0].state })).toBe('checked in');

    clock.advance(HOUR);
    const missed = await myTeam(t.id, placed[1]!);
    expect(missed.checkIns[0].state).toBe('no-show');
    expect(placeWords({ ...missed, checkIn: missed.checkIns[0].state })).toBe('no-show');
    const mine = (await gw.api.get('/registrations/user', placed[1]!.token)).body.find((r: any) => r.tid === t.id);
    expect(mine.checkIns).toEqual(missed.checkIns);
    const list = await adminList(t.id);
    expect(list.map((r: any) => r.checkIns?.[0].state ?? null)).toEqual(['checked-in', 'no-show', 'no-show', null]);

    // Replacing the no-shows: they are released (no check-ins any more), the promoted team counts as checked in.
    expect((await gw.api.post(`/tournaments/${t.id}/stages/${sid}/no-shows`, { action: 'replace' }, admin)).status).toBe(200);
    expect((await myTeam(t.id, placed[1]!)).checkIns).toBeUndefined();
    expect((await myTeam(t.id, waitlisted[0]!)).checkIns).toEqual([
      { ...window, state: 'checked-in', checkedInAt: new Date(clock.now()).toISOString() },
    ]);
  });

  it('once the stage is drawn, the teams in its groups check in, and a team placed after the draw does not', async () => {
    const { t, placed, waitlisted } = await tournament(3, 1, { entryFee: '0', paymentDeadlineHours: '' });
    const opensAt = new Date(clock.now() + HOUR).toISOString();
    const closesAt = new Date(clock.now() + 2 * HOUR).toISOString();
    const stage = await gw.api.post(`/tournaments/${t.id}/stages`, { name: 'Qualifiers', lobbySize: 3 }, admin);
    expect(stage.status, JSON.stringify(stage.body)).toBe(201);
    const drawn = await gw.api.post(`/tournaments/${t.id}/stages/${stage.body.id}/groups`, { method: 'registration' }, admin);
    expect(drawn.status, JSON.stringify(drawn.body)).toBe(200);
    // The window is set after the draw (with one before it, only the teams checked in are drawn).
    const windowSet = await gw.api.put(
      `/tournaments/${t.id}/stages/${stage.body.id}`,
      { checkInOpensAt: opensAt, checkInClosesAt: closesAt },
      admin,
    );
    expect(windowSet.status, JSON.stringify(windowSet.body)).toBe(200);
    // The first team leaves; the waitlisted one takes its place, after the draw: in no group.
    expect((await gw.api.post(`/registrations/${t.id}/withdraw`, {}, placed[0]!.token)).status).toBe(200);
    expect((await myTeam(t.id, waitlisted[0]!)).place).toBe('placed');
    const window = { stageId: stage.body.id, stageName: 'Qualifiers', opensAt, closesAt };
    expect((await myTeam(t.id, placed[1]!)).checkIns).toEqual([{ ...window, state: 'not-open', checkedInAt: null }]);
    expect((await myTeam(t.id, waitlisted[0]!)).checkIns).toBeUndefined();
    // The stage's own list agrees: the drawn teams still placed, not the late one.
    const list = await gw.api.get(`/tournaments/${t.id}/stages/${stage.body.id}/check-ins`, admin);
    expect(list.status).toBe(200);
    expect(list.body.teams.map((x: { teamId: number }) => x.teamId).sort()).toEqual(
      (await adminList(t.id))
        .filter((r: any) => r.checkIns)
        .map((r: any) => r.rid)
        .sort(),
    );
  });

  it('a released team cannot check in', async () => {
    const { t, placed } = await tournament(2, 0, { entryFee: '0', paymentDeadlineHours: '' });
    const stage = await gw.api.post(
      `/tournaments/${t.id}/stages`,
      {
        name: 'Qualifiers',
        checkInOpensAt: new Date(clock.now()).toISOString(),
        checkInClosesAt: new Date(clock.now() + HOUR).toISOString(),
      },
      admin,
    );
    const team = await myTeam(t.id, placed[0]!);
    expect((await gw.api.post(`/registrations/admin/${team.rid}/remove`, {}, admin)).status).toBe(200);
    const res = await gw.api.post(`/tournaments/${t.id}/stages/${stage.body.id}/check-in`, {}, placed[0]!.token);
    expect(res.status).toBe(409);
    expect(res.body.message).toBe('Your team no longer has a place in this tournament.');
    expect((await gw.api.post(`/tournaments/${t.id}/stages/${stage.body.id}/check-in`, {}, placed[1]!.token)).status).toBe(200);
  });
});
