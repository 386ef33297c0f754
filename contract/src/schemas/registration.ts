import { z } from 'zod';
import {
  TOURNAMENT_PHASES,
  IGN_FIELDS,
  IGN_LABELS,
  IGN_MAX,
  IGN_MIN,
  MAX_BULK_PAYMENTS,
  PAYMENT_STATUSES,
  TEAM_NAME_MAX,
  TEAM_NAME_MIN,
  UTR_LENGTH,
  type IgnField,
  CHECK_IN_STATES,
  PLACES,
  RELEASE_REASONS,
  REJOIN_STATES,
  CHARACTER_ID_FIELDS,
  CHARACTER_ID_LABELS,
  CHARACTER_ID_MAX,
  IGN_OF,
  normaliseCharacterId,
  type CharacterIdField,
} from '../constants.js';
import { nameKeys } from '../name-keys.js';
import { IdSchema, visibleName } from './common.js';
import { TeamPlacementSchema } from './stages.js';

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

type TeamShape = { teamName: string } & Record<IgnField | CharacterIdField, string>;

/**
 * Optional in-game character ID (decision 046): spaces dropped, digits only; missing, null and '' mean
 * none. The length that the tournament's game allows is checked by characterIdProblems.
 */
const optionalCharacterId = (field: CharacterIdField) => {
  const label = CHARACTER_ID_LABELS[field];
  return z
    .string({ invalid_type_error: `${label} must be text.` })
    .nullish()
    .transform((v) => normaliseCharacterId(v ?? ''))
    .refine((v) => /^[0-9]*$/.test(v), `${label} has digits only. Copy it from your profile in the game.`)
    .refine((v) => v.length <= CHARACTER_ID_MAX, `${label} must be at most ${CHARACTER_ID_MAX} digits.`);
};

const characterIdShape = Object.fromEntries(CHARACTER_ID_FIELDS.map((f) => [f, optionalCharacterId(f)])) as {
  [F in CharacterIdField]: ReturnType<typeof optionalCharacterId>;
};

/** One player, one character ID: not twice in a team, and not without the player's IGN. */
function characterIdsFitTeam(team: Partial<TeamShape>, ctx: z.RefinementCtx) {
  const seen = new Map<string, CharacterIdField>();
  for (const field of CHARACTER_ID_FIELDS) {
    const id = team[field];
    if (typeof id !== 'string' || id === '') continue;
    const ign = team[IGN_OF[field]];
    const first = seen.get(id);
    if (first) {
      ctx.addIssue({
        code: z.ZodIssueCode.custom,
        path: [field],
        message: `${CHARACTER_ID_LABELS[field]} is the same as ${CHARACTER_ID_LABELS[first]}: each player has their own.`,
      });
    } else if (typeof ign === 'string' && ign === '') {
      ctx.addIssue({
        code: z.ZodIssueCode.custom,
        path: [field],
        message: `Add ${IGN_LABELS[IGN_OF[field]]} too, or leave ${CHARACTER_ID_LABELS[field]} empty.`,
      });
    } else {
      seen.set(id, field);
    }
  }
}

/** The same player cannot fill two slots of one team, nor a look-alike of a name (decision 033). */
function noRepeatedIgn(team: Partial<TeamShape>, ctx: z.RefinementCtx) {
  const seen: { field: IgnField; key: string; shape: string }[] = [];
  for (const field of IGN_FIELDS) {
    const ign = team[field];
    if (typeof ign !== 'string' || ign === '') continue;
    const keys = nameKeys(ign);
    const first = seen.find((s) => s.key === keys.key || s.shape === keys.shape);
    if (first) {
      ctx.addIssue({
        code: z.ZodIssueCode.custom,
        path: [field],
        message: `${IGN_LABELS[field]} looks the same as ${IGN_LABELS[first.field]}: each player needs their own name.`,
      });
    } else {
      seen.push({ field, ...keys });
    }
  }
}

const teamCreateFields = {
  teamName: requiredName('Team name', TEAM_NAME_MIN, TEAM_NAME_MAX),
  player1Username: requiredIgn('player1Username'),
  player2Username: requiredIgn('player2Username'),
  player3Username: requiredIgn('player3Username'),
  player4Username: requiredIgn('player4Username'),
  substitute1Username: optionalIgn(IGN_LABELS.substitute1Username),
  substitute2Username: optionalIgn(IGN_LABELS.substitute2Username),
  ...characterIdShape,
};

/** POST /registrations/{tournamentId}: team name and four players required, substitutes optional (spec §5). */
export const TeamCreateSchema = z.object(teamCreateFields).superRefine(noRepeatedIgn).superRefine(characterIdsFitTeam);

