import type { Trx } from './types.js';

/** Issue 29 (decision 065): announcements to a tournament, a stage or a group. */

export async function insertAnnouncement(
  trx: Trx,
  row: { tournamentId: number; stageId: number | null; groupId: number | null; authorId: number; authorName: string; body: string },
  at: string,
): Promise<number> {
  const inserted = await trx
    .insertInto('announcements')
    .values({
      tournament_id: row.tournamentId,
      stage_id: row.stageId,
      group_id: row.groupId,
      author_id: row.authorId,
      author_name: row.authorName,
      body: row.body,
      at,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(inserted.id);
}

/** A tournament's announcements, newest first, with their stage and group names. */
export function listAnnouncements(db: Trx, tournamentId: number, limit: number) {
  return db
    .selectFrom('announcements as a')
    .leftJoin('stages as s', 's.id', 'a.stage_id')
    .leftJoin('stage_groups as g', 'g.id', 'a.group_id')
    .select(['a.id', 'a.body', 'a.at', 'a.author_name', 'a.stage_id', 'a.group_id', 's.name as stage_name', 'g.name as group_name'])
    .where('a.tournament_id', '=', tournamentId)
    .orderBy('a.id', 'desc')
    .limit(limit)
    .execute();
}

/** The room IDs and passwords of matches in these groups (or of the whole tournament when groups is null). */
export async function roomsOf(db: Trx, tournamentId: number, groups: readonly number[] | null): Promise<string[]> {
  let q = db.selectFrom('matches').select(['room_id', 'room_password']).where('tournament_id', '=', tournamentId);
  if (groups) q = q.where('group_id', 'in', groups.length > 0 ? groups : [-1]);
  const rows = await q.execute();
  return rows.flatMap((r) => [r.room_id, r.room_password]).filter((v): v is string => !!v && v.trim() !== '');
}

/** The ids of a stage's groups. */
export async function groupIdsOfStage(db: Trx, stageId: number): Promise<number[]> {
  const rows = await db.selectFrom('stage_groups').select('id').where('stage_id', '=', stageId).execute();
  return rows.map((r) => Number(r.id));
}
