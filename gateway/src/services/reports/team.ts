import {
  playersPerTeam,
  REPORT_CONFIRMED,
  REPORT_NOT_DUE,
  REPORTING_CLOSED,
  SCREENSHOT_FIELD,
  SCREENSHOT_MESSAGES,
  validateReportForm,
  type MyReports,
  type Report,
} from '@custom-room/contract';
import { isUniqueViolation } from '../../db/index.js';
import { enqueueEvent } from '../../db/outbox.js';
import {
  findReport,
  groupsOfTeam,
  insertReport,
  REPORT_CONSTRAINT,
  reportingOfTournament,
  reportsOfTeam,
  rosterOf,
  scheduledMatches,
  teamOfUser,
  updateReport,
  type ReportRow,
  type ReportTournament,
  type StoredPlayer,
  type TeamRow,
} from '../../db/reports.js';
import { storeScreenshot } from '../../db/screenshots.js';
import type { Trx } from '../../db/types.js';
import { isoAt } from '../../lib/clock.js';
import { badRequest, conflict, forbidden, notFound } from '../../lib/errors.js';
import { readScreenshot } from '../../lib/screenshots.js';
import type { AuthUser } from '../../plugins/auth.js';
import type { ServiceDeps } from '../deps.js';
import { lockLiveTournamentOr404 } from '../live-tournament.js';
import { findGroupMatch, matchWindow, reportTournamentOr404, windowJson, windowOf, type MatchWindow } from './window.js';

/** Reporting needs the app's zone: a match's day and time are wall-clock times in it (decision 016). */
export interface ReportDeps extends ServiceDeps {
  timeZone: string;
}

export const NO_TEAM = 'You have no team in this tournament.';

/** A stored report as the API answers it; `roster` marks the players not on the team. */
export function reportJson(row: ReportRow, roster: readonly string[], confirmed: boolean): Report {
  const names = new Set(roster.map((n) => n.toLowerCase()));
  const players = (JSON.parse(row.players) as StoredPlayer[]).map((p) => ({ ...p, onTeam: names.has(p.ign.toLowerCase()) }));
  return {
    id: Number(row.id),
    tournamentId: Number(row.tournament_id),
    day: Number(row.day),
    match: Number(row.match_no),
    groupId: Number(row.group_id),
    teamId: Number(row.registration_id),
    teamName: row.team_name,
    position: Number(row.position),
    finishes: Number(row.finishes),
    players,
    screenshotUrl: `/tournaments/${row.tournament_id}/reports/${row.id}/screenshot`,
    reportedBy: row.reported_by_name,
    reportedAt: row.created_at,
    updatedAt: row.updated_at,
    confirmed,
  };
}

/** The groups a team's matches may be in: its groups, and group 0 when it is a confirmed team outside groups. */
export async function teamGroupsOf(db: Trx, t: ReportTournament, team: TeamRow): Promise<Set<number>> {
  return withOutsideGroup(t, team, await groupsOfTeam(db, Number(team.id)));
}

function withOutsideGroup(t: Pick<ReportTournament, 'entry_fee'>, team: TeamRow, slotted: readonly number[]): Set<number> {
  const groups = new Set(slotted);
  if (Number(t.entry_fee) === 0 || team.payment_status === 'verified') groups.add(0);
  return groups;
}

/** The caller's team, or 403: only a team's players report or dispute. */
export async function teamOfMember(db: Trx, tournamentId: number, user: AuthUser): Promise<TeamRow> {
  const team = await teamOfUser(db, tournamentId, user);
  if (!team) throw forbidden(NO_TEAM);
  return team;
}

/** 409 unless the window takes reports now. */
function assertReportable(w: MatchWindow): void {
  if (w.reporting === 'not-started') throw conflict(REPORT_NOT_DUE);
  if (w.reporting === 'closed') throw conflict(REPORTING_CLOSED);
  if (w.reporting === 'confirmed') throw conflict(REPORT_CONFIRMED);
}

export interface ReportAt {
  tournamentId: number;
  day: number;
  match: number;
  group?: number;
}

/**
 * A team's report (decision 071): POST the first time (`file`), PUT after (`edit`, the screenshot
 * optional). Any member of the team; the captain is told when another member reports. The form and the
 * screenshot are checked before the transaction; the window again inside it, under the tournament's lock
 * (a confirmation takes the same lock, so no report lands after it).
 */
