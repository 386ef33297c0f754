import type { Selectable } from 'kysely';
import type { TournamentStaffTable } from './schema.js';
import type { Trx } from './types.js';

/** Issue 29 (decision 065): a tournament's crew, and what the access check reads on every staff call. */

export type StaffRole = TournamentStaffTable['role'];
export type StaffRow = Selectable<TournamentStaffTable>;

/** A lobby manager's scope: a whole stage (groupId null) or one group of it. */
export interface StaffScope {
  stageId: number;
  groupId: number | null;
}

/** The caller's place on one live tournament: its owner (through an approved organiser), a staff role, or neither. */
export interface StandingRow {
  owner: boolean;
  role: StaffRole | null;
  staffId: number | null;
}

/**
 * One indexed query: the tournament's organiser (owner, status) and the caller's active staff row.
 * Undefined when the tournament is missing or deleted.
 */
export async function standingRow(db: Trx, tournamentId: number, userId: number): Promise<StandingRow | undefined> {
  const row = await db
    .selectFrom('tournaments as t')
    .innerJoin('organisers as o', 'o.id', 't.organiser_id')
    .leftJoin('tournament_staff as s', (join) =>
      join.onRef('s.tournament_id', '=', 't.id').on('s.user_id', '=', userId).on('s.status', '=', 'active'),
    )
    .select(['o.owner_id', 'o.status as organiser_status', 's.id as staff_id', 's.role'])
    .where('t.id', '=', tournamentId)
    .where('t.deleted_at', 'is', null)
    .executeTakeFirst();
  if (!row) return undefined;
  return {
    owner: row.owner_id != null && Number(row.owner_id) === userId && row.organiser_status === 'approved',
    role: row.role ?? null,
    staffId: row.staff_id == null ? null : Number(row.staff_id),
  };
}

export async function staffScopes(db: Trx, staffId: number): Promise<StaffScope[]> {
  const rows = await db.selectFrom('staff_scopes').select(['stage_id', 'group_id']).where('staff_id', '=', staffId).execute();
  return rows.map((r) => ({ stageId: Number(r.stage_id), groupId: r.group_id == null ? null : Number(r.group_id) }));
}

/** Whether the user has a desk at all: owns an approved organiser, or is active staff of a live tournament. */
export async function deskOf(db: Trx, userId: number): Promise<{ organiserId: number | null; staff: boolean }> {
  const organiser = await db
    .selectFrom('organisers')
    .select('id')
    .where('owner_id', '=', userId)
    .where('status', '=', 'approved')
    .executeTakeFirst();
  const staff = await db
    .selectFrom('tournament_staff as s')
    .innerJoin('tournaments as t', 't.id', 's.tournament_id')
    .select('s.id')
    .where('s.user_id', '=', userId)
    .where('s.status', '=', 'active')
    .where('t.deleted_at', 'is', null)
    .limit(1)
    .executeTakeFirst();
  return { organiserId: organiser ? Number(organiser.id) : null, staff: !!staff };
}

/** The tournament of a registration, or undefined. */
export async function tournamentOfRegistration(db: Trx, rid: number): Promise<number | undefined> {
  const row = await db.selectFrom('registrations').select('tournament_id').where('id', '=', rid).executeTakeFirst();
  return row ? Number(row.tournament_id) : undefined;
}

/** The tournament of a match (the spec's day/match rooms), or undefined. */
export async function tournamentOfMatch(db: Trx, matchId: number): Promise<number | undefined> {
  const row = await db.selectFrom('matches').select('tournament_id').where('id', '=', matchId).executeTakeFirst();
  return row ? Number(row.tournament_id) : undefined;
}

