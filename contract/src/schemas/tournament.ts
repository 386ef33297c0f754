import { z } from 'zod';
import {
  DEFAULT_POINTS_SYSTEM,
  LONG_TEXT_MAX,
  MAX_ENTRY_FEE,
  MAX_TEAMS_RANGE,
  PAYEE_NAME_MAX,
  PAYMENT_DEADLINE_HOURS_MAX,
  POINTS_SYSTEM_IDS,
  TOURNAMENT_PHASES,
  TOURNAMENT_STATUSES,
  UPI_ID_MESSAGE,
  UPI_ID_PATTERN,
  type FieldErrors,
} from '../constants.js';
import { IdSchema, IsoDateTimeSchema, isRealDate, longText, nameText, text } from './common.js';
import { OrganiserRefSchema } from './organisers.js';

/** A whole number sent as a form field ("16"), within [min, max]. */
const wholeNumber = (label: string, min: number, max: number, unit = '') =>
  z
    .string({ required_error: `${label} is required.`, invalid_type_error: `${label} must be a whole number.` })
    .trim()
    .min(1, `${label} is required.`)
    .regex(/^\d+$/, `${label} must be a whole number${unit}.`)
    .transform(Number)
    .pipe(
      z
        .number()
        .min(min, `${label} must be between ${min.toLocaleString('en-IN')} and ${max.toLocaleString('en-IN')}${unit}.`)
        .max(max, `${label} must be between ${min.toLocaleString('en-IN')} and ${max.toLocaleString('en-IN')}${unit}.`),
    );

/** A form checkbox: ticked ("on", "true", "1") or not (absent, "", "false", "0"). */
const checkbox = (label: string) =>
  z
    .string({ invalid_type_error: `${label} must be on or off.` })
    .trim()
    .toLowerCase()
    .optional()
    .refine((v) => v === undefined || ['', 'on', 'true', '1', 'off', 'false', '0'].includes(v), `${label} must be on or off.`)
    .transform((v) => v === 'on' || v === 'true' || v === '1');

/** Names a typo'd day ("2030-02-30") specifically, before IsoDateTimeSchema judges the rest. */
const isRealCalendarDate = (v: unknown) => {
  const m = typeof v === 'string' ? /^\s*(\d{4}-\d{2}-\d{2})T/.exec(v) : null;
  return !m || isRealDate(m[1]!);
};

const DateField = z.any().refine(isRealCalendarDate, { message: 'That date does not exist in the calendar.' }).pipe(IsoDateTimeSchema);

/** An optional form field: left out stays undefined (keep the stored value), "" is null (none). */
const clearable = <T extends z.ZodTypeAny>(schema: T) =>
  z.preprocess((v) => (typeof v === 'string' && v.trim() === '' ? null : v), schema.nullable().optional());

export const TournamentFormSchema = z.object({
  name: nameText('Name', 100),
  game: text('Game', 50),
  description: longText('Description', LONG_TEXT_MAX),
  startDate: DateField,
  endDate: DateField,
  registrationOpen: DateField,
  registrationClose: DateField,
  maxTeams: wholeNumber('Max teams', MAX_TEAMS_RANGE.min, MAX_TEAMS_RANGE.max),
  format: text('Format', 50),
  platform: text('Platform', 50),
  entryFee: wholeNumber('Entry fee', 0, MAX_ENTRY_FEE, ' rupees'),
  prizePool: text('Prize pool', 100),
  status: z.enum(TOURNAMENT_STATUSES, {
    errorMap: () => ({ message: `Status must be one of: ${TOURNAMENT_STATUSES.join(', ')}.` }),
  }),
  overview: longText('Overview', LONG_TEXT_MAX),
  pointsSystem: z.preprocess(
    (v) => (typeof v === 'string' && v.trim() === '' ? undefined : typeof v === 'string' ? v.trim() : v),
    z
      .enum(POINTS_SYSTEM_IDS, { errorMap: () => ({ message: `Points system must be one of: ${POINTS_SYSTEM_IDS.join(', ')}.` }) })
      .default(DEFAULT_POINTS_SYSTEM),
  ),
  // Issue 19, decision 043: the payment deadline, either hours after a team gets its place or a fixed time.
  paymentDeadlineHours: clearable(
    z
      .any()
      .transform((v) => String(v))
      .pipe(wholeNumber('Payment deadline (hours)', 1, PAYMENT_DEADLINE_HOURS_MAX, ' hours')),
  ),
  paymentDeadlineAt: clearable(DateField),
  requireCharacterIds: checkbox('Require character IDs'),
  // Issue 27 (decision 055): who the players pay; left out on update keeps it, "" clears it (the site's default).
  payeeUpiId: clearable(z.string().trim().regex(UPI_ID_PATTERN, UPI_ID_MESSAGE)),
  payeeName: clearable(text('Payee name', PAYEE_NAME_MAX)),
});

