import { characterIdProblems, CHARACTER_ID_LABELS, type CharacterIdField, type TeamWithIds } from '@custom-room/contract';
import { findIdentityRules } from '../../db/identity.js';
import type { Trx } from '../../db/index.js';
import { badRequest, conflict, type FieldErrors, type HttpError } from '../../lib/errors.js';

/**
 * Decision 046: the character IDs of a team against its tournament's game (digits per game) and the
 * organiser's requirement. undefined when they pass, or when the tournament is missing (the caller's
 * own checks answer that).
 */
export async function characterIdRefusal(db: Trx, tournamentId: number, team: TeamWithIds): Promise<HttpError | undefined> {
  const rules = await findIdentityRules(db, tournamentId);
  if (!rules) return undefined;
  const errors = characterIdProblems(team, rules.game, rules.requireCharacterIds);
  const fields = Object.keys(errors);
  if (fields.length === 0) return undefined;
  return badRequest(errors[fields[0]!]!, errors);
}

/** 409 naming each character ID that already plays for another team of the tournament. */
export function characterIdTaken(clashes: { field: CharacterIdField; id: string }[]): HttpError {
  if (clashes.length === 0) return conflict('A character ID of this team is already playing for another team in this tournament.');
  const errors: FieldErrors = {};
  for (const { field, id } of clashes) {
    errors[field] = `${CHARACTER_ID_LABELS[field]} ${id} is already playing for another team in this tournament.`;
  }
  return conflict(errors[clashes[0]!.field]!, errors);
}