/** The registration call's body: the team, and (issue 19) whether to join the waitlist when the tournament is full. */
export const TeamRegisterSchema = z
  .object({
    ...teamCreateFields,
    waitlist: z
      .union([z.boolean(), z.enum(['true', 'false', 'on', '1', '0', ''])], {
        errorMap: () => ({ message: 'Waitlist must be true or false.' }),
      })
      .transform((v) => v === true || v === 'true' || v === 'on' || v === '1')
      .optional()
      .describe('When the tournament is full: true joins the waitlist (decision 043); without it a full tournament answers 409 as before.'),
  })
  .superRefine(noRepeatedIgn)
  .superRefine(characterIdsFitTeam);

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
    ...characterIdShape,
  })
  .superRefine(noRepeatedIgn)
  .superRefine(characterIdsFitTeam);

/** A team's name and in-game names (what registrations store). */
export type TeamFields = Omit<z.infer<typeof TeamCreateSchema>, CharacterIdField>;
/** A team as the team calls take it: names and each player's character ID (decision 046). */
export type TeamWithIds = z.infer<typeof TeamCreateSchema>;

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
  ...(Object.fromEntries(
    CHARACTER_ID_FIELDS.map((f) => [f, z.string().optional().describe("The player's in-game character ID (digits; '' for none).")]),
  ) as { [F in CharacterIdField]: z.ZodOptional<z.ZodString> }),
  paymentStatus: z.enum(PAYMENT_STATUSES),
  paymentReference: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
  placements: z
    .array(TeamPlacementSchema)
    .optional()
    .describe("The team's group and slot in each published stage, oldest first (issue 18); left out when it has none."),
  // Issue 19, decision 043: the team's place. placeWords (constants) words it for pages.
  place: z.enum(PLACES).describe('placed: holds a place; waitlist: waits for one; released: lost it; withdrawn: the captain withdrew.'),
  confirmed: z.boolean().describe('Placed and paid (payment verified, or the entry fee is 0): the team plays.'),
  payBy: z
    .string()
    .nullable()
    .describe('Placed teams whose payment is not verified: when the place is released unless verified (null: no deadline).'),
  waitlistPosition: z.number().int().nullable().describe('1 for the first team on the waitlist; null unless waitlisted.'),
  placedAt: z.string().nullable().describe('When the team got its place (registration or promotion); null while waitlisted.'),
  releasedAt: z.string().nullable().describe('When the team was released or withdrew.'),
  releasedReason: z.enum(RELEASE_REASONS).nullable().describe('Why a released team lost its place.'),
  rejoin: z
    .enum(REJOIN_STATES)
    .optional()
    .describe(
      'Decision 052: barred once the organiser removed the team (it cannot register again in this tournament), allowed once the organiser lets it back; left out otherwise.',
    ),
  checkIns: z
    .array(
      z.object({
        stageId: z.number().int(),
        stageName: z.string(),
        opensAt: z.string(),
        closesAt: z.string(),
        state: z.enum(CHECK_IN_STATES),
        checkedInAt: z.string().nullable(),
      }),
    )
    .optional()
    .describe("The team's check-in for each stage that has a window and this team among its teams; left out when none."),
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
  phase: z.enum(TOURNAMENT_PHASES).optional().describe('Issue 27: the derived phase, as on GET /tournaments/{id}.'),
});

export const UserRegistrationSchema = RegistrationSchema.extend({ tournament: RegistrationTournamentSchema });
export type UserRegistration = z.infer<typeof UserRegistrationSchema>;

export const AdminRegistrationSchema = RegistrationSchema.extend({
  username: z.string(),
  listOrder: z
    .number()
    .int()
    .describe(
      'Sort key for the organiser (then rid): 0 payment submitted (to check), 1 placed and unpaid, 2 confirmed, 3 waitlist, 4 released or withdrawn.',
    ),
  captainPhone: z
    .string()
    .optional()
    .describe("The phone of the captain's account (the account that registered the team), for the organiser only."),
  captainEmail: z.string().optional().describe("The email of the captain's account, for the organiser only."),
  sameReferenceAs: z
    .array(z.object({ rid: z.number().int(), tid: z.number().int(), teamName: z.string() }))
    .describe('Other registrations, of any tournament, that carry the same UPI reference (data from before references were unique).'),
});
export type AdminRegistration = z.infer<typeof AdminRegistrationSchema>;

/** Where every UPI app shows the UTR (decision 029): the message of every refused reference ends with it. */
export const UTR_WHERE =
  'In your UPI app, open the payment: the UTR is the 12-digit "UPI Ref. No." (Paytm, BHIM), "UTR" (PhonePe) or "UPI transaction ID" (Google Pay).';

