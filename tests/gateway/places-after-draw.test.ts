import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REGISTRATION_CLOSED_AFTER_DRAW } from '@custom-room/contract';
import { FakeClock } from '../../gateway/src/lib/clock.js';
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

// Issue 27, decision 052: places after the draw (item 2), a released team's character IDs (item 9), and a
// removed team that tries to come back (item 18). Over HTTP, with the gateway's clock held by the test.
describe(`places after the draw (${dialectName})`, () => {
  let gw: TestGateway;
  let admin: string;
  const clock = new FakeClock();

  beforeAll(async () => {
    gw = await startGateway({ PAYMENT_SWEEP_INTERVAL_MS: String(24 * HOUR) }, undefined, { clock });
    admin = await adminToken(gw.api);
  });
  afterAll(() => gw.stop());

  const register = (tid: number, user: TestUser, extra: Record<string, unknown> = {}, team: Record<string, unknown> = teamFields()) =>
    gw.api.post(`/registrations/${tid}`, { ...team, ...extra }, user.token);
  const myTeam = async (tid: number, user: TestUser) => (await gw.api.get(`/registrations/${tid}`, user.token)).body;
  const kinds = async (tid: number) =>
    (await gw.app.store.db.selectFrom('notification_events').select(['kind']).where('tournament_id', '=', tid).orderBy('id').execute()).map(
      (e) => e.kind,
    );
  const stageUrl = (tid: number, sid: number) => `/tournaments/${tid}/stages/${sid}`;

  /** A tournament with `placed` teams (paid and verified when it has a fee) and `waiting` waitlisted ones. */
  async function tournament(placed: number, waiting: number, overrides: Record<string, string> = {}) {
    const fields = tournamentFields({ maxTeams: String(placed), entryFee: '50', paymentDeadlineHours: '6', ...overrides });
    const res = await gw.api.request('POST', '/tournaments/add', { token: admin, form: toForm(fields) });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const tid = res.body.id as number;
    const users: TestUser[] = [];
    const waitlisted: TestUser[] = [];
    for (let i = 0; i < placed + waiting; i++) {
      const u = await createUser(gw.api);
      expect((await register(tid, u, { waitlist: true })).status).toBe(201);
      (i < placed ? users : waitlisted).push(u);
    }
    if (Number(fields.entryFee) > 0) for (const u of users) await payAndVerify(tid, u);
    const update = (changes: Record<string, string>) =>
      gw.api.request('PUT', `/tournaments/admin/update/${tid}`, { token: admin, form: toForm({ ...fields, ...changes }) });
    return { tid, users, waitlisted, update };
  }

  async function payAndVerify(tid: number, user: TestUser) {
    const utr = uniqueUtr();
    const sent = await gw.api.post(`/registrations/${tid}/payment`, { upiReference: utr }, user.token);
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    const judged = await gw.api.put(
      `/registrations/admin/${sent.body.rid}/payment`,
      { paymentStatus: 'verified', expectedUpiReference: utr },
      admin,
    );
    expect(judged.status).toBe(200);
  }

  /** A first stage of lobby 2 drawn in registration order (and published unless asked not to). */
  async function drawnStage(tid: number, { publish = true } = {}) {
    const stage = (await gw.api.post(`/tournaments/${tid}/stages`, { name: 'Qualifiers', lobbySize: 2, advancePerGroup: 1 }, admin)).body;
    const drawn = await gw.api.post(`${stageUrl(tid, stage.id)}/groups`, { method: 'registration' }, admin);
    expect(drawn.status, JSON.stringify(drawn.body)).toBe(200);
    if (publish) expect((await gw.api.post(`${stageUrl(tid, stage.id)}/publish`, {}, admin)).status).toBe(200);
    return (await gw.api.get(`/tournaments/${tid}/stages`, admin)).body.find((s: { id: number }) => s.id === stage.id);
  }

  describe('item 2: the draw closes registration, places stop moving, empty slots are filled by the organiser', () => {
    it('registration and the waitlist stay open while the stage is a draft and close once it is published', async () => {
      const { tid } = await tournament(2, 0, { entryFee: '0' });
      await drawnStage(tid, { publish: false });
      // Drawn but not published: the organiser may still take teams (the waitlist, here).
      expect((await register(tid, await createUser(gw.api), { waitlist: true })).body.place).toBe('waitlist');
      const sid = (await gw.api.get(`/tournaments/${tid}/stages`, admin)).body[0].id;
      expect((await gw.api.post(`${stageUrl(tid, sid)}/publish`, {}, admin)).status).toBe(200);

      for (const extra of [{}, { waitlist: true }]) {
        const res = await register(tid, await createUser(gw.api), extra);
        expect(res.status).toBe(409);
        expect(res.body.message).toBe(REGISTRATION_CLOSED_AFTER_DRAW);
      }
    });

    it('after publish a withdrawal, a removal or a raised Max Teams promotes nobody and asks nobody to pay', async () => {
      const { tid, users, waitlisted, update } = await tournament(4, 2);
      await drawnStage(tid);
      const before = (await kinds(tid)).length;

      const withdrawn = await gw.api.post(`/registrations/${tid}/withdraw`, {}, users[0]!.token);
      expect(withdrawn.status, JSON.stringify(withdrawn.body)).toBe(200);
      const removed = await gw.api.post(`/registrations/admin/${(await myTeam(tid, users[1]!)).rid}/remove`, {}, admin);
      expect(removed.status).toBe(200);
      expect((await update({ maxTeams: '6' })).status).toBe(200);

      for (const [i, u] of waitlisted.entries()) {
        expect(await myTeam(tid, u)).toMatchObject({ place: 'waitlist', waitlistPosition: i + 1, payBy: null });
        const payment = await gw.api.post(`/registrations/${tid}/payment`, { upiReference: uniqueUtr() }, u.token);
        expect(payment.status).toBe(409);
      }
      expect((await kinds(tid)).slice(before)).toEqual(['released']); // the removed team is told; nobody is promoted
    });

    it('a drawn team that withdraws leaves its slot empty; the organiser fills it from the waitlist and the team is told', async () => {
      const { tid, users, waitlisted } = await tournament(4, 1);
      const stage = await drawnStage(tid);
      await gw.app.notifier.runOnce(); // the publication's news goes out before anything else happens
      const leaver = await myTeam(tid, users[0]!);
      const groupA = stage.groups.find((g: { name: string }) => g.name === 'A');
      expect(groupA.slots.map((s: { teamId: number }) => s.teamId)).toContain(leaver.rid);
      const leaverSlot = groupA.slots.find((s: { teamId: number }) => s.teamId === leaver.rid).slot;

      expect((await gw.api.post(`/registrations/${tid}/withdraw`, {}, users[0]!.token)).status).toBe(200);
      const after = (await gw.api.get(`/tournaments/${tid}/stages`)).body[0];
      expect(after.groups.find((g: { name: string }) => g.name === 'A').slots.map((s: { teamId: number }) => s.teamId)).not.toContain(
        leaver.rid,
      );
      expect((await myTeam(tid, users[0]!)).placements).toBeUndefined();

      const empty = await gw.api.get(`${stageUrl(tid, stage.id)}/empty-slots`, admin);
      expect(empty.status).toBe(200);
      expect(empty.body.slots).toEqual([{ groupId: groupA.id, groupName: 'A', slot: leaverSlot }]);
      const waiting = await myTeam(tid, waitlisted[0]!);
      expect(empty.body.teams).toEqual([
        { teamId: waiting.rid, teamName: waiting.teamName, from: 'waitlist', waitlistPosition: 1, confirmed: false },
      ]);

      clock.advance(HOUR);
      const filled = await gw.api.post(
        `${stageUrl(tid, stage.id)}/empty-slots`,
        { groupId: groupA.id, slot: leaverSlot, teamId: waiting.rid },
        admin,
      );
      expect(filled.status, JSON.stringify(filled.body)).toBe(200);
      expect(filled.body.groups.find((g: { name: string }) => g.name === 'A').slots).toContainEqual({
        slot: leaverSlot,
        teamId: waiting.rid,
        teamName: waiting.teamName,
      });
      const seated = await myTeam(tid, waitlisted[0]!);
      expect(seated).toMatchObject({ place: 'placed', confirmed: false, placedAt: new Date(clock.now()).toISOString() });
      expect(Date.parse(seated.payBy)).toBe(clock.now() + 6 * HOUR); // seated by the organiser: it pays to play, as any placed team
      expect(seated.placements).toEqual([expect.objectContaining({ stageName: 'Qualifiers', groupName: 'A', slot: leaverSlot })]);
      expect((await gw.api.get(`${stageUrl(tid, stage.id)}/empty-slots`, admin)).body).toEqual({ slots: [], teams: [] });

      await gw.app.notifier.runOnce();
      const lines = (await gw.api.get('/notifications?limit=100', waitlisted[0]!.token)).body.items.filter(
        (n: { tournamentId: number }) => n.tournamentId === tid,
      );
      expect(lines.map((l: { kind: string }) => l.kind)).toEqual(['seated']);
      expect(lines[0].title).toBe('Qualifiers: your group and slot');
      expect(lines[0].body).toMatch(
        new RegExp(`^${waiting.teamName} has a place in Group A, slot ${leaverSlot} of Qualifiers, .*\\. Pay by .* to play\\.$`),
      );
    });

    it('fills an empty slot with a confirmed team that has no slot, never with one that has not paid', async () => {
      const { tid, users } = await tournament(4, 0, { maxTeams: '5' });
      const late = await createUser(gw.api);
      const lateTeam = (await register(tid, late)).body; // placed, not paid at the draw: not an entrant
      const stage = await drawnStage(tid);
      const removedRid = (await myTeam(tid, users[3]!)).rid;
      const groupB = stage.groups.find((g: { name: string }) => g.name === 'B');
      const slot = groupB.slots.find((s: { teamId: number }) => s.teamId === removedRid).slot;
      expect((await gw.api.post(`/registrations/admin/${removedRid}/remove`, {}, admin)).status).toBe(200);

      const fill = () => gw.api.post(`${stageUrl(tid, stage.id)}/empty-slots`, { groupId: groupB.id, slot, teamId: lateTeam.rid }, admin);
      expect((await gw.api.get(`${stageUrl(tid, stage.id)}/empty-slots`, admin)).body.teams).toEqual([]);
      const unpaid = await fill();
      expect(unpaid.status).toBe(409);
      expect(unpaid.body.errors.teamId).toBe(`${lateTeam.teamName} has not paid: verify its payment before seating it.`);

      await payAndVerify(tid, late);
      expect((await gw.api.get(`${stageUrl(tid, stage.id)}/empty-slots`, admin)).body.teams).toEqual([
        { teamId: lateTeam.rid, teamName: lateTeam.teamName, from: 'unseated', waitlistPosition: null, confirmed: true },
      ]);
      expect((await fill()).status).toBe(200);
      expect((await myTeam(tid, late)).placements).toEqual([expect.objectContaining({ groupName: 'B', slot })]);
      expect((await kinds(tid)).at(-1)).toBe('seated');
    });

    it('refuses a taken slot, a slot outside the lobby, a team already seated, a gone team, a full tournament, a draft stage and non-admins', async () => {
      const { tid, users, waitlisted } = await tournament(4, 2, { entryFee: '0' });
      const draft = await drawnStage(tid, { publish: false });
      const [a, b] = draft.groups;
      const fill = (body: Record<string, unknown>, token = admin) => gw.api.post(`${stageUrl(tid, draft.id)}/empty-slots`, body, token);
      const w0 = await myTeam(tid, waitlisted[0]!);
      expect((await fill({ groupId: a.id, slot: 1, teamId: w0.rid })).status).toBe(409); // a draft is drawn again instead
      expect((await gw.api.get(`${stageUrl(tid, draft.id)}/empty-slots`, admin)).status).toBe(409);
      expect((await gw.api.post(`${stageUrl(tid, draft.id)}/publish`, {}, admin)).status).toBe(200);

      const taken = await fill({ groupId: a.id, slot: a.slots[0].slot, teamId: w0.rid });
      expect(taken.status).toBe(409);
      expect(taken.body.errors.slot).toBe(`Slot ${a.slots[0].slot} of Group A is taken by ${a.slots[0].teamName}.`);
      const outside = await fill({ groupId: a.id, slot: 3, teamId: w0.rid });
      expect(outside.status).toBe(400);
      expect(outside.body.errors.slot).toBe('Slots of Qualifiers are 1 to 2.');

      // Team 1 withdraws: slot free. A seated team cannot take it twice; nor can a team of another tournament.
      const leaver = await myTeam(tid, users[0]!);
      expect((await gw.api.post(`/registrations/${tid}/withdraw`, {}, users[0]!.token)).status).toBe(200);
      const free = { groupId: a.id, slot: a.slots.find((s: { teamId: number }) => s.teamId === leaver.rid).slot };
      const twice = await fill({ ...free, teamId: b.slots[0].teamId });
      expect(twice.status).toBe(409);
      expect(twice.body.errors.teamId).toBe(`${b.slots[0].teamName} already plays in Group B, slot ${b.slots[0].slot} of Qualifiers.`);
      const gone = await fill({ ...free, teamId: leaver.rid });
      expect(gone.status).toBe(409);
      expect(gone.body.errors.teamId).toMatch(/no longer has a place/);
      const other = await tournament(1, 0, { entryFee: '0', maxTeams: '2' });
      const foreign = await fill({ ...free, teamId: (await myTeam(other.tid, other.users[0]!)).rid });
      expect(foreign.status).toBe(400);
      expect(foreign.body.errors.teamId).toBe('This team is not registered in the tournament.');
      const player = await createUser(gw.api);
      expect((await fill({ ...free, teamId: w0.rid }, player.token)).status).toBe(403);

      // A free tournament: the seated waitlisted team is confirmed at once, with no deadline.
      expect((await fill({ ...free, teamId: w0.rid })).status).toBe(200);
      expect(await myTeam(tid, waitlisted[0]!)).toMatchObject({ place: 'placed', confirmed: true, payBy: null });
    });

    it('seats a waitlisted team only within Max Teams', async () => {
      const { tid, users, waitlisted } = await tournament(4, 1, { entryFee: '0' });
      // Lobby 3: two groups of 2, so each group has a free slot 3 while all 4 places are taken.
      const created = (await gw.api.post(`/tournaments/${tid}/stages`, { name: 'Qualifiers', lobbySize: 3 }, admin)).body;
      expect((await gw.api.post(`${stageUrl(tid, created.id)}/groups`, { method: 'registration' }, admin)).status).toBe(200);
      const stage = (await gw.api.post(`${stageUrl(tid, created.id)}/publish`, {}, admin)).body;
      const w = await myTeam(tid, waitlisted[0]!);
      const fill = () =>
        gw.api.post(`${stageUrl(tid, stage.id)}/empty-slots`, { groupId: stage.groups[0].id, slot: 3, teamId: w.rid }, admin);
      const full = await fill();
      expect(full.status).toBe(409);
      expect(full.body.errors.teamId).toBe('All 4 places are taken: raise Max Teams, or seat a confirmed team without a slot.');
      expect((await gw.api.post(`/registrations/${tid}/withdraw`, {}, users[3]!.token)).status).toBe(200);
      expect((await fill()).status).toBe(200);
    });

    it('a team with results in the published stage keeps its slot (its matches stand)', async () => {
      const { tid, users } = await tournament(4, 0, { entryFee: '0' });
      const stage = await drawnStage(tid);
      const a = stage.groups[0];
      const scheduled = await gw.api.post(
        `${stageUrl(tid, stage.id)}/matches`,
        { matches: [{ day: 1, matchNo: 1, map: 'Erangel', time: '18:00' }] },
        admin,
      );
      expect(scheduled.status).toBe(200);
      const results = a.slots.map((s: { teamId: number }, i: number) => ({ teamId: s.teamId, position: i + 1, finishes: 0 }));
      const entered = await gw.api.put(`/tournaments/${tid}/points-table/matches/1/1`, { groupId: a.id, results }, admin);
      expect(entered.status, JSON.stringify(entered.body)).toBeLessThan(300);
      const leaver = await myTeam(tid, users[0]!);
      expect((await gw.api.post(`/registrations/admin/${leaver.rid}/remove`, {}, admin)).status).toBe(200);
      const after = (await gw.api.get(`/tournaments/${tid}/stages`, admin)).body[0];
      expect(after.groups[0].slots.map((s: { teamId: number }) => s.teamId)).toContain(leaver.rid);
    });
  });

  describe('item 9: a team that leaves keeps its character IDs', () => {
    it('a released team keeps what it entered on its answers, and the IDs are free for another team', async () => {
      const { tid } = await tournament(1, 0, { maxTeams: '3' });
      const captain = await createUser(gw.api);
      const id = `5${String(Date.now()).slice(-9)}`;
      // Player 3's ID differs from player 1's in the last digit (whatever the clock ended on: "…9" twice was the same ID).
      const id3 = `${id.slice(0, -1)}${(Number(id.at(-1)) + 1) % 10}`;
      const registered = await register(tid, captain, { player1CharacterId: id, player3CharacterId: id3 });
      expect(registered.status, JSON.stringify(registered.body)).toBe(201);
      expect((await gw.api.post(`/registrations/admin/${registered.body.rid}/release`, {}, admin)).status).toBe(200);
      const mine = await myTeam(tid, captain);
      expect(mine).toMatchObject({
        place: 'released',
        releasedReason: 'removed',
        player1CharacterId: id,
        player3CharacterId: id3,
      });
      const listed = (await gw.api.get(`/registrations/tournament/${tid}`, admin)).body.find(
        (r: { rid: number }) => r.rid === registered.body.rid,
      );
      expect(listed).toMatchObject({ place: 'released', player1CharacterId: id });
      const someoneElse = await register(tid, await createUser(gw.api), { player2CharacterId: id });
      expect(someoneElse.status, JSON.stringify(someoneElse.body)).toBe(201);
    });

    it('a withdrawn team keeps them too', async () => {
      const { tid } = await tournament(1, 0, { maxTeams: '2' });
      const captain = await createUser(gw.api);
      const id = `5${String(Date.now() + 7).slice(-9)}`;
      expect((await register(tid, captain, { player4CharacterId: id })).status).toBe(201);
      expect((await gw.api.post(`/registrations/${tid}/withdraw`, {}, captain.token)).status).toBe(200);
      expect(await myTeam(tid, captain)).toMatchObject({ place: 'withdrawn', player4CharacterId: id });
    });
  });

  describe('item 18: a removed team does not come back unless the organiser allows it', () => {
    it('refuses its account, its team name, its IGNs and its character IDs, until the organiser allows it back', async () => {
      const { tid } = await tournament(3, 0, { entryFee: '0', maxTeams: '10' });
      const captain = await createUser(gw.api);
      const id = `5${String(Date.now() + 13).slice(-9)}`;
      const team = teamFields();
      const first = await register(tid, captain, { player1CharacterId: id }, team);
      expect(first.body).toMatchObject({ place: 'placed', confirmed: true });
      const removed = await gw.api.post(`/registrations/admin/${first.body.rid}/remove`, {}, admin);
      expect(removed.body).toMatchObject({ place: 'released', releasedReason: 'removed', rejoin: 'barred' });

      const message = `${team.teamName} was removed from this tournament by the organiser: it cannot register again unless the organiser allows it.`;
      const again = await register(tid, captain, {}, teamFields());
      expect(again.status).toBe(409);
      expect(again.body.message).toBe(message);
      const sameName = await register(tid, await createUser(gw.api), {}, teamFields({ teamName: team.teamName.toUpperCase() }));
      expect(sameName.status).toBe(409);
      expect(sameName.body.errors).toEqual({ teamName: message });
      const sameIgn = await register(tid, await createUser(gw.api), {}, teamFields({ player3Username: team.player1Username }));
      expect(sameIgn.status).toBe(409);
      expect(sameIgn.body.errors).toEqual({ player3Username: message });
      const sameId = await register(tid, await createUser(gw.api), { player2CharacterId: id }, teamFields());
      expect(sameId.status).toBe(409);
      expect(sameId.body.errors).toEqual({ player2CharacterId: message });
      // Nor through another team's edit.
      const other = await createUser(gw.api);
      const otherTeam = teamFields();
      expect((await register(tid, other, {}, otherTeam)).status).toBe(201);
      const edit = await gw.api.put(`/registrations/${tid}`, { ...otherTeam, substitute1Username: team.player2Username }, other.token);
      expect(edit.status).toBe(409);
      expect(edit.body.errors).toEqual({ substitute1Username: message });

      // Only the organiser lets it back, once.
      const player = await createUser(gw.api);
      expect((await gw.api.post(`/registrations/admin/${first.body.rid}/allow-return`, {}, player.token)).status).toBe(403);
      const allowed = await gw.api.post(`/registrations/admin/${first.body.rid}/allow-return`, {}, admin);
      expect(allowed.status).toBe(200);
      expect(allowed.body.rejoin).toBe('allowed');
      expect((await gw.api.post(`/registrations/admin/${first.body.rid}/allow-return`, {}, admin)).status).toBe(409);
      const back = await register(tid, captain, { player1CharacterId: id }, team);
      expect(back.status, JSON.stringify(back.body)).toBe(201);
      expect(back.body.rejoin).toBeUndefined();
    });

    it('does not bar a team that withdrew, or one released for its payment', async () => {
      const { tid } = await tournament(1, 0, { maxTeams: '3' });
      const captain = await createUser(gw.api);
      const team = teamFields();
      const placed = (await register(tid, captain, {}, team)).body;
      const released = await gw.api.post(`/registrations/admin/${placed.rid}/release`, {}, admin);
      expect(released.body.rejoin).toBeUndefined();
      expect((await register(tid, captain, {}, team)).status).toBe(201);
      expect((await gw.api.post(`/registrations/${tid}/withdraw`, {}, captain.token)).status).toBe(200);
      expect((await register(tid, captain, {}, team)).status).toBe(201);
    });

    it('a tournament without a removal answers as before: no rejoin field', async () => {
      const { tid } = await tournament(1, 0, { entryFee: '0', maxTeams: '2' });
      const list = (await gw.api.get(`/registrations/tournament/${tid}`, admin)).body;
      expect(list[0]).not.toHaveProperty('rejoin');
    });
  });
});
