import { CHARACTER_ID_LABELS, type CharacterIdField, type IgnField, type TeamWithIds, UTR_TAKEN } from '@custom-room/contract';
import { conflict, type FieldErrors, type HttpError } from '../../lib/errors.js';

/** The refusals of a team's registration, edit and payment (decisions 007, 029, 043, 046, 052), written once. */

export const NO_TEAM = 'You have not registered a team for this tournament.';
export const REGISTRATION_NOT_FOUND = 'Registration not found.';
export const FULL = 'Registration is full.';
export const ALREADY_VERIFIED = 'Your payment has already been verified.';
/** Decision 065: whoever runs a tournament (its owner, its crew, invited or active) does not play in it. */
export const CREW_CANNOT_PLAY = 'You run this tournament: its organiser and crew cannot register a team in it.';

/** Once a tournament is in one of these states its teams are frozen. */
export const TEAM_LOCKED_MESSAGES: Record<string, string> = {
  Ongoing: 'The team can no longer be changed: the tournament has started.',
  Completed: 'The team can no longer be changed: the tournament is over.',
  Cancelled: 'The team can no longer be changed: the tournament was cancelled.',
};

export const alreadyRegistered = () => conflict('You have already registered a team for this tournament.');

export const teamNameTaken = () => {
  const message = 'A team with this name is already registered.';
  return conflict(message, { teamName: message });
};

export const utrTaken = () => conflict(UTR_TAKEN, { upiReference: UTR_TAKEN });

/** 409 naming each IGN that already plays for another team of the tournament. */
export function ignTaken(clashes: { field: IgnField; ign: string }[]): HttpError {
  if (clashes.length === 0) return conflict('A player of this team is already playing for another team in this tournament.');
  const errors: FieldErrors = {};
  for (const { field, ign } of clashes) errors[field] = `${ign} is already playing for another team in this tournament.`;
  return conflict(errors[clashes[0].field], errors);
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

/** Decision 052: a removed team does not come back (its account, name, IGNs or character IDs) unless the organiser allows it. */
export function barredRefusal(clashes: { teamName: string; fields: (keyof TeamWithIds)[] }[]): HttpError | undefined {
  const [first] = clashes;
  if (!first) return undefined;
  const message = `${first.teamName} was removed from this tournament by the organiser: it cannot register again unless the organiser allows it.`;
  const errors: FieldErrors = {};
  for (const clash of clashes) for (const field of clash.fields) errors[field] ??= message;
  return conflict(message, Object.keys(errors).length > 0 ? errors : undefined);
}
