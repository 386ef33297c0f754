import { LRUCache } from 'lru-cache';
import { type Match, type MySchedule, type SharedSchedule, TOURNAMENT_NOT_FOUND } from '@custom-room/contract';
import type { DatabaseHandle, Trx } from '../db/index.js';
import { listTournamentMatches, type MatchRow, toMatch } from '../db/matches.js';
import { countUnread } from '../db/notifications.js';
import { findUserRegistration, isConfirmedTeam, type RegistrationRow } from '../db/registrations.js';
import { groupsOfTeam, teamOfUser } from '../db/reports.js';
import { groupInfo, listStageRows, type StageRow } from '../db/stages.js';
import { getTournament, toTournamentJson, type TournamentRow } from '../db/tournaments.js';
import { notFound } from '../lib/errors.js';
import { type AuthUser, isAdmin } from '../plugins/auth.js';
import type { ServiceDeps } from './deps.js';
import { sweepDeadlines } from './places/sweep.js';
import { teamAnswer } from './registrations/lists.js';
import { type ReportDeps, teamReports } from './reports/team.js';
import { allows, inScope, SITE_ADMIN, standingOn } from './standing.js';

/** A tournament's schedule as the caller may see it, and the matches page's answer in one read (issue 32). */

type GroupInfo = Awaited<ReturnType<typeof groupInfo>> extends Map<number, infer G> ? G : never;
interface TournamentSchedule {
  /** The tournament's row (undefined: none, or deleted): its phase is worked out per request, by the clock. */
  tournament: TournamentRow | undefined;
  rows: MatchRow[];
  groups: Map<number, GroupInfo>;
  stages: StageRow[];
}

/** Per database (tests open many in one process): each tournament's schedule with the generation it was read under. */
const kept = new WeakMap<DatabaseHandle, LRUCache<number, { stamp: string; schedule: TournamentSchedule }>>();

/**
 * A tournament's row, every match (rooms included), its groups and its stages, read once per change (decision 087): kept while
 * the tournament's cache generation (decision 023) is unchanged, read before the rows as the response cache
 * does, so no process serves a schedule older than a write it has answered. Every write to a match or a group
 * bumps it (the room save only when a room changed). The minute the rooms are posted, a thousand players would
 * otherwise read the same 400 rows a thousand times.
 */
async function scheduleOf(store: DatabaseHandle, tournamentId: number): Promise<TournamentSchedule> {
  let cache = kept.get(store);
  if (!cache) kept.set(store, (cache = new LRUCache({ max: 200 })));
  const stamp = (await store.generation()).of(tournamentId);
  const hit = cache.get(tournamentId);
  if (hit?.stamp === stamp) return hit.schedule;
  const [tournament, rows, stages] = await Promise.all([
    getTournament(store.db, tournamentId),
    listTournamentMatches(store.db, tournamentId),
    listStageRows(store.db, tournamentId),
  ]);
  const groups = await groupInfo(
    store.db,
    rows.map((r) => Number(r.group_id)),
  );
  const schedule = { tournament, rows, groups, stages };
  cache.set(tournamentId, { stamp, schedule });
  return schedule;
}

/** The caller's own registration (the latest) and the groups it is slotted in, every stage's. */
interface CallerTeam {
  team: RegistrationRow | undefined;
  slotted: number[];
}

async function callerTeamOf(db: Trx, user: AuthUser, tournamentId: number): Promise<CallerTeam> {
  const team = await findUserRegistration(db, tournamentId, user.id);
  return { team, slotted: team ? await groupsOfTeam(db, Number(team.id)) : [] };
}

/**
 * Who the caller is in a tournament, for its rooms: the crew's standing, its team, and that team's groups.
 * known: the caller's team as the room page's answer read it (undefined: read it here, unless crew).
 */
async function callerOf(db: Trx, user: AuthUser, tournamentId: number, entryFee: number, known?: CallerTeam) {
  const crew = isAdmin(user) ? SITE_ADMIN : await standingOn(db, user.id, tournamentId);
  const admin = !!crew && allows(crew, 'lobby');
  const { team, slotted } = admin ? { team: undefined, slotted: [] } : (known ?? (await callerTeamOf(db, user, tournamentId)));
  const ownGroups = new Set<number>(team ? slotted : []);
  // A lobby manager sees its groups' rooms only, not the tournament-wide ones (decision 065).
  const confirmed = (admin && crew?.kind !== 'lobby') || (!!team && isConfirmedTeam(team, entryFee));
  return { crew, admin, team, ownGroups, confirmed };
}

/**
 * GET /matches/tournament/{id}: every match, a room's details only where the caller may see them. The crew
 * sees every room (a lobby manager, its groups' rooms; decision 065); a confirmed team, its own group's
 * (decision 041) and the tournament-wide ones (decision 029). Nothing of a draft stage reaches players (issue 27).
 */