export type TournamentForm = z.infer<typeof TournamentFormSchema>;

const DATE_FIELDS = ['registrationOpen', 'registrationClose', 'startDate', 'endDate'] as const;

/**
 * Validates the text fields of the tournament form. Date order is checked on whichever dates
 * parsed, so an admin sees every problem in one round trip (a zod refinement would stay silent
 * until every other field was valid).
 */
export function validateTournamentForm(
  input: Record<string, unknown>,
): { data: TournamentForm; errors?: undefined } | { data?: undefined; errors: FieldErrors } {
  const result = TournamentFormSchema.safeParse(input);
  const errors: FieldErrors = {};
  if (!result.success) {
    for (const issue of result.error.issues) errors[String(issue.path[0] ?? 'request')] ??= issue.message;
  }
  const dates: Partial<Record<(typeof DATE_FIELDS)[number], string>> = {};
  for (const field of DATE_FIELDS) {
    const parsed = DateField.safeParse(input[field]);
    if (parsed.success) dates[field] = parsed.data;
  }
  const before = (a?: string, b?: string) => a !== undefined && b !== undefined && Date.parse(a) < Date.parse(b);
  const notAfter = (a?: string, b?: string) => a !== undefined && b !== undefined && Date.parse(a) <= Date.parse(b);
  const { registrationOpen, registrationClose, startDate, endDate } = dates;
  if (registrationOpen && registrationClose && !before(registrationOpen, registrationClose)) {
    errors.registrationClose ??= 'Registration must close after it opens.';
  }
  if (registrationClose && startDate && !notAfter(registrationClose, startDate)) {
    errors.registrationClose ??= 'Registration must close no later than the start.';
  }
  if (startDate && endDate && !before(startDate, endDate)) {
    errors.endDate ??= 'The end must be after the start.';
  }
  if (result.success && result.data.paymentDeadlineHours != null && result.data.paymentDeadlineAt != null) {
    errors.paymentDeadlineAt ??= 'Choose hours after registering or a fixed time for the payment deadline, not both.';
  }
  if (result.success && (result.data.payeeUpiId == null) !== (result.data.payeeName == null)) {
    if (result.data.payeeUpiId == null) errors.payeeUpiId ??= 'Give the UPI ID that receives the fees, or clear the payee name too.';
    else errors.payeeName ??= 'Give the name players see in their UPI app, or clear the UPI ID too.';
  }
  if (Object.keys(errors).length > 0 || !result.success) return { errors };
  return { data: result.data };
}

/** How the multipart body is documented in OpenAPI; the handler reads the parts itself. */
export const TournamentMultipartDocSchema = z.object({
  name: z.string().max(100),
  game: z.string().max(50),
  description: z.string().max(LONG_TEXT_MAX),
  startDate: z.string().describe('ISO 8601 date-time with a zone, e.g. 2026-03-05T18:30:00+05:30; stored in UTC'),
  endDate: z.string().describe('ISO 8601 date-time with a zone; after startDate'),
  registrationOpen: z.string().describe('ISO 8601 date-time with a zone; before registrationClose'),
  registrationClose: z.string().describe('ISO 8601 date-time with a zone; no later than startDate'),
  maxTeams: z.string().regex(/^\d+$/).describe('Whole number, 2 to 1000'),
  format: z.string().max(50),
  platform: z.string().max(50),
  entryFee: z.string().regex(/^\d+$/).describe('Whole rupees, 0 to 1,000,000'),
  prizePool: z.string().max(100).describe('Free text, e.g. ₹10,000'),
  status: z.enum(TOURNAMENT_STATUSES),
  overview: z.string().max(LONG_TEXT_MAX),
  pointsSystem: z.enum(POINTS_SYSTEM_IDS).optional().describe(`Default ${DEFAULT_POINTS_SYSTEM}`),
  paymentDeadlineHours: z
    .string()
    .optional()
    .describe(
      `Payment deadline: whole hours (1 to ${PAYMENT_DEADLINE_HOURS_MAX}) after a team gets its place; "" for none; left out on update keeps it. Paid tournaments only.`,
    ),
  paymentDeadlineAt: z
    .string()
    .optional()
    .describe(
      'Payment deadline: a fixed ISO 8601 date-time with a zone; "" for none; left out on update keeps it. Not with paymentDeadlineHours.',
    ),
  requireCharacterIds: z
    .enum(['on', 'true', '1', 'off', 'false', '0', ''])
    .optional()
    .describe('Every named player must give their in-game character ID (decision 046). A checkbox: absent means off.'),
  payeeUpiId: z
    .string()
    .optional()
    .describe(
      'Issue 27: the UPI ID (handle@provider) that receives the entry fees; "" for none (the site\'s default); left out on update keeps it.',
    ),
  payeeName: z
    .string()
    .optional()
    .describe(`The payee's name players see in their UPI app, at most ${PAYEE_NAME_MAX} characters; with payeeUpiId.`),
  coverImage: z.string().optional().describe('Image file (JPEG, PNG, WebP, GIF or AVIF), at most 5 MB, at least 200×100 pixels'),
});

