import {
  ID_TEXT,
  NO_SHOW_ACTIONS,
  MATCH_DAY_MAX,
  MATCH_NO_MAX,
  resultsInWords,
  splitWarning,
  STAGE_NOT_FOUND,
} from '@custom-room/contract/constants';
import { getEnv } from '~/utils/env.server';
import { pageError } from '~/utils/errors.server';
import { formatDateTime, formatMatchTime, toDateTimeLocal } from '~/utils/format';
import { gateway, type EmptySlots, type StageAdvance, type StageCheckIns } from '~/utils/gateway.server';
import { queryNumber } from '~/utils/stage-admin.server';
import { scheduleRowsShown } from '~/utils/stage-forms';
import { advanceWords, stateTone } from '~/utils/stage-words';

/**
 * The stage control room's loader data (issue 18, decision 041): the stage, its entrants, groups, matches
 * and rooms, check-in and who advances, cut to what the page shows.
 */

/** Room rows shown in one form; past this (many groups), one day/match at a time, to keep the page small. */
const ROOM_ROWS_INLINE = 60;
/** Registered teams listed in the invite select at once; more, and the organiser searches by name first. */
const INVITE_LIST_MAX = 40;
/** Up to this many groups, "Who advances" lists every group's qualifiers and cut line. */
const ADVANCE_ALL_GROUPS = 8;

type Stage = Awaited<ReturnType<typeof gateway.listStages>>[number];
type Match = Awaited<ReturnType<typeof gateway.listMatches>>[number];
type Group = Stage['groups'][number];

/** The stage id of the URL, or a thrown 404 "Stage not found." (0 names no stage). */
export function stageIdOf(raw: string | undefined): number {
  const id = raw && ID_TEXT.test(raw) ? Number(raw) : 0;
  if (!id) throw new Response(STAGE_NOT_FOUND, { status: 404 });
  return id;
}

export type StagePage = Awaited<ReturnType<typeof loadStagePage>>;

export async function loadStagePage(request: Request, tid: number, sid: number) {
  const [t, stages, matches] = await Promise.all([
    gateway.getTournament(request, tid),
    gateway.listStages(request, tid, { admin: true }),
    gateway.listMatches(request, tid),
  ]).catch((err) => pageError(err, STAGE_NOT_FOUND));
  const stage = stages.find((s) => s.id === sid);
  if (!stage) throw new Response(STAGE_NOT_FOUND, { status: 404 });

  const later = stage.order > 1;
  const [entrants, registrations, advance, checkIns] = await Promise.all([
    gateway.stageEntrants(request, tid, sid),
    later ? gateway.tournamentRegistrations(request, tid) : Promise.resolve([]),
    stage.state === 'draft' ? Promise.resolve(null) : gateway.stageAdvance(request, tid, sid).catch(() => null as StageAdvance | null),
    stage.checkIn ? gateway.stageCheckIns(request, tid, sid).catch(() => null as StageCheckIns | null) : Promise.resolve(null),
  ]).catch((err) => pageError(err, STAGE_NOT_FOUND));
  // Decision 052: once published, a team that leaves leaves its slot empty for the organiser to fill.
  const empty = stage.state === 'published' ? await gateway.emptySlots(request, tid, sid).catch(() => null as EmptySlots | null) : null;
  const timeZone = getEnv().APP_TIME_ZONE;

  const url = new URL(request.url);
  const groupParam = queryNumber(url.searchParams.get('group'), 2_147_483_647);
  const shownGroup = stage.groups.find((g) => g.id === groupParam) ?? stage.groups[0] ?? null;
  const slots = matchSlots(matches.filter((m) => m.stageId === sid && m.groupId));
  const entrantIds = new Set(entrants.map((e) => e.teamId));
  return {
    t: { id: t.id, name: t.name },
    stage: stageView(stage, timeZone),
    timeZone,
    checkIn: checkInView(checkIns, timeZone, !later && stage.state === 'draft'),
    split: splitText(stage.checkedIn ?? stage.entrants, stage.lobbySize),
    scheduleRows: scheduleRowsShown(slots.length, url.searchParams.get('rows') === 'all'),
    groups: stage.groups.map((g) => ({ id: g.id, name: g.name, count: g.slots.length })),
    shownGroup,
    shownEmpty: empty && shownGroup ? empty.slots.filter((s) => s.groupId === shownGroup.id).map((s) => s.slot) : [],
    fill: empty && fillChoices(empty),
    entrants: {
      count: entrants.length,
      confirmed: entrants.filter((e) => e.via === 'confirmed').length,
      qualified: entrants.filter((e) => e.via === 'qualified').length,
      invited: entrants.filter((e) => e.via === 'invited').map((e) => ({ teamId: e.teamId, teamName: e.teamName })),
    },
    invite: inviteChoices(
      registrations.filter((r) => !entrantIds.has(r.rid)),
      url.searchParams.get('team'),
    ),
    // The schedule and the result picker need the matches, not their 40 groups each.
    slots: slots.map((s) => ({ day: s.day, matchNo: s.matchNo, map: s.map, time: s.time, groups: s.groups.length })),
    rooms: roomsView(slots, url.searchParams.get('rooms')),
    limits: { days: MATCH_DAY_MAX, matches: MATCH_NO_MAX },
    advance: advance && advanceView(advance, stage.groups, shownGroup),
  };
}

