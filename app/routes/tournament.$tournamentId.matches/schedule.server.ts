import { TOURNAMENT_NOT_FOUND } from '@custom-room/contract/constants';
import { checkInOffers } from '~/utils/check-in.server';
import { getEnv } from '~/utils/env.server';
import { pageError } from '~/utils/errors.server';
import { formatDayDate } from '~/utils/format';
import { gateway, GatewayError } from '~/utils/gateway.server';
import { timeZoneName } from '~/utils/matches';
import { placeView } from '~/utils/places';
import { myReportsOrNull, reportLines } from '~/utils/reports.server';
import { nextMatchId, placementViews, splitByGroup, type PlacementView, type StageMatch } from '~/utils/stages';

const LOAD_FAILED = 'Error loading matches.';

type ScheduleState = { status: 'ok'; matches: StageMatch[] } | { status: 'failed'; message: string };

/** The caller's team in this tournament, or null (none, or it could not be read: the schedule still shows). */
async function ownTeam(request: Request, tournamentId: number) {
  try {
    const team = await gateway.myTeam(request, tournamentId);
    return { rid: team.rid, paymentStatus: team.paymentStatus, placements: placementViews(team.placements), full: team };
  } catch (err) {
    if (err instanceof GatewayError) return null;
    throw err; // the redirect to /login
  }
}

export type SchedulePage = Awaited<ReturnType<typeof loadSchedule>>;
export type StageScheduleData = ReturnType<typeof stageSchedule>;

/** The page's data: the schedule (by day, or by stage and group), and why the caller sees no rooms (yet). */
export async function loadSchedule(request: Request, id: number) {
  const [tournament, matches, team, reports] = await Promise.allSettled([
    gateway.getTournament(request, id),
    gateway.listMatches(request, id),
    ownTeam(request, id),
    // Issue 30: where the team's reports stand, for its room cards (null for a caller on no confirmed team).
    myReportsOrNull(request, id),
  ]);
  if (tournament.status === 'rejected') pageError(tournament.reason, TOURNAMENT_NOT_FOUND);
  if (team.status === 'rejected') throw team.reason;
  if (reports.status === 'rejected') throw reports.reason;
  let state: ScheduleState;
  if (matches.status === 'fulfilled') {
    state = {
      status: 'ok',
      matches: matches.value.map((m) => ({
        id: m.id,
        day: m.day,
        matchNo: m.matchNo,
        map: m.map,
        time: m.time,
        matchId: m.matchId,
        password: m.password,
        groupId: m.groupId ?? null,
        groupName: m.groupName ?? null,
        stageId: m.stageId ?? null,
        stageName: m.stageName ?? null,
      })),
    };
  } else {
    const err: unknown = matches.reason;
    // A 401 is already the redirect to /login, "unreachable" the 503 page, 404 the tournament's.
    if (!(err instanceof GatewayError) || err.unavailable || err.status === 404) pageError(err, TOURNAMENT_NOT_FOUND);
    state = { status: 'failed', message: LOAD_FAILED };
  }
  const timeZone = getEnv().APP_TIME_ZONE;
  const placements = team.value?.placements ?? [];
  const own = team.value?.full;
  const confirmed = own ? placeView(own, { timeZone, free: tournament.value.entryFee <= 0 }).confirmed : false;
  const checkIns = own ? await checkInOffers(request, id, own, confirmed, timeZone) : [];
  // A tournament with stages: the team's own groups' matches first, the next one marked (decision 041).
  const stages =
    state.status === 'ok' && state.matches.some((m) => m.groupId !== null)
      ? stageSchedule(state.matches, placements, tournament.value.startDate, timeZone)
      : null;
  // "Day 1 · Sat 12 Dec": each day's calendar date beside its number (issue 27).
  const dates: Record<number, string> = {};
  for (const m of state.status === 'ok' ? state.matches : []) dates[m.day] ??= formatDayDate(tournament.value.startDate, m.day, timeZone);
  return {
    t: { id: tournament.value.id, name: tournament.value.name },
    dates,
    zone: { short: timeZoneName(timeZone, 'short'), long: timeZoneName(timeZone, 'long') },
    // With stages, the schedule is in stages (each match once, other groups' rooms left out).
    state: stages ? ({ status: 'ok', matches: [] } as ScheduleState) : state,
    stages,
    // The gateway decides who sees room details (decision 029); these only say why someone does not (yet).
    registeredTeam: team.value !== null,
    awaitingPayment:
      team.value && tournament.value.entryFee > 0 && team.value.paymentStatus !== 'verified'
        ? { rid: team.value.rid, paymentStatus: team.value.paymentStatus }
        : null,
    checkIns,
    reports: Object.fromEntries(reportLines(id, reports.value, timeZone).map((line) => [line.key, line])),
    // Issue 20: the team's matches as a calendar file, for a team that holds or waits for a place (decision 050).
    calendar: own && (own.place === 'placed' || own.place === 'waitlist') ? `/tournament/${id}/matches.ics` : null,
  };
}

/** The schedule of a tournament with stages, as the page shows it. Other groups' rooms are never passed on. */
function stageSchedule(matches: StageMatch[], placements: PlacementView[], startDate: string, timeZone: string) {
  const { own, others, ungrouped } = splitByGroup(
    matches,
    placements.map((p) => p.groupId),
  );
  const labels = Object.fromEntries(placements.map((p) => [p.groupId, p.label]));
  return {
    placements,
    own: own.map((m) => ({ ...m, label: labels[m.groupId!] ?? '' })),
    nextId: nextMatchId(own, startDate, timeZone, Date.now()),
    others: others.map((g) => ({ ...g, matches: g.matches.map((m) => ({ ...m, matchId: null, password: null })) })),
    ungrouped,
  };
}
