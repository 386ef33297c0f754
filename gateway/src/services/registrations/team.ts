import { NOT_PLACED_MESSAGES, type TeamWithIds } from '@custom-room/contract';
import { bumpGeneration } from '../../db/generation.js';
import { saveCharacterIds } from '../../db/identity.js';
import type { Trx } from '../../db/index.js';
import { leavePlace } from '../../db/places.js';
import { findRegistrationById, findUserRegistration, toRegistration, updateRegistrationTeam } from '../../db/registrations.js';
import { isoAt } from '../../lib/clock.js';
import { conflict, notFound } from '../../lib/errors.js';
import type { ServiceDeps } from '../deps.js';
import { liveTournamentOr404 } from '../live-tournament.js';
import { withdrawalRefusal } from '../places/rules.js';
import { fillPlaces, lockPlaceRulesOr404, settlePlaces } from '../places/settle.js';
import { registrationAnswer } from './answers.js';
import { asTeamConflict, characterIdRefusal, teamEditRefusal } from './checks.js';
import { NO_TEAM, TEAM_LOCKED_MESSAGES } from './refusals.js';

/** The captain's own team: its edit and its withdrawal (decisions 007, 043, 052). */

/** Why the team of a tournament in this state may no longer change at atMs, or undefined while it may. */
const frozenRefusal = (tournament: { status: string; start_date: string }, atMs: number) =>
  TEAM_LOCKED_MESSAGES[tournament.status] ?? (atMs >= Date.parse(tournament.start_date) ? TEAM_LOCKED_MESSAGES.Ongoing : undefined);

/**
 * Inside a write transaction: locks the live tournament, settles its places at the clock's time (an overdue
 * team is released before it can act) and reads the user's team, which must still hold or wait for a place.
 */
async function lockOwnTeam({ store, clock }: ServiceDeps, trx: Trx, tournamentId: number, userId: number) {
  const { rules } = await lockPlaceRulesOr404(store, trx, tournamentId);
  const tournament = await liveTournamentOr404(trx, tournamentId);
  const at = clock.now();
  await settlePlaces(trx, rules, at);
  const existing = await findUserRegistration(trx, tournamentId, userId);
  if (!existing) throw notFound(NO_TEAM);
  if (existing.place === 'released' || existing.place === 'withdrawn') throw conflict(NOT_PLACED_MESSAGES[existing.place]);
  return { rules, tournament, at, existing };
}

/** Replaces the user's team's fields; the registration's answer. */
export async function updateTeam(deps: ServiceDeps, tournamentId: number, userId: number, team: TeamWithIds) {
  const { store } = deps;
  const badIds = await characterIdRefusal(store.db, tournamentId, team);
  if (badIds) throw badIds;
  let registrationId: number | undefined;
  try {
    const row = await store.writeTransaction(async (trx) => {
      const { tournament, at, existing } = await lockOwnTeam(deps, trx, tournamentId, userId);
      registrationId = existing.id;
      const frozen = frozenRefusal(tournament, at);
      if (frozen) throw conflict(frozen);
      const refusal = await teamEditRefusal(trx, tournamentId, team, existing.id);
      if (refusal) throw refusal;
      const updated = await updateRegistrationTeam(trx, existing.id, tournamentId, team, isoAt(at));
      await saveCharacterIds(trx, tournamentId, existing.id, team);
      if (updated.team_name !== existing.team_name) await bumpGeneration(trx, tournamentId); // points tables show team names
      return updated;
    });
    return await registrationAnswer(store.db, row);
  } catch (err) {
    throw await asTeamConflict(store.db, err, tournamentId, team, registrationId);
  }
}

/** The captain takes the team out; its place (if placed) goes to the waitlist. The answer says whether it had paid. */
export async function withdrawTeam(deps: ServiceDeps, tournamentId: number, userId: number) {
  return deps.store.writeTransaction(async (trx) => {
    const { rules, tournament, at, existing } = await lockOwnTeam(deps, trx, tournamentId, userId);
    const refusal = withdrawalRefusal(existing.place, tournament, at);
    if (refusal) throw conflict(refusal);
    await leavePlace(trx, existing.id, { place: 'withdrawn' }, isoAt(at));
    // Only a placed team frees a place; a waitlisted one (possibly after registration closed) frees none.
    if (existing.place === 'placed') await fillPlaces(trx, rules, at);
    await bumpGeneration(trx, tournamentId); // registeredTeams
    const row = await findRegistrationById(trx, existing.id);
    if (!row) throw notFound(NO_TEAM);
    const answer = toRegistration(row, { entryFee: Number(rules.entry_fee), waitlistPosition: null });
    return { ...answer, paid: existing.payment_status === 'verified' };
  });
}
