import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { placeWords } from '@custom-room/contract';
import { FakeClock } from '../../gateway/src/lib/clock.js';
import { sweepDeadlines } from '../../gateway/src/services/places/sweep.js';
import {
  adminToken,
  createTournament,
  createUser,
  dialectName,
  isoIn,
  startGateway,
  teamFields,
  toForm,
  tournamentFields,
  uniqueUtr,
  type TestGateway,
  type TestUser,
} from './helpers.js';

const HOUR = 3_600_000;

// Issue 19, decision 043: a team's place, its payment deadline, the waitlist, withdrawal and check-in,
// every transition with the gateway's clock moved by the test.
describe(`the slot's life (${dialectName})`, () => {
  let gw: TestGateway;
  let admin: string;
  const clock = new FakeClock();

  beforeAll(async () => {
    gw = await startGateway({ PAYMENT_SWEEP_INTERVAL_MS: String(24 * HOUR) }, undefined, { clock });
    admin = await adminToken(gw.api);
  });
  afterAll(() => gw.stop());

  const register = (tid: number, user: TestUser, extra: Record<string, unknown> = {}, team = teamFields()) =>
    gw.api.post(`/registrations/${tid}`, { ...team, ...extra }, user.token);
  const myTeam = async (tid: number, user: TestUser) => (await gw.api.get(`/registrations/${tid}`, user.token)).body;
  const events = async (tid: number) =>
    (await gw.app.store.db.selectFrom('notification_events').selectAll().where('tournament_id', '=', tid).orderBy('id').execute()).map(
      (e) => ({ kind: e.kind, audience: JSON.parse(e.audience), created: e.created_at }),
    );
  async function fullTournament(maxTeams: number, overrides: Record<string, string> = {}) {
    const t = await createTournament(gw.api, admin, {
      maxTeams: String(maxTeams),
      entryFee: '100',
      paymentDeadlineHours: '6',
      ...overrides,
    });
    const users: TestUser[] = [];
    for (let i = 0; i < maxTeams; i++) {
      const u = await createUser(gw.api);
      expect((await register(t.id, u)).status).toBe(201);
      users.push(u);
    }
    return { t, users };
  }

  it('stores the payment deadline on the tournament and gives placed teams their payBy', async () => {
    const t = await createTournament(gw.api, admin, { entryFee: '100', paymentDeadlineHours: '6' });
    expect(t.paymentDeadlineHours).toBe(6);
    expect(t.paymentDeadlineAt).toBeUndefined();
    const u = await createUser(gw.api);
    const res = await register(t.id, u);
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ place: 'placed', confirmed: false, waitlistPosition: null, releasedReason: null });
    expect(Date.parse(res.body.payBy)).toBe(clock.now() + 6 * HOUR);
    expect(placeWords(res.body, () => '21:00')).toBe('pending payment (pay by 21:00)');
  });

  it('refuses both kinds of deadline at once, naming the field', async () => {
    const form = toForm(tournamentFields({ entryFee: '100', paymentDeadlineHours: '6', paymentDeadlineAt: isoIn(2) }));
    const res = await gw.api.request('POST', '/tournaments/add', { token: admin, form });
    expect(res.status).toBe(400);
    expect(res.body.errors.paymentDeadlineAt).toMatch(/not both/);
  });

  it('a free tournament has no deadline and its teams are confirmed', async () => {
    const t = await createTournament(gw.api, admin, { entryFee: '0', paymentDeadlineHours: '6' });
    const res = await register(t.id, await createUser(gw.api));
    expect(res.body).toMatchObject({ place: 'placed', confirmed: true, payBy: null });
    expect(placeWords(res.body)).toBe('confirmed');
  });

  it('a tournament without the new settings answers as before when full', async () => {
    const t = await createTournament(gw.api, admin, { maxTeams: '2' });
    for (let i = 0; i < 2; i++) expect((await register(t.id, await createUser(gw.api))).status).toBe(201);
    const full = await register(t.id, await createUser(gw.api));
    expect(full.status).toBe(409);
    expect(full.body).toEqual({ message: 'Registration is full.' });
  });

  it('deadline passes -> released (lazily on read) -> first waitlisted promoted with its own deadline', async () => {
    const { t, users } = await fullTournament(2);
    const [w1, w2] = [await createUser(gw.api), await createUser(gw.api)];
    const j1 = await register(t.id, w1, { waitlist: true });
    const j2 = await register(t.id, w2, { waitlist: 'true' });
    expect(j1.status).toBe(201);
    expect(j1.body).toMatchObject({ place: 'waitlist', waitlistPosition: 1, payBy: null, placedAt: null });
    expect(j2.body.waitlistPosition).toBe(2);
    expect(placeWords(j2.body)).toBe('waitlist #2');
    expect((await gw.api.get(`/tournaments/${t.id}`)).body.registeredTeams).toBe(2);

    // Team 0 pays and is verified; team 1 does nothing.
    const utr = uniqueUtr();
    await gw.api.post(`/registrations/${t.id}/payment`, { upiReference: utr }, users[0]!.token);
    const mine = await myTeam(t.id, users[0]!);
    expect(
      (await gw.api.put(`/registrations/admin/${mine.rid}/payment`, { paymentStatus: 'verified', expectedUpiReference: utr }, admin))
        .status,
    ).toBe(200);

    clock.advance(6 * HOUR - 1);
    expect((await myTeam(t.id, users[1]!)).place).toBe('placed');
    clock.advance(1);
    const released = await myTeam(t.id, users[1]!); // the read releases it: never shown as placed once overdue
    expect(released).toMatchObject({ place: 'released', releasedReason: 'payment-deadline', payBy: null });
    expect(placeWords(released)).toBe('released (payment not verified in time)');
    expect((await myTeam(t.id, users[0]!)).place).toBe('placed'); // verified: kept

    const promoted = await myTeam(t.id, w1);
    expect(promoted).toMatchObject({ place: 'placed', waitlistPosition: null, placedAt: new Date(clock.now()).toISOString() });
    expect(Date.parse(promoted.payBy)).toBe(clock.now() + 6 * HOUR);
    expect((await myTeam(t.id, w2)).waitlistPosition).toBe(1);

    const kinds = (await events(t.id)).map((e) => [e.kind, e.audience.registrations[0]]);
    expect(kinds).toEqual([
      ['payment-verified', mine.rid],
      ['released', released.rid],
      ['promoted', promoted.rid],
    ]);
    // The released captain may register again (the waitlist is ahead: it joins it), with the same team name.
    const again = await register(t.id, users[1]!, { waitlist: true }, { ...teamFields(), teamName: released.teamName });
    expect(again.status).toBe(201);
    expect(again.body).toMatchObject({ place: 'waitlist', waitlistPosition: 2 });
  });

  it('the sweep releases overdue teams without a read, and never a submitted payment', async () => {
    const { t, users } = await fullTournament(2);
    const waiting = await createUser(gw.api);
    await register(t.id, waiting, { waitlist: true });
    await gw.api.post(`/registrations/${t.id}/payment`, { upiReference: uniqueUtr() }, users[0]!.token);
    clock.advance(7 * HOUR);
    expect(await sweepDeadlines(gw.app.store, clock.now(), [t.id])).toBe(1);
    expect(await sweepDeadlines(gw.app.store, clock.now(), [t.id])).toBe(0); // twice is once
    const list = (await gw.api.get(`/registrations/tournament/${t.id}`, admin)).body;
    expect(list.map((r: any) => [r.place, r.paymentStatus, r.listOrder])).toEqual([
      ['placed', 'submitted', 0],
      ['released', 'pending', 4],
      ['placed', 'pending', 1],
    ]);
    expect(placeWords(list[0])).toBe('payment submitted');
    // Rejected after its deadline: the next read releases it (the deadline had only waited for the check).
    const rejected = await gw.api.put(
      `/registrations/admin/${list[0].rid}/payment`,
      { paymentStatus: 'rejected', expectedUpiReference: list[0].paymentReference },
      admin,
    );
    expect(rejected.status).toBe(200);
    const after = (await gw.api.get(`/registrations/tournament/${t.id}`, admin)).body;
    expect(after[0]).toMatchObject({ place: 'released', releasedReason: 'payment-deadline' });
    // The UTR stays claimed by the released team.
    const claim = await gw.app.store.db.selectFrom('registrations').select('payment_utr').where('id', '=', list[0].rid).executeTakeFirst();
    expect(claim?.payment_utr).toBe(list[0].paymentReference);

    // The promoted team pays, the organiser rejects it and releases the team at once.
    const utr = uniqueUtr();
    expect((await gw.api.post(`/registrations/${t.id}/payment`, { upiReference: utr }, waiting.token)).status).toBe(200);
    const rid = after[2].rid;
    await gw.api.put(`/registrations/admin/${rid}/payment`, { paymentStatus: 'rejected', expectedUpiReference: utr }, admin);
    const release = await gw.api.post(`/registrations/admin/${rid}/release`, {}, admin);
    expect(release.status).toBe(200);
    expect(release.body).toMatchObject({ place: 'released', releasedReason: 'payment-rejected' });
    expect(placeWords(release.body)).toBe('released (payment rejected)');
    expect((await gw.api.post(`/registrations/admin/${rid}/release`, {}, admin)).status).toBe(409);
    expect((await gw.api.get(`/tournaments/${t.id}`)).body.registeredTeams).toBe(0);
    expect((await events(t.id)).map((e) => e.kind)).toEqual([
      'released',
      'promoted',
      'payment-rejected',
      'released',
      'payment-rejected',
      'released',
    ]);
  });

  it('withdrawal frees the place, the name and the IGNs; says whether the team had paid; closes with registration', async () => {
    const registrationClose = new Date(clock.now() + 2 * HOUR).toISOString();
    const { t, users } = await fullTournament(2, { entryFee: '0', paymentDeadlineHours: '', registrationClose });
    const waiting = await createUser(gw.api);
    await register(t.id, waiting, { waitlist: true });
    const before = await myTeam(t.id, users[0]!);
    const res = await gw.api.post(`/registrations/${t.id}/withdraw`, {}, users[0]!.token);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ place: 'withdrawn', paid: false, confirmed: false });
    expect(placeWords(res.body)).toBe('withdrawn');
    expect((await myTeam(t.id, waiting)).place).toBe('placed');
    expect((await gw.api.post(`/registrations/${t.id}/withdraw`, {}, users[0]!.token)).status).toBe(409);
    // The same name and players register again, as a new team on the waitlist (the tournament is full).
    const again = await register(t.id, users[0]!, { waitlist: true }, before);
    expect(again.status).toBe(201);
    expect(again.body.place).toBe('waitlist');
    const list = (await gw.api.get(`/registrations/tournament/${t.id}`, admin)).body;
    expect(list.map((r: any) => r.place)).toEqual(['withdrawn', 'placed', 'placed', 'waitlist']);

    clock.set(Date.parse(t.registrationClose) + 1);
    const late = await gw.api.post(`/registrations/${t.id}/withdraw`, {}, users[1]!.token);
    expect(late.status).toBe(409);
    expect(late.body.message).toMatch(/Registration has closed/);
  });

  it('the organiser removes a verified team; its place goes to the waitlist', async () => {
    const { t, users } = await fullTournament(2, { entryFee: '0', paymentDeadlineHours: '' });
    const waiting = await createUser(gw.api);
    await register(t.id, waiting, { waitlist: true });
    const team = await myTeam(t.id, users[0]!);
    expect((await gw.api.post(`/registrations/admin/${team.rid}/release`, {}, admin)).status).toBe(409); // confirmed: remove instead
    const removed = await gw.api.post(`/registrations/admin/${team.rid}/remove`, {}, admin);
    expect(removed.body).toMatchObject({ place: 'released', releasedReason: 'removed' });
    expect((await myTeam(t.id, waiting)).place).toBe('placed');
    expect((await gw.api.post(`/registrations/admin/${team.rid}/remove`, {}, users[0]!.token)).status).toBe(403);
  });

  it('check-in: window open and closed, no-shows replaced from the waitlist, the draw uses checked-in teams', async () => {
    const { t, users } = await fullTournament(3, { entryFee: '0', paymentDeadlineHours: '' });
    const waiting = await createUser(gw.api);
    await register(t.id, waiting, { waitlist: true });
    const opensAt = new Date(clock.now() + HOUR).toISOString();
    const closesAt = new Date(clock.now() + 2 * HOUR).toISOString();
    const stage = await gw.api.post(
      `/tournaments/${t.id}/stages`,
      { name: 'Qualifiers', checkInOpensAt: opensAt, checkInClosesAt: closesAt },
      admin,
    );
    expect(stage.status).toBe(201);
    expect(stage.body.checkIn).toEqual({ opensAt, closesAt, noShows: null });
    const sid = stage.body.id;
    const checkIn = (u: TestUser) => gw.api.post(`/tournaments/${t.id}/stages/${sid}/check-in`, {}, u.token);

    expect((await checkIn(users[0]!)).status).toBe(409); // not open yet
    clock.advance(HOUR);
    const first = await checkIn(users[0]!);
    expect(first.status).toBe(200);
    expect((await checkIn(users[0]!)).body).toEqual(first.body); // once
    expect((await checkIn(users[1]!)).status).toBe(200);
    expect((await checkIn(waiting)).status).toBe(409); // waitlisted: not confirmed
    expect((await gw.api.post(`/tournaments/${t.id}/stages/${sid}/no-shows`, { action: 'leave' }, admin)).status).toBe(409); // still open
    clock.advance(HOUR);
    expect((await checkIn(users[2]!)).status).toBe(409); // closed

    const list = (await gw.api.get(`/tournaments/${t.id}/stages/${sid}/check-ins`, admin)).body;
    expect(list.closed).toBe(true);
    expect(list.teams.map((x: any) => x.state)).toEqual(['checked-in', 'checked-in', 'no-show']);

    const replaced = await gw.api.post(`/tournaments/${t.id}/stages/${sid}/no-shows`, { action: 'replace' }, admin);
    expect(replaced.status).toBe(200);
    expect(replaced.body.noShows).toBe('replace');
    expect(replaced.body.teams.map((x: any) => x.state)).toEqual(['checked-in', 'checked-in', 'checked-in']);
    expect(await myTeam(t.id, users[2]!)).toMatchObject({ place: 'released', releasedReason: 'no-show' });
    expect((await myTeam(t.id, waiting)).place).toBe('placed');
    expect((await gw.api.post(`/tournaments/${t.id}/stages/${sid}/no-shows`, { action: 'leave' }, admin)).status).toBe(409); // once

    const drawn = await gw.api.post(`/tournaments/${t.id}/stages/${sid}/groups`, { method: 'registration' }, admin);
    expect(drawn.status).toBe(200);
    const slotted = drawn.body.groups.flatMap((g: any) => g.slots.map((s: any) => s.teamId)).sort();
    const expected = [users[0]!, users[1]!, waiting].map(async (u) => (await myTeam(t.id, u)).rid);
    expect(slotted).toEqual((await Promise.all(expected)).sort());
  });
});
