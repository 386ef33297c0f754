import { impossibleResult, type MatchResult, type PointsSubmission } from '@custom-room/contract';
import { bumpGeneration } from '../../db/generation.js';
import { isUniqueViolation, type DatabaseHandle, type Trx } from '../../db/index.js';
import { storedValues, type TeamChange } from '../../db/result-history.js';
import {
  PLACEMENT_CONSTRAINT,
  findPlacementHolder,
  findTeamResult,
  getScoringTournament,
  getTournamentTeam,
  getTournamentTeams,
  listMatchResults,
  otherTeamsFinishes,
  replaceMatchResults,
  upsertMatchResult,
} from '../../db/results.js';
import { HttpError, badRequest, conflict } from '../../lib/errors.js';
import { liveTournamentOr404, lockLiveTournamentOr404 } from '../live-tournament.js';
import {
  IMPOSSIBLE,
  NOT_REGISTERED,
  checkFinishesTotal,
  checkGroupRows,
  checkPlacements,
  checkPossible,
  checkTeams,
  groupRowErrors,
  placementTaken,
  scoredResult,
  type MatchGroup,
  type ResultRow,
} from './checks.js';
import { recordResultChange } from './history.js';
import { matchGroup, matchLobby } from './match-group.js';

/**
 * Recording match results (issue 28): one team's result, or a whole match at once, with the same
 * checks, in one write transaction that also keeps the result history (decision 048) and bumps the
 * tournament's cache generation. The caller says who writes and when (`by`, `at` from the injected clock).
 */
export interface ResultWrite {
  by: { id: number; username: string };
  /** ISO instant stamped on the rows and the history. */
  at: string;
}

/** One match of a tournament: the group named by the request, if any. */
export interface MatchAt {
  tournamentId: number;
  day: number;
  match: number;
  groupId?: number;
}

/** Locks the tournament's row first, in every results write: one lock order, so two writers cannot deadlock (decision 032). */
async function lockScoringTournament(store: DatabaseHandle, trx: Trx, tid: number) {
  await lockLiveTournamentOr404(store, trx, tid);
  return getScoringTournament(trx, tid);
}

/** Keeps the change in the history and tells the caches the tournament's results moved. */
async function noteChange(trx: Trx, key: Required<MatchAt>, write: ResultWrite, teams: readonly TeamChange[]) {
  const { tournamentId, groupId, day, match } = key;
  await recordResultChange(trx, { tournamentId, groupId, day, match, by: write.by, at: write.at, teams });
  await bumpGeneration(trx, tournamentId);
}

/** 400 for the first thing the group refuses of one team's row (a team outside it, then an absent team scored). */
function checkGroupRow(row: ResultRow, teamName: string, group: MatchGroup) {
  const [refusal] = Object.entries(groupRowErrors(row, teamName, group));
  if (refusal) throw badRequest(refusal[1], { [refusal[0]]: refusal[1] });
}

/**
 * The checks and the write of one team's result, in the transaction; the placement index may still
 * refuse it, so the match's group is told (found.groupId) as soon as it is known.
 */
async function writeTeamResult(
  store: DatabaseHandle,
  trx: Trx,
  input: PointsSubmission & MatchAt,
  write: ResultWrite,
  found: { groupId: number },
): Promise<MatchResult> {
  const { tournamentId: tid, day, match, position, finishes } = input;
  const tournament = await lockScoringTournament(store, trx, tid);
  const team = await getTournamentTeam(trx, tid, input.teamId);
  if (!team) throw badRequest(NOT_REGISTERED, { teamId: NOT_REGISTERED });
  const group = await matchGroup(trx, tid, input, [team.id]);
  const { groupId } = group;
  found.groupId = groupId;
  checkGroupRow(input, team.team_name, group);
  const lobby = await matchLobby(trx, tournament, group);
  const impossible = impossibleResult(input, lobby);
  if (Object.keys(impossible).length > 0) throw badRequest(IMPOSSIBLE, impossible);
  // Issue 27: with the other teams' finishes in this match, at most the lobby's players minus one.
  const others = await otherTeamsFinishes(trx, { tournamentId: tid, day, match, groupId, exceptRegistrationId: team.id });
  checkFinishesTotal(others + finishes, lobby, tournament.format);
  // A friendly check first; the partial unique index still decides under concurrency (caught by the caller).
  const holder = await findPlacementHolder(trx, { tournamentId: tid, day, match, position, exceptRegistrationId: team.id, groupId });
  if (holder) throw placementTaken(position, day, match, holder);
  const key = { tournamentId: tid, day, match, groupId };
  const result = scoredResult({ ...input, teamId: team.id }, key, tournament.points_system);
  const before = await findTeamResult(trx, { tournamentId: tid, day, match, registrationId: team.id });
  const id = await upsertMatchResult(trx, result, write.at);
  await noteChange(trx, key, write, [{ registrationId: team.id, before: before ?? null, after: storedValues(result) }]);
  return {
    id,
    tid,
    day,
    match,
    teamId: team.id,
    teamName: team.team_name,
    position,
    positionPoints: result.positionPoints,
    wins: result.wins,
    finishes,
    totalPoints: result.totalPoints,
    ...(groupId !== 0 ? { groupId } : {}),
    ...(input.absent ? { absent: true } : {}),
  };
}

