import { sql } from 'kysely';
import type { Trx } from './index.js';
import { storedValues, type TeamChange } from './result-history.js';

/** Name of the partial unique index on (tournament, day, match, position > 0); PostgreSQL reports it as the constraint. */
export const PLACEMENT_CONSTRAINT = { constraint: 'match_results_placement', column: 'position' } as const;

export interface MatchResultRow {
  id: number;
  tid: number;
  day: number;
  match: number;
  teamId: number;
  teamName: string;
  position: number;
  positionPoints: number;
  wins: number;
  finishes: number;
  totalPoints: number;
  /** Only on group matches (decision 041). */
  groupId?: number;
  /** Only when true. */
  absent?: boolean;
}

/** One team's sums over the matches in scope (a day, or the whole tournament): what lib/ranking.ts ranks. */
export interface TeamStanding {
  teamId: number;
  teamName: string;
  positionPoints: number;
  finishes: number;
  wins: number;
  totalPoints: number;
  matchesPlayed: number;
}

export interface NewMatchResult {
  tournamentId: number;
  day: number;
  match: number;
  registrationId: number;
  position: number;
  wins: number;
  finishes: number;
  positionPoints: number;
  totalPoints: number;
  /** 0 (or left out): the implicit group. */
  groupId?: number;
  absent?: boolean;
}

/** The tournament's points system and format. Call once the tournament is known live (its row locked). */
export async function getScoringTournament(db: Trx, tournamentId: number) {
  return db.selectFrom('tournaments').select(['id', 'points_system', 'format']).where('id', '=', tournamentId).executeTakeFirstOrThrow();
}

/** The registration when it belongs to this tournament. */
export async function getTournamentTeam(db: Trx, tournamentId: number, registrationId: number) {
  return db
    .selectFrom('registrations')
    .select(['id', 'team_name'])
    .where('id', '=', registrationId)
    .where('tournament_id', '=', tournamentId)
    .executeTakeFirst();
}

