import { addMinutes, type Match, type StageSchedule } from '@custom-room/contract';
import { bumpGeneration } from '../../db/generation.js';
import type { Trx } from '../../db/index.js';
import { stageGroups } from '../../db/stage-groups.js';
import { upsertGroupMatches } from '../../db/stage-matches.js';
import { setGroupGap } from '../../db/stage-writes.js';
import { matchNumberOwner, type StageRow } from '../../db/stages.js';
import { isoAt } from '../../lib/clock.js';
import { badRequest, conflict } from '../../lib/errors.js';
import { stageMatches } from './json.js';
import { refuse, type StageDeps, writeStage } from './stage.js';

/** Scheduling a stage's matches: each row becomes one match per group (decision 041, issue 27). */

type Row = StageSchedule['matches'][number];

/** 400 when a day and match number is listed twice. */
function refuseRepeats(matches: readonly Row[]) {
  const seen = new Set<string>();
  for (const [i, m] of matches.entries()) {
    const key = `${m.day}:${m.matchNo}`;
    if (seen.has(key)) {
      const message = `Day ${m.day} match ${m.matchNo} is listed twice.`;
      throw badRequest(message, { [`matches.${i}.matchNo`]: message });
    }
    seen.add(key);
  }
}

/** 409 when a day and match number already belongs to another stage, or to a match outside the stages. */
async function refuseTakenNumbers(trx: Trx, stage: StageRow, matches: readonly Row[]) {
  for (const [i, m] of matches.entries()) {
    const owner = await matchNumberOwner(trx, Number(stage.tournament_id), m.day, m.matchNo);
    if (owner && owner.stageId !== stage.id) {
      const where = owner.stageId === 0 ? 'a match outside the stages' : `a match of ${owner.stageName}`;
      const message = `Day ${m.day} match ${m.matchNo} is already ${where}: choose another match number.`;
      throw conflict(message, { [`matches.${i}.matchNo`]: message });
    }
  }
}

export async function scheduleStage(deps: StageDeps, tid: number, stageId: number, body: StageSchedule): Promise<Match[]> {
  const { matches, groupGap } = body;
  refuseRepeats(matches);
  return writeStage(deps, tid, stageId, async ({ trx, stage }) => {
    if (stage.state === 'completed') throw refuse.completed(stage.name);
    const groups = (await stageGroups(trx, [stage.id])).get(stage.id) ?? [];
    if (groups.length === 0) throw conflict(`Generate ${stage.name}'s groups before scheduling its matches.`);
    await refuseTakenNumbers(trx, stage, matches);
    // Issue 27: groups hosted one after another: group k plays k × gap minutes after the row's time.
    const gap = groupGap ?? Number(stage.group_gap_minutes ?? 0);
    const timeOf = (time: string, k: number) => addMinutes(time, k * gap);
    for (const [i, m] of matches.entries()) {
      if (timeOf(m.time, groups.length - 1) === null) {
        const last = groups.at(-1)!.name;
        const message = `With ${gap} minutes between groups, Group ${last} of day ${m.day} match ${m.matchNo} would start after midnight: start earlier or shorten the gap.`;
        throw badRequest(message, { [`matches.${i}.time`]: message, groupGap: message });
      }
    }
    if (gap !== Number(stage.group_gap_minutes ?? 0)) await setGroupGap(trx, stage.id, gap);
    const now = isoAt(deps.clock.now());
    for (const m of matches) {
      const rows = groups.map((g, k) => ({
        tournament_id: tid,
        day: m.day,
        match_no: m.matchNo,
        group_id: g.id,
        map: m.map,
        time: timeOf(m.time, k)!,
        room_id: '',
        room_password: '',
        created_at: now,
        updated_at: now,
      }));
      await upsertGroupMatches(trx, rows);
    }
    await bumpGeneration(trx, tid);
    return stageMatches(trx, stage.id);
  });
}
