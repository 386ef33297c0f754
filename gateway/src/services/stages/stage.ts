import { STAGE_NOT_FOUND } from '@custom-room/contract';
import type { DatabaseHandle, Trx } from '../../db/index.js';
import { stagesWithResults } from '../../db/stage-results.js';
import { findStageRow, type StageRow } from '../../db/stages.js';
import type { Clock } from '../../lib/clock.js';
import { badRequest, conflict, notFound } from '../../lib/errors.js';
import { liveTournamentOr404, lockLiveTournamentOr404 } from '../live-tournament.js';

/** What the stage services need of the app: the database and the injected clock. */
export interface StageDeps {
  store: DatabaseHandle;
  clock: Clock;
}

/** A live tournament's entry fee and one of its stages, or 404. */
export async function findStageOr404(db: Trx, tid: number, stageId: number): Promise<{ entryFee: number; stage: StageRow }> {
  const tournament = await liveTournamentOr404(db, tid);
  const stage = await findStageRow(db, tid, stageId);
  if (!stage) throw notFound(STAGE_NOT_FOUND);
  return { entryFee: Number(tournament.entry_fee), stage };
}

/** Inside a write transaction: locks the tournament, then reads the stage and whether it has results. */
export async function lockStage(store: StageDeps['store'], trx: Trx, tid: number, stageId: number) {
  await lockLiveTournamentOr404(store, trx, tid);
  const { entryFee, stage } = await findStageOr404(trx, tid, stageId);
  const hasResults = (await stagesWithResults(trx, [stage.id])).has(stage.id);
  return { entryFee, stage, hasResults };
}

export type LockedStage = Awaited<ReturnType<typeof lockStage>> & { trx: Trx };

/** Runs fn in a write transaction on the locked stage. */
export function writeStage<T>(deps: StageDeps, tid: number, stageId: number, fn: (locked: LockedStage) => Promise<T>): Promise<T> {
  return deps.store.writeTransaction(async (trx) => fn({ ...(await lockStage(deps.store, trx, tid, stageId)), trx }));
}

/** Refusals several stage calls share. */
export const refuse = {
  published: () => conflict('The slot list is published: swap or move teams instead of drawing again.'),
  results: (name: string) => conflict(`${name} already has results.`),
  completed: (name: string) => conflict(`${name} is completed: reopen it first.`),
};

/** The stage's slot numbers, first to last. */
export function slotRange(stage: StageRow): { first: number; last: number } {
  const first = Number(stage.first_slot);
  return { first, last: first + Number(stage.lobby_size) - 1 };
}

/** 400 unless slot is one of the stage's slot numbers; field: the input that named it. */
export function checkSlotInRange(stage: StageRow, slot: number, field: string): void {
  const { first, last } = slotRange(stage);
  if (slot < first || slot > last) {
    const message = `Slots of ${stage.name} are ${first} to ${last}.`;
    throw badRequest(message, { [field]: message });
  }
}

/** 400 for a group that is not the stage's; field: the input that named it. */
export const groupNotInStage = (stage: StageRow, field: string) =>
  badRequest(`That group is not in ${stage.name}.`, { [field]: `That group is not in ${stage.name}.` });
