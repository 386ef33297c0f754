import type { Trx } from './types.js';

/** A group-match whose confirmed results are still in their dispute window (issue 30, decision 076). */
export interface ProvisionalMatch {
  day: number;
  match: number;
  groupId: number;
  groupName: string | null;
  until: string;
}

/**
 * The group-matches of a table's scope (as tableDays filters it: a group, a stage's groups, else the
 * matches outside groups) confirmed from reports with a dispute window ending after `nowIso`, in table
 * order. provisional_until is an ISO instant (isoAt), so comparing the strings compares the instants.
 */
export async function provisionalMatches(
  db: Trx,
  where: { tournamentId: number; stageId?: number; groupId?: number },
  nowIso: string,
): Promise<ProvisionalMatch[]> {
  let query = db
    .selectFrom('match_reporting as mr')
    .leftJoin('stage_groups as g', 'g.id', 'mr.group_id')
    .select(['mr.day', 'mr.match_no', 'mr.group_id', 'g.name as group_name', 'mr.provisional_until'])
    .where('mr.tournament_id', '=', where.tournamentId)
    .where('mr.confirmed_at', 'is not', null)
    .where('mr.provisional_until', '>', nowIso);
  if (where.groupId !== undefined) query = query.where('mr.group_id', '=', where.groupId);
  else if (where.stageId !== undefined) query = query.where('g.stage_id', '=', where.stageId);
  else query = query.where('mr.group_id', '=', 0);
  const rows = await query.orderBy('mr.day').orderBy('mr.match_no').orderBy('g.ord').orderBy('mr.group_id').execute();
  return rows.map((r) => ({
    day: Number(r.day),
    match: Number(r.match_no),
    groupId: Number(r.group_id),
    groupName: r.group_name ?? null,
    until: r.provisional_until!,
  }));
}
