// Issue 16 item 12, generated names (decision 033): default-ignorable characters anywhere in any name
// field are refused naming the field, and names disguised as another (full-width, mathematical,
// Cyrillic and Greek look-alikes, other capitals) are the same name: within a team, across teams of
// a tournament, through the schemas the web forms share and through the gateway. Fixed seed, bounded
// runs: NAME_FUZZ_SEED and NAME_FUZZ_RUNS (schema runs; the gateway gets a tenth of them) change them.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IGN_FIELDS, nameText, TeamCreateSchema, UsernameSchema } from '@custom-room/contract';
import { adminToken, createPlayersDirect, createTournament, startGateway, teamFields, type TestGateway, type TestUser } from './helpers.js';
import { disguiseOf, ign, ignorable, insertAt, teamName } from './look-alikes.js';

const SEED = Number(process.env.NAME_FUZZ_SEED ?? 20_261_124);
const RUNS = Number(process.env.NAME_FUZZ_RUNS ?? 400);
const GATEWAY_RUNS = Math.max(1, Math.round(RUNS / 10));

const hidden = (label: string) => `${label} cannot contain invisible or direction-changing characters.`;
const LABELS: Record<string, string> = {
  player1Username: 'Player 1 IGN',
  player2Username: 'Player 2 IGN',
  player3Username: 'Player 3 IGN',
  player4Username: 'Player 4 IGN',
  substitute1Username: 'Substitute 1 IGN',
  substitute2Username: 'Substitute 2 IGN',
};

/** The first message for a field, as the gateway's errors object and the web forms show it. */
function firstErrors(result: {
  success: boolean;
  error?: { issues: { path: (string | number)[]; message: string }[] };
}): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const issue of result.error?.issues ?? []) errors[String(issue.path[0] ?? '')] ??= issue.message;
  return errors;
}

const filler = (i: number) => `Filler ${'abcdef'[i]}`;
const team = (fields: Record<string, string> = {}) => ({
  teamName: 'Team Filler',
  ...Object.fromEntries(IGN_FIELDS.map((f, i) => [f, filler(i)])),
  ...fields,
});

let attempts = 0;
let held = 0;
afterAll(() => {
  console.log(
    `name rules: ${attempts} generated names refused or told apart as expected: ${held} held (seed ${SEED}, ${RUNS} schema runs, ${GATEWAY_RUNS} gateway runs)`,
  );
});
const check = (ok: () => void) => {
  attempts += 1;
  ok();
  held += 1;
};

describe('generated names against the schemas the gateway and the web forms share', () => {
  it('refuses a default-ignorable character anywhere in an accepted name, in every name field, naming the field', () => {
    const TournamentName = nameText('Name', 100);
    fc.assert(
      fc.property(teamName, ign, fc.stringMatching(/^[A-Za-z0-9_.-]{3,18}$/), ignorable, fc.nat(), (name, player, username, c, at) => {
        expect(
          TeamCreateSchema.safeParse(team({ teamName: name, player2Username: player, substitute1Username: `${player}_s` })).success,
        ).toBe(true);
        const result = TeamCreateSchema.safeParse(
          team({
            teamName: insertAt(name, c, at),
            player2Username: insertAt(player, c, at),
            substitute1Username: insertAt(`${player}_s`, c, at + 1),
          }),
        );
        check(() =>
          expect(firstErrors(result)).toEqual({
            teamName: hidden('Team name'),
            player2Username: hidden('Player 2 IGN'),
            substitute1Username: hidden('Substitute 1 IGN'),
          }),
        );
        check(() => expect(firstErrors(UsernameSchema.safeParse(insertAt(username, c, at)))).toEqual({ '': hidden('Username') }));
        check(() => expect(firstErrors(TournamentName.safeParse(insertAt(`Cup ${name}`, c, at)))).toEqual({ '': hidden('Name') }));
      }),
      { seed: SEED, numRuns: RUNS },
    );
  });

  it('refuses an IGN disguised as another of the same team, naming both fields, and accepts numbered ones', () => {
    const slots = fc.uniqueArray(fc.integer({ min: 0, max: IGN_FIELDS.length - 1 }), { minLength: 2, maxLength: 2 });
    fc.assert(
      fc.property(disguiseOf(ign), slots, ({ name, disguised }, [a, b]) => {
        const [first, second] = [IGN_FIELDS[Math.min(a!, b!)]!, IGN_FIELDS[Math.max(a!, b!)]!];
        const [one, other] = a! < b! ? [name, disguised] : [disguised, name];
        const result = TeamCreateSchema.safeParse(team({ [first]: one, [second]: other }));
        check(() =>
          expect(firstErrors(result)).toEqual({
            [second]: `${LABELS[second]} looks the same as ${LABELS[first]}: each player needs their own name.`,
          }),
        );
        check(() => expect(TeamCreateSchema.safeParse(team({ [first]: `${name}2`, [second]: `${name}3` })).success).toBe(true));
      }),
      { seed: SEED + 1, numRuns: RUNS },
    );
  });
});

