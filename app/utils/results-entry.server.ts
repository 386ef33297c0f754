import { MatchResultsBatchSchema } from '@custom-room/contract';
import { formEntries, UNAVAILABLE_FORM_MESSAGE, zodFieldErrors, type FieldErrors, type FormValues } from './forms.server';
import { GatewayError } from './gateway.server';
import {
  FINISH_ORDER,
  NUMBER_FIELDS,
  PLACEMENT_INTENT,
  placementRows,
  readFinishOrder,
  readResultInput,
  readSlotOrder,
  RESULT_FIELDS,
  resultInput,
  SLOT_ORDER,
  type PlacementIntent,
  type PlacementStep,
  type ResultRow,
  type SlottedTeam,
} from './results-entry';

export type { ResultRow } from './results-entry';

/**
 * One match's results as entered in the results grid (decision 062): the form read into the
 * gateway's batch rows, and the gateway's refusal read back onto the grid's rows. Each value's rule
 * is the gateway's own row schema.
 */

const RowSchema = MatchResultsBatchSchema.shape.results.element.pick({ teamId: true, position: true, finishes: true, absent: true });

export type ParsedResults =
  { ok: true; rows: ResultRow[]; values: FormValues } | { ok: false; fieldErrors: FieldErrors; values: FormValues };

export interface ResultsFormOptions {
  /** The teams the grid shows (a group's, in slot order); left out, the teams are those the form names. */
  teamIds?: readonly number[];
  /** Whether the grid has an Absent box per team. */
  absent?: boolean;
}

/** The teams a form names by its number inputs, in the form's order. */
function teamsNamed(entries: Record<string, string>): number[] {
  const ids = Object.keys(entries).map((name) => readResultInput(name, NUMBER_FIELDS)?.teamId);
  return [...new Set(ids.filter((id) => id !== undefined))];
}

/**
 * Reads every team's row. An empty value is 0 (spec §5). A team left at 0 and 0 (and not absent) is
 * left out: decision 013 counts a stored all-zero row as a match played, and a row left untouched
 * means the team did not play this match (or has no result yet).
 */
export function parseResultsForm(formData: FormData, { teamIds, absent = false }: ResultsFormOptions = {}): ParsedResults {
  const entries = formEntries(formData);
  const fields = absent ? RESULT_FIELDS : NUMBER_FIELDS;
  const values: FormValues = {};
  const fieldErrors: FieldErrors = {};
  const rows: ResultRow[] = [];
  for (const teamId of teamIds ?? teamsNamed(entries)) {
    for (const name of fields.map((f) => resultInput(f, teamId))) if (name in entries) values[name] = entries[name]!;
    const isAbsent = absent && resultInput('absent', teamId) in entries;
    const number = (f: (typeof NUMBER_FIELDS)[number]) => (entries[resultInput(f, teamId)] ?? '').trim() || '0';
    const result = RowSchema.safeParse({ teamId, position: number('position'), finishes: number('finishes'), absent: isAbsent });
    if (!result.success) {
      for (const [f, message] of Object.entries(zodFieldErrors(result.error).fieldErrors)) fieldErrors[`${f}.${teamId}`] ??= message;
      continue;
    }
    const { position, finishes } = result.data;
    if (isAbsent) rows.push({ teamId, position, finishes, absent: true });
    else if (position !== 0 || finishes !== 0) rows.push({ teamId, position, finishes });
  }
  if (Object.keys(fieldErrors).length) return { ok: false, fieldErrors, values };
  return { ok: true, rows, values };
}

/** The keys of the gateway's row errors (wins only if a form ever sent it). */
const ROW_ERROR_FIELDS = ['teamId', 'position', 'wins', 'finishes', 'absent'] as const;

export interface RefusalWords {
  /** The screen's failure message, said before the gateway's messages that land on no row. */
  failed: string;
  /** Said when the gateway cannot be reached. */
  unavailable?: string;
  /** A refusal the screen says in its own words, with no row errors (the points page: 403, 404); null reads the rows. */
  whole?: (err: GatewayError) => string | null;
  /**
   * When the gateway's own message is the whole form error, beside the row errors (the points page: a
   * 409, whose message names every team sharing a placement). By default: when it said nothing else.
   */
  gatewaySays?: (err: GatewayError) => boolean;
}

/**
 * A refused batch as form errors. Row errors arrive keyed `{field}.{teamId}`, the grid's own input
 * names, so each lands beside its row; the rest is said at the top after the screen's failure message.
 */
export function resultsRefusal(err: GatewayError, words: RefusalWords): { fieldErrors: FieldErrors; formError: string } {
  if (err.unavailable) return { fieldErrors: {}, formError: words.unavailable ?? UNAVAILABLE_FORM_MESSAGE };
  const whole = words.whole?.(err);
  if (whole) return { fieldErrors: {}, formError: whole };
  const fieldErrors: FieldErrors = {};
  const unplaced: string[] = [];
  for (const [key, message] of Object.entries(err.fieldErrors)) {
    if (readResultInput(key, ROW_ERROR_FIELDS)) fieldErrors[key] = message;
    else unplaced.push(message);
  }
  const saidNothing = unplaced.length === 0 && Object.keys(fieldErrors).length === 0;
  if (words.gatewaySays ? words.gatewaySays(err) : saidNothing) return { fieldErrors, formError: err.message || words.failed };
  return { fieldErrors, formError: [words.failed, ...unplaced].join(' ') };
}