/** The tournament's registrations among these ids, as id -> team name; ids of other tournaments are left out. */
export async function getTournamentTeams(db: Trx, tournamentId: number, registrationIds: readonly number[]): Promise<Map<number, string>> {
  if (registrationIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('registrations')
    .select(['id', 'team_name'])
    .where('tournament_id', '=', tournamentId)
    .where('id', 'in', registrationIds)
    .execute();
  return new Map(rows.map((r) => [Number(r.id), r.team_name]));
}

export interface MatchKey {
  tournamentId: number;
  day: number;
  match: number;
  /** 0 (or left out): the implicit group. */
  groupId?: number;
}

/**
 * Makes one match's stored results exactly `results` (one per team, no shared placement above 0:
 * the caller checks). Call inside a write transaction. Rows of teams not listed are deleted; rows
 * that did not change are left alone (same id, same updated_at), so a re-submission writes nothing.
 * Both databases check the placement index row by row, not at commit, so every placement that moves
 * is parked at 0 (which the partial index ignores) before any row takes its new one: a swap, or a
 * rotation through several teams, never meets the index half-done. Answers whether any row changed,
 * and each touched team's values before and after (for the result history, decision 048).
 */
export async function replaceMatchResults(
  db: Trx,
  key: MatchKey,
  results: readonly NewMatchResult[],
  now: string,
): Promise<{ changed: boolean; teams: TeamChange[] }> {
  const existing = await db
    .selectFrom('match_results')
    .select(['id', 'registration_id', 'position', 'wins', 'finishes', 'position_points', 'total_points', 'absent'])
    .where('tournament_id', '=', key.tournamentId)
    .where('day', '=', key.day)
    .where('match_no', '=', key.match)
    .where('group_id', '=', key.groupId ?? 0)
    .execute();
  const stored = new Map(existing.map((row) => [Number(row.registration_id), row]));
  const listed = new Set(results.map((r) => r.registrationId));

  const dropped = existing.filter((row) => !listed.has(Number(row.registration_id))).map((row) => row.id);
  if (dropped.length > 0) await db.deleteFrom('match_results').where('id', 'in', dropped).execute();

  const changed = results.filter((r) => {
    const row = stored.get(r.registrationId);
    return (
      !row ||
      Number(row.position) !== r.position ||
      Number(row.wins) !== r.wins ||
      Number(row.finishes) !== r.finishes ||
      Number(row.position_points) !== r.positionPoints ||
      Number(row.total_points) !== r.totalPoints ||
      Number(row.absent) !== (r.absent ? 1 : 0)
    );
  });
  const moving = changed.flatMap((r) => {
    const row = stored.get(r.registrationId);
    return row && Number(row.position) > 0 && Number(row.position) !== r.position ? [row.id] : [];
  });
  if (moving.length > 0) await db.updateTable('match_results').set({ position: 0 }).where('id', 'in', moving).execute();

  for (const result of changed) await upsertMatchResult(db, { ...result, ...key }, now);
  const teams: TeamChange[] = [
    ...existing
      .filter((row) => !listed.has(Number(row.registration_id)))
      .map((row) => ({ registrationId: Number(row.registration_id), before: storedValues(row), after: null })),
    ...changed.map((r) => {
      const row = stored.get(r.registrationId);
      return { registrationId: r.registrationId, before: row ? storedValues(row) : null, after: storedValues(r) };
    }),
  ];
  return { changed: dropped.length > 0 || changed.length > 0, teams };
}

/** One team's stored result in one match, as the history keeps it; undefined when it has none. */
export async function findTeamResult(db: Trx, where: { tournamentId: number; day: number; match: number; registrationId: number }) {
  const row = await db
    .selectFrom('match_results')
    .select(['position', 'wins', 'finishes', 'absent'])
    .where('tournament_id', '=', where.tournamentId)
    .where('day', '=', where.day)
    .where('match_no', '=', where.match)
    .where('registration_id', '=', where.registrationId)
    .executeTakeFirst();
  return row ? storedValues(row) : undefined;
}

/** Issue 27: the finishes the other teams of one match (one group's, or the implicit group's) have stored. */
export async function otherTeamsFinishes(
  db: Trx,
  where: { tournamentId: number; day: number; match: number; groupId: number; exceptRegistrationId: number },
): Promise<number> {
  const row = await db
    .selectFrom('match_results')
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number | string>('finishes'), eb.val(0)).as('total'))
    .where('tournament_id', '=', where.tournamentId)
    .where('day', '=', where.day)
    .where('match_no', '=', where.match)
    .where('group_id', '=', where.groupId)
    .where('registration_id', '<>', where.exceptRegistrationId)
    .executeTakeFirst();
  return Number(row?.total ?? 0);
}

/** Name of another team that already holds this placement (> 0) in the match, if any. */
export async function findPlacementHolder(
  db: Trx,
  where: { tournamentId: number; day: number; match: number; position: number; exceptRegistrationId?: number; groupId?: number },
): Promise<string | undefined> {
  if (where.position <= 0) return undefined;
  let query = db
    .selectFrom('match_results as mr')
    .innerJoin('registrations as r', 'r.id', 'mr.registration_id')
    .select('r.team_name')
    .where('mr.tournament_id', '=', where.tournamentId)
    .where('mr.day', '=', where.day)
    .where('mr.match_no', '=', where.match)
    .where('mr.group_id', '=', where.groupId ?? 0)
    .where('mr.position', '=', where.position);
  if (where.exceptRegistrationId !== undefined) query = query.where('mr.registration_id', '<>', where.exceptRegistrationId);
  const row = await query.executeTakeFirst();
  return row?.team_name;
}

/**
 * Insert or replace one team's result in one match: the unique (tournament, day, match, registration)
 * makes a re-submission overwrite the row instead of adding to it. A placement already held by another
 * team raises a unique violation on PLACEMENT_CONSTRAINT.
 */
