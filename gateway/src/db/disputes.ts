import type { GroupMatchKey } from './reports.js';
import type { Trx } from './types.js';

/** Issue 30 (decision 071): a team's dispute of a confirmed row of its group-match. */

const DISPUTE_COLUMNS = [
  'd.id',
  'd.tournament_id',
  'd.group_id',
  'd.day',
  'd.match_no',
  'd.by_registration_id',
  'by.team_name as by_team_name',
  'd.about_registration_id',
  'about.team_name as about_team_name',
  'd.reason',
  'd.screenshot_id',
  'd.state',
  'd.resolution',
  'd.resolved_by_name',
  'd.resolved_at',
  'd.filed_by',
  'd.filed_by_name',
  'd.created_at',
] as const;

function disputesQuery(db: Trx, tournamentId: number) {
  return db
    .selectFrom('result_disputes as d')
    .innerJoin('registrations as by', 'by.id', 'd.by_registration_id')
    .innerJoin('registrations as about', 'about.id', 'd.about_registration_id')
    .select(DISPUTE_COLUMNS)
    .where('d.tournament_id', '=', tournamentId);
}
export type DisputeRow = Awaited<ReturnType<ReturnType<typeof disputesQuery>['executeTakeFirstOrThrow']>>;

export async function insertDispute(
  trx: Trx,
  key: GroupMatchKey,
  d: { by: number; about: number; reason: string; screenshotId: string | null; filedBy: { id: number; username: string } },
  at: string,
): Promise<number> {
  const row = await trx
    .insertInto('result_disputes')
    .values({
      tournament_id: key.tournamentId,
      group_id: key.groupId,
      day: key.day,
      match_no: key.match,
      by_registration_id: d.by,
      about_registration_id: d.about,
      reason: d.reason,
      screenshot_id: d.screenshotId,
      state: 'open',
      resolution: null,
      resolved_by_name: null,
      resolved_at: null,
      filed_by: d.filedBy.id,
      filed_by_name: d.filedBy.username,
      created_at: at,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(row.id);
}

export function disputeById(db: Trx, tournamentId: number, id: number): Promise<DisputeRow | undefined> {
  return disputesQuery(db, tournamentId).where('d.id', '=', id).executeTakeFirst();
}

/** A tournament's disputes, open ones first then newest; within groups, or those of a team (by it or about it). */
export async function listDisputes(
  db: Trx,
  tournamentId: number,
  filter: { openOnly: boolean; groupIds?: readonly number[] | null; teamId?: number },
): Promise<DisputeRow[]> {
  let query = disputesQuery(db, tournamentId);
  if (filter.openOnly) query = query.where('d.state', '=', 'open');
  if (filter.groupIds) {
    if (filter.groupIds.length === 0) return [];
    query = query.where('d.group_id', 'in', filter.groupIds);
  }
  if (filter.teamId !== undefined) {
    const team = filter.teamId;
    query = query.where((eb) => eb.or([eb('d.by_registration_id', '=', team), eb('d.about_registration_id', '=', team)]));
  }
  const rows = await query.orderBy('d.id', 'desc').limit(500).execute();
  return [...rows.filter((r) => r.state === 'open'), ...rows.filter((r) => r.state !== 'open')];
}

/** Ends an open dispute; false when it was no longer open (another staff member got there first). */
export async function closeDispute(
  trx: Trx,
  id: number,
  end: { state: 'upheld' | 'dismissed'; resolution: string | null; by: string },
  at: string,
): Promise<boolean> {
  const result = await trx
    .updateTable('result_disputes')
    .set({ state: end.state, resolution: end.resolution, resolved_by_name: end.by, resolved_at: at })
    .where('id', '=', id)
    .where('state', '=', 'open')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** How many disputes are open in these groups of a tournament. */
export async function openDisputesIn(db: Trx, tournamentId: number, groupIds: readonly number[]): Promise<number> {
  if (groupIds.length === 0) return 0;
  const row = await db
    .selectFrom('result_disputes')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('tournament_id', '=', tournamentId)
    .where('state', '=', 'open')
    .where('group_id', 'in', groupIds)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
