import { coarseBits, parseHash } from '../../gateway/src/lib/screenshot-hash.js';
import {
  COARSE_GATE,
  hashBands,
  hashDistance,
  readScreenshot,
  SAME_SCREENSHOT_DISTANCE,
  screenshotHash,
} from '../../gateway/src/lib/screenshots.js';
import { resultScreen, resultSpec, VARIANTS } from './screenshot-fixtures.js';

// The duplicate-screenshot check's test set (decision 072): result screens of several matches, each
// with its variants, and the pairs that must be caught and must not, with their distances.

/** Phones' screens at half size (2400×1080 and 2668×1200 at 20:9, 2560×1440 at 16:9): a team's phone is the same every match. */
const PHONES: [number, number][] = [
  [1200, 540],
  [1334, 600],
  [1280, 720],
];
export const TEAMS_PER_MATCH = 4;

export interface Shot {
  match: number;
  map: number;
  team: number;
  hash: string;
  variants: { name: string; hash: string }[];
}

/**
 * `matches` matches, two on each map with the same teams (so a team's two results on one map are in the
 * set), each team's screen with its variants. Screens are drawn a match at a time, side by side (the
 * hashes take their turn in the image queue).
 */
export async function buildSet(matches: number, teamsPerMatch = TEAMS_PER_MATCH): Promise<Shot[]> {
  const shots: Shot[] = [];
  const hash = screenshotHash;
  const shoot = async (match: number, slot: number): Promise<Shot> => {
    const map = Math.floor(match / 2);
    const team = map * teamsPerMatch + slot;
    const seed = match * 10 + slot;
    const screen = await resultScreen(resultSpec({ map, match, teamSeed: team, slot, seed, size: PHONES[team % PHONES.length] }));
    const files = await Promise.all(VARIANTS.map((variant) => variant.make(screen, seed)));
    const variants = [];
    for (const [k, file] of files.entries()) variants.push({ name: VARIANTS[k]!.name, hash: await hash(file) });
    return { match, map, team, hash: await hash(screen.png), variants };
  };
  for (let match = 0; match < matches; match++) {
    shots.push(...(await Promise.all(Array.from({ length: teamsPerMatch }, (_, slot) => shoot(match, slot)))));
  }
  return shots;
}

/**
 * The CPU time of readScreenshot (checks, upright, JPEG, hash) on full-size phone screens (2400×1080
 * PNG), one after another with nothing else running: milliseconds each.
 */
export async function readScreenshotCpu(count: number): Promise<number[]> {
  const screens = await Promise.all(
    Array.from({ length: count }, (_, k) =>
      resultScreen(resultSpec({ map: k, match: 100 + k, teamSeed: 100 + k, slot: 0, seed: 1000 + k, size: [2400, 1080] })),
    ),
  );
  const ms: number[] = [];
  for (const screen of screens) {
    const start = process.cpuUsage();
    await readScreenshot(screen.png);
    const used = process.cpuUsage(start);
    ms.push((used.user + used.system) / 1000);
  }
  return ms;
}

export type PairKind =
  | 'variant of the original'
  | 'two variants of one screenshot'
  | 'two teams of one match'
  | 'a variant and another team of its match'
  | 'one team, two matches on one map'
  | 'a variant and its team on the same map'
  | 'two teams, two matches on one map'
  | 'other matches';
export const MUST_CATCH: PairKind[] = ['variant of the original', 'two variants of one screenshot'];

export interface Pair {
  kind: PairKind;
  /** The variant's name, for pairs with one. */
  variant?: string;
  distance: number;
  /** The two hashes, in the order measured. */
  hashes: [string, string];
  /** The two hashes share a key of hashBands. */
  sharesKey: boolean;
  /** Bits apart of their coarse hashes. */
  coarse: number;
}

function pair(kind: PairKind, a: string, b: string, variant?: string): Pair {
  const keys = new Set(hashBands(a));
  return {
    kind,
    variant,
    distance: hashDistance(a, b),
    hashes: [a, b],
    sharesKey: hashBands(b).some((k) => keys.has(k)),
    coarse: coarseBits(parseHash(a), parseHash(b)),
  };
}

function originalsKind(a: Shot, b: Shot): PairKind {
  if (a.match === b.match) return 'two teams of one match';
  if (a.map !== b.map) return 'other matches';
  return a.team === b.team ? 'one team, two matches on one map' : 'two teams, two matches on one map';
}

/**
 * Every pair of the set worth measuring, with its distance. A shot's variants are each paired with the
 * other teams of its match and its team's other match on the map; with thin n, only one variant in n
 * (a different one for each other team) is.
 */
