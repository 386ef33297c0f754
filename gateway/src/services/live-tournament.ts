import { TOURNAMENT_NOT_FOUND } from '@custom-room/contract';
import type { DatabaseHandle, Trx } from '../db/index.js';
import { findLiveTournament } from '../db/registrations.js';
import { notFound } from '../lib/errors.js';

/** The tournament's registration columns, or 404 when it does not exist or is deleted. */
export async function liveTournamentOr404(db: Trx, id: number) {
  const tournament = await findLiveTournament(db, id);
  if (!tournament) throw notFound(TOURNAMENT_NOT_FOUND);
  return tournament;
}

/**
 * Inside a transaction: locks the tournament's row (writes to one tournament take turns) and answers
 * 404 when it does not exist or is deleted.
 */
export async function lockLiveTournamentOr404(store: Pick<DatabaseHandle, 'lockTournament'>, trx: Trx, id: number) {
  const locked = await store.lockTournament(trx, id);
  if (!locked || locked.deleted_at) throw notFound(TOURNAMENT_NOT_FOUND);
  return locked;
}
