import type { NotPlayedMark, ResultChange, ResultValues } from '@custom-room/contract';
import { formatDateTime } from './format';

/** Issue 20 (decision 048): the public points page's "Result history", as text the page only lays out. */

export interface HistoryEntry {
  changeId: number;
  /** "Day 2 · Match 3", plus "· Qualifiers · Group A" on group matches. */
  match: string;
  by: string;
  /** ISO, for <time dateTime>. */
  at: string;
  /** "26 Nov 2026, 9:05 pm" in the app's time zone (spec §9). */
  when: string;
  /** "Team X: 3rd, 0 wins, 4 finishes → 2nd, 0 wins, 6 finishes", one per team the change edited. */
  teams: string[];
}

export const ordinal = (n: number) => {
  const tens = n % 100;
  const suffix = tens >= 11 && tens <= 13 ? 'th' : (['th', 'st', 'nd', 'rd'][n % 10] ?? 'th');
  return `${n}${suffix}`;
};
const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** "3rd, 1 win, 4 finishes"; "not placed, 0 wins, 2 finishes"; "absent". */
export function resultText(v: ResultValues | null): string {
  if (!v) return 'removed';
  if (v.absent) return 'absent';
  const place = v.position > 0 ? ordinal(v.position) : 'not placed';
  return `${place}, ${plural(v.wins, 'win', 'wins')}, ${plural(v.finishes, 'finish', 'finishes')}`;
}

export function historyEntry(change: ResultChange, timeZone: string): HistoryEntry {
  const group = change.groupName !== undefined ? ` · ${change.stageName ? `${change.stageName} · ` : ''}Group ${change.groupName}` : '';
  return {
    changeId: change.changeId,
    match: `Day ${change.day} · Match ${change.match}${group}`,
    by: change.changedBy,
    at: change.changedAt,
    when: formatDateTime(change.changedAt, timeZone),
    teams: change.teams.map((t) => `${t.teamName}: ${resultText(t.before)} → ${resultText(t.after)}`),
  };
}

/** Issue 27: a group match the organiser marked as not played, as the history lists it. */
export interface NotPlayedLine {
  key: string;
  match: string;
  by: string;
  at: string;
  when: string;
}

export function notPlayedLine(mark: NotPlayedMark, timeZone: string): NotPlayedLine {
  return {
    key: `${mark.groupId}-${mark.day}-${mark.match}`,
    match: `Day ${mark.day} · Match ${mark.match} · ${mark.stageName} · Group ${mark.groupName}`,
    by: mark.markedBy,
    at: mark.markedAt,
    when: formatDateTime(mark.markedAt, timeZone),
  };
}
