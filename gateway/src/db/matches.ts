import type { Selectable } from 'kysely';
import { type Match, type MatchBody } from '@custom-room/contract';
import type { Trx } from './index.js';
import type { MatchesTable } from './schema.js';

export type MatchRow = Selectable<MatchesTable>;

/** Constraint name (PostgreSQL) and a column SQLite's message names, for isUniqueViolation. */
export const MATCH_SLOT_TAKEN = { constraint: 'matches_slot', column: 'match_no' };

export interface MatchGroup {
  groupName: string;
  stageId: number;
  stageName: string;
}

/**
 * Room ID and password are only shown to confirmed teams of the tournament and to admins (decision 029),
 * and a group match's only to its own group's teams (decision 041). group: a group match's names.
 */
export function toMatch(row: MatchRow, showRoom: boolean, group?: MatchGroup): Match {
  const groupId = Number(row.group_id ?? 0);
  return {
    id: row.id,
    tid: row.tournament_id,
    day: row.day,
    matchNo: row.match_no,
    map: row.map,
    matchId: showRoom ? row.room_id : null,
    password: showRoom ? row.room_password : null,
    time: row.time,
    ...(groupId !== 0 && group ? { groupId, groupName: group.groupName, stageId: group.stageId, stageName: group.stageName } : {}),
  };
}

export function listTournamentMatches(db: Trx, tournamentId: number): Promise<MatchRow[]> {
  return db
    .selectFrom('matches as m')
    .leftJoin('stage_groups as g', 'g.id', 'm.group_id')
    .selectAll('m')
    .where('m.tournament_id', '=', tournamentId)
    .orderBy('m.day')
    .orderBy('m.match_no')
    .orderBy('g.ord')
    .execute();
}

export function findMatchById(db: Trx, id: number): Promise<MatchRow | undefined> {
  return db.selectFrom('matches').selectAll().where('id', '=', id).executeTakeFirst();
}

function matchColumns(match: MatchBody) {
  return {
    tournament_id: match.tid,
    day: match.day,
    match_no: match.matchNo,
    map: match.map,
    room_id: match.matchId,
    room_password: match.password,
    time: match.time,
    group_id: match.groupId ?? 0,
  };
}

/** Inserts the match made at `at`; throws the driver's unique violation when (tournament, day, match number) is taken. */
export function insertMatch(db: Trx, match: MatchBody, at: string): Promise<MatchRow> {
  return db
    .insertInto('matches')
    .values({ ...matchColumns(match), created_at: at, updated_at: at })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Updates the match at `at`; throws the driver's unique violation when moving onto a taken (tournament, day, match number). */
export function updateMatch(db: Trx, id: number, match: MatchBody, at: string): Promise<MatchRow | undefined> {
  return db
    .updateTable('matches')
    .set({ ...matchColumns(match), updated_at: at })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirst();
}
