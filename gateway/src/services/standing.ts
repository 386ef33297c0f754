import { standingAllows, type StaffRight } from '@custom-room/contract';
import { deskOf, staffScopes, stagesOfGroups, standingRow, type StaffRole, type StaffScope } from '../db/staff.js';
import { stageGroups } from '../db/stage-groups.js';
import { matchRowsById } from '../db/stage-matches.js';
import type { Trx } from '../db/types.js';
import { forbidden } from '../lib/errors.js';

/**
 * The caller's standing on the tournament a call is about (decision 065), read from the database on
 * every call: withdrawn rights stop at the next request.
 */
export type Standing = { kind: 'site-admin' } | { kind: 'owner' | StaffRole; tournamentId: number; scopes: readonly StaffScope[] };

export const SITE_ADMIN: Standing = { kind: 'site-admin' };

/** Whether a standing carries a tournament right (the contract's table, which the web reads too). */
export function allows(standing: Standing, right: Exclude<StaffRight, 'desk' | 'organise'>): boolean {
  return standingAllows(standing.kind, right);
}

/** The caller's standing on a live tournament; null when it has none there (or the tournament is missing or deleted). */
export async function standingOn(db: Trx, userId: number, tournamentId: number): Promise<Standing | null> {
  const row = await standingRow(db, tournamentId, userId);
  if (!row) return null;
  if (row.owner) return { kind: 'owner', tournamentId, scopes: [] };
  if (!row.role || row.staffId == null) return null;
  const scopes = row.role === 'lobby' ? await staffScopes(db, row.staffId) : [];
  return { kind: row.role, tournamentId, scopes };
}

/** Whether the caller may work on a stage's group: everyone but a lobby manager may; a lobby manager only within its scope. */
export function inScope(standing: Standing, stageId: number, groupId: number | null): boolean {
  if (standing.kind !== 'lobby') return true;
  return standing.scopes.some((s) => s.stageId === stageId && (s.groupId === null || s.groupId === groupId));
}

/** Whether a user may hold a desk: an approved organiser's owner (organise), or active staff somewhere (desk). */
export async function deskRight(db: Trx, userId: number, right: 'desk' | 'organise'): Promise<boolean> {
  const desk = await deskOf(db, userId);
  return right === 'organise' ? desk.organiserId != null : desk.organiserId != null || desk.staff;
}

export const NOT_YOUR_GROUP = 'Only the staff of this group can do that.';

/**
 * A lobby manager's write or read must stay within its groups (decision 065): 403 when any group it
 * touches is outside its scope, or when it touches no group (a tournament-wide call). Others pass.
 */
export async function assertGroupsInScope(
  db: Trx,
  standing: Standing | undefined,
  tournamentId: number,
  groupIds: readonly (number | null | undefined)[],
): Promise<void> {
  if (!standing || standing.kind !== 'lobby') return;
  const ids = groupIds.map((g) => g ?? 0);
  if (ids.length === 0 || ids.some((g) => g <= 0)) throw forbidden(NOT_YOUR_GROUP);
  const stages = await stagesOfGroups(db, tournamentId, ids);
  for (const id of ids) {
    const stageId = stages.get(id);
    if (stageId === undefined || !inScope(standing, stageId, id)) throw forbidden(NOT_YOUR_GROUP);
  }
}

/** A lobby manager may act on a whole stage (no-shows) only when its scope is the whole stage. */
export function assertWholeStageInScope(standing: Standing | undefined, stageId: number): void {
  if (!standing || standing.kind !== 'lobby') return;
  if (!standing.scopes.some((s) => s.stageId === stageId && s.groupId === null)) throw forbidden(NOT_YOUR_GROUP);
}

/** The groups of a stage a lobby manager may see (null: every group, for everyone else or a whole-stage scope). */
export function visibleGroups(standing: Standing | undefined, stageId: number): Set<number> | null {
  if (!standing || standing.kind !== 'lobby') return null;
  if (standing.scopes.some((s) => s.stageId === stageId && s.groupId === null)) return null;
  return new Set(standing.scopes.filter((s) => s.stageId === stageId && s.groupId !== null).map((s) => s.groupId!));
}

/** The rooms a lobby manager posts must be of matches of its groups (403 otherwise). */
export async function assertMatchesInScope(
  db: Trx,
  standing: Standing | undefined,
  tournamentId: number,
  matchIds: readonly number[],
): Promise<void> {
  if (!standing || standing.kind !== 'lobby') return;
  const rows = await matchRowsById(db, matchIds);
  await assertGroupsInScope(
    db,
    standing,
    tournamentId,
    matchIds.map((id) => Number(rows.get(id)?.group_id ?? 0)),
  );
}

/** A stage's check-in list as a lobby manager sees it: the teams of its groups (403 when it has none of this stage). */
export async function scopeCheckIns<T extends { teams: { teamId: number }[] }>(
  db: Trx,
  standing: Standing | undefined,
  stageId: number,
  list: T,
): Promise<T> {
  const groups = visibleGroups(standing, stageId);
  if (!groups) return list;
  if (groups.size === 0) throw forbidden(NOT_YOUR_GROUP);
  const seated = new Set(
    ((await stageGroups(db, [stageId])).get(stageId) ?? []).filter((g) => groups.has(g.id)).flatMap((g) => g.slots.map((s) => s.teamId)),
  );
  return { ...list, teams: list.teams.filter((t) => seated.has(t.teamId)) };
}