function stageView(stage: Stage, timeZone: string) {
  return {
    id: stage.id,
    order: stage.order,
    name: stage.name,
    state: stage.state,
    tone: stateTone(stage.state),
    lobbySize: stage.lobbySize,
    firstSlot: stage.firstSlot,
    advancePerGroup: stage.advancePerGroup,
    advanceBest: stage.advanceBest,
    advance: advanceWords(stage),
    draw: stage.draw,
    hasResults: stage.hasResults,
    entrants: stage.entrants,
    later: stage.order > 1,
    groupGap: stage.groupGap,
    // Issue 27: "3 of 16 group-matches have results" (null before any match is scheduled).
    resultsLine: stage.groupMatches.scheduled > 0 ? resultsInWords(stage.groupMatches) : null,
    checkedIn: stage.checkedIn ?? null,
    checkInOpensAt: toDateTimeLocal(stage.checkIn?.opensAt, timeZone),
    checkInClosesAt: toDateTimeLocal(stage.checkIn?.closesAt, timeZone),
  };
}

interface MatchSlot {
  day: number;
  matchNo: number;
  map: string;
  time: string;
  groups: { id: number; groupId: number; groupName: string; room: string; pw: string }[];
}

/** The stage's group matches as one slot per day and match, each with its groups' rooms (A … Z, AA …). */
function matchSlots(matches: Match[]): MatchSlot[] {
  const own = [...matches].sort(
    (a, b) => a.day - b.day || a.matchNo - b.matchNo || (a.groupName ?? '').localeCompare(b.groupName ?? '', 'en', { numeric: true }),
  );
  const slots: MatchSlot[] = [];
  for (const m of own) {
    let slot = slots.find((s) => s.day === m.day && s.matchNo === m.matchNo);
    if (!slot) slots.push((slot = { day: m.day, matchNo: m.matchNo, map: m.map, time: formatMatchTime(m.time), groups: [] }));
    slot.groups.push({ id: m.id, groupId: m.groupId!, groupName: m.groupName ?? '', room: m.matchId ?? '', pw: m.password ?? '' });
  }
  // Group names sort A … Z, AA …: by length first.
  for (const s of slots) s.groups.sort((a, b) => a.groupName.length - b.groupName.length || a.groupName.localeCompare(b.groupName));
  return slots;
}

/** The rooms form: every match inline when few rows, else the one chosen with ?rooms=day-match. */
function roomsView(slots: MatchSlot[], chosen: string | null) {
  const inline = slots.reduce((n, s) => n + s.groups.length, 0) <= ROOM_ROWS_INLINE;
  return { inline, chosen, slots: inline ? slots : slots.filter((s) => `${s.day}-${s.matchNo}` === chosen).slice(0, 1) };
}

/**
 * Only what the page says: a 40-group stage has 80+ qualifiers and 40 cut lines, so past a few groups the
 * shown group's qualifiers and cut line are listed, with the best of the rest.
 */
