import type { ResultHistory } from '@custom-room/contract';
import type { Trx } from '../../db/index.js';
import {
  insertResultChange,
  lastRemovedValues,
  listResultEdits,
  type ResultChangeRecord,
  type StoredValues,
} from '../../db/result-history.js';
import { notPlayedMatches } from '../../db/stages.js';
import { liveTournamentOr404 } from '../live-tournament.js';

// The result history's rules (decision 048): which teams a change lists, and what the public page shows.

const sameValues = (a: StoredValues | null, b: StoredValues | null) =>
  a === b || (!!a && !!b && a.position === b.position && a.wins === b.wins && a.finishes === b.finishes && a.absent === b.absent);

/**
 * Records one change: the teams whose values differ (a re-sent result records nothing). Call in the
 * write's transaction, after the tournament's row is locked. Answers the change id, or null when nothing changed.
 */
export async function recordResultChange(trx: Trx, change: ResultChangeRecord): Promise<number | null> {
  const restored = await lastRemovedValues(
    trx,
    change,
    change.teams.filter((t) => t.before === null && t.after !== null),
  );
  // A result entered where an earlier one was removed is a correction from the last recorded values
  // (issue 27): it is listed even when it puts back exactly what was removed, or the removal would stand.
  const teams = change.teams
    .map((t) => ({ ...t, before: t.before ?? restored.get(t.registrationId) ?? null }))
    .filter((t) => restored.has(t.registrationId) || !sameValues(t.before, t.after));
  if (teams.length === 0) return null;
  return insertResultChange(trx, { ...change, teams });
}

/**
 * The public history of result edits (decision 048), newest first, a page of `limit` older than
 * `before`; the first page also lists the matches marked not played. 404 for no live tournament.
 */
export async function resultHistory(db: Trx, tid: number, page: { limit: number; before?: number }): Promise<ResultHistory> {
  await liveTournamentOr404(db, tid);
  const history = await listResultEdits(db, tid, page);
  const notPlayed = page.before === undefined ? await notPlayedMatches(db, tid) : [];
  return notPlayed.length > 0 ? { ...history, notPlayed } : history;
}
