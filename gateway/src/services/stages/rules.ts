// Pure functions of stages, groups and slots (issue 18, decision 041): group sizes, draws, advancing and
// the cut lines in words. No database, no HTTP: the stage services feed them rows and store what they return.
import { createHash, randomBytes } from 'node:crypto';
import { compareStandings, type TeamStanding } from '../../lib/ranking.js';

/** Sizes of ceil(n / lobby) groups, differing by at most one, larger first. n >= 1, lobby >= 1. [] for n = 0. */
export function groupSizes(n: number, lobby: number): number[] {
  if (!Number.isInteger(n) || n < 0) throw new RangeError(`groupSizes: n must be a whole number >= 0, got ${n}`);
  if (!Number.isInteger(lobby) || lobby < 1) throw new RangeError(`groupSizes: lobby must be a whole number >= 1, got ${lobby}`);
  const count = Math.ceil(n / lobby);
  if (count === 0) return [];
  const base = Math.floor(n / count);
  const larger = n % count;
  return Array.from({ length: count }, (_, i) => (i < larger ? base + 1 : base));
}

/** 16 lowercase hex characters from crypto.randomBytes. */
export function newSeed(): string {
  return randomBytes(8).toString('hex');
}

/** Fisher–Yates driven by SHA-256 exactly as decision 041 says: for i from n−1 down to 1, j = (first 6 bytes of sha256(`${seed}:${i}`) as a big-endian integer) mod (i + 1); swap i and j. Returns a new array. */
export function shuffleWithSeed<T>(items: readonly T[], seed: string): T[] {
  const out = [...items];
  for (let i = out.length - 1; i >= 1; i--) {
    // 6 bytes = 48 bits: an exact JavaScript number, and the modulo bias is negligible for any team count.
    const j = createHash('sha256').update(`${seed}:${i}`).digest().readUIntBE(0, 6) % (i + 1);
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
}

/**
 * Splits ids (already in the order to deal them) into groups of groupSizes(ids.length, lobby):
 * 'fill': the first sizes[0] ids to group 0 in order, the next sizes[1] to group 1 …
 * 'snake': 1st to group 0, 2nd to group 1 … kth to group k−1, then k+1th to group k−1, back to group 0, and so on; a group that is full is skipped (so sizes still match groupSizes).
 * Each inner array is in slot order (its order of arrival).
 */
export function dealGroups(ids: readonly number[], lobby: number, mode: 'fill' | 'snake'): number[][] {
  const sizes = groupSizes(ids.length, lobby);
  const groups: number[][] = sizes.map(() => []);
  if (mode === 'fill') {
    let next = 0;
    sizes.forEach((size, g) => {
      groups[g] = ids.slice(next, next + size);
      next += size;
    });
    return groups;
  }
  const k = sizes.length;
  // Position in the endless snake 0, 1 … k−1, k−1 … 1, 0, 0, 1 …; period 2k.
  let step = 0;
  const groupAt = (s: number) => {
    const p = s % (2 * k);
    return p < k ? p : 2 * k - 1 - p;
  };
  for (const id of ids) {
    // Terminates: the sizes add up to ids.length, so some group still has room.
    while ((groups[groupAt(step)] as number[]).length >= (sizes[groupAt(step)] as number)) step++;
    (groups[groupAt(step)] as number[]).push(id);
    step++;
  }
  return groups;
}

/** One team of a stage with its sums over the stage's matches (zeros when it has no result). */
export interface StageTeam extends TeamStanding {
  groupId: number;
  groupName: string;
  groupOrder: number;
  slot: number;
}

export interface RankedStageTeam extends StageTeam {
  groupRank: number; // 1.. within its group (compareStandings)
  stageRank: number; // 1.. across the whole stage (compareStandings)
  qualified: boolean;
  via: 'group' | 'best' | null;
}

export interface Cut {
  scope: string; // 'Group C' or 'Best of the rest'
  lastIn: { teamId: number; teamName: string; rank: number }; // rank: groupRank for a group cut, rank among "the rest" (1-based) for best-of-rest
  firstOut: { teamId: number; teamName: string; rank: number } | null; // null when nobody is left out in that scope
  decidedBy: string; // words, see decidedBy
}

export const BEST_OF_THE_REST = 'Best of the rest';

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;
const points = (n: number) => plural(n, 'point', 'points');
const wins = (n: number) => plural(n, 'win', 'wins');
const placementPoints = (n: number) => plural(n, 'placement point', 'placement points');

/** The first tie-breaker of compareStandings that puts a above b, in words (a must rank above b). */
export function decidedBy(a: TeamStanding, b: TeamStanding): string {
  if (compareStandings(a, b) >= 0) throw new RangeError(`decidedBy: ${a.teamName} does not rank above ${b.teamName}`);
  if (a.totalPoints !== b.totalPoints) return `${a.teamName} ${points(a.totalPoints)}, ${b.teamName} ${points(b.totalPoints)}.`;
  if (a.wins !== b.wins) return `Tied on ${points(a.totalPoints)}; ${a.teamName} has more wins (chicken dinners): ${a.wins} to ${b.wins}.`;
  if (a.positionPoints !== b.positionPoints) {
    return `Tied on ${points(a.totalPoints)} and ${wins(a.wins)} each; ${a.teamName} has more placement points: ${a.positionPoints} to ${b.positionPoints}.`;
  }
  if (a.finishes !== b.finishes) {
    return `Tied on ${points(a.totalPoints)}, ${wins(a.wins)} each and ${placementPoints(a.positionPoints)}; ${a.teamName} has more finishes: ${a.finishes} to ${b.finishes}.`;
  }
  if (a.teamName.toLowerCase() !== b.teamName.toLowerCase()) {
    return `Tied on points, wins, placement points and finishes; ${a.teamName} comes first by team name (alphabetical).`;
  }
  // Names are unique per tournament (case-insensitive), so this only keeps the answer total.
  return `Tied on points, wins, placement points, finishes and team name; ${a.teamName} registered first.`;
}

const ref = (t: RankedStageTeam, rank: number) => ({ teamId: t.teamId, teamName: t.teamName, rank });

/**
 * Top perGroup of each group (by groupRank), then the best `best` of the others by the stage ranking.
 * Groups are reported in groupOrder. One cut per group when perGroup > 0 (and the group has more than
 * perGroup teams — if it has ≤ perGroup teams every team qualifies and the cut has firstOut null),
 * one 'Best of the rest' cut when best > 0. If best exceeds the rest, all the rest qualify (firstOut null).
 * Returns every team ranked (ordered by stageRank), the qualifiers (ordered: stageRank) and the cuts.
 */
export function advance(
  teams: readonly StageTeam[],
  rule: { perGroup: number; best: number },
): {
  ranked: RankedStageTeam[];
  qualifiers: RankedStageTeam[];
  cuts: Cut[];
} {
  const ranked: RankedStageTeam[] = [...teams]
    .sort(compareStandings)
    .map((t, i) => ({ ...t, groupRank: 0, stageRank: i + 1, qualified: false, via: null }));

  // Groups by their order (then id, so equal orders still come out the same way every time).
  const byGroup = new Map<number, RankedStageTeam[]>();
  for (const t of ranked) {
    const list = byGroup.get(t.groupId);
    if (list) list.push(t);
    else byGroup.set(t.groupId, [t]);
  }
  const head = (g: RankedStageTeam[]) => g[0] as RankedStageTeam;
  const groups = [...byGroup.values()].sort((x, y) => head(x).groupOrder - head(y).groupOrder || head(x).groupId - head(y).groupId);

  const cuts: Cut[] = [];
  for (const members of groups) {
    // `ranked` is in stage order, so each group's list already is in group order (same comparison).
    members.forEach((t, i) => {
      t.groupRank = i + 1;
      if (i < rule.perGroup) {
        t.qualified = true;
        t.via = 'group';
      }
    });
    if (rule.perGroup > 0) {
      const lastIn = members[Math.min(rule.perGroup, members.length) - 1] as RankedStageTeam;
      const firstOut = members[rule.perGroup];
      cuts.push({
        scope: `Group ${lastIn.groupName}`,
        lastIn: ref(lastIn, lastIn.groupRank),
        firstOut: firstOut ? ref(firstOut, firstOut.groupRank) : null,
        decidedBy: firstOut ? decidedBy(lastIn, firstOut) : `Every team of Group ${lastIn.groupName} qualifies.`,
      });
    }
  }

  const rest = ranked.filter((t) => !t.qualified);
  rest.slice(0, rule.best).forEach((t) => {
    t.qualified = true;
    t.via = 'best';
  });
  // No cut when there is no rest at all: nobody to name as the last one in.
  if (rule.best > 0 && rest.length > 0) {
    const lastRank = Math.min(rule.best, rest.length);
    const lastIn = rest[lastRank - 1] as RankedStageTeam;
    const firstOut = rest[rule.best];
    cuts.push({
      scope: BEST_OF_THE_REST,
      lastIn: ref(lastIn, lastRank),
      firstOut: firstOut ? ref(firstOut, rule.best + 1) : null,
      decidedBy: firstOut ? decidedBy(lastIn, firstOut) : 'Every remaining team qualifies.',
    });
  }

  return { ranked, qualifiers: ranked.filter((t) => t.qualified), cuts };
}
