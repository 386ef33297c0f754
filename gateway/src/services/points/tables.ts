import { GROUP_NOT_FOUND, STAGE_NOT_FOUND, type PointsBreakdown, type PointsDays } from '@custom-room/contract';
import type { Trx } from '../../db/index.js';
import { isoAt } from '../../db/instant.js';
import { provisionalMatches } from '../../db/provisional.js';
import { breakdownResults, tableDays, teamStandings } from '../../db/results.js';
import { currentStage, findGroup, findStageRow, stageStandings, type StageMember } from '../../db/stages.js';
import { notFound } from '../../lib/errors.js';
import { rankStandings } from '../../lib/ranking.js';
import { liveTournamentOr404 } from '../live-tournament.js';

/** Which table: of a group, of a stage, or (neither named) of the current stage or the whole tournament. */
export interface TableScope {
  stage?: number;
  group?: number;
}

/** Where a table's query points, once resolved. */
type ResolvedScope =
  { groupId: number; stageId: number } | { stageId: number; groupId?: undefined } | { stageId?: undefined; groupId?: undefined };

/** A stage or group table: every team of its groups, ranked, with its group and slot (decision 041). */
const rankStage = (members: StageMember[]) =>
  rankStandings(members).map((r) => ({
    rank: r.rank,
    teamId: r.teamId,
    teamName: r.teamName,
    positionPoints: r.positionPoints,
    finishes: r.finishes,
    wins: r.wins,
    totalPoints: r.totalPoints,
    matchesPlayed: r.matchesPlayed,
    groupName: (r as unknown as StageMember).groupName,
    slot: (r as unknown as StageMember).slot,
  }));

/** Where a table's query points: a group, a stage (the current one when none is named), or the whole tournament. 404 as the table. */
async function resolveScope(db: Trx, tid: number, scope: TableScope): Promise<ResolvedScope> {
  await liveTournamentOr404(db, tid);
  if (scope.group !== undefined) {
    const group = await findGroup(db, tid, scope.group);
    if (!group || group.stage.state === 'draft' || (scope.stage !== undefined && group.stageId !== scope.stage))
      throw notFound(GROUP_NOT_FOUND);
    return { groupId: group.id, stageId: group.stageId };
  }
  const stage = scope.stage !== undefined ? await findStageRow(db, tid, scope.stage) : await currentStage(db, tid);
  if (scope.stage !== undefined && (!stage || stage.state === 'draft')) throw notFound(STAGE_NOT_FOUND);
  return stage ? { stageId: stage.id } : {};
}

/** The narrowest of a resolved scope, as the results queries filter: the group, else the stage, else nothing. */
const narrowest = (where: ResolvedScope): { groupId: number } | { stageId: number } | Record<string, never> =>
  where.groupId !== undefined ? { groupId: where.groupId } : where.stageId !== undefined ? { stageId: where.stageId } : {};

/** The table's ranked rows and the scope they were resolved to (a group, a stage, or the whole tournament). */
async function scopedTable(db: Trx, tid: number, day: number | undefined, scope: TableScope) {
  const resolved = await resolveScope(db, tid, scope);
  const where = narrowest(resolved);
  if (resolved.groupId !== undefined)
    return { rows: rankStage(await stageStandings(db, resolved.stageId, { groupId: resolved.groupId, day })), where };
  if (resolved.stageId !== undefined) return { rows: rankStage(await stageStandings(db, resolved.stageId, { day })), where };
  return { rows: rankStandings(await teamStandings(db, tid, day)), where };
}

/**
 * Ranked standings of one day, or overall when day is undefined: of a group, of a stage, of the
 * current stage (the last one published) when none is named, or of the whole tournament when it has
 * no published stage (as before stages existed). Draft stages have no public table.
 */
export async function pointsTable(db: Trx, tid: number, day?: number, scope: TableScope = {}) {
  return (await scopedTable(db, tid, day, scope)).rows;
}

/**
 * The table's rows, each with its placement and finishes in every match of the table (issue 20): the
 * columns are the matches with at least one result among the rows' teams, by day then number.
 */
export async function pointsBreakdown(db: Trx, tid: number, day: number | undefined, scope: TableScope): Promise<PointsBreakdown> {
  const { rows, where } = await scopedTable(db, tid, day, scope);
  const teams = new Set(rows.map((r) => r.teamId));
  const results = (await breakdownResults(db, { tournamentId: tid, day, ...where })).filter((r) => teams.has(r.teamId));
  const keyOf = (d: number, m: number) => `${d}:${m}`;
  const matches = [...new Map(results.map((r) => [keyOf(r.day, r.match), { day: r.day, match: r.match }])).values()].sort(
    (a, b) => a.day - b.day || a.match - b.match,
  );
  const column = new Map(matches.map((m, i) => [keyOf(m.day, m.match), i]));
  const cells = new Map<number, ({ position: number; finishes: number; absent?: true } | null)[]>();
  for (const r of rows)
    cells.set(
      r.teamId,
      matches.map(() => null),
    );
  for (const r of results) {
    cells.get(r.teamId)![column.get(keyOf(r.day, r.match))!] = {
      position: r.position,
      finishes: r.finishes,
      ...(r.absent ? { absent: true as const } : {}),
    };
  }
  return { matches, rows: rows.map((r) => ({ ...r, results: cells.get(r.teamId)! })) };
}

/** Issue 27: the days a table has something on (a scheduled match or a stored result in its scope), ascending. */
export async function pointsDays(db: Trx, tid: number, scope: TableScope, now: number): Promise<PointsDays> {
  const where = narrowest(await resolveScope(db, tid, scope));
  const [days, provisional] = await Promise.all([
    tableDays(db, { tournamentId: tid, ...where }),
    provisionalMatches(db, { tournamentId: tid, ...where }, isoAt(now)),
  ]);
  // Issue 30 (decision 076): left out when empty, so the answers of tables without reports stay as they were.
  if (provisional.length === 0) return { days };
  return {
    days,
    provisional: provisional.map((p) => ({
      day: p.day,
      match: p.match,
      ...(p.groupId !== 0 ? { groupId: p.groupId } : {}),
      ...(p.groupName !== null ? { groupName: p.groupName } : {}),
      until: p.until,
    })),
  };
}

/** When a days answer stops being true with no write: the first dispute window's end (null: never). */
export function provisionalEnds(answer: PointsDays): number | null {
  const ends = (answer.provisional ?? []).map((p) => Date.parse(p.until));
  return ends.length > 0 ? Math.min(...ends) : null;
}