/** Records (or replaces) one team's result in one match; 409 when another team holds its placement. */
export async function recordTeamResult(store: DatabaseHandle, input: PointsSubmission & MatchAt, write: ResultWrite): Promise<MatchResult> {
  const found = { groupId: 0 };
  try {
    return await store.writeTransaction((trx) => writeTeamResult(store, trx, input, write, found));
  } catch (err) {
    if (!isUniqueViolation(err, PLACEMENT_CONSTRAINT)) throw err;
    const { tournamentId, day, match, position, teamId } = input;
    const where = { tournamentId, day, match, position, exceptRegistrationId: teamId, groupId: found.groupId };
    const holder = await findPlacementHolder(store.db, where);
    throw placementTaken(position, day, match, holder ?? 'another team');
  }
}

/** The checks of a whole match's rows, every refusal of a kind at once; answers the rows as stored. */
async function checkedMatchRows(store: DatabaseHandle, trx: Trx, at: MatchAt, rows: readonly ResultRow[]) {
  const tournament = await lockScoringTournament(store, trx, at.tournamentId);
  const teams = await getTournamentTeams(trx, at.tournamentId, [...new Set(rows.map((r) => r.teamId))]);
  checkTeams(rows, teams);
  const group = await matchGroup(trx, at.tournamentId, at, [...teams.keys()]);
  checkGroupRows(rows, teams, group);
  const lobby = await matchLobby(trx, tournament, group);
  checkPossible(rows, lobby);
  // Issue 27: the whole match's finishes (the batch is the match), at most the lobby's players minus one.
  checkFinishesTotal(
    rows.reduce((sum, r) => sum + r.finishes, 0),
    lobby,
    tournament.format,
  );
  checkPlacements(rows, teams);
  const key = { tournamentId: at.tournamentId, day: at.day, match: at.match, groupId: group.groupId };
  return { key, results: rows.map((row) => scoredResult(row, key, tournament.points_system)) };
}

/**
 * In the caller's write transaction: checks a whole match's rows and makes them its results (teams not
 * listed lose theirs), keeping the change in the history. `history` may rewrite the teams' change first
 * (a lobby's confirmation records a corrected report as the report's values before). Answers the match's
 * key and its stored rows.
 */
export async function writeMatchResults(
  store: DatabaseHandle,
  trx: Trx,
  at: MatchAt,
  rows: readonly ResultRow[],
  write: ResultWrite,
  history: (teams: readonly TeamChange[]) => readonly TeamChange[] = (teams) => teams,
): Promise<{ key: Required<MatchAt>; results: MatchResult[] }> {
  const { key, results } = await checkedMatchRows(store, trx, at, rows);
  const saved = await replaceMatchResults(trx, key, results, write.at);
  // One change for the whole call, however many teams it touched (decision 048).
  if (saved.changed) await noteChange(trx, key, write, history(saved.teams));
  return { key, results: await listMatchResults(trx, key) };
}

/** A placement refused by the unique index: only a per-team submission racing a batch can get here. */
export function batchRaceError(err: unknown, at: { day: number; match: number }): unknown {
  if (err instanceof HttpError || !isUniqueViolation(err, PLACEMENT_CONSTRAINT)) return err;
  return conflict(`Day ${at.day} match ${at.match} was changed by someone else at the same moment. Reload it and submit again.`);
}

/** Makes one match's results exactly these rows (teams not listed lose theirs), all or nothing; answers the stored rows. */
export async function saveMatchResults(
  store: DatabaseHandle,
  at: MatchAt,
  rows: readonly ResultRow[],
  write: ResultWrite,
): Promise<MatchResult[]> {
  try {
    return await store.writeTransaction(async (trx) => (await writeMatchResults(store, trx, at, rows, write)).results);
  } catch (err) {
    throw batchRaceError(err, at);
  }
}

/** The stored rows of one match (of one group when named), to prefill the results forms; 404 for no live tournament. */
export async function matchResults(db: Trx, at: MatchAt): Promise<MatchResult[]> {
  await liveTournamentOr404(db, at.tournamentId);
  return listMatchResults(db, at);
}