export async function upsertMatchResult(db: Trx, result: NewMatchResult, now: string): Promise<number> {
  const row = await db
    .insertInto('match_results')
    .values({
      tournament_id: result.tournamentId,
      day: result.day,
      match_no: result.match,
      registration_id: result.registrationId,
      position: result.position,
      wins: result.wins,
      finishes: result.finishes,
      position_points: result.positionPoints,
      total_points: result.totalPoints,
      group_id: result.groupId ?? 0,
      absent: result.absent ? 1 : 0,
      created_at: now,
      updated_at: now,
    })
    .onConflict((oc) =>
      oc.columns(['tournament_id', 'day', 'match_no', 'registration_id']).doUpdateSet({
        position: result.position,
        wins: result.wins,
        finishes: result.finishes,
        position_points: result.positionPoints,
        total_points: result.totalPoints,
        group_id: result.groupId ?? 0,
        absent: result.absent ? 1 : 0,
        updated_at: now,
      }),
    )
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(row.id);
}

/** Bulk insert of fresh results (demo data); chunked to stay under SQLite's bound-parameter limit. */
export async function insertMatchResults(db: Trx, results: readonly NewMatchResult[], now: string): Promise<void> {
  const chunk = 200;
  for (let i = 0; i < results.length; i += chunk) {
    await db
      .insertInto('match_results')
      .values(
        results.slice(i, i + chunk).map((r) => ({
          tournament_id: r.tournamentId,
          day: r.day,
          match_no: r.match,
          registration_id: r.registrationId,
          position: r.position,
          wins: r.wins,
          finishes: r.finishes,
          position_points: r.positionPoints,
          total_points: r.totalPoints,
          created_at: now,
          updated_at: now,
        })),
      )
      .execute();
  }
}

/** Stored rows of one match: placed teams by position, then unplaced ones by name. */
export async function listMatchResults(
  db: Trx,
  where: { tournamentId: number; day: number; match: number; registrationId?: number; groupId?: number },
): Promise<MatchResultRow[]> {
  let query = db
    .selectFrom('match_results as mr')
    .innerJoin('registrations as r', 'r.id', 'mr.registration_id')
    .select([
      'mr.id',
      'mr.tournament_id',
      'mr.day',
      'mr.match_no',
      'mr.registration_id',
      'r.team_name',
      'r.team_name_lower',
      'mr.position',
      'mr.position_points',
      'mr.wins',
      'mr.finishes',
      'mr.total_points',
      'mr.group_id',
      'mr.absent',
    ])
    .where('mr.tournament_id', '=', where.tournamentId)
    .where('mr.day', '=', where.day)
    .where('mr.match_no', '=', where.match);
  if (where.groupId !== undefined) query = query.where('mr.group_id', '=', where.groupId);
  if (where.registrationId !== undefined) query = query.where('mr.registration_id', '=', where.registrationId);
  const rows = await query
    .orderBy(sql`case when mr.position = 0 then 1 else 0 end`)
    .orderBy('mr.position')
    .orderBy('r.team_name_lower')
    .execute();
  return rows.map((r) => ({
    id: Number(r.id),
    tid: Number(r.tournament_id),
    day: Number(r.day),
    match: Number(r.match_no),
    teamId: Number(r.registration_id),
    teamName: r.team_name,
    position: Number(r.position),
    positionPoints: Number(r.position_points),
    wins: Number(r.wins),
    finishes: Number(r.finishes),
    totalPoints: Number(r.total_points),
    ...(Number(r.group_id) !== 0 ? { groupId: Number(r.group_id) } : {}),
    ...(Number(r.absent) === 1 ? { absent: true } : {}),
  }));
}

/**
 * Per-team sums over one day (day 1-7) or the whole tournament (day undefined), one row per team
 * with at least one result in scope. Unordered: rank with lib/ranking.ts. Summing before the join
 * lets the covering index match_results_standings answer the scan: one team-name lookup per team,
 * not per result row.
 */
