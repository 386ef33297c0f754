import { MatchResultsBatchSchema } from '@custom-room/contract';
import { formEntries, UNAVAILABLE_FORM_MESSAGE, zodFieldErrors, type FieldErrors, type FormValues } from './forms.server';
import type { GatewayError } from './gateway.server';
import { NUMBER_FIELDS, readResultInput, RESULT_FIELDS, resultInput } from './results-entry';

/**
 * One match's results as entered in the results grid (decision 062): the form read into the
 * gateway's batch rows, and the gateway's refusal read back onto the grid's rows. Each value's rule
 * is the gateway's own row schema.
 */

const RowSchema = MatchResultsBatchSchema.shape.results.element.pick({ teamId: true, position: true, finishes: true, absent: true });

/** wins is never sent: the gateway derives it from the position (decision 029). */
export interface ResultRow {
  teamId: number;
  position: number;
  finishes: number;
  absent?: true;
}

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
