import { z } from 'zod';
import { isRealDate, nameText, singleLine } from './common.js';

export const GENDERS = ['Male', 'Female', 'Other', ''] as const;
export const EARLIEST_BIRTH_DATE = '1900-01-01';

/** Missing or null optional fields become ""; strings are trimmed. */
const blankIfMissing = (v: unknown) => (v == null ? '' : typeof v === 'string' ? v.trim() : v);

const optionalField = (label: string, max: number, lines: 'one' | 'several' = 'one') => {
  const schema = z.string({ invalid_type_error: `${label} must be text.` });
  return z.preprocess(
    blankIfMissing,
    (lines === 'one' ? singleLine(schema, label) : schema).max(max, `${label} must be at most ${max} characters.`),
  );
};

/** Today's date where it is latest on Earth (UTC+14), so nobody's real birthday counts as "in the future". */
function latestToday(): string {
  return new Date(Date.now() + 14 * 3_600_000).toISOString().slice(0, 10);
}

const DateOfBirthSchema = z
  .preprocess(
    blankIfMissing,
    z
      .string({ invalid_type_error: 'Date of birth must be text.' })
      .refine((v) => v === '' || isRealDate(v), { message: 'Date of birth must be a real date in the form YYYY-MM-DD.' })
      .refine((v) => v === '' || !isRealDate(v) || v >= EARLIEST_BIRTH_DATE, { message: 'Date of birth must be in 1900 or later.' })
      .refine((v) => v === '' || !isRealDate(v) || v <= latestToday(), { message: 'Date of birth cannot be in the future.' }),
  )
  .describe('YYYY-MM-DD (1900-01-01 to today) or ""');

function isWebUrl(v: string): boolean {
  try {
    const url = new URL(v);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
}

const ProfilePictureUrlSchema = z
  .preprocess(
    blankIfMissing,
    z
      .string({ invalid_type_error: 'Profile picture URL must be text.' })
      .max(500, 'Profile picture URL must be at most 500 characters.')
      .refine((v) => v === '' || isWebUrl(v), { message: 'Profile picture URL must be a web address starting with http:// or https://.' }),
  )
  .describe('http(s) URL or ""');

const GenderSchema = z.preprocess(
  blankIfMissing,
  z.enum(GENDERS, { errorMap: () => ({ message: 'Gender must be Male, Female, Other or left empty.' }) }),
);

/** Body of create and update: a whole profile (update replaces it; missing optional fields become ""). */
export const ProfileBodySchema = z.object(
  {
    fullName: nameText('Full name', 100),
    bio: optionalField('Bio', 500, 'several'),
    gender: GenderSchema,
    dateOfBirth: DateOfBirthSchema,
    location: optionalField('Location', 100),
    profilePictureUrl: ProfilePictureUrlSchema,
  },
  { required_error: 'Please fill in the form.', invalid_type_error: 'The request body must be a JSON object.' },
);

export const ProfileSchema = z.object({
  fullName: z.string(),
  bio: z.string(),
  gender: z.string().describe('Male, Female, Other or ""'),
  dateOfBirth: z.string().describe('YYYY-MM-DD or ""'),
  location: z.string(),
  profilePictureUrl: z.string().describe('http(s) URL or ""'),
});
