import type { PointsBreakdown } from '@custom-room/contract';
import type { BreakdownView } from '~/components/points-extras';
import { dayLabel, OVERALL } from './points-day';
import { ordinal } from './result-history';

/**
 * Issue 20's points page extras (decision 048, "The points page"): the Standings / Per match tabs, the
 * per-match cells as text, and the WhatsApp share link. Pure: the loaders build, the pages lay out.
 */

/** `?view=matches` shows the per-match breakdown; anything else, the standings (the page as before). */
export type TableView = 'standings' | 'matches';
export const parseView = (raw: string | null): TableView => (raw === 'matches' ? 'matches' : 'standings');

/** The points page's views: a table view, or `?view=players`, Top fraggers (issue 30, decision 076). */
export type PointsView = TableView | 'players';
export const parsePointsView = (raw: string | null): PointsView => (raw === 'players' ? 'players' : parseView(raw));

const scopeParams = (scope: { stage?: number; group?: number }) => {
  const p = new URLSearchParams();
  if (scope.stage) p.set('stage', String(scope.stage));
  if (scope.group) p.set('group', String(scope.group));
  return p;
};

/** Top fraggers' query: the scope asked for (none: the whole tournament) and the view; no day (players' totals have none). */
export function playersQuery(scope: { stage?: number; group?: number }): string {
  const p = scopeParams(scope);
  p.set('view', 'players');
  return `?${p}`;
}

/** Top fraggers' image of the same scope. */
export function playersImage(tid: number, scope: { stage?: number; group?: number }): string {
  const p = scopeParams(scope).toString();
  return `/tournaments/${tid}/points-table/players.png${p ? `?${p}` : ''}`;
}

/** Top fraggers' `https://wa.me/?text=…`: "Tournament — Qualifiers, Top fraggers: https://…". */
export function playersWhatsAppLink(tournament: string, url: string, scope: string | null): string {
  const text = `${tournament} — ${scope ? `${scope}, ` : ''}Top fraggers: ${url}`;
  return `https://wa.me/?text=${encodeURIComponent(text)}`;
}

/** A table page's query: the day (left out for Overall on a stage or group table, as before), stage, group and view. */
export function tableQuery(q: { day: number; stage?: number; group?: number; view?: TableView; keepOverall?: boolean }): string {
  const p = new URLSearchParams();
  if (q.day !== OVERALL || q.keepOverall || (!q.stage && !q.group)) p.set('day', String(q.day));
  if (q.stage) p.set('stage', String(q.stage));
  if (q.group) p.set('group', String(q.group));
  if (q.view === 'matches') p.set('view', 'matches');
  return `?${p}`;
}

/** The column heading of a match: "M2" in a day's table, "D1·M2" overall; words for screen readers. */
export function matchHeading(m: { day: number; match: number }, day: number): { short: string; long: string } {
  return day === OVERALL
    ? { short: `D${m.day}·M${m.match}`, long: `Day ${m.day}, match ${m.match}` }
    : { short: `M${m.match}`, long: `Match ${m.match}` };
}

/** A provisional match's heading: "M2*", "Match 2, provisional". */
const provisionalHeading = (h: { short: string; long: string }) => ({
  short: `${h.short}*`,
  long: `${h.long}, provisional`,
  provisional: true,
});

/** A cell: "3 · 4" (placement · finishes) on screen, "3rd, 4 finishes" in words; "–" for no result. */
export function matchCell(r: { position: number; finishes: number; absent?: boolean } | null): { short: string; long: string } {
  if (!r) return { short: '–', long: 'no result' };
  if (r.absent) return { short: 'abs', long: 'absent' };
  const finishes = `${r.finishes} ${r.finishes === 1 ? 'finish' : 'finishes'}`;
  return r.position > 0
    ? { short: `${r.position} · ${r.finishes}`, long: `${ordinal(r.position)}, ${finishes}` }
    : { short: `– · ${r.finishes}`, long: `not placed, ${finishes}` };
}

/** `https://wa.me/?text=…`: "Tournament — Day 2 points table: https://…" (the scope before the day on stage tables). */
export function whatsAppLink(tournament: string, day: number, url: string, scope?: string | null): string {
  const text = `${tournament} — ${scope ? `${scope}, ` : ''}${dayLabel(day)} points table: ${url}`;
  return `https://wa.me/?text=${encodeURIComponent(text)}`;
}

/**
 * The per-match table as text: headings and "3 · 4" cells. slots: 'group' shows "B·7" (a stage's table),
 * 'slot' the slot alone (one group's), 'none' nothing (no stages). mine: the viewer's team id, if any.
 */
export function breakdownView(
  answer: PointsBreakdown,
  day: number,
  options: { mine: number | null; slots: 'group' | 'slot' | 'none'; provisional?: (m: { day: number; match: number }) => boolean },
): BreakdownView {
  return {
    // Issue 30: a match with provisional results is marked ("*" on screen, words for screen readers).
    matches: answer.matches.map((m) => (options.provisional?.(m) ? provisionalHeading(matchHeading(m, day)) : matchHeading(m, day))),
    rows: answer.rows.map((r) => {
      const slot =
        options.slots === 'group'
          ? [r.groupName, r.slot].filter((x) => x !== undefined).join('·')
          : options.slots === 'slot' && r.slot !== undefined
            ? String(r.slot)
            : undefined;
      return {
        rank: r.rank,
        teamName: r.teamName,
        ...(slot !== undefined && options.slots !== 'none' ? { slot } : {}),
        ...(options.mine !== null && r.teamId === options.mine ? { mine: true } : {}),
        totalPoints: r.totalPoints,
        cells: r.results.map(matchCell),
      };
    }),
  };
}
