import type { Advance } from '@custom-room/contract';
import type { Trx } from '../../db/index.js';
import { matchesWithoutResults } from '../../db/stage-matches.js';
import { findStageByOrder, stageStandings, type StageRow } from '../../db/stages.js';
import { conflict } from '../../lib/errors.js';
import { stageJson } from './json.js';
import { advance, type RankedStageTeam } from './rules.js';
import { findStageOr404, type StageDeps } from './stage.js';

/** Everything the advance call answers, from the stage's results now. */
export async function computeAdvance(db: Trx, stage: StageRow): Promise<{ answer: Omit<Advance, 'stage'>; ranked: RankedStageTeam[] }> {
  const teams = await stageStandings(db, stage.id);
  const result = advance(teams, { perGroup: Number(stage.advance_per_group), best: Number(stage.advance_best) });
  const next = await findStageByOrder(db, Number(stage.tournament_id), Number(stage.ord) + 1);
  return {
    ranked: result.ranked,
    answer: {
      missing: await matchesWithoutResults(db, stage.id),
      qualifiers: result.qualifiers.map((q) => ({
        teamId: q.teamId,
        teamName: q.teamName,
        groupName: q.groupName,
        groupRank: q.groupRank,
        stageRank: q.stageRank,
        totalPoints: q.totalPoints,
        via: q.via ?? 'group',
      })),
      cuts: result.cuts,
      nextStage: next ? { id: Number(next.id), name: next.name } : null,
    },
  };
}

/** Who would advance if the published stage completed now. */
export async function previewAdvance(deps: StageDeps, tid: number, stageId: number): Promise<Advance> {
  const db = deps.store.db;
  const { entryFee, stage } = await findStageOr404(db, tid, stageId);
  if (stage.state === 'draft') throw conflict(`${stage.name} is not published yet.`);
  const { answer } = await computeAdvance(db, stage);
  return { stage: await stageJson(db, stage, entryFee), ...answer };
}
