import { ID_TEXT } from '@custom-room/contract/constants';

/**
 * The names of the results grid's inputs (decision 062), shared by every screen that enters one
 * match's results (a group's page, the points entry page) and by the browser (pure: no server imports).
 * One row per team: `position.{teamId}`, `finishes.{teamId}` and, where a team may be marked absent,
 * `absent.{teamId}`. The gateway's batch errors use the same keys, plus `teamId.{teamId}` for the row.
 */

export const RESULT_FIELDS = ['position', 'finishes', 'absent'] as const;
export type ResultField = (typeof RESULT_FIELDS)[number];
/** The two numbers of a row, in the order the grid shows them. */
export const NUMBER_FIELDS = ['position', 'finishes'] as const satisfies readonly ResultField[];
export type NumberField = (typeof NUMBER_FIELDS)[number];

export const resultInput = (field: ResultField, teamId: number) => `${field}.${teamId}`;

/** The field and team an input name stands for, or null when it is none of `fields`. */
export function readResultInput<F extends string>(name: string, fields: readonly F[]): { field: F; teamId: number } | null {
  const dot = name.indexOf('.');
  const field = name.slice(0, dot) as F;
  const id = name.slice(dot + 1);
  if (dot < 0 || !fields.includes(field) || !ID_TEXT.test(id)) return null;
  return { field, teamId: Number(id) };
}

/** Every key an error of one row may carry, in the grid's order: the row itself, then its inputs. */
export const rowKeys = (teamId: number, fields: readonly ResultField[]) => [
  `teamId.${teamId}`,
  ...fields.map((f) => resultInput(f, teamId)),
];

/*
 * Placement-order entry (decision 073): staff type the slots as the game's result list shows them, 1st
 * place first, then each team's finishes in the same order. Pure, and independent of any one screen:
 * a group's results page and the lobby view read the same lists.
 */

/** One team of a lobby as the lists name it: by its slot. */
export interface SlottedTeam {
  slot: number;
  teamId: number;
}

export type ListReading<T> = { ok: true; items: T[] } | { ok: false; error: string };

/** The entries of a typed list: spaces, commas, semicolons or new lines separate them. */
export const listEntries = (text: string) => text.split(/[\s,;]+/).filter(Boolean);

const WHOLE = /^\d{1,4}$/;

/** "1–25", or "1–3, 5 and 7–25" when a group's slots have gaps. */
export function slotRanges(slots: readonly number[]): string {
  const sorted = [...new Set(slots)].sort((a, b) => a - b);
  const runs: string[] = [];
  for (let i = 0; i < sorted.length; i++) {
    const start = sorted[i]!;
    while (sorted[i + 1] === sorted[i]! + 1) i++;
    runs.push(sorted[i] === start ? String(start) : `${start}–${sorted[i]}`);
  }
  return runs.length <= 1 ? (runs[0] ?? 'none') : `${runs.slice(0, -1).join(', ')} and ${runs.at(-1)}`;
}

const ordinal = (n: number) => {
  const tens = n % 100;
  const suffix = tens >= 11 && tens <= 13 ? 'th' : (['th', 'st', 'nd', 'rd'][n % 10] ?? 'th');
  return `${n}${suffix}`;
};

const joinAnd = (words: readonly string[]) =>
  words.length <= 1 ? (words[0] ?? '') : `${words.slice(0, -1).join(', ')} and ${words.at(-1)}`;

/** Entries that are not whole numbers, said once each. */
function notNumbers(entries: readonly string[], [one, many]: readonly [string, string]): string | null {
  const bad = [...new Set(entries.filter((e) => !WHOLE.test(e)))];
  if (bad.length === 0) return null;
  const what = bad.length === 1 ? `is not a ${one}` : `are not ${many}`;
  return `${joinAnd(bad.map((e) => `“${e}”`))} ${what}: type whole numbers only, separated by spaces or commas.`;
}

/** Slots listed more than once, with the places they were given (null: a place to count, not a slot to check). */
function repeatedSlots(slots: readonly (number | null)[]): string[] {
  const places = new Map<number, number[]>();
  for (const [i, slot] of slots.entries()) if (slot !== null) places.set(slot, [...(places.get(slot) ?? []), i + 1]);
  return [...places]
    .filter(([, at]) => at.length > 1)
    .map(([slot, at]) => `Slot ${slot} is listed ${at.length === 2 ? 'twice' : `${at.length} times`} (${joinAnd(at.map(ordinal))} place).`);
}

/**
 * The teams in the order of the typed slot list, 1st place first. `lobby` names the lobby in the
 * messages ("Group B"). Every problem of the list is said at once: entries that are not numbers,
 * slots outside the lobby (with the lobby's slots), slots listed twice.
 */
