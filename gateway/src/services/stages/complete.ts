import { type Advance, DISPUTES_OPEN, resultsInWords } from '@custom-room/contract';
import { openDisputesIn } from '../../db/disputes.js';
import { bumpGeneration } from '../../db/generation.js';
import type { Trx } from '../../db/index.js';
import { enqueueEvent } from '../../db/outbox.js';
import { prizeRows } from '../../db/prizes.js';
import { stageGroups } from '../../db/stage-groups.js';
import { groupMatchCounts, markNotPlayed, matchesWithoutResults } from '../../db/stage-matches.js';
import { replaceStageResults } from '../../db/stage-results.js';
import { setStageState } from '../../db/stage-writes.js';
import { findStageRow, type StageRow } from '../../db/stages.js';
import { isoAt } from '../../lib/clock.js';
import { badRequest, conflict } from '../../lib/errors.js';
import { computeAdvance } from './advance.js';
import { stageJson } from './json.js';
import type { RankedStageTeam } from './rules.js';
import { type StageDeps, writeStage } from './stage.js';

/** Completing a stage (decision 041): its ranks are written and its teams hear who goes on. */

/**
 * Issue 27: a stage completes only when every scheduled group match has results or is marked not played.
 * The matches named in `marked` (without results, of this stage) are marked here, with who and when.
 */
async function settleMissingResults(trx: Trx, stage: StageRow, marked: ReadonlySet<number>, by: string, at: string) {
  const counts = (await groupMatchCounts(trx, [stage.id])).get(stage.id)!;
  if (counts.scheduled === 0) throw conflict(`Schedule ${stage.name}'s matches and enter their results before completing it.`);
  const missing = await matchesWithoutResults(trx, stage.id);
  const open = new Set(missing.map((m) => m.id));
  const wrong = [...marked].filter((id) => !open.has(id));
  if (wrong.length > 0) {
    const message = `Only ${stage.name}'s group matches without results can be marked not played (match ${wrong.join(', ')} cannot).`;
    throw badRequest(message, { notPlayed: message });
  }
  const unsettled = missing.filter((m) => !m.notPlayed && !marked.has(m.id));
  if (unsettled.length > 0) {
    const list = unsettled
      .slice(0, 6)
      .map((m) => `Day ${m.day} match ${m.matchNo} Group ${m.groupName}`)
      .join(', ');
    const more = unsettled.length > 6 ? ` and ${unsettled.length - 6} more` : '';
    const message = `${resultsInWords(counts)}. Enter the results of ${list}${more}, or mark ${unsettled.length === 1 ? 'it' : 'them'} as not played.`;
    throw conflict(message, { notPlayed: message });
  }
  const toMark = missing.filter((m) => !m.notPlayed && marked.has(m.id)).map((m) => m.id);
  if (toMark.length > 0) await markNotPlayed(trx, toMark, by, at);
}

/** Issue 19: who goes on, and who does not; issue 27: the last stage speaks of final places to every team it ranked. */
async function announce(trx: Trx, stage: StageRow, ranked: readonly RankedStageTeam[], nextStage: Advance['nextStage'], now: number) {
  const tid = Number(stage.tournament_id);
  const data = { stageId: stage.id, stageName: stage.name, ...(nextStage ? { nextStageName: nextStage.name } : {}) };
  const [qualified, eliminated] = [ranked.filter((t) => t.qualified), ranked.filter((t) => !t.qualified)];
  if (!nextStage) {
    // Decision 085: the prize of each rank, so that a winner's line asks where to be paid.
    const prizes = Object.fromEntries((await prizeRows(trx, tid)).filter((p) => p.rank !== null).map((p) => [p.rank, p.amountPaise]));
    if (ranked.length > 0)
      await enqueueEvent(
        trx,
        { kind: 'final-standing', tournamentId: tid, audience: { standings: stage.id }, data: { ...data, prizes } },
        now,
      );
  } else if (qualified.length > 0)
    await enqueueEvent(
      trx,
      { kind: 'qualified', tournamentId: tid, audience: { registrations: qualified.map((t) => t.teamId) }, data },
      now,
    );
  if (nextStage && eliminated.length > 0)
    await enqueueEvent(
      trx,
      { kind: 'eliminated', tournamentId: tid, audience: { registrations: eliminated.map((t) => t.teamId) }, data },
      now,
    );
}

/** Completes a published stage; notPlayed: its group matches without results to mark not played, by `by`. */
export function completeStage(deps: StageDeps, tid: number, stageId: number, notPlayed: readonly number[], by: string): Promise<Advance> {
  return writeStage(deps, tid, stageId, async ({ trx, stage, entryFee }) => {
    if (stage.state === 'draft') throw conflict(`Publish ${stage.name} and enter its results before completing it.`);
    if (stage.state === 'completed') throw conflict(`${stage.name} is already completed.`);
    // Issue 30 (decision 071): a stage's ranks wait for the disputes of its matches.
    const groups = (await stageGroups(trx, [stage.id])).get(stage.id) ?? [];
    const disputes = await openDisputesIn(
      trx,
      tid,
      groups.map((g) => Number(g.id)),
    );
    if (disputes > 0) throw conflict(DISPUTES_OPEN(disputes));
    const now = deps.clock.now();
    await settleMissingResults(trx, stage, new Set(notPlayed), by, isoAt(now));
    const { answer, ranked } = await computeAdvance(trx, stage);
    const rows = ranked.map((t) => ({
      stage_id: stage.id,
      registration_id: t.teamId,
      group_id: t.groupId,
      group_rank: t.groupRank,
      stage_rank: t.stageRank,
      qualified: t.qualified ? 1 : 0,
      via: t.via,
    }));
    await replaceStageResults(trx, stage.id, rows);
    await setStageState(trx, stage.id, 'completed', isoAt(now));
    await bumpGeneration(trx, tid);
    await announce(trx, stage, ranked, answer.nextStage, now);
    return { stage: await stageJson(trx, (await findStageRow(trx, tid, stage.id))!, entryFee), ...answer };
  });
}
