import { lobbyLimits, MatchResultsBatchSchema, MatchResultsQuerySchema } from '@custom-room/contract';
import { POINTS_FIELDS, pointsInputName } from './admin-forms';
import { formEntries, zodFieldErrors, type FieldErrors, type FormValues } from './forms.server';

/**
 * The admin points form: one row per team, inputs named `{field}.{teamId}` (teamId = rid), saved
 * with the gateway's batch call (decision 013). Each value's rule is the gateway's own row schema.
 */

const RowSchema = MatchResultsBatchSchema.shape.results.element.pick({ teamId: true, position: true, finishes: true });

/** ?day=&match= of the points page: day 1–7, match 1–6, as the gateway reads them. */
export const PointsMatchQuerySchema = MatchResultsQuerySchema;

/** The gateway's bounds for one match (decision 029), to say them beside the form; the gateway checks them. */
export { lobbyLimits };

const INPUT_NAME = /^(position|finishes)\.(\d{1,9})$/;

/** wins is not sent: the gateway derives it from the position. */
export interface PointsRow {
  teamId: number;
  position: number;
  finishes: number;
}

export type ParsedPoints =
  | { success: true; rows: PointsRow[]; notPlayed: number[]; values: FormValues }
  | { success: false; fieldErrors: FieldErrors; values: FormValues };

/**
 * Reads every team's row from the form. An empty value is 0 (spec §5). A team whose values are all 0 is
 * left out: decision 013 counts a stored all-zero row as a match played, and a form row left untouched
 * means the team did not play this match.
 */
export function parsePointsForm(formData: FormData): ParsedPoints {
  const entries = formEntries(formData);
  const values: FormValues = {};
  const teamIds: number[] = [];
  for (const [name, value] of Object.entries(entries)) {
    const m = INPUT_NAME.exec(name);
    if (!m) continue;
    values[name] = value;
    const teamId = Number(m[2]);
    if (!teamIds.includes(teamId)) teamIds.push(teamId);
  }

  const rows: PointsRow[] = [];
  const notPlayed: number[] = [];
  const fieldErrors: FieldErrors = {};
  for (const teamId of teamIds) {
    const raw = Object.fromEntries(POINTS_FIELDS.map((f) => [f, (entries[pointsInputName(f, teamId)] ?? '').trim() || '0']));
    const result = RowSchema.safeParse({ teamId, ...raw });
    if (!result.success) {
      for (const [field, message] of Object.entries(zodFieldErrors(result.error).fieldErrors)) {
        fieldErrors[`${field}.${teamId}`] ??= message;
      }
      continue;
    }
    const row = result.data as PointsRow;
    if (row.position === 0 && row.finishes === 0) notPlayed.push(teamId);
    else rows.push({ teamId: row.teamId, position: row.position, finishes: row.finishes });
  }
  if (Object.keys(fieldErrors).length > 0) return { success: false, fieldErrors, values };
  return { success: true, rows, notPlayed, values };
}
