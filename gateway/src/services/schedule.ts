import type { Match, MySchedule } from '@custom-room/contract';
import type { Trx } from '../db/index.js';
import { listTournamentMatches, toMatch } from '../db/matches.js';
import { findUserRegistration, isConfirmedTeam } from '../db/registrations.js';
import { groupInfo, groupsOfTeams, listStageRows } from '../db/stages.js';
import { HttpError } from '../lib/errors.js';
import { type AuthUser, isAdmin } from '../plugins/auth.js';
import type { ServiceDeps } from './deps.js';
import { liveTournamentOr404 } from './live-tournament.js';
import { myTeam } from './registrations/lists.js';
import { myReports, type ReportDeps } from './reports/team.js';
import { allows, inScope, SITE_ADMIN, standingOn } from './standing.js';
import { tournamentJsonOr404 } from './tournaments.js';

/** A tournament's schedule as the caller may see it, and the matches page's answer in one read (issue 32). */

/**
 * GET /matches/tournament/{id}: every match, a room's details only where the caller may see them. The crew
 * sees every room (a lobby manager, its groups' rooms; decision 065); a confirmed team, its own group's
 * (decision 041) and the tournament-wide ones (decision 029). Nothing of a draft stage reaches players (issue 27).
 */
export async function matchesForCaller(db: Trx, user: AuthUser, tournamentId: number): Promise<Match[]> {
  const tournament = await liveTournamentOr404(db, tournamentId);
  const crew = isAdmin(user) ? SITE_ADMIN : await standingOn(db, user.id, tournamentId);
  const admin = !!crew && allows(crew, 'lobby');
  const [team, rows] = await Promise.all([
    admin ? undefined : findUserRegistration(db, tournamentId, user.id),
    listTournamentMatches(db, tournamentId),
  ]);
  // A lobby manager sees its groups' rooms only, not the tournament-wide ones (decision 065).
  const confirmed = (admin && crew?.kind !== 'lobby') || (!!team && isConfirmedTeam(team, Number(tournament.entry_fee)));
  const groupIds = rows.map((r) => Number(r.group_id)).filter((id) => id !== 0);
  const [groups, ownGroups] = await Promise.all([
    groupInfo(db, groupIds),
    team && groupIds.length > 0 ? groupsOfTeams(db, [team.id]).then((m) => new Set(m.get(team.id) ?? [])) : new Set<number>(),
  ]);
  const shown = admin
    ? rows
    : rows.filter((row) => {
        const groupId = Number(row.group_id);
        const group = groups.get(groupId);
        return groupId === 0 || (group !== undefined && group.state !== 'draft');
      });
  return shown.map((row) => {
    const groupId = Number(row.group_id);
    if (groupId === 0) return toMatch(row, confirmed);
    const group = groups.get(groupId);
    // A group's room: its own confirmed teams, once the slot list is published (decision 041).
    const showRoom = (!!crew && admin && inScope(crew, group?.stageId ?? 0, groupId)) || (confirmed && ownGroups.has(groupId) && !!group);
    return toMatch(row, showRoom, group);
  });
}

/** A part that answers 404 for a caller without a team (or a confirmed one) is null here. */
const nullIf404 = <T>(part: Promise<T>): Promise<T | null> =>
  part.catch((err: unknown) => {
    if (err instanceof HttpError && err.statusCode === 404) return null;
    throw err;
  });

/**
 * GET /tournaments/{id}/schedule/mine (decision 087): the tournament, the caller's matches, team and reports,
 * and the stages' check-in windows. The tournament is read first, so an unknown one is 404 as a whole.
 */
export async function mySchedule(deps: ServiceDeps & ReportDeps, user: AuthUser, tournamentId: number): Promise<MySchedule> {
  const tournament = await tournamentJsonOr404(deps, tournamentId);
  const db = deps.store.db;
  const [matches, team, reports, stages] = await Promise.all([
    matchesForCaller(db, user, tournamentId),
    nullIf404(myTeam(deps, tournamentId, user.id)),
    nullIf404(myReports(deps, user, tournamentId)),
    listStageRows(db, tournamentId),
  ]);
  const checkInWindows = stages.flatMap((s) =>
    s.check_in_opens_at && s.check_in_closes_at
      ? [{ stageId: Number(s.id), stageName: s.name, opensAt: s.check_in_opens_at, closesAt: s.check_in_closes_at }]
      : [],
  );
  return { tournament, matches, team, reports, checkInWindows };
}
