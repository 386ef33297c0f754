import {
  DISPUTE_TAKEN,
  DISPUTE_WINDOW_CLOSED,
  DisputeFormSchema,
  type Dispute,
  type DisputeResolveBody,
  type FieldErrors,
} from '@custom-room/contract';
import { closeDispute, disputeById, insertDispute, listDisputes, type DisputeRow } from '../../db/disputes.js';
import { isUniqueViolation } from '../../db/index.js';
import { enqueueEvent } from '../../db/outbox.js';
import { listMatchResults } from '../../db/results.js';
import { storeScreenshot } from '../../db/screenshots.js';
import { stageGroups } from '../../db/stage-groups.js';
import { isoAt } from '../../lib/clock.js';
import { badRequest, conflict, forbidden, notFound } from '../../lib/errors.js';
import { readScreenshot } from '../../lib/screenshots.js';
import { isAdmin, type AuthUser } from '../../plugins/auth.js';
import { lockLiveTournamentOr404 } from '../live-tournament.js';
import { allows, assertGroupsInScope, SITE_ADMIN, standingOn, type Standing } from '../standing.js';
import { storeLobbyResults } from './confirm.js';
import { NO_TEAM, teamOfMember, teamGroupsOf, type ReportDeps } from './team.js';
import { findGroupMatch, lobbyTeams, reportTournamentOr404, windowOf } from './window.js';

const DISPUTE_CONSTRAINT = { constraint: 'result_disputes_once', column: 'by_registration_id' } as const;

export function disputeJson(d: DisputeRow): Dispute {
  return {
    id: Number(d.id),
    tournamentId: Number(d.tournament_id),
    day: Number(d.day),
    match: Number(d.match_no),
    groupId: Number(d.group_id),
    byTeamId: Number(d.by_registration_id),
    byTeamName: d.by_team_name,
    aboutTeamId: Number(d.about_registration_id),
    aboutTeamName: d.about_team_name,
    reason: d.reason,
    screenshotUrl: d.screenshot_id ? `/tournaments/${d.tournament_id}/disputes/${d.id}/screenshot` : null,
    state: d.state,
    resolution: d.resolution,
    resolvedBy: d.resolved_by_name,
    resolvedAt: d.resolved_at,
    filedBy: d.filed_by_name,
    filedAt: d.created_at,
  };
}

function formErrors(issues: readonly { path: (string | number)[]; message: string }[]): FieldErrors {
  const errors: FieldErrors = {};
  for (const issue of issues) errors[String(issue.path[0] ?? 'request')] ??= issue.message;
  return errors;
}

/**
 * POST /tournaments/{id}/disputes (decision 071): a member of a team of the lobby disputes one row (its
 * own or another team's) of a confirmed group-match while the results are provisional; once per match.
 */
export async function fileDispute(
  deps: ReportDeps,
  user: AuthUser,
  tournamentId: number,
  fields: Record<string, string>,
  file: Buffer | undefined,
) {
  const parsed = DisputeFormSchema.safeParse(fields);
  if (!parsed.success) throw badRequest('Please check the highlighted fields.', formErrors(parsed.error.issues));
  const form = parsed.data;
  const db = deps.store.db;
  const t = await reportTournamentOr404(db, tournamentId);
  const team = await teamOfMember(db, tournamentId, user);
  const scheduled = await findGroupMatch(db, t, form, await teamGroupsOf(db, t, team));
  const lobby = await lobbyTeams(db, t, Number(scheduled.group_id));
  if (!lobby.has(form.teamId)) {
    const message = 'This team does not play in this match.';
    throw badRequest(message, { teamId: message });
  }
  const shot = file ? await readScreenshot(file) : undefined;
  try {
    return await deps.store.writeTransaction(async (trx) => {
      await lockLiveTournamentOr404(deps.store, trx, tournamentId);
      const now = deps.clock.now();
      const w = await windowOf(trx, t, scheduled, now, deps.timeZone);
      if (w.reporting !== 'confirmed') throw conflict('This match’s results are not confirmed yet: tell the lobby staff instead.');
      const until = w.row?.provisional_until ? Date.parse(w.row.provisional_until) : NaN;
      if (!(now < until)) throw conflict(DISPUTE_WINDOW_CLOSED);
      const stamp = isoAt(now);
      if (shot) await storeScreenshot(trx, shot, stamp);
      const id = await insertDispute(
        trx,
        w.key,
        { by: Number(team.id), about: form.teamId, reason: form.reason, screenshotId: shot?.id ?? null, filedBy: user },
        stamp,
      );
      return disputeJson((await disputeById(trx, tournamentId, id))!);
    });
  } catch (err) {
    if (isUniqueViolation(err, DISPUTE_CONSTRAINT)) throw conflict(DISPUTE_TAKEN);
    throw err;
  }
}

