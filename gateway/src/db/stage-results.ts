import type { Insertable } from 'kysely';
import type { Trx } from './index.js';
import type { StageResultsTable } from './schema.js';

/** Decision 041: what a completed stage wrote, every team's ranks and whether it advanced. */

/** Stage ids (among these) whose groups have at least one result. */
export async function stagesWithResults(db: Trx, stageIds: readonly number[]): Promise<Set<number>> {
  if (stageIds.length === 0) return new Set();
  const rows = await db
    .selectFrom('stage_groups as g')
    .select('g.stage_id')
    .where('g.stage_id', 'in', stageIds)
    .where((eb) => eb.exists(eb.selectFrom('match_results as mr').select('mr.id').whereRef('mr.group_id', '=', 'g.id')))
    .distinct()
    .execute();
  return new Set(rows.map((r) => Number(r.stage_id)));
}

/** Replaces a stage's results with these rows (completing it). */
export async function replaceStageResults(trx: Trx, stageId: number, rows: readonly Insertable<StageResultsTable>[]): Promise<void> {
  await deleteStageResults(trx, stageId);
  for (let i = 0; i < rows.length; i += 250)
    await trx
      .insertInto('stage_results')
      .values(rows.slice(i, i + 250))
      .execute();
}

export async function deleteStageResults(trx: Trx, stageId: number): Promise<void> {
  await trx.deleteFrom('stage_results').where('stage_id', '=', stageId).execute();
}
