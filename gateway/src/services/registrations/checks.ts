import { characterIdProblems, REGISTRATION_CLOSED_AFTER_DRAW, REGISTRATION_OPEN_STATUS, type TeamWithIds } from '@custom-room/contract';
import { CHARACTER_ID_TAKEN, findCharacterIdClashes, findIdentityRules } from '../../db/identity.js';
import { isUniqueViolation, type Trx } from '../../db/index.js';
import { countTaken, drawPublished } from '../../db/places.js';
import {
  findBarredClashes,
  findIgnClashes,
  hasRegistration,
  IGN_TAKEN,
  isTeamNameTaken,
  ONE_TEAM_PER_USER,
  TEAM_NAME_TAKEN,
} from '../../db/registrations.js';
import { isoAt } from '../../lib/clock.js';
import { badRequest, conflict, type HttpError } from '../../lib/errors.js';
import { alreadyRegistered, barredRefusal, characterIdTaken, FULL, ignTaken, teamNameTaken } from './refusals.js';

/** The checks of a team against its tournament that read the database (decisions 007, 046, 052). */

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

/**
 * Two requests can pass the checks at once only where the tournament lock does not serialise them;
 * the unique constraints then stop the second one, and its violation becomes the same 409 as the check.
 */
export async function asTeamConflict(
  db: Trx,
  err: unknown,
  tournamentId: number,
  team: TeamWithIds,
  exceptRegistrationId?: number,
): Promise<unknown> {
  if (isUniqueViolation(err, ONE_TEAM_PER_USER)) return alreadyRegistered();
  if (isUniqueViolation(err, TEAM_NAME_TAKEN)) return teamNameTaken();
  if (isUniqueViolation(err, IGN_TAKEN)) return ignTaken(await findIgnClashes(db, tournamentId, team, exceptRegistrationId));
  if (isUniqueViolation(err, CHARACTER_ID_TAKEN)) {
    return characterIdTaken(await findCharacterIdClashes(db, tournamentId, team, exceptRegistrationId));
  }
  return err;
}

export type Verdict = { refusal: HttpError; place?: undefined } | { refusal?: undefined; place: 'placed' | 'waitlist' };

/**
 * Decision 007's checks, in its order, for a live tournament at nowMs: the refusal to answer, or the
 * place the team gets. A full tournament puts the team on its waitlist when it asked (decision 043).
 */
export async function registrationVerdict(
  db: Trx,
  tournament: { id: number; status: string; max_teams: number; registration_open: string; registration_close: string },
  userId: number,
  team: TeamWithIds,
  nowMs: number,
  waitlist: boolean,
): Promise<Verdict> {
  if (tournament.status !== REGISTRATION_OPEN_STATUS)
    return { refusal: conflict(`Registration is closed for this tournament (status: ${tournament.status}).`) };
  if (nowMs < Date.parse(tournament.registration_open)) return { refusal: conflict('Registration has not opened yet.') };
  if (nowMs > Date.parse(tournament.registration_close)) return { refusal: conflict('Registration has closed.') };
  if (await drawPublished(db, tournament.id)) return { refusal: conflict(REGISTRATION_CLOSED_AFTER_DRAW) };
  if (await hasRegistration(db, tournament.id, userId)) return { refusal: alreadyRegistered() };
  const barred = barredRefusal(await findBarredClashes(db, tournament.id, team, userId));
  if (barred) return { refusal: barred };
  if (await isTeamNameTaken(db, tournament.id, team.teamName)) return { refusal: teamNameTaken() };
  const clashes = await findIgnClashes(db, tournament.id, team);
  if (clashes.length > 0) return { refusal: ignTaken(clashes) };
  const idClashes = await findCharacterIdClashes(db, tournament.id, team);
  if (idClashes.length > 0) return { refusal: characterIdTaken(idClashes) };
  if ((await countTaken(db, tournament.id, isoAt(nowMs))) >= tournament.max_teams)
    return waitlist ? { place: 'waitlist' } : { refusal: conflict(FULL) };
  return { place: 'placed' };
}

/** An edit of team `registrationId`: its new name, IGNs and character IDs against the tournament's other teams. */
export async function teamEditRefusal(
  db: Trx,
  tournamentId: number,
  team: TeamWithIds,
  registrationId: number,
): Promise<HttpError | undefined> {
  if (await isTeamNameTaken(db, tournamentId, team.teamName, registrationId)) return teamNameTaken();
  const clashes = await findIgnClashes(db, tournamentId, team, registrationId);
  if (clashes.length > 0) return ignTaken(clashes);
  const idClashes = await findCharacterIdClashes(db, tournamentId, team, registrationId);
  if (idClashes.length > 0) return characterIdTaken(idClashes);
  // A removed team's players do not come back through another team's edit.
  return barredRefusal(await findBarredClashes(db, tournamentId, team));
}
