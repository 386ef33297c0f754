import { type MatchBody, MATCH_NOT_FOUND } from '@custom-room/contract';
import { bumpGeneration } from '../db/generation.js';
import { isUniqueViolation, type Trx } from '../db/index.js';
import { findMatchById, insertMatch, MATCH_SLOT_TAKEN, toMatch, updateMatch } from '../db/matches.js';
import { enqueueRoomPosted } from '../db/notify-events.js';
import { findGroup, matchNumberOwner } from '../db/stages.js';
import { isoAt } from '../lib/clock.js';
import { badRequest, conflict, notFound } from '../lib/errors.js';
import type { ServiceDeps } from './deps.js';
import { liveTournamentOr404 } from './live-tournament.js';

/** The organiser's matches: create and update, each with its room's `room-posted` event (decisions 041, 044). */

/**
 * A day and match number belong to one stage, or to the matches outside the stages (decision 041):
 * 409 when (day, match) is already another's; the group's names when the match is a group's.
 */
async function checkMatchOwner(db: Trx, match: { tid: number; day: number; matchNo: number; groupId?: number }) {
  let stageId = 0;
  let group: { groupName: string; stageId: number; stageName: string } | undefined;
  if (match.groupId !== undefined) {
    const found = await findGroup(db, match.tid, match.groupId);
    if (!found) throw badRequest('This group is not in the tournament.', { groupId: 'This group is not in the tournament.' });
    stageId = found.stageId;
    group = { groupName: found.name, stageId: found.stageId, stageName: found.stage.name };
  }
  const owner = await matchNumberOwner(db, match.tid, match.day, match.matchNo);
  if (owner && owner.stageId !== stageId) {
    const where = owner.stageId === 0 ? 'a match outside the stages' : `a match of ${owner.stageName}`;
    throw conflict(`Day ${match.day} match ${match.matchNo} is already ${where}: choose another day or match number.`, {
      matchNo: `Day ${match.day} match ${match.matchNo} is already ${where}.`,
    });
  }
  return group;
}

/** A new match of a live tournament; its answer. */
export async function createMatch({ store, clock }: ServiceDeps, match: MatchBody) {
  await liveTournamentOr404(store.db, match.tid);
  try {
    const [row, group] = await store.writeTransaction(async (trx) => {
      const group = await checkMatchOwner(trx, match);
      const inserted = await insertMatch(trx, match, isoAt(clock.now()));
      await bumpGeneration(trx, match.tid);
      await enqueueRoomPosted(trx, inserted, undefined, clock.now());
      return [inserted, group] as const;
    });
    return toMatch(row, true, group);
  } catch (err) {
    if (isUniqueViolation(err, MATCH_SLOT_TAKEN))
      throw conflict(`Day ${match.day} match ${match.matchNo} already exists: update it instead.`);
    throw err;
  }
}

/** Changes a match of a live tournament (never to another tournament); its answer. */
export async function changeMatch({ store, clock }: ServiceDeps, id: number, match: MatchBody) {
  const existing = await findMatchById(store.db, id);
  if (!existing) throw notFound(MATCH_NOT_FOUND);
  if (existing.tournament_id !== match.tid) {
    throw badRequest('A match cannot be moved to another tournament.', { tid: 'A match cannot be moved to another tournament.' });
  }
  await liveTournamentOr404(store.db, match.tid);
  try {
    const [row, group] = await store.writeTransaction(async (trx) => {
      // A match keeps its group unless the body names another (the spec's form has no group).
      const body = { ...match, groupId: match.groupId ?? (Number(existing.group_id) || undefined) };
      const group = await checkMatchOwner(trx, body);
      const updated = await updateMatch(trx, existing.id, body, isoAt(clock.now()));
      if (updated) await bumpGeneration(trx, match.tid);
      if (updated) await enqueueRoomPosted(trx, updated, existing, clock.now());
      return [updated, group] as const;
    });
    if (!row) throw notFound(MATCH_NOT_FOUND);
    return toMatch(row, true, group);
  } catch (err) {
    if (isUniqueViolation(err, MATCH_SLOT_TAKEN)) {
      throw conflict(`Day ${match.day} match ${match.matchNo} already exists: choose another day or match number.`);
    }
    throw err;
  }
}
