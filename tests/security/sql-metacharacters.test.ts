// Issue 10, input: SQL metacharacters in names are data. They are stored and returned verbatim,
// and never act as SQL or as LIKE patterns (a name with % or _ matches only itself, case aside).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminToken, createTournament, createUser, startGateway, teamFields, tournamentFields, type TestGateway } from './helpers.js';

const NAMES = [
  "'; DROP TABLE users; --",
  'Robert"); DROP TABLE registrations;--',
  "' OR '1'='1",
  '100% Sniper_Squad',
  'back\\slash \\\\ team',
  '%_%',
  '$1 $$ ${x} :name ?',
];

describe('SQL metacharacters in names', () => {
  let gw: TestGateway;
  let admin: string;
  beforeAll(async () => {
    gw = await startGateway();
    admin = await adminToken(gw.api);
  });
  afterAll(() => gw.stop());

  it('stores tournament names, team names and IGNs verbatim and returns them so from every read', async () => {
    for (const name of NAMES) {
      const tournament = await createTournament(gw.api, admin, { name });
      expect(tournament.name).toBe(name);
      expect((await gw.api.get(`/tournaments/${tournament.id}`)).body.name).toBe(name);
      expect((await gw.api.get('/tournaments')).body.find((t: { id: number }) => t.id === tournament.id).name).toBe(name);

      const player = await createUser(gw.api);
      const igns = {
        player1Username: `${name.slice(0, 26)} 1`,
        player2Username: `${name.slice(0, 26)} 2`,
        player3Username: "O'Brien",
        player4Username: '50%_off',
      };
      const team = teamFields({ teamName: name, ...igns });
      const created = await gw.api.post(`/registrations/${tournament.id}`, team, player.token);
      expect(created.status, name).toBe(201);
      expect(created.body).toMatchObject({ teamName: name, ...igns });
      expect((await gw.api.get(`/registrations/${tournament.id}`, player.token)).body).toMatchObject({ teamName: name, ...igns });
      expect((await gw.api.get('/registrations/user', player.token)).body[0]).toMatchObject({ teamName: name, tournament: { name } });
      expect((await gw.api.get(`/registrations/tournament/${tournament.id}`, admin)).body[0]).toMatchObject({ teamName: name, ...igns });

      const points = await gw.api.put(
        `/tournaments/${tournament.id}/points-table/matches/1/1`,
        { results: [{ teamId: created.body.rid, position: 1, wins: 1, finishes: 0 }] },
        admin,
      );
      expect(points.status).toBe(200);
      expect(points.body[0].teamName).toBe(name);
      expect((await gw.api.get(`/tournaments/${tournament.id}/points-table/overall`)).body[0].teamName).toBe(name);
    }
    // The tables the payloads name are still there and still answer.
    expect((await gw.api.get('/api/auth/me', (await createUser(gw.api)).token)).status).toBe(200);
    expect((await gw.api.get('/tournaments')).status).toBe(200);
  });

  it('stores a profile with quotes, dashes and backslashes verbatim', async () => {
    const user = await createUser(gw.api);
    const profile = {
      fullName: 'D\'Souza "Ace" -- ; DROP',
      bio: "'; DROP TABLE profiles; -- 100% _real_ \\",
      gender: '',
      dateOfBirth: '',
      location: "Kochi' OR 1=1",
      profilePictureUrl: '',
    };
    expect((await gw.api.post('/api/profile/create', profile, user.token)).body).toMatchObject(profile);
    expect((await gw.api.get('/api/profile/get', user.token)).body).toMatchObject(profile);
  });

  it('compares names by equality, not as LIKE patterns: % and _ match only themselves', async () => {
    const tournament = await createTournament(gw.api, admin);
    const register = async (overrides: Record<string, string>) =>
      gw.api.post(`/registrations/${tournament.id}`, teamFields(overrides), (await createUser(gw.api)).token);

    expect((await register({ teamName: 'Alpha_1', player1Username: 'ign%1' })).status).toBe(201);
    // Would clash if `_` or `%` were wildcards.
    expect((await register({ teamName: 'AlphaX1', player1Username: 'ignXYZ1' })).status).toBe(201);
    expect((await register({ teamName: '%%', player1Username: 'ign_2' })).status).toBe(201);
    expect((await register({ teamName: 'Zeta', player1Username: 'ignA2' })).status).toBe(201);
    // The same names, case aside, do clash.
    const sameTeam = await register({ teamName: 'ALPHA_1' });
    expect(sameTeam.status).toBe(409);
    expect(sameTeam.body.errors).toEqual({ teamName: 'A team with this name is already registered.' });
    expect((await register({ player2Username: 'IGN%1' })).status).toBe(409);
    expect((await register({ teamName: '%%' })).status).toBe(409);
    expect(
      (await gw.api.get(`/registrations/tournament/${tournament.id}`, admin)).body.map((r: { teamName: string }) => r.teamName).sort(),
    ).toEqual(['%%', 'Alpha_1', 'AlphaX1', 'Zeta'].sort());
  });
});

