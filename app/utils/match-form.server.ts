import { MATCH_FORM_FIELDS } from './admin-forms';
import { formEntries, type FormValues } from './forms.server';

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