/** Spaces (any width, including a copied non-breaking one), invisible joiners and every dash or hyphen a keyboard or a pasted statement may put inside the number. */
const UTR_SEPARATORS = /[\s\u00AD\u200B-\u200D\u2060\u2010-\u2015\u2212\uFE58\uFE63\uFF0D-]/g;

/** The UTR as stored and compared: what was typed or pasted, without spaces and dashes. */
export const normaliseUtr = (value: string) => value.replace(UTR_SEPARATORS, '');

export const UTR_REQUIRED = 'UPI reference is required.';
export const UTR_TAKEN =
  'This UTR is already on another registration. Check that you copied the UTR of your own payment; if you did, contact the organiser.';

/** Why a normalised reference is not a UTR, or undefined when it is one: 12 digits, not one digit repeated. */
export function utrProblem(utr: string): string | undefined {
  if (utr === '') return UTR_REQUIRED;
  if (!/^[0-9]+$/.test(utr)) return `A UTR has only digits. ${UTR_WHERE}`;
  if (utr.length !== UTR_LENGTH) return `A UTR has ${UTR_LENGTH} digits; this has ${utr.length}. ${UTR_WHERE}`;
  if (/^([0-9])\1*$/.test(utr)) return `A UTR is never one digit repeated. ${UTR_WHERE}`;
  return undefined;
}

/** The 12-digit UTR (also called RRN) from the player's UPI app; spaces and dashes inside it are dropped. */
export const PaymentSubmitSchema = z.object({
  upiReference: z
    .string({ required_error: UTR_REQUIRED, invalid_type_error: 'UPI reference must be text.' })
    .transform(normaliseUtr)
    .superRefine((utr, ctx) => {
      const problem = utrProblem(utr);
      if (problem) ctx.addIssue({ code: z.ZodIssueCode.custom, message: problem });
    })
    .describe('The 12-digit UTR of the UPI payment; spaces and dashes are dropped. Unique across all registrations.'),
});

export const REFERENCE_CHANGED = 'This team changed its UPI reference; check it again.';

/** The UPI reference the admin was shown, as the admin's page sent it (compared after dropping spaces and dashes). */
const ExpectedReferenceSchema = z
  .string({ invalid_type_error: 'The UPI reference you checked must be text.' })
  .max(100, 'The UPI reference you checked must be at most 100 characters.')
  .transform(normaliseUtr);

export const PaymentStatusUpdateSchema = z.object({
  paymentStatus: z.enum(PAYMENT_STATUSES, {
    errorMap: (_issue, ctx) => ({
      message:
        ctx.data === undefined ? 'Payment status is required.' : 'Payment status must be one of pending, submitted, verified, rejected.',
    }),
  }),
  expectedUpiReference: ExpectedReferenceSchema.optional().describe(
    'The UPI reference the admin was shown ("" for none). Required to verify or reject a team that has a reference; when it no longer matches, 409 and nothing changes.',
  ),
});
/** A whole-number id in a JSON body; digit strings (checkbox values of a form post) are read as numbers. */
const bodyId = (required: string, invalid: string) =>
  z.preprocess(
    (v) => (typeof v === 'string' && /^\s*\d+\s*$/.test(v) ? Number(v) : v),
    z.number({ required_error: required, invalid_type_error: invalid }).int(invalid).positive(invalid).max(2_147_483_647, invalid),
  );

/** PUT /registrations/admin/payments: several teams of one tournament at once. */
export const PaymentStatusBulkUpdateSchema = PaymentStatusUpdateSchema.omit({ expectedUpiReference: true }).extend({
  tournamentId: bodyId('Tournament is required.', 'Tournament must be a tournament id.'),
  rids: z
    .array(bodyId('Team is required.', 'Each team must be a registration id (rid).'), {
      required_error: 'Choose at least one team.',
      invalid_type_error: 'Teams must be a list of registration ids (rids).',
    })
    .min(1, 'Choose at least one team.')
    .max(MAX_BULK_PAYMENTS, `At most ${MAX_BULK_PAYMENTS} teams at once.`)
    .describe('Registration ids (rid) of the tournament; a repeated rid counts once.'),
  expectedUpiReferences: z
    .record(ExpectedReferenceSchema, { invalid_type_error: 'The UPI references you checked must be an object of rid → reference.' })
    .optional()
    .describe(
      'rid → the UPI reference the admin was shown ("" for none). Required, per team that has a reference, to verify or reject; when any differs, 409 and nothing changes.',
    ),
});

/** POST /registrations/{tournamentId}/withdraw: the team as it now stands, and whether it had paid. */
export const WithdrawalSchema = RegistrationSchema.extend({
  paid: z
    .boolean()
    .describe(
      'The payment had been verified: the page tells the captain to ask the organiser for a refund, which the team page shows once recorded.',
    ),
});
export type Withdrawal = z.infer<typeof WithdrawalSchema>;
