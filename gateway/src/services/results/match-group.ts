import { lobbyLimits } from '@custom-room/contract';
import type { Trx } from '../../db/index.js';
import { countRegistrations } from '../../db/registrations.js';
import { findGroup, groupMatchesAt, groupMembers, groupsOfTeams } from '../../db/stages.js';
import { badRequest, conflict } from '../../lib/errors.js';
import type { Lobby, MatchGroup } from './checks.js';

const NOT_IN_TOURNAMENT = 'This group is not in the tournament.';

/** The group's id when the request names none: the one the teams are in (or the only one), else 400. */
async function impliedGroup(
  db: Trx,
  at: { day: number; match: number },
  scheduled: Map<number, unknown>,
  teamIds: readonly number[],
): Promise<number> {
  const teamGroups = await groupsOfTeams(db, teamIds);
  const candidates = new Set(teamIds.flatMap((t) => (teamGroups.get(t) ?? []).filter((g) => scheduled.has(g))));
  if (candidates.size === 1) return [...candidates][0]!;
  if (scheduled.size === 1 && candidates.size === 0 && teamIds.length === 0) return [...scheduled.keys()][0]!;
  const message = `Day ${at.day} match ${at.match} is played in ${scheduled.size} groups: say which one (groupId).`;
  throw badRequest(message, { groupId: message });
}

/**
 * The group whose match (day, match) this is (decision 041): the one named; else, when the number is
 * played in groups, the one the teams are in (or the only one); else 0, the implicit group. Checks the
 * group's stage takes results, and answers the group's teams (id -> slot).
 */
export async function matchGroup(
  db: Trx,
  tid: number,
  at: { day: number; match: number; groupId?: number },
  teamIds: readonly number[],
): Promise<MatchGroup> {
  const scheduled = await groupMatchesAt(db, tid, at.day, at.match);
  if (at.groupId === undefined && scheduled.size === 0) return { groupId: 0 };
  const id = at.groupId ?? (await impliedGroup(db, at, scheduled, teamIds));
  const group = await findGroup(db, tid, id);
  if (!group) throw badRequest(NOT_IN_TOURNAMENT, { groupId: NOT_IN_TOURNAMENT });
  if (!scheduled.has(group.id)) {
    const message = `Day ${at.day} match ${at.match} is not scheduled for Group ${group.name} of ${group.stage.name}.`;
    throw badRequest(message, { groupId: message });
  }
  if (group.stage.state === 'draft') throw conflict(`Publish ${group.stage.name}'s slot list before entering its results.`);
  if (group.stage.state === 'completed') throw conflict(`${group.stage.name} is completed: reopen it to change its results.`);
  return { groupId: group.id, members: await groupMembers(db, group.id), name: group.name };
}

/** The lobby of a match: its group's teams, or every registered team outside groups (decision 029). */
export async function matchLobby(db: Trx, tournament: { id: number; format: string }, group: MatchGroup): Promise<Lobby> {
  const teams = group.members ? group.members.size : await countRegistrations(db, tournament.id);
  return lobbyLimits(teams, tournament.format);
}
