import { data } from '@remix-run/node';
import { standingAllows, type StandingJson } from '@custom-room/contract';
import { matchStartsAt, TOURNAMENT_NOT_FOUND } from '@custom-room/contract/constants';
import { getEnv } from '~/utils/env.server';
import { isUnavailable, pageError } from '~/utils/errors.server';
import { formatDateTime, formatMatchTime } from '~/utils/format';
import { gateway, type Match, type Stage, type StageCheckIns, type StageGroup } from '~/utils/gateway.server';
import { lobbyPath } from '~/utils/lobby-reports.server';

/**
 * Issue 29 (decision 069): "My groups", a lobby manager's page on a phone. For each group it runs, the
 * next match with its room, the group's check-in and the way to its results. Only reads a lobby
 * manager may make: the stages and matches (the gateway shows it its own groups' rooms), its standing
 * (its scopes) and each stage's check-in list (the gateway keeps its groups' teams).
 */

export const NOT_LOBBY = 'Only the lobby managers and organisers of this tournament can open My groups.';

/** "1-2": day 1, match 2 (the ?match= of a group's chosen match). */
export const MATCH_KEY = /^(\d{1,3})-(\d{1,3})$/;
const keyOf = (m: { day: number; matchNo: number }) => `${m.day}-${m.matchNo}`;

type Standing = Pick<StandingJson, 'kind' | 'scopes'>;
const SITE_ADMIN: Standing = { kind: 'site-admin', scopes: [] };

export type MyGroupsPage = Awaited<ReturnType<typeof loadMyGroups>>;
export type GroupCard = MyGroupsPage['groups'][number];

export async function loadMyGroups(request: Request, tid: number, siteAdmin: boolean) {
  const [t, stages, matches, me] = await Promise.all([
    gateway.getTournament(request, tid),
    gateway.listStages(request, tid, { admin: true }),
    gateway.listMatches(request, tid),
    siteAdmin ? Promise.resolve(SITE_ADMIN) : gateway.call(request, 'myStanding', { params: { id: tid } }),
  ]).catch((err) => pageError(err, TOURNAMENT_NOT_FOUND));
  if (!standingAllows(me.kind, 'lobby')) throw data({ message: NOT_LOBBY }, { status: 403 });

  // A completed stage's results are read-only: its groups are done.
  const mine = stages
    .filter((s) => s.state !== 'completed')
    .sort((a, b) => a.order - b.order)
    .flatMap((stage) => groupsByName(stage.groups.filter((g) => inScope(me, stage.id, g.id))).map((group) => ({ stage, group })));

  const withWindow = [...new Set(mine.filter((x) => x.stage.checkIn).map((x) => x.stage.id))];
  const lists = new Map(await Promise.all(withWindow.map(async (sid) => [sid, await checkInsOf(request, tid, sid)] as const)));

  const timeZone = getEnv().APP_TIME_ZONE;
  const url = new URL(request.url);
  const chosen = { group: Number(url.searchParams.get('group')), match: url.searchParams.get('match') ?? '' };
  const now = Date.now();
  return {
    t: { id: t.id, name: t.name },
    lobby: me.kind === 'lobby',
    groups: mine.map(({ stage, group }) => {
      const own = matches
        .filter((m) => m.groupId === group.id)
        .sort((a, b) => a.day - b.day || a.matchNo - b.matchNo || a.time.localeCompare(b.time));
      const picked = chosen.group === group.id ? own.find((m) => keyOf(m) === chosen.match) : undefined;
      const next = own.find((m) => (matchStartsAt(t.startDate, m.day, m.time, timeZone) ?? Infinity) >= now);
      // Every match has started: the last one, whose results are likely still to enter.
      const shown = picked ?? next ?? own.at(-1) ?? null;
      const before = shown ? own[own.indexOf(shown) - 1] : undefined;
      const resultsOf = (m: Match) => ({
        href: `/admin/${t.id}/stages/${stage.id}/results?day=${m.day}&match=${m.matchNo}&group=${group.id}`,
        label: `D${m.day} M${m.matchNo}`,
      });
      return {
        id: group.id,
        name: group.name,
        stageId: stage.id,
        stageName: stage.name,
        draft: stage.state === 'draft',
        shown: shown && {
          id: shown.id,
          key: keyOf(shown),
          what: picked ? 'Chosen match' : shown === next ? 'Next match' : 'Last match',
          label: `Day ${shown.day} · Match ${shown.matchNo}`,
          detail: [shown.map, formatMatchTime(shown.time)].filter(Boolean).join(' · '),
          room: shown.matchId ?? '',
          pw: shown.password ?? '',
        },
        pinned: picked ? keyOf(picked) : null,
        matches: own.map((m) => ({ key: keyOf(m), label: `D${m.day} M${m.matchNo}`, current: m === shown })),
        // The shown match's results, and the one before it (just played while the next room goes out).
        results: [shown, before].filter((m): m is Match => !!m).map(resultsOf),
        // Issue 30 (decision 075): the same matches' captains' reports (the lobby view), no call more.
        reports: [shown, before]
          .filter((m): m is Match => !!m)
          .map((m) => ({
            href: lobbyPath({ tid: t.id, day: m.day, match: m.matchNo, group: group.id }),
            label: `D${m.day} M${m.matchNo}`,
          })),
        checkIn: stage.checkIn ? checkInOf(lists.get(stage.id) ?? null, group, timeZone) : null,
      };
    }),
  };
}

/** Whether a group is the caller's: every group for the organisers, a lobby manager's scopes (a whole stage or one group). */
function inScope(me: Standing, stageId: number, groupId: number) {
  if (me.kind !== 'lobby') return true;
  return me.scopes.some((s) => s.stageId === stageId && (s.groupId === null || s.groupId === groupId));
}

/** A … Z, AA …: by length first. */
const groupsByName = (groups: StageGroup[]) => [...groups].sort((a, b) => a.name.length - b.name.length || a.name.localeCompare(b.name));

/** A stage's check-in list; null when the gateway refuses it (the page still works), the 503 page when it is down. */
async function checkInsOf(request: Request, tid: number, sid: number): Promise<StageCheckIns | null> {
  return gateway.stageCheckIns(request, tid, sid).catch((err) => (isUnavailable(err) ? pageError(err) : null));
}

/** One group's share of its stage's check-in: who has checked in, who not yet, and once closed the no-shows. */
function checkInOf(list: StageCheckIns | null, group: Stage['groups'][number], timeZone: string) {
  if (!list) return { known: false as const };
  const seated = new Set(group.slots.map((s) => s.teamId));
  const teams = list.teams.filter((t) => seated.has(t.teamId));
  const names = (states: string[]) => teams.filter((t) => states.includes(t.state)).map((t) => t.teamName);
  return {
    known: true as const,
    window: `${formatDateTime(list.opensAt, timeZone)} to ${formatDateTime(list.closesAt, timeZone)}`,
    closed: list.closed,
    total: teams.length,
    checkedIn: names(['checked-in']),
    waiting: names(['open', 'not-open']),
    noShows: names(['no-show']),
  };
}
