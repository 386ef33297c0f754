import type { NoShowAction, StageState } from '@custom-room/contract';
import type { Trx } from './index.js';
import type { StageRow } from './stages.js';

/** Decision 041: every write to a stage's own row. at: the instant the caller's clock gave (ISO text). */

export interface StageSettings {
  name: string;
  lobby_size: number;
  first_slot: number;
  advance_per_group: number;
  advance_best: number;
  check_in_opens_at: string | null;
  check_in_closes_at: string | null;
}

/** The tournament's game, when it exists and is not deleted. */
export async function liveTournamentGame(db: Trx, tournamentId: number): Promise<string | undefined> {
  const row = await db
    .selectFrom('tournaments')
    .select('game')
    .where('id', '=', tournamentId)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  return row?.game;
}

/** A new draft stage at the given place in the tournament's order. */
export function insertStage(trx: Trx, tournamentId: number, ord: number, settings: StageSettings, at: string): Promise<StageRow> {
  return trx
    .insertInto('stages')
    .values({ tournament_id: tournamentId, ord, ...settings, state: 'draft', created_at: at, updated_at: at })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function updateStageSettings(trx: Trx, stageId: number, settings: StageSettings, at: string): Promise<void> {
  await trx
    .updateTable('stages')
    .set({ ...settings, updated_at: at })
    .where('id', '=', stageId)
    .execute();
}

/** The stage is a draft again, without a draw (its groups are deleted with deleteGroups). */
export async function clearDraw(trx: Trx, stageId: number, at: string): Promise<void> {
  await trx
    .updateTable('stages')
    .set({ state: 'draft', draw_method: null, draw_seed: null, drawn_at: null, updated_at: at })
    .where('id', '=', stageId)
    .execute();
}

export async function setStageState(trx: Trx, stageId: number, state: StageState, at: string): Promise<void> {
  await trx.updateTable('stages').set({ state, updated_at: at }).where('id', '=', stageId).execute();
}

/** Issue 27: minutes between one group's start and the next one's. */
export async function setGroupGap(trx: Trx, stageId: number, minutes: number): Promise<void> {
  await trx.updateTable('stages').set({ group_gap_minutes: minutes }).where('id', '=', stageId).execute();
}

/** Decision 043: what the organiser decided for the stage's no-shows. */
export async function setNoShows(trx: Trx, stageId: number, action: NoShowAction, at: string): Promise<void> {
  await trx.updateTable('stages').set({ no_shows: action, updated_at: at }).where('id', '=', stageId).execute();
}

/** Deletes a stage with its invitations and results (its groups go first, with deleteGroups). */
export async function deleteStage(trx: Trx, stageId: number): Promise<void> {
  await trx.deleteFrom('stage_invites').where('stage_id', '=', stageId).execute();
  await trx.deleteFrom('stage_results').where('stage_id', '=', stageId).execute();
  await trx.deleteFrom('stages').where('id', '=', stageId).execute();
}
