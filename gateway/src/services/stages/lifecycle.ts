import type { Stage } from '@custom-room/contract';
import { bumpGeneration } from '../../db/generation.js';
import { enqueueEvent } from '../../db/outbox.js';
import { deleteGroups, hasGroups, stageGroups } from '../../db/stage-groups.js';
import { deleteStageResults, stagesWithResults } from '../../db/stage-results.js';
import { clearDraw, setStageState } from '../../db/stage-writes.js';
import { findStageByOrder, findStageRow } from '../../db/stages.js';
import { isoAt } from '../../lib/clock.js';
import { conflict } from '../../lib/errors.js';
import { stageJson } from './json.js';
import { type StageDeps, writeStage } from './stage.js';

/** Publishing a drawn stage, and reopening a completed one (decision 041; completing is complete.ts). */

export function publishStage(deps: StageDeps, tid: number, stageId: number): Promise<Stage> {
  return writeStage(deps, tid, stageId, async ({ trx, stage, entryFee }) => {
    if (stage.state !== 'draft') throw conflict(`${stage.name} is already published.`);
    if (!(await hasGroups(trx, stage.id))) throw conflict(`Generate ${stage.name}'s groups before publishing them.`);
    const now = deps.clock.now();
    await setStageState(trx, stage.id, 'published', isoAt(now));
    await bumpGeneration(trx, tid);
    // Issue 19: each team hears its group and slot (the worker reads them from group_slots).
    const groups = (await stageGroups(trx, [stage.id])).get(stage.id) ?? [];
    await enqueueEvent(
      trx,
      {
        kind: 'stage-published',
        tournamentId: tid,
        audience: { groups: groups.map((g) => g.id) },
        data: { stageId: stage.id, stageName: stage.name },
      },
      now,
    );
    return stageJson(trx, (await findStageRow(trx, tid, stage.id))!, entryFee);
  });
}

/** A completed stage is published again; the next stage, without results, loses its draw. */
export function reopenStage(deps: StageDeps, tid: number, stageId: number): Promise<Stage> {
  return writeStage(deps, tid, stageId, async ({ trx, stage, entryFee }) => {
    if (stage.state !== 'completed') throw conflict(`${stage.name} is not completed.`);
    const at = isoAt(deps.clock.now());
    const next = await findStageByOrder(trx, tid, Number(stage.ord) + 1);
    if (next) {
      if ((await stagesWithResults(trx, [next.id])).has(next.id)) {
        throw conflict(`${stage.name} cannot be reopened: ${next.name} already has results.`);
      }
      await deleteGroups(trx, next.id);
      await clearDraw(trx, next.id, at);
    }
    await deleteStageResults(trx, stage.id);
    await setStageState(trx, stage.id, 'published', at);
    await bumpGeneration(trx, tid);
    return stageJson(trx, (await findStageRow(trx, tid, stage.id))!, entryFee);
  });
}