export function measurePairs(shots: Shot[], thin = 1): Pair[] {
  const pairs: Pair[] = [];
  const started = process.cpuUsage();
  shots.forEach((shot, i) => {
    shot.variants.forEach((v, k) => {
      // Either order (the lead may compare the new one with the old or the old with the new).
      const [first, second] = k % 2 ? [v.hash, shot.hash] : [shot.hash, v.hash];
      pairs.push(pair('variant of the original', first, second, v.name));
      const next = shot.variants[(k + 1) % shot.variants.length]!;
      pairs.push(pair('two variants of one screenshot', v.hash, next.hash, `${v.name} / ${next.name}`));
    });
    for (const other of shots.slice(i + 1)) pairs.push(pair(originalsKind(shot, other), shot.hash, other.hash));
    for (const other of shots) {
      if (other === shot || other.map !== shot.map || (other.match !== shot.match && other.team !== shot.team)) continue;
      const kind = other.match === shot.match ? 'a variant and another team of its match' : 'a variant and its team on the same map';
      shot.variants.forEach((v, k) => {
        if ((k + other.team) % thin === 0) pairs.push(pair(kind, v.hash, other.hash, v.name));
      });
    }
  });
  const used = process.cpuUsage(started);
  compareCpu.pairs = pairs.length;
  compareCpu.ms = (used.user + used.system) / 1000;
  return pairs;
}

/** The CPU measurePairs took (hashDistance, hashBands and coarseBits of every pair), for the summary. */
export const compareCpu = { pairs: 0, ms: 0 };

const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;

/** Hit rate, false positives, distance ranges per kind, the margin around the threshold and the hashing time. */
export function summarise(pairs: Pair[], readMs: number[]) {
  const kinds = [...new Set(pairs.map((p) => p.kind))];
  const rows = kinds.map((kind) => {
    const of = pairs.filter((p) => p.kind === kind);
    const d = of.map((p) => p.distance).sort((x, y) => x - y);
    const caught = of.filter((p) => p.distance <= SAME_SCREENSHOT_DISTANCE).length;
    return {
      kind,
      pairs: of.length,
      caught,
      min: d[0]!,
      median: quantile(d, 0.5),
      max: d[d.length - 1]!,
      sharedKey: of.filter((p) => p.sharesKey).length,
    };
  });
  const positives = pairs.filter((p) => MUST_CATCH.includes(p.kind));
  const negatives = pairs.filter((p) => !MUST_CATCH.includes(p.kind));
  const hits = positives.filter((p) => p.distance <= SAME_SCREENSHOT_DISTANCE).length;
  const falsePositives = negatives.filter((p) => p.distance <= SAME_SCREENSHOT_DISTANCE).length;
  const sameMatch = negatives.filter((p) => p.kind === 'two teams of one match' || p.kind === 'a variant and another team of its match');
  const ms = [...readMs].sort((x, y) => x - y);
  return {
    rows,
    hitRate: hits / positives.length,
    falsePositiveRate: falsePositives / negatives.length,
    sameMatchFalsePositives: sameMatch.filter((p) => p.distance <= SAME_SCREENSHOT_DISTANCE).length,
    sameMatchPairs: sameMatch.length,
    /** The farthest caught pair and the nearest pair that must not be caught. */
    farthestSame: Math.max(...positives.map((p) => p.distance)),
    nearestDifferent: Math.min(...negatives.map((p) => p.distance)),
    /** The most coarse bits between copies (the gate must stay above). */
    copyCoarseMax: Math.max(...positives.map((p) => p.coarse)),
    negativesSharingKey: negatives.filter((p) => p.sharesKey).length / negatives.length,
    negativesPastGate: negatives.filter((p) => p.distance > 1000).length / negatives.length,
    readMedianMs: quantile(ms, 0.5),
    reads: readMs.length,
    positives: positives.length,
    negatives: negatives.length,
  };
}

/** The summary as lines of text (the test and the bench print it). */
export function formatSummary(s: ReturnType<typeof summarise>): string {
  const pct = (x: number) => `${(100 * x).toFixed(1)} %`;
  return [
    `Duplicate screenshots (threshold ${SAME_SCREENSHOT_DISTANCE}, coarse gate ${COARSE_GATE} bits; distances over 1000 are told apart by the coarse hash):`,
    ...s.rows.map(
      (r) =>
        `  ${r.kind.padEnd(42)} ${String(r.pairs).padStart(5)} pairs, ${String(r.caught).padStart(5)} caught, distance ${r.min}–${r.max} (median ${r.median}), sharing a key ${r.sharedKey}`,
    ),
    `  hit rate ${pct(s.hitRate)} of ${s.positives}; false positives ${pct(s.falsePositiveRate)} of ${s.negatives} (same match: ${s.sameMatchFalsePositives} of ${s.sameMatchPairs})`,
    `  margin: farthest copy ${s.farthestSame}, nearest different screenshot ${s.nearestDifferent} (threshold ${SAME_SCREENSHOT_DISTANCE})`,
    `  coarse hash: copies at most ${s.copyCoarseMax} bits apart (gate ${COARSE_GATE})`,
    `  different pairs sharing a key: ${pct(s.negativesSharingKey)}; told apart by the coarse hash alone: ${pct(s.negativesPastGate)}`,
    `  CPU per readScreenshot of a 2400×1080 PNG (checks, upright, JPEG, hash): median ${s.readMedianMs.toFixed(0)} ms of ${s.reads}`,
    `  CPU per pair compared (mean over ${compareCpu.pairs}, the coarse gate included): ${(compareCpu.ms / Math.max(1, compareCpu.pairs)).toFixed(2)} ms`,
  ].join('\n');
}