describe('generated names through the gateway', () => {
  let gw: TestGateway;
  let admin: string;
  let first: TestUser;
  let second: TestUser;
  beforeAll(async () => {
    gw = await startGateway();
    admin = await adminToken(gw.api);
    [first, second] = await createPlayersDirect(gw.app.store, gw.app.tokens, 2);
  });
  afterAll(() => gw?.stop());

  it('refuses a default-ignorable character in a team name or IGN, naming the field and storing nothing', async () => {
    const tournament = await createTournament(gw.api, admin);
    await fc.assert(
      fc.asyncProperty(teamName, ignorable, fc.nat(), fc.constantFrom('teamName', ...IGN_FIELDS), async (name, c, at, field) => {
        const fields = teamFields({ substitute1Username: 'Sub One', substitute2Username: 'Sub Two' });
        const label = field === 'teamName' ? 'Team name' : LABELS[field]!;
        const res = await gw.api.post(
          `/registrations/${tournament.id}`,
          { ...fields, [field]: insertAt(field === 'teamName' ? name : fields[field]!, c, at) },
          first.token,
        );
        check(() => expect([res.status, res.body.errors]).toEqual([400, { [field]: hidden(label) }]));
      }),
      { seed: SEED + 2, numRuns: GATEWAY_RUNS },
    );
    expect((await gw.api.get(`/registrations/${tournament.id}`, first.token)).status).toBe(404);
  });

  it('refuses a team name or IGN disguised as a registered one, and shows the registered one as typed', async () => {
    await fc.assert(
      fc.asyncProperty(disguiseOf(teamName), disguiseOf(ign), async (name, player) => {
        const tournament = await createTournament(gw.api, admin);
        const original = teamFields({ teamName: name.name, player2Username: player.name });
        expect((await gw.api.post(`/registrations/${tournament.id}`, original, first.token)).status).toBe(201);

        const nameClash = await gw.api.post(`/registrations/${tournament.id}`, teamFields({ teamName: name.disguised }), second.token);
        check(() =>
          expect([nameClash.status, nameClash.body.errors]).toEqual([409, { teamName: 'A team with this name is already registered.' }]),
        );
        const ignClash = await gw.api.post(
          `/registrations/${tournament.id}`,
          teamFields({ player3Username: player.disguised }),
          second.token,
        );
        check(() => expect([ignClash.status, Object.keys(ignClash.body.errors ?? {})]).toEqual([409, ['player3Username']]));

        const stored = (await gw.api.get(`/registrations/${tournament.id}`, first.token)).body;
        expect([stored.teamName, stored.player2Username]).toEqual([name.name, player.name]);
      }),
      { seed: SEED + 3, numRuns: GATEWAY_RUNS },
    );
  });
});
