import type { TeamStanding } from '../db/results.js';

// The sums are read in db/ (nothing there imports lib/ rules); callers of the ranking keep importing the type from here.
export type { TeamStanding };

export interface RankedStanding extends TeamStanding {
  rank: number;
}

/** Shown on the points page, so players can check the order themselves. */
export const RANKING_RULE_TEXT =
  'Teams are ranked by total points; ties are broken by more wins (chicken dinners), then more placement points, then more finishes, then team name in alphabetical order.';

const byName = (a: string, b: string) => {
  const x = a.toLowerCase();
  const y = b.toLowerCase();
  return x < y ? -1 : x > y ? 1 : 0;
};

/** Negative when a ranks above b. */
export function compareStandings(a: TeamStanding, b: TeamStanding): number {
  return (
    b.totalPoints - a.totalPoints ||
    b.wins - a.wins ||
    b.positionPoints - a.positionPoints ||
    b.finishes - a.finishes ||
    byName(a.teamName, b.teamName) ||
    // Team names are unique per tournament (case-insensitive); the id only keeps the order total for any input.
    a.teamId - b.teamId
  );
}

/** Sorts (a copy) by the tie-breakers and numbers the rows 1..n; no shared ranks, since the order is total. */
export function rankStandings(rows: readonly TeamStanding[]): RankedStanding[] {
  return [...rows].sort(compareStandings).map((row, i) => ({ rank: i + 1, ...row }));
}
