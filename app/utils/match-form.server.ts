import { MATCH_DAY_MAX, MATCH_NO_MAX, MatchBodySchema } from '@custom-room/contract';
import { MATCH_FORM_FIELDS } from './admin-forms';
import { formEntries, type FormValues } from './forms.server';

/**
 * The admin match form's rules are the gateway's own schema (one source per rule): day 1–7,
 * match 1–6, map required, room ID and password up to 40 characters, time HH:MM.
 */
export const MatchFormSchema = MatchBodySchema;
export { MATCH_DAY_MAX, MATCH_NO_MAX };

/**
 * The match form's input to show again after a refusal. Unlike safeValues() this keeps `password`:
 * it is the room password the organiser hands to every registered team, not a secret of the user,
 * and retyping it on a phone between matches is how typos reach 25 squads.
 */
export function matchFormValues(formData: FormData): FormValues {
  const entries = formEntries(formData);
  const values: FormValues = {};
  for (const name of MATCH_FORM_FIELDS) if (name in entries) values[name] = entries[name]!;
  return values;
}
