import { TOURNAMENT_NOT_FOUND } from '@custom-room/contract/constants';
import { checkInOffers } from '~/utils/check-in.server';
import { getEnv } from '~/utils/env.server';
import { pageError } from '~/utils/errors.server';
import { formatDayDate } from '~/utils/format';
import { type SharedSchedule } from '~/utils/gateway.server';
import { timeZoneName } from '~/utils/matches';
import { placeView } from '~/utils/places';
import { reportLines } from '~/utils/reports.server';
import { roomPageAnswer } from '~/utils/room-page.server';
import { nextMatchId, placementViews, splitByGroup, type PlacementView, type StageMatch } from '~/utils/stages';

export type SchedulePage = Awaited<ReturnType<typeof loadSchedule>>;
export type StageScheduleData = ReturnType<typeof stageSchedule>;

/**
 * The page's data: the schedule (by day, or by stage and group), and why the caller sees no rooms (yet). One
 * gateway call (decision 087): the minute the rooms are posted, a thousand players open this page at once.
 */
export async function loadSchedule(request: Request, id: number) {
  const schedule = await roomPageAnswer(request, id).catch((err) => pageError(err, TOURNAMENT_NOT_FOUND));
  const { tournament, team: own, reports } = schedule;
  const matches: StageMatch[] = schedule.matches.map((m) => ({
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
  }));
  const timeZone = getEnv().APP_TIME_ZONE;
  const placements = own ? placementViews(own.placements) : [];
  const confirmed = own ? placeView(own, { timeZone, free: tournament.entryFee <= 0 }).confirmed : false;
  const checkIns = own ? await checkInOffers(own, confirmed, async () => schedule.checkInWindows, timeZone) : [];
  // A tournament with stages: the team's own groups' matches first, the next one marked (decision 041).
  // Other groups come from the gateway already without rooms, groups sharing a schedule merged (decision 087).
  const stages =
    matches.some((m) => m.groupId !== null) || schedule.otherGroups.length > 0
      ? stageSchedule(matches, schedule.otherGroups, placements, tournament.startDate, timeZone)
      : null;
  // "Day 1 · Sat 12 Dec": each day's calendar date beside its number (issue 27).
  const dates: Record<number, string> = {};
  for (const m of matches) dates[m.day] ??= formatDayDate(tournament.startDate, m.day, timeZone);
  return {
    t: { id: tournament.id, name: tournament.name },
    dates,
    zone: { short: timeZoneName(timeZone, 'short'), long: timeZoneName(timeZone, 'long') },
    // With stages, the schedule is in stages (each match once, other groups' rooms left out).
    matches: stages ? [] : matches,
    stages,
    // The gateway decides who sees room details (decision 029); these only say why someone does not (yet).
    registeredTeam: own !== null,
    awaitingPayment:
      own && tournament.entryFee > 0 && own.paymentStatus !== 'verified' ? { rid: own.rid, paymentStatus: own.paymentStatus } : null,
    checkIns,
    reports: Object.fromEntries(reportLines(id, reports, timeZone).map((line) => [line.key, line])),
    // Issue 20: the team's matches as a calendar file, for a team that holds or waits for a place (decision 050).
    calendar: own && (own.place === 'placed' || own.place === 'waitlist') ? `/tournament/${id}/matches.ics` : null,
  };
}

/** The schedule of a tournament with stages, as the page shows it. Other groups' rooms are never passed on. */
function stageSchedule(
  matches: StageMatch[],
  otherGroups: SharedSchedule[],
  placements: PlacementView[],
  startDate: string,
  timeZone: string,
) {
  // The gateway sends the team's own groups' matches and those outside the stages; a group of another
  // team's (a gateway that sends every match) is left out here, its room with it.
  const { own, ungrouped } = splitByGroup(
    matches,
    placements.map((p) => p.groupId),
  );
  const labels = Object.fromEntries(placements.map((p) => [p.groupId, p.label]));
  return {
    placements,
    own: own.map((m) => ({ ...m, label: labels[m.groupId!] ?? '' })),
    nextId: nextMatchId(own, startDate, timeZone, Date.now()),
    others: otherGroups,
    ungrouped,
  };
}