/*
 * Placement-order entry (decision 073): step 1 posts the slots in result order (and, for a fast typist,
 * the finishes in the same order); step 2 posts the slot list again (hidden) with one finishes input per
 * team. Both save the same batch as the grid: positions 1..n in the typed order, every other team absent.
 */

export interface PlacementOptions {
  /** The lobby's teams by slot. */
  teams: readonly SlottedTeam[];
  /** The lobby as the messages name it ("Group B"). */
  lobby: string;
  /** Sends the batch; a GatewayError it throws is read back onto the rows. */
  save: (rows: ResultRow[]) => Promise<unknown>;
  words: RefusalWords;
}

export type PlacementOutcome = { saved: ResultRow[] } | { step: PlacementStep; status: number };

const FinishesSchema = RowSchema.pick({ finishes: true });
const NO_FINISHES = 'Type the finishes in the same order to save from here, or choose “Next: finishes” to enter them team by team.';

const stepOf = (step: PlacementStep['step'], order: number[], values: FormValues, fieldErrors: FieldErrors = {}, status = 400) => ({
  step: { step, order, values, fieldErrors, formError: null },
  status,
});

/** Step 2's inputs filled from step 1's finishes list (none when it was left empty), or step 2's own inputs. */
function finishValues(entries: Record<string, string>, order: readonly number[]): { values: FormValues; error?: string; listed?: boolean } {
  if (!(FINISH_ORDER in entries))
    return { values: Object.fromEntries(order.map((id) => [resultInput('finishes', id), entries[resultInput('finishes', id)] ?? ''])) };
  const list = readFinishOrder(entries[FINISH_ORDER]!, order.length);
  if (!list.ok) return { values: {}, error: list.error };
  if (!list.items) return { values: {}, listed: false };
  return { values: Object.fromEntries(order.map((id, i) => [resultInput('finishes', id), String(list.items[i])])), listed: true };
}

/** Each team's finishes by the gateway's row rule (empty is 0), keyed like step 2's inputs. */
function readFinishes(values: FormValues, order: readonly number[]): { finishes: number[]; fieldErrors: FieldErrors } {
  const fieldErrors: FieldErrors = {};
  const finishes = order.map((id) => {
    const name = resultInput('finishes', id);
    const result = FinishesSchema.safeParse({ finishes: (values[name] ?? '').trim() || '0' });
    if (result.success) return result.data.finishes;
    fieldErrors[name] = zodFieldErrors(result.error).fieldErrors.finishes ?? 'Finishes must be a whole number.';
    return 0;
  });
  return { finishes, fieldErrors };
}

/** Step 2's finishes as step 1's list again ("Change the order"): empty when none was typed. */
function finishList(entries: Record<string, string>, order: readonly number[]): string {
  const typed = order.map((id) => (entries[resultInput('finishes', id)] ?? '').trim());
  return typed.some(Boolean) ? typed.map((v) => v || '0').join(' ') : '';
}

/**
 * One placement-order post: the step to show again (with its errors), or the rows it saved. "Next"
 * shows step 2 (its inputs filled from a finishes list when one was typed), "Change the order" step 1
 * with both lists, "Save" sends the batch from either step.
 */
export async function placementOrderAction(
  formData: FormData,
  intent: PlacementIntent,
  options: PlacementOptions,
): Promise<PlacementOutcome> {
  const entries = formEntries(formData);
  const slotText = entries[SLOT_ORDER] ?? '';
  const lists = { [SLOT_ORDER]: slotText, ...(FINISH_ORDER in entries ? { [FINISH_ORDER]: entries[FINISH_ORDER]! } : {}) };
  const slots = readSlotOrder(slotText, options.teams, options.lobby);
  if (!slots.ok) return stepOf(1, [], lists, { [SLOT_ORDER]: slots.error });
  const order = slots.items.map((t) => t.teamId);
  if (intent === PLACEMENT_INTENT.change)
    return stepOf(1, [], { [SLOT_ORDER]: slotText, [FINISH_ORDER]: finishList(entries, order) }, {}, 200);

  const typed = finishValues(entries, order);
  if (typed.error) return stepOf(1, [], lists, { [FINISH_ORDER]: typed.error });
  if (intent === PLACEMENT_INTENT.save && typed.listed === false) return stepOf(1, [], lists, { [FINISH_ORDER]: NO_FINISHES });
  const values = { [SLOT_ORDER]: slots.items.map((t) => t.slot).join(' '), ...typed.values };
  if (intent === PLACEMENT_INTENT.next) return stepOf(2, order, values, {}, 200);

  const { finishes, fieldErrors } = readFinishes(values, order);
  if (Object.keys(fieldErrors).length > 0) return stepOf(2, order, values, fieldErrors);
  const rows = placementRows(
    order,
    finishes,
    options.teams.map((t) => t.teamId),
  );
  try {
    await options.save(rows);
  } catch (err) {
    if (!(err instanceof GatewayError)) throw err;
    const refusal = resultsRefusal(err, options.words);
    return { step: { step: 2, order, values, ...refusal }, status: err.unavailable ? 503 : err.status };
  }
  return { saved: rows };
}
