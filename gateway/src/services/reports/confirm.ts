import { winsFor, type MatchResult } from '@custom-room/contract';
import { bumpGeneration } from '../../db/generation.js';
import {
  dropOrphanPlayers,
  replaceResultPlayers,
  reportsOfMatch,
  setReporting,
  type GroupMatchKey,
  type ReportRow,
  type ReportTournament,
  type StoredPlayer,
} from '../../db/reports.js';
import type { TeamChange } from '../../db/result-history.js';
import type { Trx } from '../../db/types.js';
import { isoAt } from '../../lib/clock.js';
import { conflict } from '../../lib/errors.js';
import type { AuthUser } from '../../plugins/auth.js';
import type { ResultRow } from '../results/checks.js';
import { batchRaceError, writeMatchResults } from '../results/record.js';
import { assertGroupsInScope, type Standing } from '../standing.js';
import type { ReportAt, ReportDeps } from './team.js';
import { findGroupMatch, reportTournamentOr404, windowOf } from './window.js';

const MINUTE = 60_000;

/**
 * A confirmed row that differs from the team's report is a correction: the history records it from the
 * report's values (decision 071), where a first entry would show no "before".
 */
function asCorrections(reports: ReadonlyMap<number, ReportRow>) {
  return (teams: readonly TeamChange[]): TeamChange[] =>
    teams.map((change) => {
      const report = reports.get(change.registrationId);
      if (change.before !== null || !change.after || !report) return change;
      const claimed = {
        position: Number(report.position),
        wins: winsFor(Number(report.position)),
        finishes: Number(report.finishes),
        absent: false,
      };
      const same = claimed.position === change.after.position && claimed.finishes === change.after.finishes && !change.after.absent;
      return same ? change : { ...change, before: claimed };
    });
}

/** Each team's players as reported, kept only where they add up to the finishes stored for it. */
export function playersToKeep(rows: readonly ResultRow[], reports: ReadonlyMap<number, ReportRow>): Map<number, StoredPlayer[] | null> {
  const kept = new Map<number, StoredPlayer[] | null>();
  for (const row of rows) {
    const report = reports.get(row.teamId);
    const players = report ? (JSON.parse(report.players) as StoredPlayer[]) : null;
    const adds = players !== null && !row.absent && players.reduce((s, p) => s + p.finishes, 0) === row.finishes;
    kept.set(row.teamId, adds ? players : null);
  }
  return kept;
}

/** In the caller's transaction: stores the rows as the match's results with the players that add up; answers the stored rows. */
export async function storeLobbyResults(
  deps: ReportDeps,
  trx: Trx,
  key: GroupMatchKey,
  rows: readonly ResultRow[],
  write: { by: AuthUser; at: string },
): Promise<MatchResult[]> {
  const reports = new Map((await reportsOfMatch(trx, key)).map((r) => [Number(r.registration_id), r]));
  const at = { tournamentId: key.tournamentId, day: key.day, match: key.match, ...(key.groupId ? { groupId: key.groupId } : {}) };
  const { results } = await writeMatchResults(deps.store, trx, at, rows, write, asCorrections(reports));
  await replaceResultPlayers(trx, key, playersToKeep(rows, reports));
  await dropOrphanPlayers(trx, key);
  return results;
}

/** When the results stop being provisional: the dispute window after `now` (null for a window of 0). */
export const provisionalUntil = (t: ReportTournament, now: number) =>
  Number(t.dispute_minutes) > 0 ? isoAt(now + Number(t.dispute_minutes) * MINUTE) : null;

/**
 * POST .../reports/{day}/{match}/confirm (decision 071): the rows (the reports, corrected and completed
 * by the staff) become the match's results in one transaction with the rules of manual entry; reporting
 * closes, the confirmation names who confirmed, and the results are provisional for the dispute window.
 */
export async function confirmLobby(
  deps: ReportDeps,
  standing: Standing | undefined,
  user: AuthUser,
  at: ReportAt,
  rows: readonly ResultRow[],
) {
  const db = deps.store.db;
  const t = await reportTournamentOr404(db, at.tournamentId);
  const scheduled = await findGroupMatch(db, t, at, null);
  await assertGroupsInScope(db, standing, at.tournamentId, [Number(scheduled.group_id)]);
  try {
    return await deps.store.writeTransaction(async (trx) => {
      const now = deps.clock.now();
      const stamp = isoAt(now);
      const w = await windowOf(trx, t, scheduled, now, deps.timeZone);
      if (w.reporting === 'not-started') throw conflict('This match has not started yet: confirm its lobby after it is played.');
      const results = await storeLobbyResults(deps, trx, w.key, rows, { by: user, at: stamp });
      const until = provisionalUntil(t, now);
      await setReporting(trx, w.key, {
        closed_at: w.row?.closed_at ?? stamp,
        confirmed_at: stamp,
        confirmed_by_name: user.username,
        provisional_until: until,
      });
      // The public tables mark provisional results: render them again even when no number changed.
      await bumpGeneration(trx, at.tournamentId);
      return { results, confirmedBy: user.username, confirmedAt: stamp, provisionalUntil: until };
    });
  } catch (err) {
    throw batchRaceError(err, at);
  }
}

/** PUT .../reports/{day}/{match}/reporting: close or reopen reporting (a confirmed lobby stays confirmed). */
export async function changeReporting(deps: ReportDeps, standing: Standing | undefined, at: ReportAt, open: boolean) {
  const db = deps.store.db;
  const t = await reportTournamentOr404(db, at.tournamentId);
  const scheduled = await findGroupMatch(db, t, at, null);
  await assertGroupsInScope(db, standing, at.tournamentId, [Number(scheduled.group_id)]);
  return deps.store.writeTransaction(async (trx) => {
    const now = deps.clock.now();
    const w = await windowOf(trx, t, scheduled, now, deps.timeZone);
    if (w.reporting === 'confirmed') throw conflict('This lobby is confirmed: correct its results on the lobby page.');
    await setReporting(trx, w.key, { closed_at: open ? null : isoAt(now) });
    const name = `Day ${w.key.day} match ${w.key.match}`;
    return { message: open ? `Reporting for ${name} is open.` : `Reporting for ${name} is closed.` };
  });
}
