import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  adminToken,
  createTournament,
  createUser,
  startGateway,
  teamFields,
  toForm,
  tournamentFields,
  unique,
  uniquePhone,
  type TestGateway,
} from './helpers.js';

const hidden = (label: string) => `${label} cannot contain invisible or direction-changing characters.`;
const blank = (label: string) => `${label} must contain at least one visible character.`;

/** Names that look like something else, or like nothing (issue 10, defect 7). */
const RLO_FILENAME = 'abc\u202Egnp.exe\u200B'; // shows as "abcexe.png"
const INVISIBLE_NAMES: [string, string][] = [
  ['a right-to-left override (U+202E) and a zero-width space', RLO_FILENAME],
  ['a zero-width joiner (U+200D)', 'Soul\u200DMortal'],
  ['a zero-width non-joiner (U+200C)', 'Soul\u200CX'],
  ['a word joiner (U+2060)', 'Team\u2060Soul'],
  ['a byte order mark inside (U+FEFF)', 'Team\uFEFFSoul'],
  ['a right-to-left isolate (U+2067)', 'Team \u2067Soul'],
  ['a left-to-right mark (U+200E)', 'Team\u200ESoul'],
  ['only zero-width spaces', '\u200B\u200B\u200B\u200B'],
  ['only Hangul fillers (U+3164)', '\u3164\u3164\u3164'],
  ['a control character', 'Team\u0007Soul'],
  // Issue 16 item 12: default-ignorable characters that are not format characters (decision 033).
  ['a combining grapheme joiner (U+034F)', 'Blaze\u034F'],
  ['a variation selector (U+FE0F)', 'Jonathan\uFE0F'],
  ['a variation selector (U+FE00)', 'Jona\uFE00than'],
  ['a supplementary variation selector (U+E0100)', 'Jonathan\u{E0100}'],
  ['a Mongolian free variation selector (U+180B)', 'Team\u180BSoul'],
  ['a Khmer inherent vowel (U+17B4)', 'Team\u17B4Soul'],
  ['a reserved default-ignorable (U+FFF0)', 'Soul\uFFF0X'],
];
const ONLY_MARKS = '\u0301\u0301\u0301\u0301'; // combining accents on nothing

