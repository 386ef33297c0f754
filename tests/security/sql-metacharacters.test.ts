// Issue 10, input: SQL metacharacters in names are data. They are stored and returned verbatim,
// and never act as SQL or as LIKE patterns (a name with % or _ matches only itself, case aside).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminToken, createTournament, createUser, startGateway, teamFields, type TestGateway } from './helpers.js';

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
      const igns = { player1Username: `${name.slice(0, 26)} 1`, player2Username: `${name.slice(0, 26)} 2`, player3Username: "O'Brien", player4Username: '50%_off' };
      const team = teamFields({ teamName: name, ...igns });
      const created = await gw.api.post(`/registrations/${tournament.id}`, team, player.token);
      expect(created.status, name).toBe(201);
      expect(created.body).toMatchObject({ teamName: name, ...igns });
      expect((await gw.api.get(`/registrations/${tournament.id}`, player.token)).body).toMatchObject({ teamName: name, ...igns });
      expect((await gw.api.get('/registrations/user', player.token)).body[0]).toMatchObject({ teamName: name, tournament: { name } });
      expect((await gw.api.get(`/registrations/tournament/${tournament.id}`, admin)).body[0]).toMatchObject({ teamName: name, ...igns });

      const points = await gw.api.put(`/tournaments/${tournament.id}/points-table/matches/1/1`, { results: [{ teamId: created.body.rid, position: 1, wins: 1, finishes: 2 }] }, admin);
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
    const profile = { fullName: "D'Souza \"Ace\" -- ; DROP", bio: "'; DROP TABLE profiles; -- 100% _real_ \\", gender: '', dateOfBirth: '', location: "Kochi' OR 1=1", profilePictureUrl: '' };
    expect((await gw.api.post('/api/profile/create', profile, user.token)).body).toMatchObject(profile);
    expect((await gw.api.get('/api/profile/get', user.token)).body).toMatchObject(profile);
  });

  it('compares names by equality, not as LIKE patterns: % and _ match only themselves', async () => {
    const tournament = await createTournament(gw.api, admin);
    const register = async (overrides: Record<string, string>) => gw.api.post(`/registrations/${tournament.id}`, teamFields(overrides), (await createUser(gw.api)).token);

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
    expect((await gw.api.get(`/registrations/tournament/${tournament.id}`, admin)).body.map((r: { teamName: string }) => r.teamName).sort()).toEqual(['%%', 'Alpha_1', 'AlphaX1', 'Zeta'].sort());
  });
});
