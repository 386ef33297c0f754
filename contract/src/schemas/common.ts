import { z } from 'zod';

/** Path ids: whole numbers only, as strings in the URL. */
export const IdSchema = z.coerce
  .number({ invalid_type_error: 'Must be a whole number.' })
  .int('Must be a whole number.')
  .positive('Must be a positive whole number.')
  .max(2_147_483_647, 'Too large.');

export const ErrorSchema = z.object({
  message: z.string(),
  errors: z.record(z.string()).optional(),
});

export const MessageSchema = z.object({ message: z.string() });

/** Indian mobile numbers: 10 digits starting 6-9, with or without +91 / 0. Stored as +91XXXXXXXXXX. */
export function normalizePhone(input: string): string | null {
  const digits = input.replace(/[\s()-]/g, '');
  const m = /^(?:\+?91|0)?([6-9]\d{9})$/.exec(digits);
  return m ? `+91${m[1]}` : null;
}

/** A calendar date that exists ("2030-02-30" does not, though Date.parse rolls it into March). */
export function isRealDate(ymd: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(ymd);
  if (!m) return false;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return d.toISOString().slice(0, 10) === ymd;
}

/** ISO 8601 date-time with an explicit zone (Z or ±hh:mm); normalised to UTC `…Z`. */
export const IsoDateTimeSchema = z
  .string({ required_error: 'Required.' })
  .trim()
  .min(1, 'Required.')
  .refine(
    (v) =>
      /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})$/.test(v) &&
      !Number.isNaN(Date.parse(v)) &&
      isRealDate(v.slice(0, 10)),
    {
      message: 'Must be a date and time with a time zone, e.g. 2026-03-05T18:30:00+05:30.',
    },
  )
  .transform((v) => new Date(v).toISOString());

// Names are shown to other people (team lists, points tables, admin screens), so they must look like
// what they are. Refused: format characters (Cf: bidi overrides and isolates such as U+202E, zero-width
// U+200B-U+200D, word joiner U+2060, U+FEFF ...), control characters other than whitespace, and every
// Default_Ignorable_Code_Point (decision 033): the combining grapheme joiner U+034F, the variation
// selectors U+FE00-U+FE0F and U+E0100-U+E01EF, the Hangul fillers that games accept as "blank" letters,
// Mongolian selectors, tags ... "Blaze" and "Blaze\u034F" would otherwise be two names that show the same.
// Whitespace is trimmed or collapsed by the schemas.
// eslint-disable-next-line no-control-regex -- control characters are what this refuses
const NO_INVISIBLE = /^[^\p{Cf}\p{Default_Ignorable_Code_Point}\u0000-\u0008\u000E-\u001F\u007F-\u009F]*$/u;
// Something that draws: not a separator, combining mark, other (C*) or blank (Braille blank U+2800).
const EMPTY_OR_VISIBLE = /^$|[^\s\p{Z}\p{M}\p{C}\u115F\u1160\u3164\uFFA0\u2800]/u;
/**
 * Combining marks in a row on one letter (issue 27 item 15): written scripts stack at most three (Thai
 * vowel and tone, a Tibetan stack, Devanagari vowel sign and candrabindu); dozens are "Zalgo" text that
 * draws far above and below the line, over other rows of a table or an image.
 */
export const MAX_MARKS_PER_LETTER = 4;
const FEW_MARKS = new RegExp(`^(?![\\s\\S]*\\p{M}{${MAX_MARKS_PER_LETTER + 1}})`, 'u');

// Line breaks of every kind: CR, LF, vertical tab, form feed, NEL, and the Unicode line and paragraph separators.
const NO_LINE_BREAK = /^[^\n\v\f\r\u0085\u2028\u2029]*$/u;

/**
 * Issue 27: a single-line field (a name, a map, a game, a place) refuses line breaks. Stored names are written
 * into calendar properties, mail bodies and CSV cells, where a line break starts a line of the attacker's own.
 */
export const singleLine = (schema: z.ZodString, label: string) => schema.regex(NO_LINE_BREAK, `${label} must be on one line.`);

/**
 * The checks every name-like field shares. Chain right after .trim(), before the length rules, so a
 * name with a hidden character is told so (not that it is too long, or has a "character not allowed").
 * A line break is refused first (singleLine's words): it is no invisible character.
 */
export const visibleName = (schema: z.ZodString, label: string) =>
  singleLine(schema, label)
    .regex(NO_INVISIBLE, `${label} cannot contain invisible or direction-changing characters.`)
    .regex(EMPTY_OR_VISIBLE, `${label} must contain at least one visible character.`)
    .regex(FEW_MARKS, `${label} has too many accents or marks on one letter (at most ${MAX_MARKS_PER_LETTER}).`);

/** A required single-line text (game, format, prize pool …): line breaks refused. */
export const text = (label: string, max: number) =>
  singleLine(z.string({ required_error: `${label} is required.`, invalid_type_error: `${label} must be text.` }).trim(), label)
    .min(1, `${label} is required.`)
    .max(max, `${label} must be at most ${max} characters.`);

/** A required text of several lines (description, overview). */
export const longText = (label: string, max: number) =>
  z
    .string({ required_error: `${label} is required.`, invalid_type_error: `${label} must be text.` })
    .trim()
    .min(1, `${label} is required.`)
    .max(max, `${label} must be at most ${max} characters.`);

/** A required name-like text (tournament name, full name, map): text() plus visibleName's checks. */
export const nameText = (label: string, max: number) =>
  visibleName(z.string({ required_error: `${label} is required.`, invalid_type_error: `${label} must be text.` }).trim(), label)
    .min(1, `${label} is required.`)
    .max(max, `${label} must be at most ${max} characters.`);

/** An IANA time zone the runtime knows (APP_TIME_ZONE of the gateway and the web app, decision 016); default India's. */
export const TimeZoneSchema = z
  .string()
  .default('Asia/Kolkata')
  .refine((tz) => {
    try {
      new Intl.DateTimeFormat('en-IN', { timeZone: tz });
      return true;
    } catch {
      return false;
    }
  }, 'must be an IANA time zone such as Asia/Kolkata');