/** The stage of each of a tournament's groups among ids (a group of another tournament is left out). */
export async function stagesOfGroups(db: Trx, tournamentId: number, groupIds: readonly number[]): Promise<Map<number, number>> {
  if (groupIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('stage_groups as g')
    .innerJoin('stages as s', 's.id', 'g.stage_id')
    .select(['g.id', 'g.stage_id'])
    .where('g.id', 'in', [...new Set(groupIds)])
    .where('s.tournament_id', '=', tournamentId)
    .execute();
  return new Map(rows.map((r) => [Number(r.id), Number(r.stage_id)]));
}

export async function insertStaff(
  trx: Trx,
  row: { tournamentId: number; userId: number; role: StaffRole; token: string; invitedBy: number },
  scopes: readonly StaffScope[],
  at: string,
): Promise<number> {
  const inserted = await trx
    .insertInto('tournament_staff')
    .values({
      tournament_id: row.tournamentId,
      user_id: row.userId,
      role: row.role,
      status: 'invited',
      token: row.token,
      invited_by: row.invitedBy,
      invited_at: at,
      accepted_at: null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const id = Number(inserted.id);
  if (scopes.length > 0) {
    await trx
      .insertInto('staff_scopes')
      .values(scopes.map((s) => ({ staff_id: id, stage_id: s.stageId, group_id: s.groupId })))
      .execute();
  }
  return id;
}

export function findStaffByToken(db: Trx, token: string): Promise<StaffRow | undefined> {
  return db.selectFrom('tournament_staff').selectAll().where('token', '=', token).executeTakeFirst();
}

export function findStaffMember(db: Trx, tournamentId: number, userId: number): Promise<StaffRow | undefined> {
  return db
    .selectFrom('tournament_staff')
    .selectAll()
    .where('tournament_id', '=', tournamentId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
}

export async function activateStaff(trx: Trx, id: number, at: string): Promise<void> {
  await trx.updateTable('tournament_staff').set({ status: 'active', token: null, accepted_at: at }).where('id', '=', id).execute();
}

export async function deleteStaff(trx: Trx, id: number): Promise<void> {
  await trx.deleteFrom('staff_scopes').where('staff_id', '=', id).execute();
  await trx.deleteFrom('tournament_staff').where('id', '=', id).execute();
}

/** A tournament's crew with usernames and scopes (stage and group names), invitations included, by role then name. */
export async function listStaffRows(db: Trx, tournamentId: number) {
  const rows = await db
    .selectFrom('tournament_staff as s')
    .innerJoin('users as u', 'u.id', 's.user_id')
    .select(['s.id', 's.user_id', 'u.username', 's.role', 's.status', 's.invited_at', 's.accepted_at'])
    .where('s.tournament_id', '=', tournamentId)
    .orderBy('s.role')
    .orderBy('u.username_lower')
    .execute();
  const scopes =
    rows.length === 0
      ? []
      : await db
          .selectFrom('staff_scopes as c')
          .innerJoin('stages as st', 'st.id', 'c.stage_id')
          .leftJoin('stage_groups as g', 'g.id', 'c.group_id')
          .select(['c.staff_id', 'c.stage_id', 'st.name as stage_name', 'c.group_id', 'g.name as group_name'])
          .where(
            'c.staff_id',
            'in',
            rows.map((r) => Number(r.id)),
          )
          .orderBy('st.ord')
          .orderBy('g.ord')
          .execute();
  return rows.map((r) => ({
    ...r,
    scopes: scopes
      .filter((c) => Number(c.staff_id) === Number(r.id))
      .map((c) => ({
        stageId: Number(c.stage_id),
        stageName: c.stage_name,
        groupId: c.group_id == null ? null : Number(c.group_id),
        groupName: c.group_name ?? null,
      })),
  }));
}

/** Staff invitations waiting for a user, with their tournaments' names. */
export function pendingInvitations(db: Trx, userId: number) {
  return db
    .selectFrom('tournament_staff as s')
    .innerJoin('tournaments as t', 't.id', 's.tournament_id')
    .select(['s.tournament_id', 't.name', 's.role', 's.token'])
    .where('s.user_id', '=', userId)
    .where('s.status', '=', 'invited')
    .where('t.deleted_at', 'is', null)
    .orderBy('s.id')
    .execute();
}

/** The live tournaments a user works on, with its part: owned through its approved organiser, or active staff. */
export async function deskTournaments(db: Trx, userId: number) {
  const owned = await db
    .selectFrom('tournaments as t')
    .innerJoin('organisers as o', 'o.id', 't.organiser_id')
    .select(['t.id', 't.name', 't.start_date'])
    .where('o.owner_id', '=', userId)
    .where('o.status', '=', 'approved')
    .where('t.deleted_at', 'is', null)
    .execute();
  const staffed = await db
    .selectFrom('tournament_staff as s')
    .innerJoin('tournaments as t', 't.id', 's.tournament_id')
    .select(['t.id', 't.name', 't.start_date', 's.role'])
    .where('s.user_id', '=', userId)
    .where('s.status', '=', 'active')
    .where('t.deleted_at', 'is', null)
    .execute();
  return [
    ...owned.map((t) => ({ id: Number(t.id), name: t.name, startDate: t.start_date, kind: 'owner' as const })),
    ...staffed.map((t) => ({ id: Number(t.id), name: t.name, startDate: t.start_date, kind: t.role })),
  ].sort((a, b) => a.startDate.localeCompare(b.startDate) || a.id - b.id);
}

/** Whether the user holds a place in the tournament as a player (a registration of any place). */
export async function playsIn(db: Trx, tournamentId: number, userId: number): Promise<boolean> {
  const row = await db
    .selectFrom('registrations')
    .select('id')
    .where('tournament_id', '=', tournamentId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return !!row;
}

/**
 * Whether the user runs the tournament: its organiser's owner, or on its crew, invited or active (a player
 * cannot be both: decision 065). The Site organiser's owner (the first site admin) registers as it always
 * could: the site's own tournaments answer as before organisers existed.
 */
export async function runsTournament(db: Trx, tournamentId: number, userId: number): Promise<boolean> {
  const row = await db
    .selectFrom('tournaments as t')
    .innerJoin('organisers as o', 'o.id', 't.organiser_id')
    .leftJoin('tournament_staff as s', (join) => join.onRef('s.tournament_id', '=', 't.id').on('s.user_id', '=', userId))
    .select(['o.owner_id', 'o.is_site', 's.id as staff_id'])
    .where('t.id', '=', tournamentId)
    .executeTakeFirst();
  if (!row) return false;
  return row.staff_id != null || (row.owner_id != null && Number(row.owner_id) === userId && Number(row.is_site) !== 1);
}

/** The names the activity log shows for a call's teams, stage and group (only those of this tournament). */
export async function activityNames(
  db: Trx,
  tournamentId: number,
  ids: { registrationIds: readonly number[]; stageId?: number; groupId?: number; matchIds?: readonly number[] },
): Promise<{ teams: string[]; stage: string | null; group: string | null; matches: string[] }> {
  const teams =
    ids.registrationIds.length === 0
      ? []
      : await db
          .selectFrom('registrations')
          .select('team_name')
          .where('tournament_id', '=', tournamentId)
          .where('id', 'in', [...new Set(ids.registrationIds)])
          .orderBy('id')
          .execute();
  const stage = ids.stageId
    ? await db
        .selectFrom('stages')
        .select('name')
        .where('id', '=', ids.stageId)
        .where('tournament_id', '=', tournamentId)
        .executeTakeFirst()
    : undefined;
  const group = ids.groupId
    ? await db
        .selectFrom('stage_groups as g')
        .innerJoin('stages as s', 's.id', 'g.stage_id')
        .select(['g.name', 's.name as stage_name'])
        .where('g.id', '=', ids.groupId)
        .where('s.tournament_id', '=', tournamentId)
        .executeTakeFirst()
    : undefined;
  // A room's match by its group, day and number ("Group A day 1 match 2"), in that order.
  const matches =
    ids.matchIds && ids.matchIds.length > 0
      ? await db
          .selectFrom('matches as m')
          .leftJoin('stage_groups as g', 'g.id', 'm.group_id')
          .select(['g.name as group_name', 'm.day', 'm.match_no'])
          .where('m.tournament_id', '=', tournamentId)
          .where('m.id', 'in', [...new Set(ids.matchIds)])
          .orderBy('g.name')
          .orderBy('m.day')
          .orderBy('m.match_no')
          .execute()
      : [];
  return {
    teams: teams.map((t) => t.team_name),
    stage: stage?.name ?? group?.stage_name ?? null,
    group: group?.name ?? null,
    matches: matches.map((m) => `${m.group_name ? `Group ${m.group_name} ` : ''}day ${m.day} match ${m.match_no}`),
  };
}