function advanceView(advance: StageAdvance, groups: Group[], shownGroup: Group | null) {
  const all = groups.length <= ADVANCE_ALL_GROUPS;
  return {
    total: advance.qualifiers.length,
    onlyGroup: all ? null : (shownGroup?.name ?? null),
    qualifiers: advance.qualifiers
      .filter((q) => all || q.via === 'best' || q.groupName === shownGroup?.name)
      .map((q) => ({
        teamId: q.teamId,
        line: `${q.teamName} · ${q.groupName}${q.groupRank} · ${q.totalPoints} pts${q.via === 'best' ? ' · best of the rest' : ''}`,
      })),
    cuts: advance.cuts
      .filter((c) => all || !c.scope.startsWith('Group ') || c.scope === `Group ${shownGroup?.name}`)
      .map((c) => ({
        scope: c.scope,
        line: `${c.lastIn.teamName} in${c.firstOut ? `, ${c.firstOut.teamName} out` : ''} — ${c.decidedBy}`,
      })),
    nextStage: advance.nextStage,
    missing: advance.missing.map((m) => ({
      id: m.id,
      label: `Day ${m.day} · Match ${m.matchNo} · Group ${m.groupName}`,
      notPlayed: m.notPlayed,
    })),
  };
}

/** Issue 27: the draw's warning before it adds a group for a few teams past full lobbies; null when none. */
function splitText(teams: number, lobby: number): string | null {
  const split = splitWarning(teams, lobby);
  if (!split) return null;
  const full = split.groups - 1;
  return `${teams} teams are ${split.over} more than ${full === 1 ? 'one lobby' : `${full} lobbies`} of ${lobby}: the draw makes ${split.groups} smaller groups.`;
}

/** Decision 047: the stage's check-in list for the organiser, and the no-show choices the gateway allows. */
function checkInView(list: StageCheckIns | null, timeZone: string, mayReplace: boolean) {
  if (!list) return null;
  const checkedIn = list.teams.filter((t) => t.state === 'checked-in');
  const noShows = list.teams.filter((t) => t.state === 'no-show');
  return {
    window: `${formatDateTime(list.opensAt, timeZone)} to ${formatDateTime(list.closesAt, timeZone)}`,
    closed: list.closed,
    decided: list.noShows,
    total: list.teams.length,
    checkedIn: checkedIn.length,
    waiting: list.teams.filter((t) => t.state === 'open' || t.state === 'not-open').map((t) => t.teamName),
    noShows: noShows.map((t) => ({ teamId: t.teamId, teamName: t.teamName })),
    // Replace only in the first stage before it is published (the gateway refuses otherwise).
    actions: NO_SHOW_ACTIONS.filter((a) => a === 'leave' || mayReplace),
  };
}

/** Decision 052: the "fill an empty slot" selects: every empty slot, and the teams that may take one. */
function fillChoices(empty: EmptySlots) {
  return {
    slots: empty.slots.map((s) => ({ value: `${s.groupId}:${s.slot}`, label: `Group ${s.groupName} · slot ${s.slot}` })),
    teams: empty.teams.map((t) => ({
      value: String(t.teamId),
      label:
        t.from === 'waitlist'
          ? `${t.teamName} (waitlist #${t.waitlistPosition}${t.confirmed ? '' : ', pays once seated'})`
          : `${t.teamName} (confirmed, no slot)`,
    })),
  };
}

/** The invite select: every team when there are few, else the teams whose name holds the search (?team=). */
function inviteChoices(teams: { rid: number; teamName: string }[], query: string | null) {
  const q = (query ?? '').trim().toLowerCase();
  const all = teams.length <= INVITE_LIST_MAX;
  const found = all ? teams : q ? teams.filter((t) => t.teamName.toLowerCase().includes(q)) : [];
  return {
    search: !all,
    query: query ?? '',
    teams: found.slice(0, INVITE_LIST_MAX).map((t) => ({ rid: t.rid, teamName: t.teamName })),
    more: found.length > INVITE_LIST_MAX,
  };
}