// Found by the generated-input test on PostgreSQL: a NUL in a profile's bio was a 500 there
// (PostgreSQL text cannot hold U+0000) and stored as is on SQLite. Refused everywhere now.
describe('NUL characters in text', () => {
  let gw: TestGateway;
  let admin: string;
  beforeAll(async () => {
    gw = await startGateway();
    admin = await adminToken(gw.api);
  });
  afterAll(() => gw.stop());

  const NUL = { message: 'Please check the highlighted fields.' };
  const nulError = 'This text contains a NUL character (U+0000), which is not allowed.';

  it('are refused with 400 naming the field in JSON bodies, nested ones included', async () => {
    const player = await createUser(gw.api);
    const tournament = await createTournament(gw.api, admin);
    const profile = { fullName: 'Asha', bio: 'a\u0000b', gender: '', dateOfBirth: '', location: '', profilePictureUrl: '' };
    const calls: [string, Promise<{ status: number; body: any }>, string][] = [
      ['profile bio', gw.api.post('/api/profile/create', profile, player.token), 'bio'],
      ['profile bio on update', gw.api.put('/api/profile/update', profile, player.token), 'bio'],
      ['team name', gw.api.post(`/registrations/${tournament.id}`, teamFields({ teamName: 'Soul\u0000' }), player.token), 'teamName'],
      [
        'UPI reference',
        gw.api.post(`/registrations/${tournament.id}/payment`, { upiReference: '123456\u0000' }, player.token),
        'upiReference',
      ],
      [
        'match room password',
        gw.api.post(
          '/matches',
          { tid: tournament.id, day: 1, matchNo: 1, map: 'Erangel', matchId: '1', password: 'p\u0000w', time: '18:00' },
          admin,
        ),
        'password',
      ],
      [
        'an ignored field of a batch row',
        gw.api.put(
          `/tournaments/${tournament.id}/points-table/matches/1/1`,
          { results: [{ teamId: 1, teamName: '\u0000', position: 1, wins: 0, finishes: 0 }] },
          admin,
        ),
        'results.0.teamName',
      ],
    ];
    for (const [what, pending, field] of calls) {
      const res = await pending;
      expect(res.status, what).toBe(400);
      expect(res.body, what).toEqual({ ...NUL, errors: { [field]: nulError } });
    }
    expect((await gw.api.get('/api/profile/get', player.token)).status).toBe(404);
  });

  it('are refused in multipart tournament fields', async () => {
    const form = new FormData();
    for (const [k, v] of Object.entries(tournamentFields({ description: 'Erangel\u0000Miramar' }))) form.append(k, v);
    const res = await gw.api.request('POST', '/tournaments/add', { token: admin, form });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ ...NUL, errors: { description: nulError } });
  });
});
