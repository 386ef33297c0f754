import { z } from 'zod';
import { IdSchema, visibleName } from './common.js';
import { nameKeys } from '../lib/name-keys.js';

export const PAYMENT_STATUSES = ['pending', 'submitted', 'verified', 'rejected'] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];

/** Every in-game-name field of a team, in form order (players first, then substitutes). */
export const IGN_FIELDS = [
  'player1Username',
  'player2Username',
  'player3Username',
  'player4Username',
  'substitute1Username',
  'substitute2Username',
] as const;
export type IgnField = (typeof IGN_FIELDS)[number];

const IGN_LABELS: Record<IgnField, string> = {
  player1Username: 'Player 1 IGN',
  player2Username: 'Player 2 IGN',
  player3Username: 'Player 3 IGN',
  player4Username: 'Player 4 IGN',
  substitute1Username: 'Substitute 1 IGN',
  substitute2Username: 'Substitute 2 IGN',
};

export const TEAM_NAME_MIN = 2;
export const TEAM_NAME_MAX = 40;
export const IGN_MIN = 2;
export const IGN_MAX = 30;

/** Trimmed with inner runs of spaces collapsed (checks run on the trimmed text; collapsing only shortens it). */
const tidy = (v: string) => v.replace(/\s+/g, ' ').normalize('NFC');

const requiredName = (label: string, min: number, max: number) =>
  visibleName(z.string({ required_error: `${label} is required.`, invalid_type_error: `${label} must be text.` }).trim(), label)
    .min(1, `${label} is required.`)
    .min(min, `${label} must be at least ${min} characters.`)
    .max(max, `${label} must be at most ${max} characters.`)
    .transform(tidy);

/** Optional IGN: missing, null and '' all mean "none" and come out as ''. */
const optionalIgn = (label: string) =>
  visibleName(z.string({ invalid_type_error: `${label} must be text.` }).trim(), label)
    .max(IGN_MAX, `${label} must be at most ${IGN_MAX} characters.`)
    .refine((v) => v === '' || v.length >= IGN_MIN, `${label} must be at least ${IGN_MIN} characters.`)
    .nullish()
    .transform((v) => tidy(v ?? ''));

const requiredIgn = (field: IgnField) => requiredName(IGN_LABELS[field], IGN_MIN, IGN_MAX);

type TeamShape = { teamName: string } & Record<IgnField, string>;

/** The same player cannot fill two slots of one team, nor a look-alike of a name (decision 033). */
function noRepeatedIgn(team: Partial<TeamShape>, ctx: z.RefinementCtx) {
  const seen: { field: IgnField; key: string; shape: string }[] = [];
  for (const field of IGN_FIELDS) {
    const ign = team[field];
    if (typeof ign !== 'string' || ign === '') continue;
    const keys = nameKeys(ign);
    const first = seen.find((s) => s.key === keys.key || s.shape === keys.shape);
    if (first) {
      ctx.addIssue({ code: z.ZodIssueCode.custom, path: [field], message: `${IGN_LABELS[field]} looks the same as ${IGN_LABELS[first.field]}: each player needs their own name.` });
    } else {
      seen.push({ field, ...keys });
    }
  }
}

/** POST /registrations/{tournamentId}: team name and four players required, substitutes optional (spec §5). */
export const TeamCreateSchema = z
  .object({
    teamName: requiredName('Team name', TEAM_NAME_MIN, TEAM_NAME_MAX),
    player1Username: requiredIgn('player1Username'),
    player2Username: requiredIgn('player2Username'),
    player3Username: requiredIgn('player3Username'),
    player4Username: requiredIgn('player4Username'),
    substitute1Username: optionalIgn(IGN_LABELS.substitute1Username),
    substitute2Username: optionalIgn(IGN_LABELS.substitute2Username),
  })
  .superRefine(noRepeatedIgn);

