import { finishesTotalError, impossibleResult, placementPoints, winsFor, type MatchResultsBatch } from '@custom-room/contract';
import type { MatchKey, NewMatchResult } from '../../db/results.js';
import { badRequest, conflict, type FieldErrors } from '../../lib/errors.js';

/**
 * The rules a match's results must pass before they are stored, written once for every way results
 * arrive (one team's result, a whole match; the captains' reports next). They only read what they are
 * given and throw the refusal: 400 for a result that cannot be, 409 for a placement two teams claim.
 */

/** One team's result in one match, as the forms and the API send it. */
export type ResultRow = MatchResultsBatch['results'][number];

/** The players a match's lobby holds (decision 029): its teams and the most finishes one team can make. */
export interface Lobby {
  teams: number;
  maxFinishes: number;
}

/** The group a match is played in: its teams (id -> slot) and name, or none for the implicit group. */
export interface MatchGroup {
  groupId: number;
  members?: Map<number, number>;
  name?: string;
}

export const NOT_REGISTERED = 'This team is not registered in the tournament.';
export const IMPOSSIBLE = 'This result cannot happen in this match: please check the highlighted fields.';
const ABSENT_SCORED = 'An absent team has no placement and no finishes.';

export const placementTaken = (position: number, day: number, match: number, team: string) => {
  const message = `Placement ${position} in day ${day} match ${match} is already taken by ${team}.`;
  return conflict(message, { position: message });
};

/** A batch's errors are keyed `{field}.{teamId}`, the names of the results form's inputs. */
const rowKey = (field: string, teamId: number) => `${field}.${teamId}`;

const listNames = (names: string[]) => (names.length <= 2 ? names.join(' and ') : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`);

/** 400 for a team listed twice or not registered in the tournament, both reported at once. */
export function checkTeams(rows: readonly ResultRow[], teams: Map<number, string>) {
  const errors: FieldErrors = {};
  const messages: string[] = [];
  const seen = new Set<number>();
  for (const { teamId } of rows) {
    const message = !teams.has(teamId)
      ? `Team ${teamId} is not registered in this tournament.`
      : seen.has(teamId)
        ? `${teams.get(teamId)} is listed more than once.`
        : undefined;
    seen.add(teamId);
    if (message === undefined) continue;
    if (!errors[rowKey('teamId', teamId)]) messages.push(message);
    errors[rowKey('teamId', teamId)] = message;
  }
  if (messages.length > 0) throw badRequest(messages.join(' '), errors);
}

/** One row's refusals by the group: a team outside it (teamId), an absent team with a placement or finishes (absent). */
export function groupRowErrors(row: ResultRow, teamName: string | undefined, group: MatchGroup): FieldErrors {
  const errors: FieldErrors = {};
  if (group.members && !group.members.has(row.teamId)) errors.teamId = `${teamName} is not in Group ${group.name}.`;
  if (row.absent && (row.position > 0 || row.finishes > 0)) errors.absent = ABSENT_SCORED;
  return errors;
}

/** 400 for teams outside the group and for absent rows with a placement or finishes, every one at once. */
export function checkGroupRows(rows: readonly ResultRow[], teams: Map<number, string>, group: MatchGroup) {
  const errors: FieldErrors = {};
  for (const row of rows) {
    for (const [field, message] of Object.entries(groupRowErrors(row, teams.get(row.teamId), group)))
      errors[rowKey(field, row.teamId)] = message;
  }
  if (Object.keys(errors).length > 0) throw badRequest(Object.values(errors).join(' '), errors);
}

/** 400 for results the lobby makes impossible, every one at once, keyed {field}.{teamId} like the form's inputs. */
export function checkPossible(rows: readonly ResultRow[], lobby: Lobby) {
  const errors: FieldErrors = {};
  for (const row of rows) {
    for (const [field, message] of Object.entries(impossibleResult(row, lobby))) errors[rowKey(field, row.teamId)] = message;
  }
  if (Object.keys(errors).length > 0) throw badRequest(IMPOSSIBLE, errors);
}

/** Issue 27: 400 when a match's teams together make more finishes than the lobby's players minus one. */
export function checkFinishesTotal(total: number, lobby: Lobby, format: string) {
  const tooMany = finishesTotalError(total, lobby.teams, format);
  if (tooMany) throw badRequest(tooMany, { finishes: tooMany });
}

/** 409 naming every team of every shared placement, with an error beside each of their positions. */
export function checkPlacements(rows: readonly ResultRow[], teams: Map<number, string>) {
  const holders = new Map<number, number[]>();
  for (const { teamId, position } of rows) {
    if (position > 0) holders.set(position, [...(holders.get(position) ?? []), teamId]);
  }
  const errors: FieldErrors = {};
  const messages: string[] = [];
  for (const [position, teamIds] of [...holders].sort(([a], [b]) => a - b)) {
    if (teamIds.length < 2) continue;
    const names = teamIds.map((id) => teams.get(id)!);
    messages.push(`Placement ${position} is given to ${names.length === 2 ? 'both ' : ''}${listNames(names)}.`);
    for (const [i, id] of teamIds.entries()) {
      errors[rowKey('position', id)] = `Placement ${position} is also given to ${listNames(names.filter((_, j) => j !== i))}.`;
    }
  }
  if (messages.length > 0) throw conflict(`Two teams cannot share a placement. ${messages.join(' ')}`, errors);
}

/** A row as it is stored: its wins and points by the tournament's points system (an absent team scores none). */
export function scoredResult(row: ResultRow, key: MatchKey & { groupId: number }, pointsSystem: string): NewMatchResult {
  const positionPoints = row.absent ? 0 : placementPoints(pointsSystem, row.position);
  return {
    ...key,
    registrationId: row.teamId,
    position: row.position,
    wins: winsFor(row.position),
    finishes: row.finishes,
    positionPoints,
    totalPoints: positionPoints + row.finishes,
    absent: !!row.absent,
  };
}
