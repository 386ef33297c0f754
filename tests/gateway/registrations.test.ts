import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TeamFields } from '@custom-room/contract';
import { isUniqueViolation } from '../../gateway/src/db/index.js';
import { MATCH_SLOT_TAKEN, insertMatch } from '../../gateway/src/db/matches.js';
import { IGN_TAKEN, ONE_TEAM_PER_USER, TEAM_NAME_TAKEN, insertRegistration } from '../../gateway/src/db/registrations.js';
import {
  adminToken,
  createTournament,
  createUser,
  isoIn,
  startGateway,
  teamFields,
  toForm,
  tournamentFields,
  unique,
  type TestGateway,
  type TestUser,
} from './helpers.js';

describe('team registrations', () => {
  let gw: TestGateway;
  let admin: string;

  beforeAll(async () => {
    gw = await startGateway();
    admin = await adminToken(gw.api);
  });
  afterAll(() => gw.stop());

  const register = (tid: number, token: string | undefined, fields: Record<string, unknown> = teamFields()) =>
    gw.api.post(`/registrations/${tid}`, fields, token);
  const openTournament = (overrides: Record<string, string> = {}) => createTournament(gw.api, admin, overrides);
  /** Changes a tournament through the admin update call (all fields are required there). */
  async function updateTournament(tournament: any, overrides: Record<string, string>) {
    const fields = tournamentFields({
      name: tournament.name,
      startDate: tournament.startDate,
      endDate: tournament.endDate,
      registrationOpen: tournament.registrationOpen,
      registrationClose: tournament.registrationClose,
      maxTeams: String(tournament.maxTeams),
      status: tournament.status,
      ...overrides,
    });
    const res = await gw.api.request('PUT', `/tournaments/admin/update/${tournament.id}`, { token: admin, form: toForm(fields) });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  }

  describe('POST /registrations/{tournamentId}', () => {
    it('registers a team: 201 with rid, trimmed names, empty substitutes and payment pending', async () => {
      const t = await openTournament();
      const user = await createUser(gw.api);
      const fields = teamFields({ substitute1Username: 'sub_one' });
      const res = await register(t.id, user.token, {
        ...fields,
        teamName: `  ${fields.teamName}  `,
        player1Username: ` ${fields.player1Username} `,
      });
      expect(res.status).toBe(201);
      expect(res.body).toEqual({
        rid: expect.any(Number),
        tid: t.id,
        teamName: fields.teamName,
        player1Username: fields.player1Username,
        player2Username: fields.player2Username,
        player3Username: fields.player3Username,
        player4Username: fields.player4Username,
        substitute1Username: 'sub_one',
        substitute2Username: '',
        // Decision 046: every team answer carries the character IDs, '' for none.
        player1CharacterId: '',
        player2CharacterId: '',
        player3CharacterId: '',
        player4CharacterId: '',
        substitute1CharacterId: '',
        substitute2CharacterId: '',
        paymentStatus: 'pending',
        paymentReference: '',
        createdAt: expect.any(String),
        updatedAt: expect.any(String),
        // Decision 043's fields, additive: a team of a tournament without a payment deadline.
        place: 'placed',
        confirmed: false,
        payBy: null,
        waitlistPosition: null,
        placedAt: res.body.createdAt,
        releasedAt: null,
        releasedReason: null,
      });
      const shown = await gw.api.get(`/tournaments/${t.id}`);
      expect(shown.body.registeredTeams).toBe(1);
    });

    it('needs a token', async () => {
      const t = await openTournament();
      const res = await register(t.id, undefined);
      expect(res.status).toBe(401);
    });

    it('answers 404 for a missing or deleted tournament', async () => {
      const user = await createUser(gw.api);
      const missing = await register(999_999, user.token);
      expect(missing.status).toBe(404);
      expect(missing.body.message).toBe('Tournament not found.');

      const t = await openTournament();
      const del = await gw.api.delete(`/tournaments/admin/delete${t.id}`, admin);
      expect(del.status).toBeLessThan(300);
      const deleted = await register(t.id, user.token);
      expect(deleted.status).toBe(404);
      expect(deleted.body.message).toBe('Tournament not found.');
    });

    it('rejects a bad tournament id with a 400', async () => {
      const user = await createUser(gw.api);
      const res = await register('abc' as unknown as number, user.token);
      expect(res.status).toBe(400);
      expect(res.body.errors.tournamentId).toBeTruthy();
    });

    it('is closed unless the status is Registration Ongoing', async () => {
      const user = await createUser(gw.api);
      for (const status of ['Upcoming', 'Registration Closed', 'Ongoing', 'Completed', 'Cancelled']) {
        const t = await openTournament({ status });
        const res = await register(t.id, user.token);
        expect(res.status).toBe(409);
        expect(res.body.message).toBe(`Registration is closed for this tournament (status: ${status}).`);
      }
    });

    it('is closed before the registration window opens and after it closes', async () => {
      const user = await createUser(gw.api);
      const early = await openTournament({ registrationOpen: isoIn(1), registrationClose: isoIn(5) });
      const before = await register(early.id, user.token);
      expect(before.status).toBe(409);
      expect(before.body.message).toBe('Registration has not opened yet.');

      const late = await openTournament({ registrationOpen: isoIn(-5), registrationClose: isoIn(0, -1) });
      const after = await register(late.id, user.token);
      expect(after.status).toBe(409);
      expect(after.body.message).toBe('Registration has closed.');
    });

    it('allows one team per account per tournament', async () => {
      const [t, other] = [await openTournament(), await openTournament()];
      const user = await createUser(gw.api);
      expect((await register(t.id, user.token)).status).toBe(201);
      const again = await register(t.id, user.token);
      expect(again.status).toBe(409);
      expect(again.body.message).toBe('You have already registered a team for this tournament.');
      expect((await register(other.id, user.token)).status).toBe(201);
    });

    it('keeps team names unique per tournament, ignoring case and extra spaces', async () => {
      const [t, other] = [await openTournament(), await openTournament()];
      const [a, b] = [await createUser(gw.api), await createUser(gw.api)];
      const name = `Soul ${unique()}`;
      expect((await register(t.id, a.token, teamFields({ teamName: name }))).status).toBe(201);
      const clash = await register(t.id, b.token, teamFields({ teamName: `  ${name.toUpperCase().replace(' ', '   ')} ` }));
      expect(clash.status).toBe(409);
      expect(clash.body.errors).toEqual({ teamName: 'A team with this name is already registered.' });
      expect((await register(other.id, b.token, teamFields({ teamName: name }))).status).toBe(201);
    });

    it('lets no IGN play for two teams of one tournament (players and substitutes, any case)', async () => {
      const [t, other] = [await openTournament(), await openTournament()];
      const [a, b, c] = [await createUser(gw.api), await createUser(gw.api), await createUser(gw.api)];
      const first = teamFields({ substitute2Username: `Sub_${unique()}` });
      expect((await register(t.id, a.token, first)).status).toBe(201);

      const clash = await register(t.id, b.token, teamFields({ player3Username: first.player1Username.toUpperCase() }));
      expect(clash.status).toBe(409);
      expect(clash.body.errors).toEqual({
        player3Username: `${first.player1Username.toUpperCase()} is already playing for another team in this tournament.`,
      });

      const subClash = await register(t.id, b.token, teamFields({ substitute1Username: first.substitute2Username.toLowerCase() }));
      expect(subClash.status).toBe(409);
      expect(Object.keys(subClash.body.errors)).toEqual(['substitute1Username']);

      const playerOnSub = await register(t.id, b.token, teamFields({ player2Username: first.substitute2Username }));
      expect(playerOnSub.status).toBe(409);
      expect(Object.keys(playerOnSub.body.errors)).toEqual(['player2Username']);

      // The same player may play in another tournament.
      expect((await register(other.id, c.token, teamFields({ player1Username: first.player1Username }))).status).toBe(201);
    });

    it('does not reserve the IGNs of a rejected team', async () => {
      const t = await openTournament();
      const [a, b, c] = [await createUser(gw.api), await createUser(gw.api), await createUser(gw.api)];
      const first = teamFields();
      expect((await register(t.id, a.token, first)).status).toBe(201);
      const rejected = teamFields({ player4Username: first.player2Username });
      expect((await register(t.id, b.token, rejected)).status).toBe(409);
      const reuse = teamFields({ player1Username: rejected.player1Username, teamName: rejected.teamName });
      expect((await register(t.id, c.token, reuse)).status).toBe(201);
    });

    it('rejects the same IGN twice within one team with a field error', async () => {
      const t = await openTournament();
      const user = await createUser(gw.api);
      const fields = teamFields();
      const dup = await register(t.id, user.token, { ...fields, player2Username: fields.player1Username.toUpperCase() });
      expect(dup.status).toBe(400);
      // Decision 033: the message names both fields (it named only the repeated IGN before).
      expect(dup.body.errors).toEqual({
        player2Username: 'Player 2 IGN looks the same as Player 1 IGN: each player needs their own name.',
      });

      const subDup = await register(t.id, user.token, { ...fields, substitute2Username: fields.player4Username });
      expect(subDup.status).toBe(400);
      expect(Object.keys(subDup.body.errors)).toEqual(['substitute2Username']);
    });

    it('validates team name and IGN lengths with field errors', async () => {
      const t = await openTournament();
      const user = await createUser(gw.api);
      const cases: [Record<string, unknown>, string, string][] = [
        [{ teamName: '' }, 'teamName', 'Team name is required.'],
        [{ teamName: 'A' }, 'teamName', 'Team name must be at least 2 characters.'],
        [{ teamName: 'x'.repeat(41) }, 'teamName', 'Team name must be at most 40 characters.'],
        [{ player1Username: '   ' }, 'player1Username', 'Player 1 IGN is required.'],
        [{ player4Username: undefined }, 'player4Username', 'Player 4 IGN is required.'],
        [{ player2Username: 'q' }, 'player2Username', 'Player 2 IGN must be at least 2 characters.'],
        [{ player3Username: 'y'.repeat(31) }, 'player3Username', 'Player 3 IGN must be at most 30 characters.'],
        [{ substitute1Username: 's' }, 'substitute1Username', 'Substitute 1 IGN must be at least 2 characters.'],
        [{ substitute2Username: 'z'.repeat(31) }, 'substitute2Username', 'Substitute 2 IGN must be at most 30 characters.'],
        [{ player1Username: 42 }, 'player1Username', 'Player 1 IGN must be text.'],
      ];
      for (const [override, field, message] of cases) {
        const res = await register(t.id, user.token, { ...teamFields(), ...override });
        expect(res.status, field).toBe(400);
        expect(res.body.errors[field], field).toBe(message);
      }
      // Boundary lengths are fine; nothing above was stored.
      const ok = await register(
        t.id,
        user.token,
        teamFields({ teamName: 'x'.repeat(40), player3Username: 'y'.repeat(30), substitute1Username: 'ab' }),
      );
      expect(ok.status).toBe(201);
    });

    it('answers "Registration is full." once maxTeams teams are in', async () => {
      const t = await openTournament({ maxTeams: '2' });
      const users: TestUser[] = [await createUser(gw.api), await createUser(gw.api), await createUser(gw.api)];
      expect((await register(t.id, users[0].token)).status).toBe(201);
      expect((await register(t.id, users[1].token)).status).toBe(201);
      const full = await register(t.id, users[2].token);
      expect(full.status).toBe(409);
      expect(full.body).toEqual({ message: 'Registration is full.' });
      // An account that is already in hears that first.
      expect((await register(t.id, users[0].token)).body.message).toBe('You have already registered a team for this tournament.');
    });
  });

  describe('reading and changing your own team', () => {
    it("GET /registrations/user lists only the caller's teams, newest first, with a tournament summary", async () => {
      const [t1, t2, t3] = [await openTournament(), await openTournament({ entryFee: '250' }), await openTournament()];
      const [me, other] = [await createUser(gw.api), await createUser(gw.api)];
      const first = await register(t1.id, me.token);
      const second = await register(t2.id, me.token);
      const gone = await register(t3.id, me.token);
      expect([first.status, second.status, gone.status]).toEqual([201, 201, 201]);
      await register(t1.id, other.token);
      expect((await gw.api.delete(`/tournaments/admin/delete${t3.id}`, admin)).status).toBeLessThan(300);

      const res = await gw.api.get('/registrations/user', me.token);
      expect(res.status).toBe(200);
      expect(res.body.map((r: any) => r.rid)).toEqual([second.body.rid, first.body.rid]);
      expect(res.body[0]).toEqual({
        ...second.body,
        tournament: {
          id: t2.id,
          name: t2.name,
          game: t2.game,
          status: t2.status,
          startDate: t2.startDate,
          endDate: t2.endDate,
          entryFee: 250,
          coverImageUrl: t2.coverImageUrl ?? null,
          phase: 'registration-open', // issue 27: the derived phase, added
        },
      });

      const none = await gw.api.get('/registrations/user', (await createUser(gw.api)).token);
      expect(none.body).toEqual([]);
      expect((await gw.api.get('/registrations/user')).status).toBe(401);
    });

    it("GET /registrations/{tid} answers the caller's own team and never another's", async () => {
      const t = await openTournament();
      const [owner, stranger] = [await createUser(gw.api), await createUser(gw.api)];
      const created = await register(t.id, owner.token);

      const mine = await gw.api.get(`/registrations/${t.id}`, owner.token);
      expect(mine.status).toBe(200);
      expect(mine.body).toEqual(created.body);

      const theirs = await gw.api.get(`/registrations/${t.id}`, stranger.token);
      expect(theirs.status).toBe(404);
      expect(theirs.body).toEqual({ message: 'You have not registered a team for this tournament.' });
      expect((await gw.api.get(`/registrations/${t.id}`)).status).toBe(401);
      expect((await gw.api.get('/registrations/999999', owner.token)).body.message).toBe('Tournament not found.');
    });

    it("PUT /registrations/{tid} updates the caller's team; players 3-4 and substitutes are optional", async () => {
      const t = await openTournament();
      const owner = await createUser(gw.api);
      const created = (await register(t.id, owner.token)).body;
      const changes = { teamName: `Renamed ${unique()}`, player1Username: `new1_${unique()}`, player2Username: `new2_${unique()}` };
      const res = await gw.api.put(`/registrations/${t.id}`, changes, owner.token);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        rid: created.rid,
        tid: t.id,
        ...changes,
        player3Username: '',
        player4Username: '',
        substitute1Username: '',
        substitute2Username: '',
        paymentStatus: 'pending',
      });
      expect((await gw.api.get(`/registrations/${t.id}`, owner.token)).body).toEqual(res.body);

      const missing = await gw.api.put(`/registrations/${t.id}`, { teamName: 'Only name', player1Username: 'solo_one' }, owner.token);
      expect(missing.status).toBe(400);
      expect(missing.body.errors.player2Username).toBe('Player 2 IGN is required.');

      const dup = await gw.api.put(`/registrations/${t.id}`, { ...changes, player3Username: changes.player2Username }, owner.token);
      expect(dup.status).toBe(400);
      expect(Object.keys(dup.body.errors)).toEqual(['player3Username']);
    });

    it("PUT cannot touch another user's team", async () => {
      const t = await openTournament();
      const [owner, stranger] = [await createUser(gw.api), await createUser(gw.api)];
      const created = (await register(t.id, owner.token)).body;
      const res = await gw.api.put(`/registrations/${t.id}`, teamFields(), stranger.token);
      expect(res.status).toBe(404);
      expect(res.body.message).toBe('You have not registered a team for this tournament.');
      expect((await gw.api.put(`/registrations/${t.id}`, teamFields())).status).toBe(401);
      expect((await gw.api.get(`/registrations/${t.id}`, owner.token)).body).toEqual(created);
    });

    it('PUT keeps names and IGNs unique, excluding the team itself, and frees the IGNs it drops', async () => {
      const t = await openTournament();
      const [a, b, c] = [await createUser(gw.api), await createUser(gw.api), await createUser(gw.api)];
      const teamA = teamFields();
      const teamB = teamFields();
      expect((await register(t.id, a.token, teamA)).status).toBe(201);
      expect((await register(t.id, b.token, teamB)).status).toBe(201);

      const nameClash = await gw.api.put(`/registrations/${t.id}`, { ...teamB, teamName: teamA.teamName.toLowerCase() }, b.token);
      expect(nameClash.status).toBe(409);
      expect(nameClash.body.errors).toEqual({ teamName: 'A team with this name is already registered.' });

      const ignClash = await gw.api.put(`/registrations/${t.id}`, { ...teamB, player4Username: teamA.player3Username }, b.token);
      expect(ignClash.status).toBe(409);
      expect(ignClash.body.errors).toEqual({
        player4Username: `${teamA.player3Username} is already playing for another team in this tournament.`,
      });

      // Its own name and IGNs, re-cased and reshuffled, are fine.
      const own = await gw.api.put(
        `/registrations/${t.id}`,
        {
          ...teamB,
          teamName: teamB.teamName.toUpperCase(),
          player1Username: teamB.player2Username,
          player2Username: teamB.player1Username,
        },
        b.token,
      );
      expect(own.status).toBe(200);
      expect(own.body.teamName).toBe(teamB.teamName.toUpperCase());

      // A drops its player 4; C can now register that player.
      const dropped = await gw.api.put(`/registrations/${t.id}`, { ...teamA, player4Username: `fresh_${unique()}` }, a.token);
      expect(dropped.status).toBe(200);
      expect((await register(t.id, c.token, teamFields({ player1Username: teamA.player4Username }))).status).toBe(201);
      // ...and A's new player 4 is now taken.
      const taken = await register(t.id, (await createUser(gw.api)).token, teamFields({ player2Username: dropped.body.player4Username }));
      expect(taken.status).toBe(409);
    });

    it('PUT is refused once the tournament has started, is over or was cancelled', async () => {
      const owner = await createUser(gw.api);
      const cases: [Record<string, string>, string][] = [
        [{ status: 'Ongoing' }, 'The team can no longer be changed: the tournament has started.'],
        [{ status: 'Completed' }, 'The team can no longer be changed: the tournament is over.'],
        [{ status: 'Cancelled' }, 'The team can no longer be changed: the tournament was cancelled.'],
        [
          {
            status: 'Registration Closed',
            startDate: isoIn(0, -1),
            endDate: isoIn(2),
            registrationOpen: isoIn(-5),
            registrationClose: isoIn(-1),
          },
          'The team can no longer be changed: the tournament has started.',
        ],
      ];
      for (const [overrides, message] of cases) {
        const t = await openTournament();
        const team = teamFields();
        expect((await register(t.id, owner.token, team)).status).toBe(201);
        await updateTournament(t, overrides);
        const res = await gw.api.put(`/registrations/${t.id}`, { ...team, teamName: `Late ${unique()}` }, owner.token);
        expect(res.status, JSON.stringify(overrides)).toBe(409);
        expect(res.body.message).toBe(message);
        expect((await gw.api.get(`/registrations/${t.id}`, owner.token)).body.teamName).toBe(team.teamName);
      }
    });

    it('PUT is still allowed after registration closes, before the start', async () => {
      const owner = await createUser(gw.api);
      const t = await openTournament();
      const team = teamFields();
      expect((await register(t.id, owner.token, team)).status).toBe(201);
      await updateTournament(t, { status: 'Registration Closed' });
      const res = await gw.api.put(`/registrations/${t.id}`, { ...team, substitute1Username: `bench_${unique()}` }, owner.token);
      expect(res.status).toBe(200);
    });
  });

  describe('GET /registrations/tournament/{tid} (admin)', () => {
    it('lists every team with its account username, ordered by rid', async () => {
      const t = await openTournament();
      const [a, b] = [await createUser(gw.api), await createUser(gw.api)];
      const ra = (await register(t.id, a.token)).body;
      const rb = (await register(t.id, b.token)).body;
      const res = await gw.api.get(`/registrations/tournament/${t.id}`, admin);
      expect(res.status).toBe(200);
      expect(res.body).toEqual([
        { ...ra, username: a.username, listOrder: 1, sameReferenceAs: [], captainPhone: `+91${a.phone}`, captainEmail: a.email },
        { ...rb, username: b.username, listOrder: 1, sameReferenceAs: [], captainPhone: `+91${b.phone}`, captainEmail: b.email },
      ]);
      const empty = await gw.api.get(`/registrations/tournament/${(await openTournament()).id}`, admin);
      expect(empty.body).toEqual([]);
    });

    it('is for admins only and 404s for a missing tournament', async () => {
      const t = await openTournament();
      const user = await createUser(gw.api);
      await register(t.id, user.token);
      expect((await gw.api.get(`/registrations/tournament/${t.id}`, user.token)).status).toBe(403);
      expect((await gw.api.get(`/registrations/tournament/${t.id}`)).status).toBe(401);
      const missing = await gw.api.get('/registrations/tournament/999999', admin);
      expect(missing.status).toBe(404);
      expect(missing.body.message).toBe('Tournament not found.');
    });
  });

  describe('payment status', () => {
    it('goes pending → submitted (player) → rejected → submitted → verified (admin), then the player can no longer change it', async () => {
      const t = await openTournament();
      const user = await createUser(gw.api);
      const created = (await register(t.id, user.token)).body;
      expect(created.paymentStatus).toBe('pending');

      const submitted = await gw.api.post(`/registrations/${t.id}/payment`, { upiReference: '412345678901' }, user.token);
      expect(submitted.status).toBe(200);
      expect(submitted.body).toMatchObject({ rid: created.rid, paymentStatus: 'submitted', paymentReference: '412345678901' });

      const rejected = await gw.api.put(
        `/registrations/admin/${created.rid}/payment`,
        { paymentStatus: 'rejected', expectedUpiReference: '412345678901' },
        admin,
      );
      expect(rejected.status).toBe(200);
      expect(rejected.body).toMatchObject({ paymentStatus: 'rejected', paymentReference: '412345678901' });

      const again = await gw.api.post(`/registrations/${t.id}/payment`, { upiReference: '5260 3051 8301' }, user.token);
      expect(again.status).toBe(200);
      expect(again.body).toMatchObject({ paymentStatus: 'submitted', paymentReference: '526030518301' });

      const verified = await gw.api.put(
        `/registrations/admin/${created.rid}/payment`,
        { paymentStatus: 'verified', expectedUpiReference: '526030518301' },
        admin,
      );
      expect(verified.status).toBe(200);
      expect(verified.body.paymentStatus).toBe('verified');

      const late = await gw.api.post(`/registrations/${t.id}/payment`, { upiReference: '612345678903' }, user.token);
      expect(late.status).toBe(409);
      expect(late.body.message).toBe('Your payment has already been verified.');
      const mine = (await gw.api.get(`/registrations/${t.id}`, user.token)).body;
      expect(mine).toMatchObject({ paymentStatus: 'verified', paymentReference: '526030518301' });
      const listed = (await gw.api.get('/registrations/user', user.token)).body;
      expect(listed[0]).toMatchObject({ rid: created.rid, paymentStatus: 'verified' });
    });

    it('checks the UPI reference: the 12-digit UTR', async () => {
      const t = await openTournament();
      const user = await createUser(gw.api);
      await register(t.id, user.token);
      for (const upiReference of ['12345', 'x'.repeat(36), 'T2603051830ABC', 'ref;drop', '']) {
        const res = await gw.api.post(`/registrations/${t.id}/payment`, { upiReference }, user.token);
        expect(res.status, upiReference).toBe(400);
        expect(res.body.errors.upiReference, upiReference).toBeTruthy();
      }
      expect((await gw.api.post(`/registrations/${t.id}/payment`, {}, user.token)).body.errors.upiReference).toBe(
        'UPI reference is required.',
      );
      expect((await gw.api.get(`/registrations/${t.id}`, user.token)).body.paymentStatus).toBe('pending');
    });

    it('only the team owner reports a payment, and only admins set the status', async () => {
      const t = await openTournament();
      const [owner, stranger] = [await createUser(gw.api), await createUser(gw.api)];
      const created = (await register(t.id, owner.token)).body;

      const other = await gw.api.post(`/registrations/${t.id}/payment`, { upiReference: '412345678901' }, stranger.token);
      expect(other.status).toBe(404);
      expect(other.body.message).toBe('You have not registered a team for this tournament.');
      expect((await gw.api.post(`/registrations/${t.id}/payment`, { upiReference: '412345678901' })).status).toBe(401);

      const selfVerify = await gw.api.put(`/registrations/admin/${created.rid}/payment`, { paymentStatus: 'verified' }, owner.token);
      expect(selfVerify.status).toBe(403);
      expect((await gw.api.put(`/registrations/admin/${created.rid}/payment`, { paymentStatus: 'verified' })).status).toBe(401);
      expect((await gw.api.get(`/registrations/${t.id}`, owner.token)).body.paymentStatus).toBe('pending');

      const bad = await gw.api.put(`/registrations/admin/${created.rid}/payment`, { paymentStatus: 'paid' }, admin);
      expect(bad.status).toBe(400);
      expect(bad.body.errors.paymentStatus).toBe('Payment status must be one of pending, submitted, verified, rejected.');
      const missing = await gw.api.put('/registrations/admin/999999/payment', { paymentStatus: 'verified' }, admin);
      expect(missing.status).toBe(404);
      expect(missing.body.message).toBe('Registration not found.');
    });
  });

  describe('database guarantees behind the checks', () => {
    // Requests for one tournament are serialised, so HTTP cannot race past the checks; these drive the
    // repository straight into each unique constraint to prove the names the routes map to 409s are right.
    async function violation(fn: () => Promise<unknown>): Promise<unknown> {
      try {
        await fn();
      } catch (err) {
        return err;
      }
      throw new Error('expected a unique violation');
    }
    const constraints = { ONE_TEAM_PER_USER, TEAM_NAME_TAKEN, IGN_TAKEN, MATCH_SLOT_TAKEN };
    const matching = (err: unknown) =>
      Object.entries(constraints)
        .filter(([, c]) => isUniqueViolation(err, c))
        .map(([name]) => name);

    it('each registration clash trips exactly the constraint the route maps', async () => {
      const t = await openTournament();
      const [a, b] = [await createUser(gw.api), await createUser(gw.api)];
      const team = teamFields() as TeamFields;
      expect((await register(t.id, a.token, team)).status).toBe(201);
      const db = gw.app.store.db;
      const fresh = () => teamFields() as TeamFields;

      expect(
        matching(
          await violation(() =>
            insertRegistration(db, t.id, a.id, fresh(), { place: 'placed', payBy: null, now: new Date().toISOString() }),
          ),
        ),
      ).toEqual(['ONE_TEAM_PER_USER']);
      expect(
        matching(
          await violation(() =>
            insertRegistration(
              db,
              t.id,
              b.id,
              { ...fresh(), teamName: team.teamName.toUpperCase() },
              { place: 'placed', payBy: null, now: new Date().toISOString() },
            ),
          ),
        ),
      ).toEqual(['TEAM_NAME_TAKEN']);
      // The IGN rows go in after the team row: run it in a transaction so the half-written team is rolled back.
      const ignErr = await violation(() =>
        gw.app.store.writeTransaction((trx) =>
          insertRegistration(
            trx,
            t.id,
            b.id,
            { ...fresh(), player2Username: team.player1Username },
            { place: 'placed', payBy: null, now: new Date().toISOString() },
          ),
        ),
      );
      expect(matching(ignErr)).toEqual(['IGN_TAKEN']);
      expect((await gw.api.get(`/registrations/tournament/${t.id}`, admin)).body).toHaveLength(1);
    });

    it('a second match in the same slot trips the constraint the route maps', async () => {
      const t = await openTournament();
      const match = { tid: t.id, day: 1, matchNo: 1, map: 'Erangel', matchId: '', password: '', time: '18:00' };
      const at = new Date().toISOString();
      await insertMatch(gw.app.store.db, match, at);
      expect(matching(await violation(() => insertMatch(gw.app.store.db, match, at)))).toEqual(['MATCH_SLOT_TAKEN']);
    });
  });
});
