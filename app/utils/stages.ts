import { matchStartsAt, outcomeWords, slotLabel } from '@custom-room/contract/constants';
import type { ScheduleMatch } from './matches';

/** Players' and visitors' stage screens (issue 18, decision 041). Pure: safe in the browser bundle. */

/** Where a team plays in one stage and, once the stage is completed, how it did (the gateway's TeamPlacement). */
export interface Placement {
  stageId: number;
  stageName: string;
  stageState: string;
  groupId: number;
  groupName: string;
  slot: number;
  outcome: { groupRank: number; stageRank: number; qualified: boolean; nextStageName: string | null; final: boolean } | null;
}

/** What a screen shows for one placement: "Qualifiers · Group C · Slot 7" and, once completed, the outcome in words. */
export interface PlacementView {
  stageId: number;
  groupId: number;
  groupName: string;
  label: string;
  outcome: string | null;
}

export function placementView(p: Placement): PlacementView {
  const outcome =
    p.stageState === 'completed' && p.outcome ? outcomeWords({ stageName: p.stageName, groupName: p.groupName, ...p.outcome }) : null;
  return { stageId: p.stageId, groupId: p.groupId, groupName: p.groupName, label: slotLabel(p), outcome };
}

/** A registration's placements as views, oldest stage first (the gateway's order); none for a tournament without stages. */
export const placementViews = (placements: readonly Placement[] | undefined): PlacementView[] => (placements ?? []).map(placementView);

/** A match of the schedule, with its group when it is a group match. */
export interface StageMatch extends ScheduleMatch {
  groupId: number | null;
  groupName: string | null;
  stageId: number | null;
  stageName: string | null;
}

/** One group's matches on the schedule ("Qualifiers · Group C"). */
export interface GroupSchedule<M extends StageMatch = StageMatch> {
  groupId: number;
  groupName: string;
  stageId: number | null;
  stageName: string;
  matches: M[];
}

/**
 * The schedule of a tournament with stages: the caller's own groups' matches first (their rooms), then every
 * other group's (by stage, then group name: A, B … Z, AA), and any match outside a group last. own is empty for a
 * visitor or a team not drawn yet.
 */
export function splitByGroup<M extends StageMatch>(
  matches: readonly M[],
  ownGroupIds: readonly number[],
): { own: M[]; others: GroupSchedule<M>[]; ungrouped: M[] } {
  const own: M[] = [];
  const ungrouped: M[] = [];
  const groups = new Map<number, GroupSchedule<M>>();
  for (const m of matches) {
    if (m.groupId === null) ungrouped.push(m);
    else if (ownGroupIds.includes(m.groupId)) own.push(m);
    else {
      let g = groups.get(m.groupId);
      if (!g) {
        g = { groupId: m.groupId, groupName: m.groupName ?? '', stageId: m.stageId, stageName: m.stageName ?? '', matches: [] };
        groups.set(m.groupId, g);
      }
      g.matches.push(m);
    }
  }
  const byName = (a: string, b: string) => a.length - b.length || a.localeCompare(b);
  const others = [...groups.values()].sort((a, b) => (a.stageId ?? 0) - (b.stageId ?? 0) || byName(a.groupName, b.groupName));
  return { own, others, ungrouped };
}

/** The id of the first match (by day, match number) that has not started by now; null when all have, or none can be dated. */
export function nextMatchId(
  matches: readonly ScheduleMatch[],
  startDate: string | null | undefined,
  timeZone: string,
  now: number,
): number | null {
  const sorted = [...matches].sort((a, b) => a.day - b.day || a.matchNo - b.matchNo || a.time.localeCompare(b.time));
  for (const m of sorted) {
    const at = matchStartsAt(startDate, m.day, m.time, timeZone);
    if (at !== null && at >= now) return m.id;
  }
  return null;
}
