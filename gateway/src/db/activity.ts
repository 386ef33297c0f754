import type { Trx } from './types.js';

/** Issue 29 (decision 065): who did what on a tournament, when. */

export async function insertActivity(
  trx: Trx,
  row: { tournamentId: number; actorId: number; actorName: string; action: string; detail: string },
  at: string,
): Promise<void> {
  await trx
    .insertInto('activity')
    .values({
      tournament_id: row.tournamentId,
      actor_id: row.actorId,
      actor_name: row.actorName,
      action: row.action,
      detail: row.detail,
      at,
    })
    .execute();
}

/** A tournament's activity, newest first, at most `limit` rows. */
export function listActivity(db: Trx, tournamentId: number, limit: number) {
  return db
    .selectFrom('activity')
    .select(['id', 'actor_name', 'action', 'detail', 'at'])
    .where('tournament_id', '=', tournamentId)
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}
