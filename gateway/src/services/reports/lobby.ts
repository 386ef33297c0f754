import { lobbyLimits, playersPerTeam, type Report, type ReportLobby } from '@custom-room/contract';
import { reportsOfMatch, rosterOf, teamsByIds, type ReportRow } from '../../db/reports.js';
import { listMatchResults } from '../../db/results.js';
import { lookalikesOf } from '../../db/screenshots.js';
import type { Trx } from '../../db/types.js';
import { assertGroupsInScope, type Standing } from '../standing.js';
import { reportConflicts } from './conflicts.js';
import { reportJson, type ReportAt, type ReportDeps } from './team.js';
import { findGroupMatch, lobbyTeams, reportTournamentOr404, windowJson, windowOf } from './window.js';

/** The other reports whose screenshot looks the same as each of these (found when sent); another tournament's without names. */
async function sameScreenshots(db: Trx, reports: readonly ReportRow[]): Promise<Map<number, NonNullable<Report['sameScreenshot']>>> {
  const out = new Map<number, NonNullable<Report['sameScreenshot']>>();
  const tournamentOf = new Map(reports.map((r) => [Number(r.id), Number(r.tournament_id)]));
  for (const u of await lookalikesOf(
    db,
    reports.map((r) => Number(r.id)),
  )) {
    const mine = Number(u.tournament_id) === tournamentOf.get(Number(u.report_id));
    const same = {
      reportId: Number(u.id),
      sameTournament: mine,
      ...(mine ? { teamName: u.team_name, day: Number(u.day), match: Number(u.match_no) } : {}),
      ...(mine && u.group_name ? { groupName: u.group_name } : {}),
      at: u.created_at,
    };
    out.set(Number(u.report_id), [...(out.get(Number(u.report_id)) ?? []), same]);
  }
  return out;
}

/** GET .../reports/{day}/{match}?group=: the staff's lobby view (a lobby manager's own groups only). */
export async function lobbyView(deps: ReportDeps, standing: Standing | undefined, at: ReportAt): Promise<ReportLobby> {
  const db = deps.store.db;
  const t = await reportTournamentOr404(db, at.tournamentId);
  const scheduled = await findGroupMatch(db, t, at, null);
  await assertGroupsInScope(db, standing, at.tournamentId, [Number(scheduled.group_id)]);
  const w = await windowOf(db, t, scheduled, deps.clock.now(), deps.timeZone);
  const slots = await lobbyTeams(db, t, w.key.groupId);
  const [teams, rows, results] = await Promise.all([
    teamsByIds(db, at.tournamentId, [...slots.keys()]),
    reportsOfMatch(db, w.key),
    listMatchResults(db, w.key),
  ]);
  const rosters = new Map(teams.map((team) => [Number(team.id), rosterOf(team)]));
  const same = await sameScreenshots(db, rows);
  const confirmed = w.reporting === 'confirmed';
  const reports = rows.map((r) => {
    const json = reportJson(r, rosters.get(Number(r.registration_id)) ?? [], confirmed);
    const also = same.get(json.id);
    return also ? { ...json, sameScreenshot: also } : json;
  });
  const limits = lobbyLimits(slots.size, t.format);
  const perTeam = playersPerTeam(t.format);
  const reported = new Set(reports.map((r) => r.teamId));
  const slotOf = (id: number) => (w.key.groupId !== 0 ? { slot: slots.get(id)! } : {});
  const ordered = [...teams].sort(
    (a, b) => (slots.get(Number(a.id)) ?? 0) - (slots.get(Number(b.id)) ?? 0) || a.team_name.localeCompare(b.team_name),
  );
  return {
    ...windowJson(w),
    lobby: { ...limits, playersPerTeam: perTeam },
    reports,
    missing: ordered
      .filter((team) => !reported.has(Number(team.id)))
      .map((team) => ({ teamId: Number(team.id), teamName: team.team_name, ...slotOf(Number(team.id)) })),
    conflicts: reportConflicts(reports, { ...limits, playersPerTeam: perTeam, format: t.format }),
    screenshotChecksPending: rows.filter((r) => r.screenshot_checked_at === null).length,
    teams: ordered.map((team) => ({
      teamId: Number(team.id),
      teamName: team.team_name,
      ...slotOf(Number(team.id)),
      igns: rosters.get(Number(team.id)) ?? [],
    })),
    results,
  };
}
