import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PLACEHOLDER_UPI_ID } from '@custom-room/contract';
import { tournamentsPayingPlaceholder } from '../../gateway/src/db/tournaments.js';
import { placeholderWarning } from '../../gateway/src/payee-check.js';
import {
  adminToken,
  createTournament,
  createUser,
  isoIn,
  startGateway,
  teamFields,
  toForm,
  tournamentFields,
  type TestGateway,
  type TestUser,
} from './helpers.js';

let gw: TestGateway;
let admin: string;
let player: TestUser;

beforeAll(async () => {
  gw = await startGateway();
  admin = await adminToken(gw.api);
  player = await createUser(gw.api);
});
afterAll(() => gw.stop());

/** token null sends none; leaving it out sends the admin's. */
const addTournament = (fields: Record<string, string>, token: string | null = admin) =>
  gw.api.request('POST', '/tournaments/add', { token: token ?? undefined, form: toForm(fields) });
const updateTournament = (id: number | string, fields: Record<string, string>, token: string | null = admin) =>
  gw.api.request('PUT', `/tournaments/admin/update/${id}`, { token: token ?? undefined, form: toForm(fields) });

async function registerTeam(tournamentId: number) {
  const user = await createUser(gw.api);
  const res = await gw.api.post(`/registrations/${tournamentId}`, teamFields(), user.token);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

function without(fields: Record<string, string>, key: string) {
  const copy = { ...fields };
  delete copy[key];
  return copy;
}

describe('GET /tournaments and /tournaments/{id}', () => {
  it('lists live tournaments by start date, then id, each with its registered team count', async () => {
    const later = await createTournament(gw.api, admin, { startDate: isoIn(40), endDate: isoIn(41), registrationClose: isoIn(30) });
    const sameStart = isoIn(20);
    const first = await createTournament(gw.api, admin, { startDate: sameStart, endDate: isoIn(21), registrationClose: isoIn(15) });
    const second = await createTournament(gw.api, admin, { startDate: sameStart, endDate: isoIn(22), registrationClose: isoIn(15) });
    await registerTeam(first.id);
    await registerTeam(first.id);
    await registerTeam(later.id);

    const res = await gw.api.get('/tournaments');
    expect(res.status).toBe(200);
    const mine = (res.body as any[]).filter((t) => [later.id, first.id, second.id].includes(t.id));
    expect(mine.map((t) => t.id)).toEqual([first.id, second.id, later.id]);
    expect(mine.map((t) => t.registeredTeams)).toEqual([2, 0, 1]);
    const starts = (res.body as any[]).map((t) => t.startDate);
    expect([...starts].sort()).toEqual(starts);
  });

  it('answers one tournament with every field of the shared shape', async () => {
    const fields = tournamentFields({
      registrationOpen: '2030-01-01T10:00:00+05:30',
      registrationClose: '2030-01-09T23:59:00+05:30',
      startDate: '2030-01-10T18:30:00+05:30',
      endDate: '2030-01-12T21:00:00Z',
      maxTeams: '25',
      entryFee: '250',
      pointsSystem: 'bmps-15',
      status: 'Upcoming',
    });
    const created = await addTournament(fields);
    expect(created.status).toBe(200);
    const res = await gw.api.get(`/tournaments/${created.body.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: created.body.id,
      name: fields.name,
      game: 'BGMI',
      description: fields.description,
      startDate: '2030-01-10T13:00:00.000Z',
      endDate: '2030-01-12T21:00:00.000Z',
      registrationOpen: '2030-01-01T04:30:00.000Z',
      registrationClose: '2030-01-09T18:29:00.000Z',
      maxTeams: 25,
      format: 'Squad',
      platform: 'Mobile',
      entryFee: 250,
      prizePool: '₹10,000',
      coverImageUrl: null,
      coverImageWidth: null,
      coverImageHeight: null,
      status: 'Upcoming',
      overview: fields.overview,
      pointsSystem: 'bmps-15',
      requireCharacterIds: false,
      registeredTeams: 0,
      createdAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
      updatedAt: expect.stringMatching(/Z$/),
      // Issue 27 (decision 051): the derived phase, added beside the stored status.
      phase: 'upcoming',
      // Issue 29 (decision 065): who runs it; a site admin's tournament is the Site organiser's.
      organiser: { slug: 'site', name: 'Custom Room', logoUrl: null },
    });
  });

  it('counts registrations on the detail too', async () => {
    const t = await createTournament(gw.api, admin);
    await registerTeam(t.id);
    expect((await gw.api.get(`/tournaments/${t.id}`)).body.registeredTeams).toBe(1);
  });

  it('answers 404 "Tournament not found." for an unknown id and 400 for a malformed one', async () => {
    const missing = await gw.api.get('/tournaments/987654');
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ message: 'Tournament not found.' });
    for (const bad of ['abc', '1.5', '0', '-3']) {
      const res = await gw.api.get(`/tournaments/${bad}`);
      expect(res.status, bad).toBe(400);
      expect(res.body.errors.id, bad).toBeTruthy();
    }
  });
});

describe('POST /tournaments/add', () => {
  it('answers 200 with the tournament and defaults pointsSystem to bgis-10', async () => {
    const fields = tournamentFields();
    const res = await addTournament(fields);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      name: fields.name,
      maxTeams: 16,
      entryFee: 100,
      pointsSystem: 'bgis-10',
      registeredTeams: 0,
      coverImageUrl: null,
    });
    expect((await gw.api.get(`/tournaments/${res.body.id}`)).body.name).toBe(fields.name);
  });

  it('trims text fields', async () => {
    const res = await addTournament(tournamentFields({ name: '  Spaced Cup  ', game: ' BGMI ' }));
    expect(res.status).toBe(200);
    expect(res.body.name).toBe('Spaced Cup');
    expect(res.body.game).toBe('BGMI');
  });

  const required = [
    'name',
    'game',
    'description',
    'startDate',
    'endDate',
    'registrationOpen',
    'registrationClose',
    'maxTeams',
    'format',
    'platform',
    'entryFee',
    'prizePool',
    'status',
    'overview',
  ];
  it.each(required)('requires %s (missing or blank)', async (field) => {
    const missing = await addTournament(without(tournamentFields(), field));
    expect(missing.status).toBe(400);
    expect(missing.body.errors[field]).toBeTruthy();
    const blank = await addTournament(tournamentFields({ [field]: '   ' }));
    expect(blank.status).toBe(400);
    expect(blank.body.errors[field]).toBeTruthy();
  });

  it('names the field in the message for required text', async () => {
    const res = await addTournament(without(tournamentFields(), 'name'));
    expect(res.body).toEqual({ message: 'Please check the highlighted fields.', errors: { name: 'Name is required.' } });
  });

  const invalid: [string, string][] = [
    ['name', 'n'.repeat(101)],
    ['game', 'g'.repeat(51)],
    ['format', 'f'.repeat(51)],
    ['platform', 'p'.repeat(51)],
    ['prizePool', 'p'.repeat(101)],
    ['description', 'd'.repeat(5001)],
    ['overview', 'o'.repeat(5001)],
    ['maxTeams', '1'],
    ['maxTeams', '1001'],
    ['maxTeams', 'twelve'],
    ['maxTeams', '12.5'],
    ['maxTeams', '-4'],
    ['entryFee', '-1'],
    ['entryFee', '1000001'],
    ['entryFee', '99.50'],
    ['entryFee', '1e3'],
    ['status', 'Open'],
    ['status', 'registration ongoing'],
    ['pointsSystem', 'bgis-11'],
    ['startDate', '2030-01-10T18:30:00'],
    ['startDate', '10/01/2030'],
    ['registrationOpen', 'tomorrow'],
    ['endDate', '2030-02-30T10:00:00Z'],
  ];
  it.each(invalid)('rejects %s = %j with a field error', async (field, value) => {
    const res = await addTournament(tournamentFields({ [field]: value }));
    expect(res.status).toBe(400);
    expect(Object.keys(res.body.errors)).toContain(field);
  });

  it('explains the number ranges in words', async () => {
    const res = await addTournament(tournamentFields({ maxTeams: '1', entryFee: '2000000' }));
    expect(res.body.errors).toEqual({
      maxTeams: 'Max teams must be between 2 and 1,000.',
      entryFee: 'Entry fee must be between 0 and 10,00,000 rupees.',
    });
  });

  it('accepts the boundaries of every range', async () => {
    const cases: Record<string, string>[] = [
      { maxTeams: '2', entryFee: '0', name: 'n'.repeat(100) },
      { maxTeams: '1000', entryFee: '1000000', prizePool: 'p'.repeat(100), description: 'd'.repeat(5000) },
    ];
    for (const overrides of cases) {
      const res = await addTournament(tournamentFields(overrides));
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    }
  });

  it('accepts every status and points system', async () => {
    for (const status of ['Upcoming', 'Registration Ongoing', 'Registration Closed', 'Ongoing', 'Completed', 'Cancelled']) {
      expect((await addTournament(tournamentFields({ status }))).body.status).toBe(status);
    }
    for (const pointsSystem of ['bgis-10', 'bmps-15', 'freefire-12']) {
      expect((await addTournament(tournamentFields({ pointsSystem }))).body.pointsSystem).toBe(pointsSystem);
    }
  });

  it('keeps a 5000-character description in a 3-byte script whole', async () => {
    const description = 'टूर्नामेंट'.repeat(500);
    expect(description.length).toBe(5000);
    const res = await addTournament(tournamentFields({ description }));
    expect(res.status).toBe(200);
    expect(res.body.description).toBe(description);
  });

  describe('date order', () => {
    const base = { registrationOpen: isoIn(1), registrationClose: isoIn(5), startDate: isoIn(6), endDate: isoIn(8) };

    it('needs registration to open before it closes', async () => {
      // One reading of the clock for "the same instant": two isoIn(5) calls a millisecond apart are open < close.
      const registrationClose = isoIn(5);
      for (const registrationOpen of [registrationClose, isoIn(5.5)]) {
        const res = await addTournament(tournamentFields({ ...base, registrationOpen, registrationClose }));
        expect(res.status).toBe(400);
        expect(res.body.errors).toEqual({ registrationClose: 'Registration must close after it opens.' });
      }
    });

    it('needs registration to close no later than the start (equal is fine)', async () => {
      const late = await addTournament(tournamentFields({ ...base, registrationClose: isoIn(6, 1) }));
      expect(late.status).toBe(400);
      expect(late.body.errors).toEqual({ registrationClose: 'Registration must close no later than the start.' });
      const equal = await addTournament(tournamentFields({ ...base, registrationClose: base.startDate }));
      expect(equal.status).toBe(200);
    });

    it('needs the end after the start', async () => {
      for (const endDate of [base.startDate, isoIn(5.5)]) {
        const res = await addTournament(tournamentFields({ ...base, endDate }));
        expect(res.status).toBe(400);
        expect(res.body.errors).toEqual({ endDate: 'The end must be after the start.' });
      }
    });

    it('compares instants, not the text, across time zones', async () => {
      // 18:00+05:30 is 12:30Z: registration closes before a 13:00Z start.
      const res = await addTournament(
        tournamentFields({
          registrationOpen: '2030-01-01T00:00:00Z',
          registrationClose: '2030-01-10T18:00:00+05:30',
          startDate: '2030-01-10T13:00:00Z',
          endDate: '2030-01-11T00:00:00Z',
        }),
      );
      expect(res.status).toBe(200);
    });

    it('reports date order together with other field errors', async () => {
      const res = await addTournament(tournamentFields({ ...base, name: '', endDate: base.startDate }));
      expect(res.status).toBe(400);
      expect(Object.keys(res.body.errors).sort()).toEqual(['endDate', 'name']);
    });
  });

  it('refuses a body that is not multipart with 415', async () => {
    const json = await gw.api.request('POST', '/tournaments/add', { token: admin, json: tournamentFields() });
    expect(json.status).toBe(415);
    expect(json.body.message).toMatch(/multipart\/form-data/);
    const urlencoded = await gw.api.request('POST', '/tournaments/add', {
      token: admin,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(urlencoded.status).toBe(415);
    const none = await gw.api.request('POST', '/tournaments/add', { token: admin });
    expect(none.status).toBe(415);
  });

  it('answers 400 for a multipart body it cannot parse', async () => {
    const noBoundary = await gw.api.request('POST', '/tournaments/add', {
      token: admin,
      headers: { 'content-type': 'multipart/form-data' },
    });
    expect(noBoundary.status).toBe(400);
    const cutOff = await fetch(`${gw.url}/tournaments/add`, {
      method: 'POST',
      headers: { authorization: `Bearer ${admin}`, 'content-type': 'multipart/form-data; boundary=XYZ' },
      body: '--XYZ\r\nContent-Disposition: form-data; name="name"\r\n\r\nCut off mid-val',
    });
    expect(cutOff.status).toBe(400);
    expect((await cutOff.json()).message).toBeTruthy();
  });

  it('refuses a field sent twice, a value over the size limit and too many fields', async () => {
    const twice = toForm(tournamentFields());
    twice.append('name', 'Second name');
    const dup = await gw.api.request('POST', '/tournaments/add', { token: admin, form: twice });
    expect(dup.status).toBe(400);
    expect(dup.body.errors.name).toBe('Send this field only once.');

    const huge = await addTournament(tournamentFields({ overview: 'x'.repeat(30_000) }));
    expect(huge.status).toBe(400);
    expect(huge.body.errors.overview).toBeTruthy();

    const many = tournamentFields();
    for (let i = 0; i < 20; i++) many[`extra${i}`] = 'x';
    const tooMany = await addTournament(many);
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.message).toMatch(/Too many form fields/);
  });

  it('refuses a file in a field other than coverImage', async () => {
    const form = toForm(tournamentFields());
    form.append('overviewFile', new Blob([Buffer.from('hello')], { type: 'text/plain' }), 'a.txt');
    const res = await gw.api.request('POST', '/tournaments/add', { token: admin, form });
    expect(res.status).toBe(400);
    expect(res.body.errors.overviewFile).toBeTruthy();
  });
});

describe('admin only', () => {
  it('answers 401 without a valid token and 403 for a player on every admin call', async () => {
    const t = await createTournament(gw.api, admin);
    const calls = [
      (token: string | null) => addTournament(tournamentFields(), token),
      (token: string | null) => updateTournament(t.id, tournamentFields({ name: 'Hijacked' }), token),
      (token: string | null) => gw.api.delete(`/tournaments/admin/delete${t.id}`, token ?? undefined),
    ];
    for (const call of calls) {
      expect((await call(null)).status).toBe(401);
      expect((await call('not-a-token')).status).toBe(401);
      const asPlayer = await call(player.token);
      expect(asPlayer.status).toBe(403);
      expect(asPlayer.body.message).toBeTruthy();
    }
    const after = await gw.api.get(`/tournaments/${t.id}`);
    expect(after.status).toBe(200);
    expect(after.body.name).toBe(t.name);
  });

  it('checks the token before the body: a player gets 403 even for a JSON body', async () => {
    const res = await gw.api.request('POST', '/tournaments/add', { token: player.token, json: tournamentFields() });
    expect(res.status).toBe(403);
  });
});

describe('PUT /tournaments/admin/update/{id}', () => {
  it('replaces every field and answers the updated tournament', async () => {
    const t = await createTournament(gw.api, admin);
    const fields = tournamentFields({
      name: 'Renamed Cup',
      game: 'Free Fire',
      maxTeams: '48',
      entryFee: '0',
      status: 'Registration Closed',
      pointsSystem: 'freefire-12',
    });
    const res = await updateTournament(t.id, fields);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id: t.id,
      name: 'Renamed Cup',
      game: 'Free Fire',
      maxTeams: 48,
      entryFee: 0,
      status: 'Registration Closed',
      pointsSystem: 'freefire-12',
      createdAt: t.createdAt,
    });
    expect(Date.parse(res.body.updatedAt)).toBeGreaterThanOrEqual(Date.parse(t.updatedAt));
    expect((await gw.api.get(`/tournaments/${t.id}`)).body).toEqual(res.body);
  });

  it('applies the same field rules as create', async () => {
    const t = await createTournament(gw.api, admin);
    const res = await updateTournament(t.id, without(tournamentFields({ maxTeams: '0' }), 'overview'));
    expect(res.status).toBe(400);
    expect(Object.keys(res.body.errors).sort()).toEqual(['maxTeams', 'overview']);
    const order = await updateTournament(t.id, tournamentFields({ registrationClose: isoIn(11) }));
    expect(order.body.errors).toEqual({ registrationClose: 'Registration must close no later than the start.' });
    expect((await gw.api.get(`/tournaments/${t.id}`)).body.name).toBe(t.name);
  });

  it('answers 404 for a missing or deleted tournament and 400 for a malformed id', async () => {
    expect((await updateTournament(987654, tournamentFields())).status).toBe(404);
    const t = await createTournament(gw.api, admin);
    await gw.api.delete(`/tournaments/admin/delete${t.id}`, admin);
    const deleted = await updateTournament(t.id, tournamentFields());
    expect(deleted.status).toBe(404);
    expect(deleted.body.message).toBe('Tournament not found.');
    expect((await updateTournament('x1', tournamentFields())).status).toBe(400);
  });

  it('refuses maxTeams below the registered teams with 409, and allows equal', async () => {
    const t = await createTournament(gw.api, admin, { maxTeams: '5' });
    await registerTeam(t.id);
    await registerTeam(t.id);
    await registerTeam(t.id);
    const below = await updateTournament(t.id, tournamentFields({ maxTeams: '2' }));
    expect(below.status).toBe(409);
    expect(below.body.errors.maxTeams).toMatch(/3 teams are already registered/);
    expect((await gw.api.get(`/tournaments/${t.id}`)).body.maxTeams).toBe(5);
    const equal = await updateTournament(t.id, tournamentFields({ maxTeams: '3' }));
    expect(equal.status).toBe(200);
    expect(equal.body).toMatchObject({ maxTeams: 3, registeredTeams: 3 });
  });
});

// Issue 27 item 10 (decision 055): each tournament has its own payee, set on its form.
describe('the payee (UPI ID and name)', () => {
  it('is stored per tournament, answered on the detail, list and admin summary, kept when left out and cleared by ""', async () => {
    const plain = await createTournament(gw.api, admin);
    // A tournament without a payee answers exactly as before: no payee keys at all.
    expect(plain).not.toHaveProperty('payeeUpiId');
    expect(plain).not.toHaveProperty('payeeName');

    const created = await addTournament(tournamentFields({ payeeUpiId: ' cup.organiser@okaxis ', payeeName: ' Cup Organiser ' }));
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    expect(created.body).toMatchObject({ payeeUpiId: 'cup.organiser@okaxis', payeeName: 'Cup Organiser' });
    const id = created.body.id;
    expect((await gw.api.get(`/tournaments/${id}`)).body).toMatchObject({ payeeUpiId: 'cup.organiser@okaxis', payeeName: 'Cup Organiser' });
    const listed = (await gw.api.get('/tournaments')).body.find((t: { id: number }) => t.id === id);
    expect(listed).toMatchObject({ payeeUpiId: 'cup.organiser@okaxis' });
    const summary = (await gw.api.get('/tournaments/admin/summary', admin)).body;
    expect(summary.find((t: { id: number }) => t.id === id)).toMatchObject({ payeeUpiId: 'cup.organiser@okaxis' });
    expect(summary.find((t: { id: number }) => t.id === plain.id)).not.toHaveProperty('payeeUpiId');

    // An update from a form without the fields keeps the payee; "" clears both.
    expect((await updateTournament(id, tournamentFields({ name: 'Kept' }))).body).toMatchObject({ payeeUpiId: 'cup.organiser@okaxis' });
    const changed = await updateTournament(id, tournamentFields({ payeeUpiId: 'new-payee@ybl', payeeName: 'New Payee' }));
    expect(changed.body).toMatchObject({ payeeUpiId: 'new-payee@ybl', payeeName: 'New Payee' });
    const cleared = await updateTournament(id, tournamentFields({ payeeUpiId: '', payeeName: '' }));
    expect(cleared.status).toBe(200);
    expect(cleared.body).not.toHaveProperty('payeeUpiId');
  });

  it('refuses a UPI ID that is not handle@provider, and one half of the payee, beside the field', async () => {
    for (const bad of ['organiser', 'organiser@', '@okaxis', 'a b@okaxis', 'organiser@ok1axis', 'x@okaxis']) {
      const res = await addTournament(tournamentFields({ payeeUpiId: bad, payeeName: 'Cup Organiser' }));
      expect(res.status, bad).toBe(400);
      expect(res.body.errors, bad).toEqual({ payeeUpiId: 'UPI ID must look like handle@provider, for example organiser@okaxis.' });
    }
    const noName = await addTournament(tournamentFields({ payeeUpiId: 'cup@okaxis' }));
    expect(noName.body.errors).toEqual({ payeeName: 'Give the name players see in their UPI app, or clear the UPI ID too.' });
    const noId = await addTournament(tournamentFields({ payeeUpiId: '', payeeName: 'Cup Organiser' }));
    expect(noId.body.errors).toEqual({ payeeUpiId: 'Give the UPI ID that receives the fees, or clear the payee name too.' });
    const longName = await addTournament(tournamentFields({ payeeUpiId: 'cup@okaxis', payeeName: 'N'.repeat(51) }));
    expect(longName.body.errors).toEqual({ payeeName: 'Payee name must be at most 50 characters.' });
  });
  it("finds the tournaments that take fees and pay the placeholder, for npm start's warning", async () => {
    const feeNoPayee = await createTournament(gw.api, admin, { entryFee: '50' });
    const feePlaceholder = await createTournament(gw.api, admin, { entryFee: '50', payeeUpiId: PLACEHOLDER_UPI_ID, payeeName: 'X' });
    const feeOwn = await createTournament(gw.api, admin, { entryFee: '50', payeeUpiId: 'cup@okaxis', payeeName: 'Cup' });
    const free = await createTournament(gw.api, admin, { entryFee: '0' });
    const mine = new Set([feeNoPayee.id, feePlaceholder.id, feeOwn.id, free.id]);
    const found = async (siteDefault: string) =>
      (await tournamentsPayingPlaceholder(gw.app.store.db, siteDefault)).filter((t) => mine.has(t.id)).map((t) => t.id);
    // The site's default is the placeholder: a tournament without its own payee pays it too.
    expect(await found(PLACEHOLDER_UPI_ID)).toEqual([feeNoPayee.id, feePlaceholder.id]);
    // A real default: only the one that named the placeholder itself.
    expect(await found('site@okicici')).toEqual([feePlaceholder.id]);

    expect(placeholderWarning([])).toEqual([]);
    const lines = placeholderWarning([{ id: 7, name: 'BGMI Cup' }]);
    expect(lines[0]).toBe(
      '  Warning: 1 tournament that takes fees still pays the placeholder UPI ID customroom@upi, where nobody receives the money: BGMI Cup (#7).',
    );
    const many = placeholderWarning(Array.from({ length: 7 }, (_, i) => ({ id: i + 1, name: `Cup ${i + 1}` })));
    expect(many[0]).toMatch(/^ {2}Warning: 7 tournaments that take fees still pay .*Cup 5 \(#5\), and 2 more\.$/);
  });
});

describe('DELETE /tournaments/admin/delete{id}', () => {
  it('soft-deletes: hidden from list and detail, its rows stay in the database', async () => {
    const t = await createTournament(gw.api, admin);
    const team = await registerTeam(t.id);
    const { db } = gw.app.store;
    const now = new Date().toISOString();
    await db
      .insertInto('matches')
      .values({
        tournament_id: t.id,
        day: 1,
        match_no: 1,
        map: 'Erangel',
        room_id: '123',
        room_password: 'pw',
        time: '18:00',
        created_at: now,
        updated_at: now,
      })
      .execute();
    await db
      .insertInto('match_results')
      .values({
        tournament_id: t.id,
        day: 1,
        match_no: 1,
        registration_id: team.rid,
        position: 1,
        wins: 1,
        finishes: 5,
        position_points: 10,
        total_points: 15,
        created_at: now,
        updated_at: now,
      })
      .execute();

    const res = await gw.api.delete(`/tournaments/admin/delete${t.id}`, admin);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ message: 'Tournament deleted successfully!' });

    expect(((await gw.api.get('/tournaments')).body as any[]).some((x) => x.id === t.id)).toBe(false);
    const detail = await gw.api.get(`/tournaments/${t.id}`);
    expect(detail.status).toBe(404);
    expect(detail.body).toEqual({ message: 'Tournament not found.' });

    const row = await db.selectFrom('tournaments').select(['deleted_at', 'name']).where('id', '=', t.id).executeTakeFirstOrThrow();
    expect(row.deleted_at).toMatch(/Z$/);
    expect(row.name).toBe(t.name);
    const count = async (table: 'registrations' | 'matches' | 'match_results') =>
      Number(
        (
          await db
            .selectFrom(table)
            .select((eb) => eb.fn.countAll().as('n'))
            .where('tournament_id', '=', t.id)
            .executeTakeFirstOrThrow()
        ).n,
      );
    expect(await count('registrations')).toBe(1);
    expect(await count('matches')).toBe(1);
    expect(await count('match_results')).toBe(1);
  });

  it('answers 404 when missing or already deleted', async () => {
    const t = await createTournament(gw.api, admin);
    expect((await gw.api.delete(`/tournaments/admin/delete${t.id}`, admin)).status).toBe(200);
    const again = await gw.api.delete(`/tournaments/admin/delete${t.id}`, admin);
    expect(again.status).toBe(404);
    expect(again.body.message).toBe('Tournament not found.');
    expect((await gw.api.delete('/tournaments/admin/delete987654', admin)).status).toBe(404);
  });

  it('lives at exactly /tournaments/admin/delete{id}: the slash form is not the route', async () => {
    const t = await createTournament(gw.api, admin);
    const slash = await gw.api.delete(`/tournaments/admin/delete/${t.id}`, admin);
    expect(slash.status).toBe(404);
    expect(slash.body.message).toMatch(/No route/);
    expect((await gw.api.get(`/tournaments/${t.id}`)).status).toBe(200);
    expect((await gw.api.delete('/tournaments/admin/deleteabc', admin)).status).toBe(400);
    expect((await gw.api.delete(`/tournaments/admin/delete${t.id}`, admin)).status).toBe(200);
  });
});

describe('OpenAPI', () => {
  it('documents the tournament routes, the multipart fields and the slash-less delete path', async () => {
    const doc = (await gw.api.get('/openapi.json')).body;
    for (const path of [
      '/tournaments',
      '/tournaments/{id}',
      '/tournaments/add',
      '/tournaments/admin/update/{id}',
      '/tournaments/admin/delete{id}',
    ]) {
      expect(Object.keys(doc.paths), path).toContain(path);
    }
    for (const op of [doc.paths['/tournaments/add'].post, doc.paths['/tournaments/admin/update/{id}'].put]) {
      const schema = op.requestBody.content['multipart/form-data'].schema;
      expect(Object.keys(schema.properties)).toEqual(
        expect.arrayContaining(['name', 'startDate', 'maxTeams', 'entryFee', 'status', 'pointsSystem', 'coverImage']),
      );
      expect(schema.properties.coverImage).toMatchObject({ type: 'string', format: 'binary' });
      expect(schema.required).not.toContain('coverImage');
      expect(op.security).toEqual([{ bearerAuth: [] }]);
    }
    expect(doc.paths['/tournaments/admin/delete{id}'].delete.parameters[0]).toMatchObject({ in: 'path', name: 'id' });
  });
});
