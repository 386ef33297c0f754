import type { ResultHistory } from '@custom-room/contract';
import type { Trx } from '../../db/index.js';
import { listResultEdits } from '../../db/result-history.js';
import { notPlayedMatches } from '../../db/stages.js';
import { liveTournamentOr404 } from '../tournaments.js';

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