export async function submitReport(
  deps: ReportDeps,
  user: AuthUser,
  at: ReportAt,
  fields: Record<string, string>,
  file: Buffer | undefined,
  mode: 'file' | 'edit',
): Promise<Report> {
  const db = deps.store.db;
  const t = await reportTournamentOr404(db, at.tournamentId);
  const team = await teamOfMember(db, at.tournamentId, user);
  const scheduled = await findGroupMatch(db, t, at, await teamGroupsOf(db, t, team));
  const first = await windowOf(db, t, scheduled, deps.clock.now(), deps.timeZone);
  assertReportable(first);
  const form = validateReportForm(fields, playersPerTeam(t.format));
  if ('errors' in form) throw badRequest('Please check the highlighted fields.', form.errors);
  if (mode === 'file' && !file) throw badRequest(SCREENSHOT_MESSAGES.required, { [SCREENSHOT_FIELD]: SCREENSHOT_MESSAGES.required });
  const shot = file ? await readScreenshot(file) : undefined;
  const key = first.key;
  let report: Report;
  try {
    report = await deps.store.writeTransaction(async (trx) => {
      await lockLiveTournamentOr404(deps.store, trx, at.tournamentId);
      const now = deps.clock.now();
      assertReportable(await windowOf(trx, t, scheduled, now, deps.timeZone));
      const existing = await findReport(trx, key, Number(team.id));
      if (mode === 'file' && existing) throw conflict('Your team has already reported this match: change its report instead.');
      if (mode === 'edit' && !existing) throw notFound('Your team has not reported this match yet.');
      const stamp = isoAt(now);
      if (shot) await storeScreenshot(trx, shot, stamp);
      const values = {
        position: form.data.position,
        finishes: form.data.players.reduce((sum, p) => sum + p.finishes, 0),
        players: form.data.players,
        screenshotId: shot?.id ?? existing!.screenshot_id,
        newScreenshot: shot !== undefined,
        by: user,
      };
      let id: number;
      if (existing) {
        id = Number(existing.id);
        await updateReport(trx, id, values, stamp);
      } else {
        id = await insertReport(trx, key, Number(team.id), values, stamp);
      }
      if (user.id !== Number(team.user_id)) await tellCaptain(trx, first, team, user, form.data.position, now);
      const row = await findReport(trx, key, Number(team.id));
      return reportJson(row!, rosterOf(team), false);
    });
  } catch (err) {
    if (isUniqueViolation(err, REPORT_CONSTRAINT)) throw conflict('Your team has already reported this match: change its report instead.');
    throw err;
  }
  // A new screenshot is compared with the reports it could have been taken from (decisions 071, 077) by the
  // route, after the answer: the comparison never holds the tournament's lock nor keeps the captain waiting.
  return report;
}

function tellCaptain(trx: Trx, w: MatchWindow, team: TeamRow, by: AuthUser, position: number, now: number) {
  const { key, scheduled } = w;
  return enqueueEvent(
    trx,
    {
      kind: 'report-filed',
      tournamentId: key.tournamentId,
      audience: { users: [Number(team.user_id)] },
      data: {
        by: by.username,
        teamName: team.team_name,
        day: key.day,
        matchNo: key.match,
        position,
        ...(key.groupId ? { groupId: key.groupId } : {}),
        ...(scheduled.group_name ? { groupName: scheduled.group_name } : {}),
      },
    },
    now,
  );
}

/** The caller's team's group-matches, each with its window and the team's report (GET .../reports/mine). */
export async function myReports(deps: ReportDeps, user: AuthUser, tournamentId: number): Promise<MyReports> {
  const db = deps.store.db;
  const t = await reportTournamentOr404(db, tournamentId);
  const team = await teamOfUser(db, tournamentId, user);
  if (!team) throw notFound(NO_TEAM);
  return teamReports(deps, user, t, team, await groupsOfTeam(db, Number(team.id)));
}

/**
 * myReports for a tournament and team already read (the room page's answer reads them once, decision 087).
 * slotted: the team's groups, every stage's (group_slots).
 */
export async function teamReports(
  deps: ReportDeps,
  user: AuthUser,
  t: ReportTournament,
  team: TeamRow,
  slotted: readonly number[],
): Promise<MyReports> {
  const db = deps.store.db;
  const tournamentId = Number(t.id);
  const groups = withOutsideGroup(t, team, slotted);
  const [scheduled, rows, reports] = await Promise.all([
    scheduledMatches(db, tournamentId, undefined, groups),
    reportingOfTournament(db, tournamentId),
    reportsOfTeam(db, tournamentId, Number(team.id)),
  ]);
  const roster = rosterOf(team);
  const now = deps.clock.now();
  // The query read the team's groups' matches only.
  const matches = scheduled.map((m) => {
    const w = matchWindow(t, m, rows.get(`${m.group_id}:${m.day}:${m.match_no}`), now, deps.timeZone);
    const report = reports.find(
      (r) => Number(r.group_id) === w.key.groupId && Number(r.day) === w.key.day && Number(r.match_no) === w.key.match,
    );
    return {
      ...windowJson(w),
      due: w.reporting === 'open' && !report,
      report: report ? reportJson(report, roster, w.reporting === 'confirmed') : null,
    };
  });
  return { teamId: Number(team.id), teamName: team.team_name, igns: roster, captain: Number(team.user_id) === user.id, matches };
}
