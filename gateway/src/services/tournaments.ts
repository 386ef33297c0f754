import type { FastifyInstance } from 'fastify';
import { TOURNAMENT_NOT_FOUND, type TournamentForm, type TournamentJson } from '@custom-room/contract';
import { bumpGeneration } from '../db/generation.js';
import { insertImage, type ProcessedImage } from '../db/images.js';
import type { Trx } from '../db/index.js';
import { findOrganiserOfOwner, siteOrganiserId } from '../db/organisers.js';
import { findPlaceRules, type PlaceRules } from '../db/places.js';
import { countRegistrations } from '../db/registrations.js';
import {
  getTournament,
  insertTournament,
  setUnpaidPayBy,
  softDeleteTournament,
  toTournamentJson,
  updateTournament,
} from '../db/tournaments.js';
import { isoAt } from '../lib/clock.js';
import { conflict, notFound } from '../lib/errors.js';
import type { ServiceDeps } from './deps.js';
import { lockLiveTournamentOr404 } from './live-tournament.js';
import { payByFor } from './places/rules.js';
import { fillPlaces, settlePlaces } from './places/settle.js';

/** A live tournament's answer, its phase dated by the app's clock; 404 when it does not exist or is deleted. */
export async function tournamentJsonOr404({ store, clock }: ServiceDeps, id: number): Promise<TournamentJson> {
  const row = await getTournament(store.db, id);
  if (!row) throw notFound(TOURNAMENT_NOT_FOUND);
  return toTournamentJson(row, clock.now());
}

/**
 * A new tournament with its cover; returns its id. It belongs to the caller's approved organiser, or,
 * for a site admin without one, to the Site organiser (decision 065).
 */
export function createTournament(
  app: FastifyInstance,
  form: TournamentForm,
  cover: ProcessedImage | undefined,
  by: { id: number },
): Promise<number> {
  return app.store.writeTransaction(async (trx) => {
    const at = isoAt(app.clock.now());
    const own = await findOrganiserOfOwner(trx, by.id);
    const organiserId = own?.status === 'approved' ? Number(own.id) : await siteOrganiserId(trx);
    if (cover) await insertImage(trx, cover, at);
    const id = await insertTournament(trx, { ...form, coverImageId: cover?.id ?? null }, at, organiserId);
    await bumpGeneration(trx, id);
    return id;
  });
}

/**
 * An organiser's edit, the tournament locked (the lock orders it against registrations, so the count
 * cannot grow past the new maxTeams); no new cover keeps the current one. 404 when missing or
 * deleted, 409 when more teams are registered than the new maxTeams.
 */
export function editTournament(app: FastifyInstance, id: number, form: TournamentForm, cover: ProcessedImage | undefined): Promise<void> {
  return app.store.writeTransaction(async (trx) => {
    await lockLiveTournamentOr404(app.store, trx, id);
    const now = app.clock.now();
    // Decision 043: teams already overdue lose their place under the rules they registered by, before any new rule.
    const before = await findPlaceRules(trx, id);
    if (before) await settlePlaces(trx, before, now);
    const registered = await countRegistrations(trx, id);
    if (form.maxTeams < registered) {
      const message = `${registered} teams are already registered: Max teams cannot be lower than that.`;
      throw conflict(message, { maxTeams: message });
    }
    if (cover) await insertImage(trx, cover, isoAt(now));
    if (await updateTournament(trx, id, { ...form, coverImageId: cover?.id }, isoAt(now))) await bumpGeneration(trx, id);
    const after = await findPlaceRules(trx, id);
    if (before && after) await placeRulesChanged(trx, before, after, app.clock.now());
  });
}

/**
 * Decision 043, after an edit (tournament locked): a new payment deadline applies to the teams already
 * placed and unpaid, counted from now; more places take waitlisted teams at once.
 */
async function placeRulesChanged(trx: Trx, before: PlaceRules, after: PlaceRules, now: number): Promise<void> {
  const deadlineChanged =
    before.payment_deadline_hours !== after.payment_deadline_hours ||
    before.payment_deadline_at !== after.payment_deadline_at ||
    Number(before.entry_fee) <= 0 !== Number(after.entry_fee) <= 0;
  if (deadlineChanged) await setUnpaidPayBy(trx, after.id, payByFor(after, now));
  if ((await fillPlaces(trx, after, now)).length > 0) await bumpGeneration(trx, after.id);
}

/** Hides a tournament (soft delete); 404 when missing or already deleted. */
export async function deleteTournament(app: FastifyInstance, id: number): Promise<void> {
  const deleted = await app.store.writeTransaction(async (trx) => {
    const done = await softDeleteTournament(trx, id, isoAt(app.clock.now()));
    if (done) await bumpGeneration(trx, id);
    return done;
  });
  if (!deleted) throw notFound(TOURNAMENT_NOT_FOUND);
}