export const TournamentSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  game: z.string(),
  description: z.string(),
  startDate: z.string(),
  endDate: z.string(),
  registrationOpen: z.string(),
  registrationClose: z.string(),
  maxTeams: z.number().int(),
  format: z.string(),
  platform: z.string(),
  entryFee: z.number().int(),
  prizePool: z.string(),
  coverImageUrl: z.string().nullable(),
  coverImageWidth: z.number().int().nullable(),
  coverImageHeight: z.number().int().nullable(),
  status: z.string(),
  overview: z.string(),
  pointsSystem: z.string(),
  requireCharacterIds: z.boolean().describe('Every named player of a team must give their in-game character ID (decision 046).'),
  registeredTeams: z.number().int(),
  createdAt: z.string(),
  updatedAt: z.string(),
  paymentDeadlineHours: z
    .number()
    .int()
    .optional()
    .describe('Issue 19: hours a placed team has to get its payment verified; left out when none.'),
  paymentDeadlineAt: z.string().optional().describe('Issue 19: the fixed time by which payments must be verified; left out when none.'),
  payeeUpiId: z
    .string()
    .optional()
    .describe("Issue 27: the UPI ID that receives this tournament's fees; left out when none (the site's default)."),
  payeeName: z.string().optional().describe('The payee name beside payeeUpiId; left out when none.'),
  phase: z
    .enum(TOURNAMENT_PHASES)
    .optional()
    .describe(
      "Issue 27, decision 051: where the tournament stands, derived from status, dates and stages by the contract rule tournamentPhase (status stays the organiser's free text). Always sent by this gateway; a reader of an older one derives it itself.",
    ),
  stageProgress: z
    .object({ stages: z.number().int(), started: z.boolean(), finished: z.boolean() })
    .optional()
    .describe('Issue 27: the stages the phase reads (how many, one published, the last completed); left out when there are none.'),
  organiser: OrganiserRefSchema.optional().describe('Issue 29: who runs it (always sent by this gateway).'),
});

export type TournamentJson = z.infer<typeof TournamentSchema>;

export const TournamentListSchema = z.array(TournamentSchema);

export const TournamentParamsSchema = z.object({ id: IdSchema });

/** GET /tournaments/admin/summary: one row per live tournament for the admin tournament list. */
export const TournamentAdminSummarySchema = z.object({
  id: z.number().int(),
  name: z.string(),
  game: z.string(),
  status: z.string(),
  startDate: z.string(),
  endDate: z.string(),
  registrationClose: z.string(),
  phase: z.enum(TOURNAMENT_PHASES).optional().describe('Issue 27: the derived phase, as on GET /tournaments/{id}.'),
  maxTeams: z.number().int(),
  entryFee: z.number().int(),
  pointsSystem: z.string(),
  registeredTeams: z.number().int(),
  waitlisted: z.number().int().optional().describe('Teams on the waitlist (issue 19); left out when none.'),
  paymentsAwaiting: z.number().int().describe('Registrations whose payment status is "submitted": a UPI reference waits for verification.'),
  failedDeliveries: z
    .number()
    .int()
    .optional()
    .describe('Emails and pushes of this tournament that could not be delivered (decision 044); left out when none.'),
  payeeUpiId: z.string().optional().describe("Issue 27: the tournament's own payee UPI ID; left out when none (the site's default)."),
  payments: z
    .object({ pending: z.number().int(), submitted: z.number().int(), verified: z.number().int(), rejected: z.number().int() })
    .describe('Registrations by payment status; they add up to registeredTeams.'),
});
export type TournamentAdminSummary = z.infer<typeof TournamentAdminSummarySchema>;
