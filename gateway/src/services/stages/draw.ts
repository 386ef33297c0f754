import { type DrawBody, groupName, type SlotMove, type Stage, splitWarning } from '@custom-room/contract';
import { bumpGeneration } from '../../db/generation.js';
import type { Trx } from '../../db/index.js';
import { replaceGroups, reseat, stageGroups, type SlotRow } from '../../db/stage-groups.js';
import { findStageByOrder, findStageRow, stageCheckIns, stageEntrants, type Entrant, type StageRow } from '../../db/stages.js';
import { isoAt } from '../../lib/clock.js';
import { badRequest, conflict } from '../../lib/errors.js';
import { stageJson } from './json.js';
import { dealGroups, groupSizes, newSeed, shuffleWithSeed } from './rules.js';
import { checkSlotInRange, groupNotInStage, refuse, type StageDeps, writeStage } from './stage.js';

/** Drawing a stage's groups from its entrants, and moving teams between slots after (decision 041). */

/** The entrants in the order they are dealt (decision 041). */
function orderForDraw(entrants: readonly Entrant[], method: DrawBody['method'], seed: string | null): number[] {
  const byRegistration = [...entrants].sort((a, b) => a.teamId - b.teamId).map((e) => e.teamId);
  if (method === 'registration') return byRegistration;
  if (method === 'random') return shuffleWithSeed(byRegistration, seed!);
  const ranked = entrants.filter((e) => e.seed !== null).sort((a, b) => a.seed! - b.seed! || a.teamId - b.teamId);
  const invited = entrants.filter((e) => e.seed === null).sort((a, b) => a.teamId - b.teamId);
  return [...ranked, ...invited].map((e) => e.teamId);
}

/**
 * The entrants the draw deals, and what to add to its messages: a stage with a check-in window draws
 * its checked-in teams only (decision 043), and says so with the numbers (issue 27).
 */
async function drawnEntrants(trx: Trx, stage: StageRow, entryFee: number): Promise<{ entrants: Entrant[]; onlyCheckedIn: string }> {
  const entrants = await stageEntrants(trx, stage, entryFee);
  if (!stage.check_in_opens_at) return { entrants, onlyCheckedIn: '' };
  const checkedIn = await stageCheckIns(trx, stage.id);
  const drawn = entrants.filter((e) => checkedIn.has(e.teamId));
  return {
    entrants: drawn,
    onlyCheckedIn: ` ${drawn.length} of ${entrants.length} entrants have checked in: only checked-in teams are drawn.`,
  };
}

/** 409 when fewer than 2 teams can be drawn, saying why there are so few. */
async function refuseTooFew(trx: Trx, stage: StageRow, count: number, onlyCheckedIn: string) {
  const previous = Number(stage.ord) > 1 ? await findStageByOrder(trx, Number(stage.tournament_id), Number(stage.ord) - 1) : undefined;
  const why =
    previous && previous.state !== 'completed'
      ? ` Complete ${previous.name} first: its qualifiers are ${stage.name}'s entrants.`
      : Number(stage.ord) === 1
        ? ' The entrants are the confirmed teams (verified payment, or every team when the entry fee is 0).'
        : '';
  return conflict(`At least 2 teams are needed to draw groups; ${stage.name} has ${count}.${onlyCheckedIn}${why}`);
}

/** Issue 27: a few teams past full lobbies add a whole group and shrink every other one: 409 unless confirmed. */
function refuseUnconfirmedSplit(stage: StageRow, count: number, onlyCheckedIn: string, confirmSplit: boolean | undefined) {
  const split = splitWarning(count, Number(stage.lobby_size));
  if (!split || confirmSplit) return;
  const lobby = Number(stage.lobby_size);
  const sizes = groupSizes(count, lobby);
  const full = split.groups - 1;
  const message =
    `${count} teams are ${split.over} more than ${full === 1 ? 'one lobby' : `${full} lobbies`} of ${lobby}: ` +
    `the draw would make ${split.groups} groups of ${[...new Set(sizes)].join(' and ')} teams.${onlyCheckedIn} ` +
    'Confirm to draw them anyway, or change the lobby size or the entrants first.';
  throw conflict(message, { confirmSplit: message });
}

export function drawGroups(deps: StageDeps, tid: number, stageId: number, body: DrawBody): Promise<Stage> {
  const { method, seed, confirmSplit } = body;
  return writeStage(deps, tid, stageId, async ({ trx, stage, entryFee, hasResults }) => {
    if (hasResults) throw refuse.results(stage.name);
    if (stage.state !== 'draft') throw refuse.published();
    const { entrants, onlyCheckedIn } = await drawnEntrants(trx, stage, entryFee);
    if (method === 'seeded' && Number(stage.ord) === 1) {
      const message = "A seeded draw needs the previous stage's ranking: draw the first stage in registration order or at random.";
      throw badRequest(message, { method: message });
    }
    if (entrants.length < 2) throw await refuseTooFew(trx, stage, entrants.length, onlyCheckedIn);
    refuseUnconfirmedSplit(stage, entrants.length, onlyCheckedIn, confirmSplit);
    const drawSeed = method === 'random' ? seed || newSeed() : null;
    const ordered = orderForDraw(entrants, method, drawSeed);
    const dealt = dealGroups(ordered, Number(stage.lobby_size), method === 'seeded' ? 'snake' : 'fill');
    const groups = dealt.map((teamIds, i) => ({ name: groupName(i), teamIds }));
    await replaceGroups(trx, stage, groups, { method, seed: drawSeed }, isoAt(deps.clock.now()));
    await bumpGeneration(trx, tid);
    return stageJson(trx, (await findStageRow(trx, tid, stage.id))!, entryFee);
  });
}

/** Moves a team to another slot of the stage; a team already there swaps places with it. */
export function moveSlot(deps: StageDeps, tid: number, stageId: number, { from, to }: SlotMove): Promise<Stage> {
  return writeStage(deps, tid, stageId, async ({ trx, stage, entryFee, hasResults }) => {
    if (hasResults) throw conflict(`Teams cannot move: ${stage.name} already has results.`);
    if (stage.state === 'completed') throw refuse.completed(stage.name);
    const groups = (await stageGroups(trx, [stage.id])).get(stage.id) ?? [];
    const fromGroup = groups.find((g) => g.id === from.groupId);
    const toGroup = groups.find((g) => g.id === to.groupId);
    if (!fromGroup) throw groupNotInStage(stage, 'from.groupId');
    if (!toGroup) throw groupNotInStage(stage, 'to.groupId');
    const mover = fromGroup.slots.find((s) => s.slot === from.slot);
    if (!mover) {
      const message = `Slot ${from.slot} of Group ${fromGroup.name} is empty.`;
      throw badRequest(message, { 'from.slot': message });
    }
    checkSlotInRange(stage, to.slot, 'to.slot');
    if (from.groupId === to.groupId && from.slot === to.slot) {
      const message = 'Choose another slot to move the team to.';
      throw badRequest(message, { 'to.slot': message });
    }
    const other = toGroup.slots.find((s) => s.slot === to.slot);
    const rows: SlotRow[] = [{ group_id: toGroup.id, stage_id: stage.id, registration_id: mover.teamId, slot: to.slot }];
    if (other) rows.push({ group_id: fromGroup.id, stage_id: stage.id, registration_id: other.teamId, slot: from.slot });
    await reseat(trx, stage.id, rows);
    // A team's group matches follow it: results are refused above, so only rooms and times change hands.
    await bumpGeneration(trx, tid);
    return stageJson(trx, stage, entryFee);
  });
}
