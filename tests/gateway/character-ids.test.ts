import { beforeAll, describe, expect, it } from 'vitest';
import { createTournament, createUser, teamFields, toForm, tournamentFields, useGatewayWithPlayers, type TestGateway } from './helpers.js';

/** Decision 046: in-game character IDs beside the IGNs, per game, unique per tournament, required when the organiser says so. */
describe('character IDs', () => {
  let gw: TestGateway;
  let admin: string;
  const setup = useGatewayWithPlayers(0);
  beforeAll(() => ({ gw, admin } = setup));

  const register = (tid: number, token: string, fields: Record<string, unknown>) => gw.api.post(`/registrations/${tid}`, fields, token);
  const update = (tid: number, token: string, fields: Record<string, unknown>) => gw.api.put(`/registrations/${tid}`, fields, token);
  const open = (overrides: Record<string, string> = {}) => createTournament(gw.api, admin, overrides);
  let counter = 0;
  /** A fresh 10-digit BGMI-like character ID. */
  const newId = () => `5${String(Date.now() % 1e6).padStart(6, '0')}${String(++counter).padStart(3, '0')}`;

  it('stores each player’s ID with spaces dropped, and every team answer carries them', async () => {
    const t = await open();
    const captain = await createUser(gw.api);
    const [p1, p2, s1] = [newId(), newId(), newId()];
    const team = teamFields({ substitute1Username: 'bench_one' });
    const res = await register(t.id, captain.token, {
      ...team,
      player1CharacterId: ` ${p1.slice(0, 4)} ${p1.slice(4)}\u00A0`,
      player2CharacterId: p2,
      substitute1CharacterId: s1,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const expected = {
      player1CharacterId: p1,
      player2CharacterId: p2,
      player3CharacterId: '',
      player4CharacterId: '',
      substitute1CharacterId: s1,
      substitute2CharacterId: '',
    };
    expect(res.body).toMatchObject(expected);
    expect((await gw.api.get(`/registrations/${t.id}`, captain.token)).body).toMatchObject(expected);
    const mine = await gw.api.get('/registrations/user', captain.token);
    expect(mine.body.find((r: { tid: number }) => r.tid === t.id)).toMatchObject(expected);
    const list = await gw.api.get(`/registrations/tournament/${t.id}`, admin);
    expect(list.body[0]).toMatchObject(expected);
  });

  it('refuses letters, and lengths the game does not use, naming the field in the game’s words', async () => {
    const bgmi = await open({ game: 'BGMI' });
    const ff = await open({ game: 'Free Fire MAX' });
    const other = await open({ game: 'Call of Duty Mobile' });
    const user = await createUser(gw.api);

    const letters = await register(bgmi.id, user.token, { ...teamFields(), player2CharacterId: '51234abc90' });
    expect(letters.status).toBe(400);
    expect(letters.body.errors).toEqual({
      player2CharacterId: 'Player 2 character ID has digits only. Copy it from your profile in the game.',
    });

    const dashes = await register(bgmi.id, user.token, { ...teamFields(), player1CharacterId: '5123-456-789' });
    expect(dashes.status).toBe(400);
    expect(Object.keys(dashes.body.errors)).toEqual(['player1CharacterId']);

    const short = await register(bgmi.id, user.token, { ...teamFields(), player3CharacterId: '51234' });
    expect(short.status).toBe(400);
    expect(short.body.errors).toEqual({
      player3CharacterId: 'Player 3 character ID must have 6 to 12 digits; this has 5. Copy it from your profile in the game.',
    });

    const ffShort = await register(ff.id, user.token, { ...teamFields(), player1CharacterId: '1234567' });
    expect(ffShort.status).toBe(400);
    expect(ffShort.body.errors).toEqual({
      player1CharacterId: 'Player 1 UID must have 8 to 12 digits; this has 7. Copy it from your profile in the game.',
    });
    const ffLong = await register(ff.id, user.token, { ...teamFields(), player1CharacterId: '1234567890123' });
    expect(ffLong.status).toBe(400);
    expect(ffLong.body.message).toMatch(/^Player 1 UID must have 8 to 12 digits; this has 13\./);

    const tooLong = await register(other.id, user.token, { ...teamFields(), player1CharacterId: '1'.repeat(21) });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.errors).toEqual({ player1CharacterId: 'Player 1 character ID must be at most 20 digits.' });
    expect(Object.keys((await register(other.id, user.token, { ...teamFields(), player1CharacterId: '123' })).body.errors)).toEqual([
      'player1CharacterId',
    ]);

    expect((await register(ff.id, user.token, { ...teamFields(), player1CharacterId: '12345678' })).status).toBe(201);
    expect((await register(other.id, user.token, { ...teamFields(), player1CharacterId: '1234' })).status).toBe(201);
    expect((await gw.api.get(`/tournaments/${bgmi.id}`)).body.registeredTeams).toBe(0);
  });

  it('refuses one ID twice in a team, and an ID without its player', async () => {
    const t = await open();
    const user = await createUser(gw.api);
    const id = newId();
    const twice = await register(t.id, user.token, { ...teamFields(), player1CharacterId: id, player4CharacterId: id });
    expect(twice.status).toBe(400);
    expect(twice.body.errors).toEqual({
      player4CharacterId: 'Player 4 character ID is the same as Player 1 character ID: each player has their own.',
    });
    const alone = await register(t.id, user.token, { ...teamFields(), substitute2CharacterId: newId() });
    expect(alone.status).toBe(400);
    expect(alone.body.errors).toEqual({
      substitute2CharacterId: 'Add Substitute 2 IGN too, or leave Substitute 2 character ID empty.',
    });
  });

  it('lets one ID play for one team of a tournament: 409 naming the field, free again once the team drops it', async () => {
    const t = await open();
    const elsewhere = await open();
    const [a, b] = [await createUser(gw.api), await createUser(gw.api)];
    const id = newId();
    const teamA = { ...teamFields(), player2CharacterId: id };
    expect((await register(t.id, a.token, teamA)).status).toBe(201);

    const clash = await register(t.id, b.token, { ...teamFields(), substitute1Username: 'ringer_x', substitute1CharacterId: id });
    expect(clash.status).toBe(409);
    expect(clash.body).toEqual({
      message: `Substitute 1 character ID ${id} is already playing for another team in this tournament.`,
      errors: { substitute1CharacterId: `Substitute 1 character ID ${id} is already playing for another team in this tournament.` },
    });
    // Another tournament is another lobby.
    expect((await register(elsewhere.id, b.token, { ...teamFields(), player1CharacterId: id })).status).toBe(201);

    // The team keeps its own ID through an edit, and gives it up by changing it.
    const teamB = { ...teamFields(), player1CharacterId: newId() };
    expect((await register(t.id, b.token, teamB)).status).toBe(201);
    expect((await update(t.id, a.token, teamA)).status).toBe(200);
    const taken = await update(t.id, b.token, { ...teamB, player3CharacterId: id });
    expect(taken.status).toBe(409);
    expect(Object.keys(taken.body.errors)).toEqual(['player3CharacterId']);
    const moved = await update(t.id, a.token, { ...teamA, player2CharacterId: '' });
    expect(moved.status).toBe(200);
    expect(moved.body.player2CharacterId).toBe('');
    expect((await update(t.id, b.token, { ...teamB, player3CharacterId: id })).body.player3CharacterId).toBe(id);
  });

  it('answers two teams racing for one ID with one 201 and one 409', async () => {
    const t = await open();
    const [a, b] = [await createUser(gw.api), await createUser(gw.api)];
    const id = newId();
    const results = await Promise.all([
      register(t.id, a.token, { ...teamFields(), player1CharacterId: id }),
      register(t.id, b.token, { ...teamFields(), player1CharacterId: id }),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual([201, 409]);
    expect(results.find((r) => r.status === 409)!.body.errors).toEqual({
      player1CharacterId: `Player 1 character ID ${id} is already playing for another team in this tournament.`,
    });
  });

  describe('when the organiser requires them', () => {
    it('is a checkbox of the tournament form, off unless ticked', async () => {
      const on = await open({ requireCharacterIds: 'on' });
      expect(on.requireCharacterIds).toBe(true);
      expect((await gw.api.get(`/tournaments/${on.id}`)).body.requireCharacterIds).toBe(true);
      expect((await open()).requireCharacterIds).toBe(false);
      const bad = await gw.api.request('POST', '/tournaments/add', {
        token: admin,
        form: toForm(tournamentFields({ requireCharacterIds: 'maybe' })),
      });
      expect(bad.status).toBe(400);
      expect(bad.body.errors).toEqual({ requireCharacterIds: 'Require character IDs must be on or off.' });
      // An update without the box unticks it, as a form post does.
      const fields = tournamentFields({
        name: on.name,
        startDate: on.startDate,
        endDate: on.endDate,
        registrationOpen: on.registrationOpen,
        registrationClose: on.registrationClose,
      });
      const off = await gw.api.request('PUT', `/tournaments/admin/update/${on.id}`, { token: admin, form: toForm(fields) });
      expect(off.status).toBe(200);
      expect(off.body.requireCharacterIds).toBe(false);
    });

    it('needs an ID for each of the four players, and for each substitute named', async () => {
      const t = await open({ requireCharacterIds: 'true', game: 'Free Fire' });
      const user = await createUser(gw.api);
      const team = teamFields({ substitute1Username: 'bench_two' });
      const none = await register(t.id, user.token, { ...team, player2CharacterId: '12345678' });
      expect(none.status).toBe(400);
      expect(none.body.errors).toEqual({
        player1CharacterId: 'Player 1 UID is required for this tournament.',
        player3CharacterId: 'Player 3 UID is required for this tournament.',
        player4CharacterId: 'Player 4 UID is required for this tournament.',
        substitute1CharacterId: 'Substitute 1 UID is required for this tournament.',
      });
      expect(none.body.message).toBe('Player 1 UID is required for this tournament.');
      const full = {
        ...team,
        player1CharacterId: '12345671',
        player2CharacterId: '12345672',
        player3CharacterId: '12345673',
        player4CharacterId: '12345674',
        substitute1CharacterId: '12345675',
      };
      expect((await register(t.id, user.token, full)).status).toBe(201);
      // The edit keeps the rule: players 3 and 4 may leave (spec §5), a named one needs an ID.
      const edit = await update(t.id, user.token, { ...full, player3Username: '', player3CharacterId: '', player4CharacterId: '' });
      expect(edit.status).toBe(400);
      expect(edit.body.errors).toEqual({ player4CharacterId: 'Player 4 UID is required for this tournament.' });
      const fewer = await update(t.id, user.token, { ...full, player3Username: '', player3CharacterId: '' });
      expect(fewer.status, JSON.stringify(fewer.body)).toBe(200);
    });
  });

  it('shows the organiser each captain’s phone and email, and no player call carries them', async () => {
    const t = await open();
    const [a, b] = [await createUser(gw.api), await createUser(gw.api)];
    await register(t.id, a.token, teamFields());
    await register(t.id, b.token, teamFields());
    const list = await gw.api.get(`/registrations/tournament/${t.id}`, admin);
    expect(list.body.map((r: { captainPhone: string; captainEmail: string }) => [r.captainPhone, r.captainEmail])).toEqual([
      [`+91${a.phone}`, a.email],
      [`+91${b.phone}`, b.email],
    ]);
    expect((await gw.api.get(`/registrations/tournament/${t.id}`, a.token)).status).toBe(403);
    for (const body of [
      (await gw.api.get(`/registrations/${t.id}`, a.token)).body,
      (await gw.api.get('/registrations/user', a.token)).body,
    ]) {
      const text = JSON.stringify(body);
      expect(text).not.toContain('captain');
      expect(text).not.toContain(b.email);
      expect(text).not.toContain(b.phone);
    }
  });
});

/** Decision 046 with decision 043: a team that leaves gives its character IDs back, like its names. */
describe('character IDs of a team that leaves', () => {
  let gw: TestGateway;
  let admin: string;
  const setup = useGatewayWithPlayers(0);
  beforeAll(() => ({ gw, admin } = setup));

  it('are free for another team once the first one withdraws', async () => {
    const t = await createTournament(gw.api, admin);
    const [first, second] = [await createUser(gw.api), await createUser(gw.api)];
    const id = `7${String(Date.now() % 1e9).padStart(9, '0')}`;
    const a = await gw.api.post(`/registrations/${t.id}`, { ...teamFields(), player1CharacterId: id }, first.token);
    expect(a.status, JSON.stringify(a.body)).toBe(201);
    const clash = await gw.api.post(`/registrations/${t.id}`, { ...teamFields(), player2CharacterId: id }, second.token);
    expect(clash.status).toBe(409);
    expect(Object.keys(clash.body.errors)).toEqual(['player2CharacterId']);
    expect((await gw.api.post(`/registrations/${t.id}/withdraw`, {}, first.token)).status).toBe(200);
    const b = await gw.api.post(`/registrations/${t.id}`, { ...teamFields(), player2CharacterId: id }, second.token);
    expect(b.status, JSON.stringify(b.body)).toBe(201);
    expect(b.body.player2CharacterId).toBe(id);
  });
});