export async function teamStandings(db: Trx, tournamentId: number, day?: number): Promise<TeamStanding[]> {
  let sums = db
    .selectFrom('match_results')
    .select((eb) => [
      'registration_id',
      eb.fn.sum<number | string>('position_points').as('position_points'),
      eb.fn.sum<number | string>('finishes').as('finishes'),
      eb.fn.sum<number | string>('wins').as('wins'),
      eb.fn.sum<number | string>('total_points').as('total_points'),
      // Absent teams (decision 041) did not play; without absent rows this is count(*), as before.
      sql<number | string>`count(*) - sum(absent)`.as('matches_played'),
    ])
    .where('tournament_id', '=', tournamentId);
  if (day !== undefined) sums = sums.where('day', '=', day);
  const rows = await db
    .selectFrom(sums.groupBy('registration_id').as('s'))
    .innerJoin('registrations as r', 'r.id', 's.registration_id')
    .select(['r.id', 'r.team_name', 's.position_points', 's.finishes', 's.wins', 's.total_points', 's.matches_played'])
    .execute();
  // PostgreSQL returns sum() and count() of integers as bigint strings.
  return rows.map((r) => ({
    teamId: Number(r.id),
    teamName: r.team_name,
    positionPoints: Number(r.position_points),
    finishes: Number(r.finishes),
    wins: Number(r.wins),
    totalPoints: Number(r.total_points),
    matchesPlayed: Number(r.matches_played),
  }));
}

/** One team's result in one match, for the per-match breakdown (issue 20). */
export interface BreakdownResult {
  teamId: number;
  day: number;
  match: number;
  position: number;
  finishes: number;
  absent: boolean;
}

/**
 * Every stored result of a table's scope, one row per team and match: the tournament's (no stages),
 * a stage's groups, or one group's; one day or all (day undefined). Unordered.
 */
export async function breakdownResults(
  db: Trx,
  where: { tournamentId: number; day?: number; stageId?: number; groupId?: number },
): Promise<BreakdownResult[]> {
  let query = db
    .selectFrom('match_results as mr')
    .select(['mr.registration_id', 'mr.day', 'mr.match_no', 'mr.position', 'mr.finishes', 'mr.absent'])
    .where('mr.tournament_id', '=', where.tournamentId);
  if (where.day !== undefined) query = query.where('mr.day', '=', where.day);
  if (where.groupId !== undefined) query = query.where('mr.group_id', '=', where.groupId);
  else if (where.stageId !== undefined) {
    const stageId = where.stageId;
    query = query.where('mr.group_id', 'in', (eb) => eb.selectFrom('stage_groups').select('id').where('stage_id', '=', stageId));
  }
  const rows = await query.execute();
  return rows.map((r) => ({
    teamId: Number(r.registration_id),
    day: Number(r.day),
    match: Number(r.match_no),
    position: Number(r.position),
    finishes: Number(r.finishes),
    absent: Number(r.absent) === 1,
  }));
}

/**
 * Issue 27: the days a table has something on, ascending: a scheduled match (not marked not played) or a
 * stored result in the table's scope. The whole tournament's scope (no published stage) counts only the
 * matches outside any group, so a draft stage's schedule stays unpublished.
 */
export async function tableDays(db: Trx, where: { tournamentId: number; stageId?: number; groupId?: number }): Promise<number[]> {
  let scheduled = db
    .selectFrom('matches')
    .select('day')
    .distinct()
    .where('tournament_id', '=', where.tournamentId)
    .where('not_played_at', 'is', null);
  let scored = db.selectFrom('match_results').select('day').distinct().where('tournament_id', '=', where.tournamentId);
  if (where.groupId !== undefined) {
    scheduled = scheduled.where('group_id', '=', where.groupId);
    scored = scored.where('group_id', '=', where.groupId);
  } else if (where.stageId !== undefined) {
    const groups = db.selectFrom('stage_groups').select('id').where('stage_id', '=', where.stageId);
    scheduled = scheduled.where('group_id', 'in', groups);
    scored = scored.where('group_id', 'in', groups);
  } else scheduled = scheduled.where('group_id', '=', 0);
  const rows = (await Promise.all([scheduled.execute(), scored.execute()])).flat();
  return [...new Set(rows.map((r) => Number(r.day)))].sort((a, b) => a - b);
}