export function readSlotOrder<T extends SlottedTeam>(text: string, teams: readonly T[], lobby: string): ListReading<T> {
  const entries = listEntries(text);
  if (entries.length === 0)
    return { ok: false, error: 'Type the slot numbers in the order of the result list, 1st place first (for example 7 12 3).' };
  const nan = notNumbers(entries, ['slot number', 'slot numbers']);
  if (nan) return { ok: false, error: nan };
  const slots = entries.map(Number);
  const bySlot = new Map(teams.map((t) => [t.slot, t]));
  const outside = [...new Set(slots.filter((s) => !bySlot.has(s)))];
  const errors: string[] = [];
  if (outside.length > 0) {
    const which = outside.length === 1 ? `Slot ${outside[0]} is` : `Slots ${joinAnd(outside.map(String))} are`;
    errors.push(`${which} not in ${lobby} (slots ${slotRanges(teams.map((t) => t.slot))}).`);
  }
  // A slot outside the lobby is said once, as outside, however often it was typed.
  errors.push(...repeatedSlots(slots.map((s) => (bySlot.has(s) ? s : null))));
  if (errors.length > 0) return { ok: false, error: errors.join(' ') };
  return { ok: true, items: slots.map((s) => bySlot.get(s)!) };
}

/**
 * The finishes typed in the same order as `count` listed slots; an empty list is no list (null: they are
 * entered team by team). Numbers only and one per team: each number's range is the gateway's rule.
 */
export function readFinishOrder(text: string, count: number): ListReading<number> | { ok: true; items: null } {
  const entries = listEntries(text);
  if (entries.length === 0) return { ok: true, items: null };
  const nan = notNumbers(entries, ['number of finishes', 'numbers of finishes']);
  if (nan) return { ok: false, error: nan };
  if (entries.length !== count) {
    const slots = `${count} ${count === 1 ? 'slot' : 'slots'}`;
    const finishes = `${entries.length} ${entries.length === 1 ? 'number' : 'numbers'}`;
    return { ok: false, error: `${slots} listed but ${finishes} of finishes: type one for each slot, in the same order.` };
  }
  return { ok: true, items: entries.map(Number) };
}

/** A team's row as the results batch sends it (decision 062); wins is never sent. */
export interface ResultRow {
  teamId: number;
  position: number;
  finishes: number;
  absent?: true;
}

/**
 * The match's rows: the listed teams placed 1..n in the typed order with their finishes, then every
 * other team of the lobby absent. The result list shows every team that was in the room, so a team
 * left out of it did not play (decision 073).
 */
export function placementRows(placed: readonly number[], finishes: readonly number[], lobby: readonly number[]): ResultRow[] {
  const listed = new Set(placed);
  return [
    ...placed.map((teamId, i) => ({ teamId, position: i + 1, finishes: finishes[i] ?? 0 })),
    ...lobby.filter((id) => !listed.has(id)).map((teamId) => ({ teamId, position: 0, finishes: 0, absent: true as const })),
  ];
}

/**
 * The saved results as the two lists (slots and finishes, in placement order) when the placements are
 * exactly 1..n and every other team is absent or has no row, so saving them again changes nothing;
 * empty lists otherwise (no results, a gap, or a team with finishes but no placement).
 */
export function savedLists(
  teams: readonly SlottedTeam[],
  saved: (teamId: number) => { position: number; finishes: number; absent: boolean } | undefined,
): { slots: string; finishes: string } {
  const placed = teams
    .map((t) => ({ slot: t.slot, row: saved(t.teamId) }))
    .filter((t) => t.row && !t.row.absent && t.row.position > 0)
    .sort((a, b) => a.row!.position - b.row!.position);
  const unplaced = teams.some((t) => {
    const row = saved(t.teamId);
    return row && !row.absent && row.position === 0;
  });
  if (unplaced || placed.length === 0 || placed.some((t, i) => t.row!.position !== i + 1)) return { slots: '', finishes: '' };
  return { slots: placed.map((t) => t.slot).join(' '), finishes: placed.map((t) => t.row!.finishes).join(' ') };
}

/** The two lists' fields on step 1, and the intents of the placement-order forms (decision 073). */
export const SLOT_ORDER = 'slotOrder';
export const FINISH_ORDER = 'finishOrder';
export const PLACEMENT_INTENT = { next: 'order', save: 'order-save', change: 'order-change' } as const;
export type PlacementIntent = (typeof PLACEMENT_INTENT)[keyof typeof PLACEMENT_INTENT];
export const isPlacementIntent = (v: unknown): v is PlacementIntent => Object.values<unknown>(PLACEMENT_INTENT).includes(v);

/**
 * A placement-order post that saved nothing: the step to show again, the teams in the typed order (step
 * 2's rows; none on step 1), what was typed and what went wrong, keyed by field (`finishes.{teamId}` and
 * the gateway's other row keys on step 2).
 */
export interface PlacementStep {
  step: 1 | 2;
  order: number[];
  values: Record<string, string>;
  fieldErrors: Record<string, string>;
  formError: string | null;
}
