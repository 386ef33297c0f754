import { describe, expect, it } from 'vitest';
import {
  matchFields,
  matchJson,
  playerAccount,
  pointsEntry,
  pointsRow,
  registrationJson,
  teamFields,
  tournamentFields,
  tournamentJson,
  unique,
} from '../support';
import {
  MatchBodySchema,
  MatchSchema,
  PointsRowSchema,
  PointsSubmissionSchema,
  RegisterBodySchema,
  RegistrationSchema,
  TeamCreateSchema,
  TournamentSchema,
  validateTournamentForm,
} from '../support/schemas';

/** The shared test data builders (tests/support) make what the gateway's schemas accept and answer. */
describe('test data builders', () => {
  it('make request bodies the gateway accepts', () => {
    expect(RegisterBodySchema.safeParse(playerAccount()).success).toBe(true);
    expect(validateTournamentForm(tournamentFields()).errors).toBeUndefined();
    expect(TeamCreateSchema.safeParse(teamFields()).success).toBe(true);
    expect(MatchBodySchema.safeParse(matchFields(7)).success).toBe(true);
    expect(PointsSubmissionSchema.safeParse(pointsEntry({ teamId: 3, position: 2, finishes: 4 })).success).toBe(true);
  });

  it("make answers exactly as the gateway's schemas describe them (nothing missing, nothing extra)", () => {
    for (const [schema, value] of [
      [TournamentSchema, tournamentJson()],
      [RegistrationSchema, registrationJson()],
      [MatchSchema, matchJson()],
      [PointsRowSchema, pointsRow({ rank: 1, teamName: 'Team Soul' })],
    ] as const) {
      expect(schema.strict().parse(value)).toEqual(value);
    }
  });

  it('take overrides, and make unique names on every call', () => {
    expect(tournamentFields({ entryFee: '0' }).entryFee).toBe('0');
    expect(pointsEntry({ teamId: 3, position: 1, finishes: 0 }).wins).toBe(1);
    const [a, b] = [teamFields(), teamFields()];
    expect(a.teamName).not.toBe(b.teamName);
    expect(a.player1Username).not.toBe(b.player1Username);
    expect(new Set(Array.from({ length: 500 }, unique)).size).toBe(500);
  });
});
