import { sql, type Insertable, type Selectable } from 'kysely';
import type { Trx } from './index.js';
import type { MatchesTable } from './schema.js';

/** Decision 041: the group matches of a stage (one row per group for each day and match number). */

/** A condition on a match row `m`: no result is entered for it (same tournament, day, match number and group). */
export const withoutResult = sql<boolean>`not exists (select 1 from match_results mr where mr.tournament_id = m.tournament_id and mr.day = m.day and mr.match_no = m.match_no and mr.group_id = m.group_id)`;

/** The stage's group matches, by day, match number and group. */
export function stageMatchRows(db: Trx, stageId: number) {
  return db
    .selectFrom('matches as m')
    .innerJoin('stage_groups as g', 'g.id', 'm.group_id')
    .selectAll('m')
    .where('g.stage_id', '=', stageId)
    .orderBy('m.day')
    .orderBy('m.match_no')
    .orderBy('g.ord')
    .execute();
}

/** Adds these group matches; one already scheduled (same day, match number and group) takes the new map and time. */
export async function upsertGroupMatches(trx: Trx, rows: readonly Insertable<MatchesTable>[]): Promise<void> {
  for (let i = 0; i < rows.length; i += 100) {
    await trx
      .insertInto('matches')
      .values(rows.slice(i, i + 100))
      .onConflict((oc) =>
        oc.columns(['tournament_id', 'day', 'match_no', 'group_id']).doUpdateSet((eb) => ({
          map: eb.ref('excluded.map'),
          time: eb.ref('excluded.time'),
          updated_at: eb.ref('excluded.updated_at'),
        })),
      )
      .execute();
  }
}

/** Those of these match ids that are the stage's group matches. */
export async function stageMatchIds(db: Trx, stageId: number, ids: readonly number[]): Promise<Set<number>> {
  if (ids.length === 0) return new Set();
  const rows = await db
    .selectFrom('matches as m')
    .innerJoin('stage_groups as g', 'g.id', 'm.group_id')
    .select('m.id')
    .where('g.stage_id', '=', stageId)
    .where('m.id', 'in', ids)
    .execute();
  return new Set(rows.map((r) => Number(r.id)));
}

/** These matches' rows, by id. */
export async function matchRowsById(db: Trx, ids: readonly number[]): Promise<Map<number, Selectable<MatchesTable>>> {
  if (ids.length === 0) return new Map();
  const rows = await db.selectFrom('matches').selectAll().where('id', 'in', ids).execute();
  return new Map(rows.map((m) => [Number(m.id), m] as const));
}

/** Sets a match's room; true when it changed. */
export async function setMatchRoom(trx: Trx, id: number, room: { matchId: string; password: string }, at: string): Promise<boolean> {
  const result = await trx
    .updateTable('matches')
    .set({ room_id: room.matchId, room_password: room.password, updated_at: at })
    .where('id', '=', id)
    .where((eb) => eb.or([eb('room_id', '<>', room.matchId), eb('room_password', '<>', room.password)]))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Issue 27: marks these group matches not played, by whom and when. */
export async function markNotPlayed(trx: Trx, ids: readonly number[], by: string, at: string): Promise<void> {
  await trx.updateTable('matches').set({ not_played_at: at, not_played_by: by }).where('id', 'in', ids).execute();
}

/** Issue 27: each stage's group matches, and how many have results or were marked not played. */
export async function groupMatchCounts(
  db: Trx,
  stageIds: readonly number[],
): Promise<Map<number, { scheduled: number; withResults: number; notPlayed: number }>> {
  const counts = new Map(stageIds.map((id) => [id, { scheduled: 0, withResults: 0, notPlayed: 0 }]));
  if (stageIds.length === 0) return counts;
  const rows = await db
    .selectFrom('matches as m')
    .innerJoin('stage_groups as g', 'g.id', 'm.group_id')
    .select((eb) => [
      'g.stage_id',
      eb.fn.countAll<number | string>().as('scheduled'),
      sql<
        number | string
      >`sum(case when exists (select 1 from match_results mr where mr.tournament_id = m.tournament_id and mr.day = m.day and mr.match_no = m.match_no and mr.group_id = m.group_id) then 1 else 0 end)`.as(
        'with_results',
      ),
      sql<
        number | string
      >`sum(case when m.not_played_at is not null and not exists (select 1 from match_results mr where mr.tournament_id = m.tournament_id and mr.day = m.day and mr.match_no = m.match_no and mr.group_id = m.group_id) then 1 else 0 end)`.as(
        'not_played',
      ),
    ])
    .where('g.stage_id', 'in', stageIds)
    .groupBy('g.stage_id')
    .execute();
  for (const r of rows)
    counts.set(Number(r.stage_id), {
      scheduled: Number(r.scheduled),
      withResults: Number(r.with_results ?? 0),
      notPlayed: Number(r.not_played ?? 0),
    });
  return counts;
}

/** Issue 27: a stage's group matches without any result, by day, match number and group. */
export async function matchesWithoutResults(
  db: Trx,
  stageId: number,
): Promise<{ id: number; day: number; matchNo: number; groupId: number; groupName: string; notPlayed: boolean }[]> {
  const rows = await db
    .selectFrom('matches as m')
    .innerJoin('stage_groups as g', 'g.id', 'm.group_id')
    .select(['m.id', 'm.day', 'm.match_no', 'm.group_id', 'g.name', 'm.not_played_at'])
    .where('g.stage_id', '=', stageId)
    .where(withoutResult)
    .orderBy('m.day')
    .orderBy('m.match_no')
    .orderBy('g.ord')
    .execute();
  return rows.map((r) => ({
    id: Number(r.id),
    day: Number(r.day),
    matchNo: Number(r.match_no),
    groupId: Number(r.group_id),
    groupName: r.name,
    notPlayed: r.not_played_at !== null,
  }));
}
