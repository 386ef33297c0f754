import { matchStartsAt, TOURNAMENT_NOT_FOUND, type ReportingState } from '@custom-room/contract';
import { confirmedTeams } from '../../db/notify-events.js';
import {
  reportingOf,
  reportTournament,
  scheduledMatches,
  type GroupMatchKey,
  type ReportingRow,
  type ReportTournament,
  type ScheduledMatch,
} from '../../db/reports.js';
import { groupMembers } from '../../db/stages.js';
import type { Trx } from '../../db/types.js';
import { isoAt } from '../../lib/clock.js';
import { badRequest, notFound } from '../../lib/errors.js';

/**
 * When a group-match may be reported (decision 071): from its start until the staff close reporting or
 * confirm the lobby; its expected end (reminders) is the start plus the stage's match length.
 */

const MINUTE = 60_000;

export interface MatchWindow {
  key: GroupMatchKey;
  scheduled: ScheduledMatch;
  startsAt: number | null;
  endsAt: number | null;
  reporting: ReportingState;
  row: ReportingRow | undefined;
}

/** Where reporting stands at `now`. A match without a readable start is open (its staff know when it was played). */
export function reportingState(now: number, m: ScheduledMatch, startsAt: number | null, row: ReportingRow | undefined): ReportingState {
  if (row?.confirmed_at) return 'confirmed';
  if (row?.closed_at || m.not_played_at || m.stage_state === 'completed') return 'closed';
  if (m.stage_state === 'draft' || (startsAt !== null && now < startsAt)) return 'not-started';
  return 'open';
}

export function matchWindow(
  t: ReportTournament,
  m: ScheduledMatch,
  row: ReportingRow | undefined,
  now: number,
  timeZone: string,
): MatchWindow {
  const startsAt = matchStartsAt(t.start_date, Number(m.day), m.time, timeZone);
  const minutes = Number(m.stage_match_minutes ?? t.match_minutes);
  return {
    key: { tournamentId: Number(t.id), groupId: Number(m.group_id), day: Number(m.day), match: Number(m.match_no) },
    scheduled: m,
    startsAt,
    endsAt: startsAt === null ? null : startsAt + minutes * MINUTE,
    reporting: reportingState(now, m, startsAt, row),
    row,
  };
}

/** The JSON fields every answer about a group-match's window shares. */
export function windowJson(w: MatchWindow) {
  const { scheduled: m, row } = w;
  const provisional = w.reporting === 'confirmed' && row?.provisional_until ? row.provisional_until : null;
  return {
    day: w.key.day,
    match: w.key.match,
    groupId: w.key.groupId,
    ...(m.group_name ? { groupName: m.group_name } : {}),
    ...(m.stage_name ? { stageName: m.stage_name } : {}),
    startsAt: w.startsAt === null ? null : isoAt(w.startsAt),
    endsAt: w.endsAt === null ? null : isoAt(w.endsAt),
    reporting: w.reporting,
    ...(row?.confirmed_at ? { confirmedAt: row.confirmed_at, confirmedBy: row.confirmed_by_name ?? '' } : {}),
    provisionalUntil: provisional,
  };
}

export async function reportTournamentOr404(db: Trx, tournamentId: number): Promise<ReportTournament> {
  const t = await reportTournament(db, tournamentId);
  if (!t) throw notFound(TOURNAMENT_NOT_FOUND);
  return t;
}

const matchName = (day: number, match: number) => `Day ${day} match ${match}`;

/**
 * The scheduled group-match (day, match) of a tournament: the group named, else the only one with that
 * number among `groups` (null: any). 404 when it is not on the schedule, 400 when several groups play it.
 */
export async function findGroupMatch(
  db: Trx,
  t: ReportTournament,
  at: { day: number; match: number; group?: number },
  groups: ReadonlySet<number> | null,
): Promise<ScheduledMatch> {
  const all = await scheduledMatches(db, Number(t.id), at);
  const candidates = all.filter(
    (m) => (at.group === undefined || Number(m.group_id) === at.group) && (groups === null || groups.has(Number(m.group_id))),
  );
  if (candidates.length === 1) return candidates[0]!;
  if (candidates.length === 0) throw notFound(`${matchName(at.day, at.match)} is not on the schedule${groups ? ' of your team' : ''}.`);
  const message = `${matchName(at.day, at.match)} is played in ${candidates.length} groups: say which one (group).`;
  throw badRequest(message, { group: message });
}

/** The window of a found group-match, its reporting row read at `now`. */
export async function windowOf(db: Trx, t: ReportTournament, m: ScheduledMatch, now: number, timeZone: string): Promise<MatchWindow> {
  const key = { tournamentId: Number(t.id), groupId: Number(m.group_id), day: Number(m.day), match: Number(m.match_no) };
  return matchWindow(t, m, await reportingOf(db, key), now, timeZone);
}

/** The teams of a group-match's lobby, id -> slot (0 outside groups): the group's, else the confirmed teams. */
export async function lobbyTeams(db: Trx, t: ReportTournament, groupId: number): Promise<Map<number, number>> {
  if (groupId !== 0) return groupMembers(db, groupId);
  const ids = await confirmedTeams(db, Number(t.id), Number(t.entry_fee));
  return new Map(ids.map((id) => [id, 0]));
}