/** PUT /registrations/{tournamentId}: only team name, player 1 and player 2 required (spec §5). */
export const TeamUpdateSchema = z
  .object({
    teamName: requiredName('Team name', TEAM_NAME_MIN, TEAM_NAME_MAX),
    player1Username: requiredIgn('player1Username'),
    player2Username: requiredIgn('player2Username'),
    player3Username: optionalIgn(IGN_LABELS.player3Username),
    player4Username: optionalIgn(IGN_LABELS.player4Username),
    substitute1Username: optionalIgn(IGN_LABELS.substitute1Username),
    substitute2Username: optionalIgn(IGN_LABELS.substitute2Username),
  })
  .superRefine(noRepeatedIgn);

export type TeamFields = z.infer<typeof TeamCreateSchema>;

export const TournamentIdParamsSchema = z.object({ tournamentId: IdSchema });
export const RegistrationIdParamsSchema = z.object({ rid: IdSchema });

export const RegistrationSchema = z.object({
  rid: z.number().int(),
  tid: z.number().int(),
  teamName: z.string(),
  player1Username: z.string(),
  player2Username: z.string(),
  player3Username: z.string(),
  player4Username: z.string(),
  substitute1Username: z.string(),
  substitute2Username: z.string(),
  paymentStatus: z.enum(PAYMENT_STATUSES),
  paymentReference: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Registration = z.infer<typeof RegistrationSchema>;

export const RegistrationTournamentSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  game: z.string(),
  status: z.string(),
  startDate: z.string(),
  endDate: z.string(),
  entryFee: z.number(),
  coverImageUrl: z.string().nullable(),
});

export const UserRegistrationSchema = RegistrationSchema.extend({ tournament: RegistrationTournamentSchema });
export type UserRegistration = z.infer<typeof UserRegistrationSchema>;

export const AdminRegistrationSchema = RegistrationSchema.extend({ username: z.string() });
export type AdminRegistration = z.infer<typeof AdminRegistrationSchema>;

/** The UPI transaction reference (UTR or app transaction id) the player copies from their UPI app. */
export const PaymentSubmitSchema = z.object({
  upiReference: z
    .string({ required_error: 'UPI reference is required.', invalid_type_error: 'UPI reference must be text.' })
    .trim()
    .min(1, 'UPI reference is required.')
    .regex(/^[A-Za-z0-9]*$/, 'UPI reference may contain only letters and digits.')
    .min(6, 'UPI reference must be at least 6 characters.')
    .max(35, 'UPI reference must be at most 35 characters.'),
});

export const PaymentStatusUpdateSchema = z.object({
  paymentStatus: z.enum(PAYMENT_STATUSES, {
    errorMap: (_issue, ctx) => ({
      message: ctx.data === undefined ? 'Payment status is required.' : 'Payment status must be one of pending, submitted, verified, rejected.',
    }),
  }),
});

/** A whole-number id in a JSON body; digit strings (checkbox values of a form post) are read as numbers. */
const bodyId = (required: string, invalid: string) =>
  z.preprocess(
    (v) => (typeof v === 'string' && /^\s*\d+\s*$/.test(v) ? Number(v) : v),
    z.number({ required_error: required, invalid_type_error: invalid }).int(invalid).positive(invalid).max(2_147_483_647, invalid),
  );

export const MAX_BULK_PAYMENTS = 1000;

/** PUT /registrations/admin/payments: several teams of one tournament at once. */
export const PaymentStatusBulkUpdateSchema = PaymentStatusUpdateSchema.extend({
  tournamentId: bodyId('Tournament is required.', 'Tournament must be a tournament id.'),
  rids: z
    .array(bodyId('Team is required.', 'Each team must be a registration id (rid).'), {
      required_error: 'Choose at least one team.',
      invalid_type_error: 'Teams must be a list of registration ids (rids).',
    })
    .min(1, 'Choose at least one team.')
    .max(MAX_BULK_PAYMENTS, `At most ${MAX_BULK_PAYMENTS} teams at once.`)
    .describe('Registration ids (rid) of the tournament; a repeated rid counts once.'),
});
