import { sql } from 'kysely';
import type { ResultChange, ResultHistory, ResultValues } from '@custom-room/contract';
import type { Trx } from './index.js';

/**
 * Issue 20 (decision 048): every change to a match result is kept in result_changes, written in the
 * result write's own transaction. One call is one change (change_id), with a row per team it touched.
 */

/** What the history stores of a result: position, wins, finishes and whether the team was absent. */
export interface StoredValues {
  position: number;
  wins: number;
  finishes: number;
  absent: boolean;
}

export interface TeamChange {
  registrationId: number;
  /** null: the team had no result in this match (a first entry). */
  before: StoredValues | null;
  /** null: the team's result was removed. */
  after: StoredValues | null;
}

/** A match_results row (or its absent column read as 0/1) as history values. */
export const storedValues = (row: {
  position: number;
  wins: number;
  finishes: number;
  absent?: number | boolean | null;
}): StoredValues => ({
  position: Number(row.position),
  wins: Number(row.wins),
  finishes: Number(row.finishes),
  absent: Number(row.absent) === 1 || row.absent === true,
});

/** One recorded change: the match, who made it and when, and the teams it touched. */
export interface ResultChangeRecord {
  tournamentId: number;
  groupId: number;
  day: number;
  match: number;
  by: { id: number; username: string };
  at: string;
  teams: readonly TeamChange[];
}

/**
 * Stores one change under the tournament's next change id, a row per team, and answers the id. Call in
 * the write's transaction, after the tournament's row is locked: change ids count up per tournament,
 * and the lock keeps two writers from taking the same one.
 */
export async function insertResultChange(trx: Trx, change: ResultChangeRecord): Promise<number> {
  const last = await trx
    .selectFrom('result_changes')
    .select((eb) => eb.fn.max('change_id').as('last'))
    .where('tournament_id', '=', change.tournamentId)
    .executeTakeFirst();
  const changeId = Number(last?.last ?? 0) + 1;
  const flag = (v: StoredValues | null) => (v ? (v.absent ? 1 : 0) : null);
  await trx
    .insertInto('result_changes')
    .values(
      change.teams.map((t) => ({
        tournament_id: change.tournamentId,
        change_id: changeId,
        group_id: change.groupId,
        day: change.day,
        match_no: change.match,
        registration_id: t.registrationId,
        changed_by: change.by.id,
        changed_by_name: change.by.username,
        changed_at: change.at,
        old_position: t.before?.position ?? null,
        old_wins: t.before?.wins ?? null,
        old_finishes: t.before?.finishes ?? null,
        old_absent: flag(t.before),
        new_position: t.after?.position ?? null,
        new_wins: t.after?.wins ?? null,
        new_finishes: t.after?.finishes ?? null,
        new_absent: flag(t.after),
      })),
    )
    .execute();
  return changeId;
}

/** For each team given, the values its last recorded change removed (when that change was a removal). */
export async function lastRemovedValues(
  trx: Trx,
  at: { tournamentId: number; groupId: number; day: number; match: number },
  teams: readonly TeamChange[],
): Promise<Map<number, StoredValues>> {
  const found = new Map<number, StoredValues>();
  if (teams.length === 0) return found;
  const rows = await trx
    .selectFrom('result_changes')
    .select(['registration_id', 'change_id', 'old_position', 'old_wins', 'old_finishes', 'old_absent', 'new_position'])
    .where('tournament_id', '=', at.tournamentId)
    .where('group_id', '=', at.groupId)
    .where('day', '=', at.day)
    .where('match_no', '=', at.match)
    .where(
      'registration_id',
      'in',
      teams.map((t) => t.registrationId),
    )
    .orderBy('change_id', 'desc')
    .execute();
  const seen = new Set<number>();
  for (const row of rows) {
    const id = Number(row.registration_id);
    if (seen.has(id)) continue;
    seen.add(id);
    if (row.new_position === null && row.old_position !== null) {
      found.set(
        id,
        storedValues({ position: row.old_position, wins: row.old_wins ?? 0, finishes: row.old_finishes ?? 0, absent: row.old_absent }),
      );
    }
  }
  return found;
}

const values = (position: number, wins: number | null, finishes: number | null, absent: number | null): ResultValues => ({
  position: Number(position),
  wins: Number(wins),
  finishes: Number(finishes),
  ...(Number(absent) === 1 ? { absent: true } : {}),
});

/**
 * The public history: changes that edited a result after its first entry (rows with old values),
 * newest first, at most `limit`, older than `before` when given. First entries are stored but not listed.
 */
export async function listResultEdits(db: Trx, tournamentId: number, options: { limit: number; before?: number }): Promise<ResultHistory> {
  let ids = db
    .selectFrom('result_changes')
    .select('change_id')
    .where('tournament_id', '=', tournamentId)
    .where('old_position', 'is not', null);
  if (options.before !== undefined) ids = ids.where('change_id', '<', options.before);
  const picked = (
    await ids
      .groupBy('change_id')
      .orderBy('change_id', 'desc')
      .limit(options.limit + 1)
      .execute()
  ).map((r) => Number(r.change_id));
  const more = picked.length > options.limit;
  const page = picked.slice(0, options.limit);
  if (page.length === 0) return { changes: [], nextBefore: null };
  const rows = await db
    .selectFrom('result_changes as rc')
    .innerJoin('registrations as r', 'r.id', 'rc.registration_id')
    .leftJoin('stage_groups as g', 'g.id', 'rc.group_id')
    .leftJoin('stages as s', 's.id', 'g.stage_id')
    .select([
      'rc.id',
      'rc.change_id',
      'rc.group_id',
      'rc.day',
      'rc.match_no',
      'rc.registration_id',
      'r.team_name',
      'rc.changed_by_name',
      'rc.changed_at',
      'rc.old_position',
      'rc.old_wins',
      'rc.old_finishes',
      'rc.old_absent',
      'rc.new_position',
      'rc.new_wins',
      'rc.new_finishes',
      'rc.new_absent',
      'g.name as group_name',
      's.name as stage_name',
    ])
    .where('rc.tournament_id', '=', tournamentId)
    .where('rc.change_id', 'in', page)
    .where('rc.old_position', 'is not', null)
    .orderBy('rc.change_id', 'desc')
    // Within a change: match by match, then as the corrected table reads (new position first), not in
    // the order the write happened to store the rows.
    .orderBy('rc.day')
    .orderBy('rc.match_no')
    .orderBy(sql`coalesce(rc.new_position, 1000000)`)
    .orderBy('rc.id')
    .execute();
  const changes: ResultChange[] = [];
  for (const row of rows) {
    let change = changes.at(-1);
    if (!change || change.changeId !== Number(row.change_id)) {
      const groupId = Number(row.group_id);
      change = {
        changeId: Number(row.change_id),
        changedAt: row.changed_at,
        changedBy: row.changed_by_name,
        day: Number(row.day),
        match: Number(row.match_no),
        ...(groupId !== 0 ? { groupId } : {}),
        ...(groupId !== 0 && row.group_name !== null ? { groupName: row.group_name } : {}),
        ...(groupId !== 0 && row.stage_name !== null ? { stageName: row.stage_name } : {}),
        teams: [],
      };
      changes.push(change);
    }
    change.teams.push({
      teamId: Number(row.registration_id),
      teamName: row.team_name,
      before: values(row.old_position!, row.old_wins, row.old_finishes, row.old_absent),
      after: row.new_position === null ? null : values(row.new_position, row.new_wins, row.new_finishes, row.new_absent),
    });
  }
  return { changes, nextBefore: more ? page.at(-1)! : null };
}
