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
  .refine((v) => /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})$/.test(v) && !Number.isNaN(Date.parse(v)) && isRealDate(v.slice(0, 10)), {
    message: 'Must be a date and time with a time zone, e.g. 2026-03-05T18:30:00+05:30.',
  })
  .transform((v) => new Date(v).toISOString());

export const text = (label: string, max: number) =>
  z
    .string({ required_error: `${label} is required.`, invalid_type_error: `${label} must be text.` })
    .trim()
    .min(1, `${label} is required.`)
    .max(max, `${label} must be at most ${max} characters.`);

export const optionalText = (label: string, max: number) =>
  z
    .string({ invalid_type_error: `${label} must be text.` })
    .trim()
    .max(max, `${label} must be at most ${max} characters.`)
    .optional()
    .default('');