describe('names with invisible characters', () => {
  let gw: TestGateway;
  let admin: string;
  beforeAll(async () => {
    gw = await startGateway();
    admin = await adminToken(gw.api);
  });
  afterAll(() => gw.stop());

  describe('team names and in-game names', () => {
    it.each(INVISIBLE_NAMES)('refuses a team name with %s, naming the field, and stores nothing', async (_what, name) => {
      const player = await createUser(gw.api);
      const tournament = await createTournament(gw.api, admin);
      const res = await gw.api.post(`/registrations/${tournament.id}`, teamFields({ teamName: name }), player.token);
      expect(res.status).toBe(400);
      expect(res.body.errors).toEqual({ teamName: hidden('Team name') });
      expect((await gw.api.get('/registrations/user', player.token)).body).toEqual([]);
    });

    it.each(INVISIBLE_NAMES)('refuses an IGN with %s, for players and substitutes', async (_what, name) => {
      const player = await createUser(gw.api);
      const tournament = await createTournament(gw.api, admin);
      const res = await gw.api.post(
        `/registrations/${tournament.id}`,
        teamFields({ player3Username: name, substitute1Username: name }),
        player.token,
      );
      expect(res.status).toBe(400);
      expect(res.body.errors).toEqual({ player3Username: hidden('Player 3 IGN'), substitute1Username: hidden('Substitute 1 IGN') });
    });

    it('refuses names made only of combining marks', async () => {
      const player = await createUser(gw.api);
      const tournament = await createTournament(gw.api, admin);
      const res = await gw.api.post(
        `/registrations/${tournament.id}`,
        teamFields({ teamName: ONLY_MARKS, player1Username: ONLY_MARKS }),
        player.token,
      );
      expect(res.status).toBe(400);
      expect(res.body.errors).toEqual({ teamName: blank('Team name'), player1Username: blank('Player 1 IGN') });
    });

    it('refuses them on a team update too, and keeps the team as it was', async () => {
      const player = await createUser(gw.api);
      const tournament = await createTournament(gw.api, admin);
      const team = teamFields();
      expect((await gw.api.post(`/registrations/${tournament.id}`, team, player.token)).status).toBe(201);
      const res = await gw.api.put(
        `/registrations/${tournament.id}`,
        { ...team, teamName: RLO_FILENAME, player2Username: '\u200B\u200B' },
        player.token,
      );
      expect(res.status).toBe(400);
      expect(res.body.errors).toEqual({ teamName: hidden('Team name'), player2Username: hidden('Player 2 IGN') });
      expect((await gw.api.get(`/registrations/${tournament.id}`, player.token)).body.teamName).toBe(team.teamName);
    });

    it('refuses a squad of four players all shown as "Jonathan", naming the three hidden ones', async () => {
      const player = await createUser(gw.api);
      const tournament = await createTournament(gw.api, admin);
      const u = unique();
      const team = teamFields({
        player1Username: `Jonathan${u}`,
        player2Username: `Jonathan${u}\uFE0F`,
        player3Username: `Jonathan${u}\u034F`,
        player4Username: `Jonathan${u}\u{E0100}`,
      });
      const res = await gw.api.post(`/registrations/${tournament.id}`, team, player.token);
      expect(res.status).toBe(400);
      expect(res.body.errors).toEqual({
        player2Username: hidden('Player 2 IGN'),
        player3Username: hidden('Player 3 IGN'),
        player4Username: hidden('Player 4 IGN'),
      });
      expect((await gw.api.get('/registrations/user', player.token)).body).toEqual([]);
    });

    it('accepts names in any script, with accents and emoji', async () => {
      const player = await createUser(gw.api);
      const tournament = await createTournament(gw.api, admin);
      const u = unique();
      const team = teamFields({ teamName: `सोल ${u} 🔥`, player1Username: `Zoë_${u}`, player2Username: `ஜெய்${u}` });
      const res = await gw.api.post(`/registrations/${tournament.id}`, team, player.token);
      expect(res.status).toBe(201);
      expect(res.body.teamName).toBe(team.teamName);
      expect(res.body.player2Username).toBe(team.player2Username);
    });
  });

  describe('usernames', () => {
    const account = (username: string) => ({
      email: `inv${unique()}@test.example`,
      phone: uniquePhone(),
      username,
      password: 'a good long password',
    });

    it.each(INVISIBLE_NAMES)('refuses a username with %s', async (_what, name) => {
      const res = await gw.api.post('/api/auth/register', account(name.slice(0, 20)));
      expect(res.status).toBe(400);
      expect(res.body.errors).toEqual({ username: hidden('Username') });
    });

    it('refuses a username that looks like another one plus a zero-width space, while the plain one registers', async () => {
      const name = `clone_${unique()}`.slice(0, 18);
      expect((await gw.api.post('/api/auth/register', account(`${name}\u200B`))).status).toBe(400);
      expect((await gw.api.post('/api/auth/register', account(name))).status).toBe(201);
    });
  });

  describe('look-alike names (issue 16 item 12)', () => {
    const TAKEN = { teamName: 'A team with this name is already registered.' };
    // [what, the name registered first, a name that shows the same]
    const LOOK_ALIKES: [string, string, string][] = [
      ['full-width letters', 'Soul', 'Ｓｏｕｌ'],
      ['Cyrillic letters', 'Soul', 'Ѕоul'],
      ['a Greek omicron', 'Soul', 'Sοul'],
      ['mathematical bold letters', 'Soul', '𝐒𝐨𝐮𝐥'],
      ['a ligature', 'fire', 'ﬁre'],
      ['a digit zero for a capital O', 'SOUL', 'S0UL'],
      ['Cyrillic capitals', 'TEAM SOUL', 'ТЕАМ ЅОUL'],
      ['capital I for small l', 'Blaze Clan', 'BIaze CIan'],
    ];

    it.each(LOOK_ALIKES)(
      'refuses a team name written with %s beside the original, either way round, and shows each as typed',
      async (_what, original, lookAlike) => {
        const [a, b] = [await createUser(gw.api), await createUser(gw.api)];
        for (const [first, second] of [
          [original, lookAlike],
          [lookAlike, original],
        ]) {
          const tournament = await createTournament(gw.api, admin);
          const created = await gw.api.post(`/registrations/${tournament.id}`, teamFields({ teamName: first }), a.token);
          expect(created.status).toBe(201);
          expect(created.body.teamName).toBe(first);
          const clash = await gw.api.post(`/registrations/${tournament.id}`, teamFields({ teamName: second }), b.token);
          expect([clash.status, clash.body.errors]).toEqual([409, TAKEN]);
        }
      },
    );

    it('keeps names apart that differ in what shows: accents, scripts, numbers', async () => {
      const tournament = await createTournament(gw.api, admin);
      const names = ['Zoe Squad', 'Zoë Squad', 'सोल Squad', 'Soul Squad', 'Soul 2', 'Soul 3'];
      for (const teamName of names) {
        const res = await gw.api.post(`/registrations/${tournament.id}`, teamFields({ teamName }), (await createUser(gw.api)).token);
        expect(res.status, teamName).toBe(201);
      }
      // The look-alike of one of them still is not.
      const clash = await gw.api.post(
        `/registrations/${tournament.id}`,
        teamFields({ teamName: 'Ｓｏｕｌ ２' }),
        (await createUser(gw.api)).token,
      );
      expect([clash.status, clash.body.errors]).toEqual([409, TAKEN]);
    });

    it('refuses an IGN that shows as one already playing for another team, naming the field', async () => {
      const tournament = await createTournament(gw.api, admin);
      const u = unique();
      expect(
        (
          await gw.api.post(
            `/registrations/${tournament.id}`,
            teamFields({ player1Username: `Jonathan${u}` }),
            (await createUser(gw.api)).token,
          )
        ).status,
      ).toBe(201);
      const other = await createUser(gw.api);
      for (const lookAlike of [`Jοnathan${u}`, `𝐉𝐨𝐧𝐚𝐭𝐡𝐚𝐧${u}`, `ＪＯＮＡＴＨＡＮ${u}`]) {
        const res = await gw.api.post(`/registrations/${tournament.id}`, teamFields({ substitute1Username: lookAlike }), other.token);
        expect([res.status, res.body.errors]).toEqual([
          409,
          { substitute1Username: `${lookAlike} is already playing for another team in this tournament.` },
        ]);
      }
    });

    it('refuses two IGNs of one team that show the same, naming both fields', async () => {
      const player = await createUser(gw.api);
      const tournament = await createTournament(gw.api, admin);
      const u = unique();
      const res = await gw.api.post(
        `/registrations/${tournament.id}`,
        teamFields({ player1Username: `Jonathan${u}`, player3Username: `Jоnаthаn${u}` }),
        player.token,
      );
      expect(res.status).toBe(400);
      expect(res.body.errors).toEqual({
        player3Username: 'Player 3 IGN looks the same as Player 1 IGN: each player needs their own name.',
      });
    });

    it('refuses a username that shows as a taken one (I, l and 1; O and 0; rn and m)', async () => {
      const u = unique();
      const account = (username: string) => ({
        email: `la${unique()}@test.example`,
        phone: uniquePhone(),
        username,
        password: 'a good long password',
      });
      for (const [taken, lookAlike] of [
        [`Iron_${u}`, `lron_${u}`],
        [`Ace1_${u}`, `AceI_${u}`],
        [`OX_${u}`, `0X_${u}`],
        [`morty_${u}`, `rnorty_${u}`],
      ]) {
        expect((await gw.api.post('/api/auth/register', account(taken!))).status).toBe(201);
        const clash = await gw.api.post('/api/auth/register', account(lookAlike!));
        expect([clash.status, clash.body.errors]).toEqual([409, { username: 'This username is already taken.' }]);
      }
    });
  });

  describe('other names', () => {
    it("refuses them in a profile's full name", async () => {
      const player = await createUser(gw.api);
      const res = await gw.api.post('/api/profile/create', { fullName: 'Rahul\u202E Sharma' }, player.token);
      expect(res.status).toBe(400);
      expect(res.body.errors).toEqual({ fullName: hidden('Full name') });
      const blankName = await gw.api.post('/api/profile/create', { fullName: '\u200B' }, player.token);
      expect(blankName.body.errors).toEqual({ fullName: hidden('Full name') });
    });

    it('refuses them in a tournament name', async () => {
      const res = await gw.api.request('POST', '/tournaments/add', {
        token: admin,
        form: toForm(tournamentFields({ name: `Cup\u200B ${unique()}` })),
      });
      expect(res.status).toBe(400);
      expect(res.body.errors).toEqual({ name: hidden('Name') });
    });

    it('refuses variation selectors and other default-ignorables in a full name, a tournament name and a map', async () => {
      const player = await createUser(gw.api);
      const profile = await gw.api.post('/api/profile/create', { fullName: 'Rahul Sharma\uFE0F' }, player.token);
      expect(profile.body.errors).toEqual({ fullName: hidden('Full name') });
      const tournament = await gw.api.request('POST', '/tournaments/add', {
        token: admin,
        form: toForm(tournamentFields({ name: `Cup\u034F ${unique()}` })),
      });
      expect(tournament.body.errors).toEqual({ name: hidden('Name') });
      const match = await gw.api.post(
        '/matches',
        { tid: (await createTournament(gw.api, admin)).id, day: 1, matchNo: 1, map: 'Erangel\u{E0100}', time: '18:30' },
        admin,
      );
      expect(match.body.errors).toEqual({ map: hidden('Map') });
    });

    it('refuses them in a match map', async () => {
      const tournament = await createTournament(gw.api, admin);
      const res = await gw.api.post('/matches', { tid: tournament.id, day: 1, matchNo: 1, map: 'Erangel\u2066', time: '18:30' }, admin);
      expect(res.status).toBe(400);
      expect(res.body.errors).toEqual({ map: hidden('Map') });
    });
  });
});
