import { bumpGeneration } from '../../db/generation.js';
import type { Trx } from '../../db/index.js';
import { allowTeamBack, barTeam } from '../../db/places.js';
import { findRegistrationById, isConfirmedTeam, toRegistration } from '../../db/registrations.js';
import { isoAt } from '../../lib/clock.js';
import { conflict, notFound } from '../../lib/errors.js';
import type { ServiceDeps } from '../deps.js';
import { liveTournamentOr404 } from '../live-tournament.js';
import { fillPlaces, lockPlaceRulesOr404, releaseTeam, settlePlaces } from '../places/settle.js';
import { REGISTRATION_NOT_FOUND } from './refusals.js';

/** The organiser's actions on a team (decisions 043, 052): release, remove, and allow a removed team back. */

async function findRegistrationOr404(db: Trx, rid: number) {
  const found = await findRegistrationById(db, rid);
  if (!found) throw notFound(REGISTRATION_NOT_FOUND);
  return found;
}

/** The organiser takes a team out: release (unpaid, placed) or remove (any team still in); its answer. */
export async function takeTeamOut(deps: ServiceDeps, rid: number, how: 'release' | 'remove') {
  const { store, clock } = deps;
  const found = await findRegistrationOr404(store.db, rid);
  return store.writeTransaction(async (trx) => {
    const { rules } = await lockPlaceRulesOr404(store, trx, found.tournament_id);
    const at = clock.now();
    await settlePlaces(trx, rules, at);
    const team = await findRegistrationById(trx, rid);
    if (!team) throw notFound(REGISTRATION_NOT_FOUND);
    if (team.place === 'released' || team.place === 'withdrawn') {
      throw conflict(`${team.team_name} has already ${team.place === 'released' ? 'been released' : 'withdrawn'}.`);
    }
    let reason: 'payment-rejected' | 'removed' = 'removed';
    if (how === 'release') {
      if (team.place !== 'placed') throw conflict(`${team.team_name} is on the waitlist: remove it instead.`);
      if (isConfirmedTeam(team, rules.entry_fee)) throw conflict(`${team.team_name} is confirmed: remove the team instead.`);
      if (team.payment_status === 'rejected') reason = 'payment-rejected';
    }
    await releaseTeam(trx, team, reason, at);
    if (how === 'remove') await barTeam(trx, rid);
    await fillPlaces(trx, rules, at);
    await bumpGeneration(trx, found.tournament_id); // registeredTeams
    const row = await findRegistrationById(trx, rid);
    return toRegistration(row!, { entryFee: Number(rules.entry_fee), waitlistPosition: null });
  });
}

/** Decision 052: the organiser lets a removed team register again; its answer. */
export async function allowReturn(deps: ServiceDeps, rid: number) {
  const { store, clock } = deps;
  const found = await findRegistrationOr404(store.db, rid);
  const tournament = await liveTournamentOr404(store.db, found.tournament_id);
  if (!(await allowTeamBack(store.db, rid, isoAt(clock.now())))) {
    throw conflict(`${found.team_name} was not removed by the organiser: nothing to allow.`);
  }
  const row = await findRegistrationById(store.db, rid);
  return toRegistration(row!, { entryFee: Number(tournament.entry_fee), waitlistPosition: null });
}
