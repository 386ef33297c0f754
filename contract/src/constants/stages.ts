// --- Stages, groups and slots (issue 18, decision 041) ---
import { gameFamily } from './identity.js';
export const STAGE_STATES = ['draft', 'published', 'completed'] as const;
export type StageState = (typeof STAGE_STATES)[number];
export const DRAW_METHODS = ['registration', 'random', 'seeded'] as const;
export type DrawMethod = (typeof DRAW_METHODS)[number];
export const DRAW_METHOD_LABELS: Record<DrawMethod, string> = {
  registration: 'Registration order',
  random: 'Random draw (with a recorded seed)',
  seeded: "Seeded by the previous stage's ranking (snake order)",
};

/** Teams in one lobby (room): the smallest and the largest an organiser may set. */
export const LOBBY_MIN = 2;
export const LOBBY_MAX = 25;
export const STAGE_NAME_MAX = 40;
export const FIRST_SLOT_MAX = 50;
export const MAX_STAGES = 10;
export const SEED_MAX = 64;
/** Match rows one stage schedule call may carry (each becomes one match per group). */
export const MAX_SCHEDULE_ROWS = 12;
/** Issue 27: the most minutes between two groups' starts (groups hosted one after another). */
export const GROUP_GAP_MAX = 720;
/**
 * Issue 27: a draw that adds a whole group for a few teams past full lobbies (and shrinks every other
 * group) asks first. "A few": at most a quarter of a lobby (1 team in a lobby of 4 to 7, 4 in 16, 6 in 25;
 * never in lobbies under 4). null when the draw needs no confirmation.
 */
export const splitWarning = (entrants: number, lobbySize: number): { groups: number; over: number } | null => {
  const groups = Math.ceil(entrants / lobbySize);
  const over = entrants - (groups - 1) * lobbySize;
  return groups >= 2 && over <= Math.floor(lobbySize / 4) ? { groups, over } : null;
};
/** "3 of 16 group-matches have results" (issue 27): on the stage page and in the completion preview. */
export const resultsInWords = (c: { scheduled: number; withResults: number; notPlayed: number }) =>
  `${c.withResults} of ${c.scheduled} group-${c.scheduled === 1 ? 'match has' : 'matches have'} results` +
  (c.notPlayed > 0 ? `; ${c.notPlayed} marked not played` : '');
/** Room rows one rooms call may carry: 1,000 squads in 40 groups, 6 matches a day. */
export const MAX_ROOM_ROWS = 500;

/**
 * The lobby of a custom room, by game: a BGMI / PUBG Mobile room holds 100 players (25 squads), a
 * Free Fire room 48 (12 squads). undefined for any other game: the organiser gives the number.
 */
export function defaultLobbySize(game: string): number | undefined {
  const family = gameFamily(game);
  if (family === 'bgmi' || family === 'pubgm') return 25;
  if (family === 'freefire') return 12;
  return undefined;
}

/** Group names: A … Z, then AA, AB … AZ, BA … (as spreadsheet columns). index is 0-based. */
export function groupName(index: number): string {
  let n = index + 1;
  let name = '';
  while (n > 0) {
    const rem = (n - 1) % 26;
    name = String.fromCharCode(65 + rem) + name;
    n = Math.floor((n - 1) / 26);
  }
  return name;
}

/** "1st", "2nd", "3rd", "4th", "11th", "21st" … */
export function ordinal(n: number): string {
  const rem100 = n % 100;
  if (rem100 >= 11 && rem100 <= 13) return `${n}th`;
  const suffix = ({ 1: 'st', 2: 'nd', 3: 'rd' } as Record<number, string>)[n % 10] ?? 'th';
  return `${n}${suffix}`;
}

/** "Qualifiers · Group C · Slot 7": where a team plays in a stage. */
export const slotLabel = (place: { stageName: string; groupName: string; slot: number }) =>
  `${place.stageName} · Group ${place.groupName} · Slot ${place.slot}`;

/** A team's result of a completed stage, in words. */
export interface StageOutcome {
  stageName: string;
  groupName: string;
  groupRank: number;
  stageRank: number;
  qualified: boolean;
  /** The stage the qualifiers play next; null when there is none (yet). */
  nextStageName: string | null;
  /** True when the stage advances nobody (a final): its ranking is the tournament's final standings. */
  final: boolean;
}

/** "Qualified for Semi-finals (2nd in Group C)", "Eliminated in Qualifiers (14th in Group C)", "3rd in Grand Final". */
export function outcomeWords(o: StageOutcome): string {
  if (o.final) return `${ordinal(o.stageRank)} in ${o.stageName}`;
  const where = `(${ordinal(o.groupRank)} in Group ${o.groupName})`;
  if (!o.qualified) return `Eliminated in ${o.stageName} ${where}`;
  return o.nextStageName ? `Qualified for ${o.nextStageName} ${where}` : `Qualified from ${o.stageName} ${where}`;
}

export const STAGE_NOT_FOUND = 'Stage not found.';
export const GROUP_NOT_FOUND = 'Group not found.';