export async function matchesForCaller(store: DatabaseHandle, user: AuthUser, tournamentId: number, known?: CallerTeam): Promise<Match[]> {
  const { tournament, rows, groups } = await scheduleOf(store, tournamentId);
  if (!tournament) throw notFound(TOURNAMENT_NOT_FOUND);
  const caller = await callerOf(store.db, user, tournamentId, Number(tournament.entry_fee), known);
  const { crew, admin, ownGroups, confirmed } = caller;
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

/** "A" < "B" < … < "Z" < "AA": group names by length, then alphabet. */
const byName = (a: string, b: string) => a.length - b.length || a.localeCompare(b);

/**
 * The matches page's split of the schedule: the team's own groups' matches and those outside the stages (as
 * the caller may see them), and every other group's without rooms, the groups of a stage that play the same
 * matches (day, match number, map, time) once: 39 groups at the same times are one entry, not 39 copies.
 */
function splitForPage(matches: readonly Match[], ownGroups: ReadonlySet<number>): Pick<MySchedule, 'matches' | 'otherGroups'> {
  const own: Match[] = [];
  const others = new Map<number, { stageId: number; stageName: string; groupName: string; matches: Match[] }>();
  for (const m of matches) {
    if (m.groupId === undefined || ownGroups.has(m.groupId)) own.push(m);
    else {
      const g = others.get(m.groupId) ?? {
        stageId: m.stageId ?? 0,
        stageName: m.stageName ?? '',
        groupName: m.groupName ?? '',
        matches: [],
      };
      g.matches.push(m);
      others.set(m.groupId, g);
    }
  }
  const sorted = [...others].sort(([, a], [, b]) => a.stageId - b.stageId || byName(a.groupName, b.groupName));
  const shared = new Map<string, SharedSchedule>();
  for (const [groupId, g] of sorted) {
    const key = `${g.stageId}|${g.matches.map((m) => `${m.day}/${m.matchNo}/${m.map}/${m.time}`).join(',')}`;
    const entry = shared.get(key);
    if (entry) entry.groups.push({ groupId, groupName: g.groupName });
    else
      shared.set(key, {
        stageId: g.stageId,
        stageName: g.stageName,
        groups: [{ groupId, groupName: g.groupName }],
        matches: g.matches.map((m) => ({ id: m.id, day: m.day, matchNo: m.matchNo, map: m.map, time: m.time })),
      });
  }
  return { matches: own, otherGroups: [...shared.values()] };
}

/**
 * GET /tournaments/{id}/schedule/mine (decision 087): the tournament, the caller's matches, team and reports,
 * and the stages' check-in windows. The tournament is read first, so an unknown one is 404 as a whole. Each
 * part is what its own call answers (the team: GET /registrations/{id}; the reports: .../reports/mine),
 * null where that call answers 404, with the tournament, the caller's registration and its groups read once.
 */
export async function mySchedule(deps: ServiceDeps & ReportDeps, user: AuthUser, tournamentId: number): Promise<MySchedule> {
  const { store, clock } = deps;
  const schedule = await scheduleOf(store, tournamentId);
  const row = schedule.tournament;
  if (!row) throw notFound(TOURNAMENT_NOT_FOUND);
  const entryFee = Number(row.entry_fee);
  // As GET /registrations/{id} does: a place whose payment time ran out is released before the team is read.
  await sweepDeadlines(store, clock.now(), [tournamentId]);
  const caller = await callerTeamOf(store.db, user, tournamentId);
  const { team: registration, slotted } = caller;
  const checkInStages = schedule.stages.filter((s) => s.check_in_opens_at && s.check_in_closes_at);
  // The team the caller reports for: its own placed one, else the one whose roster names it (teamOfUser).
  const reportTeam = registration?.place === 'placed' ? registration : await teamOfUser(store.db, tournamentId, user);
  const reportSlots = !reportTeam || reportTeam === registration ? slotted : await groupsOfTeam(store.db, Number(reportTeam.id));
  const [matches, team, reports, unread] = await Promise.all([
    matchesForCaller(store, user, tournamentId, caller),
    registration ? teamAnswer(deps, entryFee, registration, checkInStages) : null,
    reportTeam ? teamReports(deps, user, row, reportTeam, reportSlots) : null,
    countUnread(store.db, user.id),
  ]);
  const checkInWindows = checkInStages.map((s) => ({
    stageId: Number(s.id),
    stageName: s.name,
    opensAt: s.check_in_opens_at!,
    closesAt: s.check_in_closes_at!,
  }));
  // The team's groups, every stage's (the page puts them first, with their rooms).
  const ownGroups = new Set(team?.placements?.map((p) => p.groupId) ?? []);
  // The caller as the session read it (users joined, this request): GET /api/auth/me without email and phone.
  const viewer = { id: user.id, username: user.username, roles: user.roles, unreadNotifications: unread };
  return { tournament: toTournamentJson(row, clock.now()), ...splitForPage(matches, ownGroups), team, reports, checkInWindows, viewer };
}