/** The groups whose disputes a staff member sees: all (null), or a lobby manager's. */
async function staffGroups(deps: ReportDeps, standing: Standing): Promise<number[] | null> {
  if (standing.kind !== 'lobby') return null;
  const wholeStages = standing.scopes.filter((s) => s.groupId === null).map((s) => s.stageId);
  const groups = await stageGroups(deps.store.db, wholeStages);
  return [
    ...standing.scopes.flatMap((s) => (s.groupId === null ? [] : [s.groupId])),
    ...[...groups.values()].flat().map((g) => Number(g.id)),
  ];
}

/** GET /tournaments/{id}/disputes: the staff see theirs (the tournament's, or a lobby manager's groups'), a team its own. */
export async function disputesFor(deps: ReportDeps, user: AuthUser, tournamentId: number, q: { state: 'open' | 'all'; group?: number }) {
  const db = deps.store.db;
  await reportTournamentOr404(db, tournamentId);
  const standing = isAdmin(user) ? SITE_ADMIN : await standingOn(db, user.id, tournamentId);
  const openOnly = q.state === 'open';
  if (standing && allows(standing, 'lobby')) {
    let groupIds = await staffGroups(deps, standing);
    if (q.group !== undefined) groupIds = groupIds === null || groupIds.includes(q.group) ? [q.group] : [];
    return (await listDisputes(db, tournamentId, { openOnly, groupIds })).map(disputeJson);
  }
  const team = await teamOfMember(db, tournamentId, user).catch(() => undefined);
  if (!team) throw notFound(NO_TEAM);
  const rows = await listDisputes(db, tournamentId, { openOnly, teamId: Number(team.id) });
  return rows.filter((d) => q.group === undefined || Number(d.group_id) === q.group).map(disputeJson);
}

/**
 * POST .../disputes/{disputeId}/resolve: uphold (the disputed row changes with the rules of manual entry,
 * in the result history under the resolver's name) or dismiss with a reason; the disputing team is told.
 */
export async function resolveDispute(
  deps: ReportDeps,
  standing: Standing | undefined,
  user: AuthUser,
  tournamentId: number,
  disputeId: number,
  body: DisputeResolveBody,
): Promise<Dispute> {
  const db = deps.store.db;
  await reportTournamentOr404(db, tournamentId);
  const found = await disputeById(db, tournamentId, disputeId);
  if (!found) throw notFound('This dispute is not in the tournament.');
  await assertGroupsInScope(db, standing, tournamentId, [Number(found.group_id)]);
  return deps.store.writeTransaction(async (trx) => {
    const now = deps.clock.now();
    const stamp = isoAt(now);
    const d = (await disputeById(trx, tournamentId, disputeId))!;
    if (d.state !== 'open') throw conflict(`This dispute was already ${d.state} by ${d.resolved_by_name ?? 'the staff'}.`);
    const key = { tournamentId, groupId: Number(d.group_id), day: Number(d.day), match: Number(d.match_no) };
    const upheld = body.action === 'uphold';
    if (upheld) {
      const current = await listMatchResults(trx, key);
      const about = Number(d.about_registration_id);
      const mine = current.find((r) => r.teamId === about);
      const changed = {
        teamId: about,
        position: body.position ?? mine?.position ?? 0,
        finishes: body.finishes ?? mine?.finishes ?? 0,
        absent: body.absent ?? mine?.absent ?? false,
      };
      const rows = [...current.filter((r) => r.teamId !== about).map((r) => ({ ...r, absent: r.absent ?? false })), changed];
      await storeLobbyResults(deps, trx, key, rows, { by: user, at: stamp });
    }
    const reason = body.reason.trim() || null;
    await closeDispute(trx, disputeId, { state: upheld ? 'upheld' : 'dismissed', resolution: reason, by: user.username }, stamp);
    await enqueueEvent(
      trx,
      {
        kind: 'dispute-resolved',
        tournamentId,
        audience: { registrations: [Number(d.by_registration_id)] },
        data: { upheld, ...(reason ? { reason } : {}), day: key.day, matchNo: key.match, ...(key.groupId ? { groupId: key.groupId } : {}) },
      },
      now,
    );
    return disputeJson((await disputeById(trx, tournamentId, disputeId))!);
  });
}

/** Whether a user may see a team's proof in a group: its members, the site admins and the staff of the group. */
export async function maySeeProof(
  deps: ReportDeps,
  user: AuthUser,
  tournamentId: number,
  registrationIds: readonly number[],
  groupId: number,
) {
  if (isAdmin(user)) return true;
  const db = deps.store.db;
  const team = await teamOfMember(db, tournamentId, user).catch(() => undefined);
  if (team && registrationIds.includes(Number(team.id))) return true;
  const standing = await standingOn(db, user.id, tournamentId);
  if (!standing || !allows(standing, 'lobby')) return false;
  try {
    await assertGroupsInScope(db, standing, tournamentId, [groupId]);
    return true;
  } catch {
    return false;
  }
}

export const NOT_YOUR_PROOF = 'Only the team and the tournament’s staff can see this screenshot.';
export const refuseProof = () => forbidden(NOT_YOUR_PROOF);
