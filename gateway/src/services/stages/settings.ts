import {
  checkInWindowFault,
  defaultLobbySize,
  LOBBY_MAX,
  LOBBY_MIN,
  MAX_STAGES,
  type Stage,
  type StageCreate,
  type StageUpdate,
  TOURNAMENT_NOT_FOUND,
} from '@custom-room/contract';
import { bumpGeneration } from '../../db/generation.js';
import { deleteGroups } from '../../db/stage-groups.js';
import { clearDraw, deleteStage, insertStage, liveTournamentGame, updateStageSettings } from '../../db/stage-writes.js';
import { findStageByOrder, findStageRow, listStageRows, type StageRow } from '../../db/stages.js';
import { isoAt } from '../../lib/clock.js';
import { badRequest, conflict, notFound } from '../../lib/errors.js';
import { liveTournamentOr404, lockLiveTournamentOr404 } from '../live-tournament.js';
import { stageJson } from './json.js';
import { type StageDeps, writeStage } from './stage.js';

/** Adding, changing and deleting a stage (decision 041). */

type CheckInEdges = { check_in_opens_at: string | null; check_in_closes_at: string | null };

/**
 * The check-in window after an edit (decision 043): undefined keeps the stored edge, null clears it.
 * The rule itself (both edges or neither, closing after opening) is the contract's.
 */
function checkInWindow(
  body: { checkInOpensAt?: string | null; checkInClosesAt?: string | null },
  stored: CheckInEdges = { check_in_opens_at: null, check_in_closes_at: null },
): CheckInEdges {
  const opens = body.checkInOpensAt === undefined ? stored.check_in_opens_at : body.checkInOpensAt;
  const closes = body.checkInClosesAt === undefined ? stored.check_in_closes_at : body.checkInClosesAt;
  const fault = checkInWindowFault(opens, closes);
  if (fault) throw badRequest(fault.message, { [fault.field]: fault.message });
  return { check_in_opens_at: opens, check_in_closes_at: closes };
}

function checkAdvance(perGroup: number, lobbySize: number) {
  if (perGroup > lobbySize) {
    const message = `Teams advancing per group must be at most the lobby size (${lobbySize}).`;
    throw badRequest(message, { advancePerGroup: message });
  }
}

export async function createStage(deps: StageDeps, tid: number, body: StageCreate): Promise<Stage> {
  return deps.store.writeTransaction(async (trx) => {
    await lockLiveTournamentOr404(deps.store, trx, tid);
    const entryFee = Number((await liveTournamentOr404(trx, tid)).entry_fee);
    const game = await liveTournamentGame(trx, tid);
    if (game === undefined) throw notFound(TOURNAMENT_NOT_FOUND);
    const lobbySize = body.lobbySize ?? defaultLobbySize(game);
    if (lobbySize === undefined) {
      const message = `Lobby size is required for ${game}: ${LOBBY_MIN} to ${LOBBY_MAX} teams per group.`;
      throw badRequest(message, { lobbySize: message });
    }
    checkAdvance(body.advancePerGroup ?? 0, lobbySize);
    const existing = await listStageRows(trx, tid);
    if (existing.length >= MAX_STAGES) throw conflict(`A tournament has at most ${MAX_STAGES} stages.`);
    const settings = {
      name: body.name,
      lobby_size: lobbySize,
      first_slot: body.firstSlot ?? 1,
      advance_per_group: body.advancePerGroup ?? 0,
      advance_best: body.advanceBest ?? 0,
      ...checkInWindow(body),
    };
    const row = await insertStage(trx, tid, (existing.at(-1)?.ord ?? 0) + 1, settings, isoAt(deps.clock.now()));
    await bumpGeneration(trx, tid);
    return stageJson(trx, row, entryFee);
  });
}

/** 409 when a change the stage's state no longer allows is asked for. */
function refuseLockedChanges(stage: StageRow, hasResults: boolean, next: { lobbySize: number; firstSlot: number; ruleChanged: boolean }) {
  const lobbyChanged = next.lobbySize !== Number(stage.lobby_size) || next.firstSlot !== Number(stage.first_slot);
  if (lobbyChanged && hasResults) {
    const message = `The lobby size and first slot cannot change: ${stage.name} already has results.`;
    throw conflict(message, {
      ...(next.lobbySize !== Number(stage.lobby_size) ? { lobbySize: message } : {}),
      ...(next.firstSlot !== Number(stage.first_slot) ? { firstSlot: message } : {}),
    });
  }
  if (next.ruleChanged && stage.state === 'completed') {
    const message = `The advance rule cannot change: ${stage.name} is completed. Reopen it first.`;
    throw conflict(message, { advancePerGroup: message });
  }
  return lobbyChanged;
}

export function updateStage(deps: StageDeps, tid: number, stageId: number, body: StageUpdate): Promise<Stage> {
  return writeStage(deps, tid, stageId, async ({ trx, stage, entryFee, hasResults }) => {
    const lobbySize = body.lobbySize ?? Number(stage.lobby_size);
    const firstSlot = body.firstSlot ?? Number(stage.first_slot);
    const advancePerGroup = body.advancePerGroup ?? Number(stage.advance_per_group);
    const advanceBest = body.advanceBest ?? Number(stage.advance_best);
    const ruleChanged = advancePerGroup !== Number(stage.advance_per_group) || advanceBest !== Number(stage.advance_best);
    const lobbyChanged = refuseLockedChanges(stage, hasResults, { lobbySize, firstSlot, ruleChanged });
    checkAdvance(advancePerGroup, lobbySize);
    const at = isoAt(deps.clock.now());
    if (lobbyChanged) {
      // The slot list no longer fits: the groups go, and the stage is a draft again (decision 041).
      await deleteGroups(trx, stage.id);
      await clearDraw(trx, stage.id, at);
    }
    const settings = {
      name: body.name ?? stage.name,
      lobby_size: lobbySize,
      first_slot: firstSlot,
      advance_per_group: advancePerGroup,
      advance_best: advanceBest,
      ...checkInWindow(body, stage),
    };
    await updateStageSettings(trx, stage.id, settings, at);
    await bumpGeneration(trx, tid);
    return stageJson(trx, (await findStageRow(trx, tid, stage.id))!, entryFee);
  });
}

export function removeStage(deps: StageDeps, tid: number, stageId: number): Promise<{ message: string }> {
  return writeStage(deps, tid, stageId, async ({ trx, stage, hasResults }) => {
    if (hasResults) throw conflict(`${stage.name} cannot be deleted: it has results.`);
    const later = await findStageByOrder(trx, tid, Number(stage.ord) + 1);
    if (later) throw conflict(`${stage.name} cannot be deleted while ${later.name} comes after it: delete ${later.name} first.`);
    await deleteGroups(trx, stage.id);
    await deleteStage(trx, stage.id);
    await bumpGeneration(trx, tid);
    return { message: `${stage.name} was deleted.` };
  });
}
