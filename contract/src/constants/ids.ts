/**
 * A row id as text (a path segment, a form value, a query value): 1 to 9 digits, so it fits every
 * id column and parses exactly. Written once here for both sides (issue 28).
 */
export const ID_TEXT = /^\d{1,9}$/;

/** The id a text names, or null: not 1 to 9 digits (after trimming), or 0. */
export function idFromText(raw: unknown): number | null {
  if (typeof raw !== 'string') return null;
  const text = raw.trim();
  if (!ID_TEXT.test(text)) return null;
  const id = Number(text);
  return id > 0 ? id : null;
}
