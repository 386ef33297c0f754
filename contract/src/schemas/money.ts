import { z } from 'zod';
import { PAYMENT_STATUSES, PLACES, UPI_ID_PATTERN } from '../constants.js';
import { IdSchema, visibleName } from './common.js';
import { normaliseUtr, UTR_WHERE, utrProblem } from './registration.js';

// Decision 084: the prize table's limits.
export const MAX_PRIZE_RANKS = 20;
export const MAX_SPECIAL_PRIZES = 5;
export const PRIZE_LABEL_MAX = 40;
/** ₹1 crore: above any esports prize of ours, below a mistyped extra zero or two. */
export const MAX_PRIZE_RUPEES = 10_000_000;

// Issue 31 (decision 081): the organiser's statement, matched to the teams' UTRs.

export const STATEMENT_FIELD = 'statement';
export const STATEMENT_COLUMN_ROLES = ['reference', 'amount', 'credit', 'debit', 'type', 'date', 'payer', 'vpa', 'remarks'] as const;
export type StatementColumnRole = (typeof STATEMENT_COLUMN_ROLES)[number];
export const STATEMENT_COLUMN_LABELS: Record<StatementColumnRole, string> = {
  reference: 'UTR / reference',
  amount: 'Amount',
  credit: 'Credit (money in)',
  debit: 'Debit (money out)',
  type: 'Credit or debit (Cr/Dr)',
  date: 'Date',
  payer: 'Payer name',
  vpa: 'Payer UPI ID',
  remarks: 'Remarks / narration',
};
/** The upload form's words (the gateway's and the web's). */
export const STATEMENT_MESSAGES = {
  required: 'Choose the statement file (CSV or XLSX).',
  tooLarge: 'The statement is larger than 5 MB. Export a shorter date range.',
  tooMany: 'Upload one statement at a time.',
} as const;
/** At most this many teams verified in one action. */
export const MAX_STATEMENT_VERIFY = 5000;

export const StatementParamsSchema = z.object({ id: IdSchema, statementId: IdSchema });

const ColumnIndex = z.coerce
  .number({ invalid_type_error: 'Pick a column.' })
  .int('Pick a column.')
  .min(0, 'Pick a column.')
  .max(10_000, 'Pick a column.');

export const StatementColumnsSchema = z
  .object(
    Object.fromEntries(STATEMENT_COLUMN_ROLES.map((r) => [r, ColumnIndex.optional()])) as Record<
      StatementColumnRole,
      z.ZodOptional<typeof ColumnIndex>
    >,
  )
  .describe('Column index (0 = first) of each part; left out: the statement has none.');
export type StatementColumns = z.infer<typeof StatementColumnsSchema>;

export const StatementColumnsBodySchema = z.object({ columns: StatementColumnsSchema });

export const StatementCreditSchema = z.object({
  line: z.number().int().describe('Row of the file (1 = first)'),
  utr: z.string().nullable(),
  amountPaise: z.number().int(),
  date: z.string().nullable().describe('YYYY-MM-DD'),
  payerName: z.string(),
  payerVpa: z.string().nullable(),
  remarks: z.string(),
  registrationId: z.number().int().nullable().describe('The payment note "CR-<rid> …" found in the remarks'),
});
export type StatementCredit = z.infer<typeof StatementCreditSchema>;

export const StatementSchema = z.object({
  id: z.number().int(),
  tournamentId: z.number().int(),
  fileName: z.string(),
  format: z.enum(['csv', 'xlsx']),
  state: z.enum(['read', 'needs-columns']),
  headers: z.array(z.string()),
  headerRow: z.number().int(),
  columns: StatementColumnsSchema.nullable(),
  rows: z.number().int(),
  skipped: z.number().int(),
  credits: z.number().int(),
  uploadedBy: z.string(),
  uploadedAt: z.string(),
  /** needs-columns: the columns we guessed, and a few rows to pick from. */
  guess: StatementColumnsSchema.optional(),
  sample: z.array(z.array(z.string())).optional(),
});
export type Statement = z.infer<typeof StatementSchema>;

export const StatementUploadSchema = StatementSchema.extend({
  repeated: z.boolean().describe('The same file was uploaded to this tournament before: nothing changed'),
});

const TeamSchema = z.object({
  registrationId: z.number().int(),
  teamName: z.string(),
  place: z.enum(PLACES),
  paymentStatus: z.enum(PAYMENT_STATUSES),
  upiReference: z.string(),
});

export const StatementMatchSchema = TeamSchema.extend({
  credit: StatementCreditSchema,
  by: z.enum(['utr', 'note']).describe('utr: the team sent this UTR; note: no UTR from the team, the credit carries its payment note'),
});
export type StatementMatch = z.infer<typeof StatementMatchSchema>;

export const StatementPreviewSchema = z.object({
  statement: StatementSchema,
  feePaise: z.number().int(),
  matched: z.array(StatementMatchSchema).describe('UTR (or payment note) and amount equal; not verified yet'),
  alreadyVerified: z.array(StatementMatchSchema),
  amountDiffers: z.array(StatementMatchSchema),
  noTeam: z
    .array(StatementCreditSchema.extend({ team: TeamSchema.nullable() }))
    .describe('Credits whose UTR no placed team sent (team: a team that left, or whose note it carries)'),
  notOnStatement: z.array(TeamSchema).describe("Placed teams' submitted UTRs that are not on the statement"),
  duplicates: z.array(StatementCreditSchema.extend({ team: TeamSchema.nullable() })).describe('A UTR credited again'),
});
export type StatementPreview = z.infer<typeof StatementPreviewSchema>;

export const StatementVerifyBodySchema = z.object({
  rids: z
    .array(IdSchema, { required_error: 'Choose at least one team.' })
    .min(1, 'Choose at least one team.')
    .max(MAX_STATEMENT_VERIFY, `At most ${MAX_STATEMENT_VERIFY} teams at once.`),
  expectedUpiReferences: z
    .record(z.string().max(100))
    .describe('rid → the UTR shown beside the team ("" for a match by its payment note); any change: 409, nothing verified'),
});

export const StatementVerifySchema = z.object({ verified: z.number().int(), message: z.string() });

export const StatementMultipartDocSchema = z.object({
  [STATEMENT_FIELD]: z
    .string()
    .describe('The statement file: CSV or XLSX as the bank or UPI business app exports it, at most 5 MB and 50,000 rows.'),
});

// --- Refunds (decision 082) ---

export const REFUND_REASONS = ['withdrew', 'removed', 'released', 'cancelled'] as const;
export type RefundReason = (typeof REFUND_REASONS)[number];

export const RegistrationParamsSchema = z.object({ id: IdSchema, rid: IdSchema });

export const RefundRecordSchema = z.object({
  amountPaise: z.number().int(),
  utr: z.string(),
  at: z.string(),
  by: z.string(),
});

export const RefundSchema = z.object({
  registrationId: z.number().int(),
  teamName: z.string(),
  place: z.enum(PLACES),
  reason: z.enum(REFUND_REASONS).describe('Why it is owed: the team withdrew, was removed or released, or the tournament was cancelled'),
  leftAt: z.string().nullable(),
  paidPaise: z.number().int().describe('The entry fee it paid'),
  paidUtr: z.string(),
  payerName: z.string().describe("The payer's name on the statement ('' when no statement names it)"),
  payerVpa: z.string().nullable().describe("The payer's UPI ID on the statement: where the refund goes"),
  refund: RefundRecordSchema.nullable(),
});
export type Refund = z.infer<typeof RefundSchema>;

/**
 * The UTR of money the organiser sent (a refund, a prize payout), from its own UPI app: the player's rules for a
 * UTR, without the player's hint on where to find one.
 */
const organiserUtr = (what: 'refund' | 'payout') =>
  z
    .string({ required_error: `Enter the UTR of the ${what}.`, invalid_type_error: 'The UTR must be text.' })
    .transform(normaliseUtr)
    .superRefine((utr, ctx) => {
      const problem = utrProblem(utr);
      if (problem)
        ctx.addIssue({
          code: z.ZodIssueCode.custom,
          message: problem.replace(` ${UTR_WHERE}`, '').replace('UPI reference', `UTR of the ${what}`),
        });
    })
    .describe(`The 12-digit UTR of the ${what} from the UPI app; spaces and dashes are dropped.`);

export const RefundBodySchema = z.object({
  upiReference: organiserUtr('refund'),
  amount: z.coerce
    .number({ invalid_type_error: 'The amount must be a number of rupees.' })
    .positive('The amount must be more than ₹0.')
    .multipleOf(0.01, 'The amount has at most two decimals.')
    .optional()
    .describe('Rupees refunded (default: the entry fee); at most the entry fee'),
});

// --- Prize payouts (decision 085) ---

/** A PAN: five letters, four digits, a letter (as the income tax department issues them). */
export const PAN_PATTERN = /^[A-Z]{5}[0-9]{4}[A-Z]$/;
export const PAN_MESSAGE = 'A PAN has 10 characters: 5 letters, 4 digits and a letter, for example ABCDE1234F.';
export const PAYEE_UPI_MESSAGE = 'The UPI ID must look like handle@provider, for example soulteam@okaxis.';

/** One prize a team won: a final rank's ("1st place") or a special one ("Top fragger"). */
export const PrizeLineSchema = z.object({ label: z.string(), amountPaise: z.number().int() });

export const PrizePayoutRecordSchema = z.object({
  grossPaise: z.number().int().describe('The prize before tax: every prize the team won'),
  tdsPaise: z.number().int().describe('The tax withheld (TDS), as the organiser recorded it'),
  netPaise: z.number().int().describe('What was sent: gross less TDS'),
  upiId: z.string().describe('The UPI ID it was sent to'),
  utr: z.string(),
  at: z.string(),
  by: z.string(),
});

export const PrizeWinnerSchema = z.object({
  registrationId: z.number().int(),
  teamName: z.string(),
  rank: z.number().int().nullable().describe('The final rank; null for a team that won only a special prize'),
  prizes: z.array(PrizeLineSchema),
  owedPaise: z.number().int().describe('Every prize the team won, before tax'),
  payee: z
    .object({ upiId: z.string(), pan: z.string().nullable(), at: z.string() })
    .nullable()
    .describe('Where the captain asked to be paid (null: not given yet); the PAN only when asked'),
  payout: PrizePayoutRecordSchema.nullable(),
});
export type PrizeWinner = z.infer<typeof PrizeWinnerSchema>;

export const PayoutsSchema = z.object({
  final: z.boolean().describe('Whether the final standings are in (the last stage completed, or a tournament without stages completed)'),
  askPan: z.boolean(),
  winners: z.array(PrizeWinnerSchema).describe("By rank, then the special prizes' winners"),
  specials: z
    .array(z.object({ label: z.string(), amountPaise: z.number().int(), registrationId: z.number().int().nullable() }))
    .describe('The special prizes and the team each was awarded to'),
  teams: z
    .array(z.object({ registrationId: z.number().int(), teamName: z.string(), rank: z.number().int().nullable() }))
    .describe('The teams a special prize may go to: the final standings, else every placed team'),
});
export type Payouts = z.infer<typeof PayoutsSchema>;

export const PrizeAwardsBodySchema = z.object({
  awards: z
    .array(z.object({ label: z.string().max(PRIZE_LABEL_MAX), registrationId: IdSchema.nullable() }))
    .max(MAX_SPECIAL_PRIZES)
    .describe('Each special prize (by its name) and the team that won it (null: nobody yet)'),
});

export const PayoutBodySchema = z.object({
  upiReference: organiserUtr('payout'),
  tds: z.coerce
    .number({ invalid_type_error: 'The TDS must be a number of rupees.' })
    .min(0, 'The TDS cannot be less than ₹0.')
    .multipleOf(0.01, 'The TDS has at most two decimals.')
    .optional()
    .describe('Rupees of tax withheld (default 0); at most the prize. The organiser decides it, the site does not.'),
});

export const PrizePayeeBodySchema = z.object({
  upiId: z
    .string({ required_error: 'Enter the UPI ID to be paid.', invalid_type_error: 'The UPI ID must be text.' })
    .trim()
    .min(1, 'Enter the UPI ID to be paid.')
    .regex(UPI_ID_PATTERN, PAYEE_UPI_MESSAGE),
  pan: z
    .string({ invalid_type_error: 'The PAN must be text.' })
    .transform((v) => v.replace(/\s+/g, '').toUpperCase())
    .refine((v) => v === '' || PAN_PATTERN.test(v), PAN_MESSAGE)
    .optional()
    .describe("The PAN of the person paid, when the organiser asks for it ('' or absent: none)"),
});

export const MyPrizeSchema = z.object({
  rank: z.number().int().nullable(),
  prizes: z.array(PrizeLineSchema),
  owedPaise: z.number().int(),
  askPan: z.boolean(),
  payee: z.object({ upiId: z.string(), panGiven: z.boolean(), at: z.string() }).nullable(),
  payout: PrizePayoutRecordSchema.nullable(),
});
export type MyPrize = z.infer<typeof MyPrizeSchema>;

/** The caller's team's money in a tournament: its refund when one was recorded, its prize when it won one. */
export const MyMoneySchema = z.object({
  refund: RefundRecordSchema.nullable(),
  prize: MyPrizeSchema.nullable().describe('The prize the team won once the final standings are in (null: none)'),
});

// --- The tournament's money (decision 083) ---

export const MoneyTeamSchema = z.object({
  registrationId: z.number().int(),
  teamName: z.string(),
  place: z.enum(PLACES),
  paymentStatus: z.enum(PAYMENT_STATUSES),
  upiReference: z.string(),
  receivedPaise: z.number().int().nullable().describe('The credit a statement has for the team (its UTR or its payment note); null: none'),
  payerName: z.string(),
  payerVpa: z.string().nullable(),
  refundPaise: z.number().int().nullable(),
  refundUtr: z.string().nullable(),
  prizeGrossPaise: z.number().int().nullable().describe('Decision 085: the prize paid to the team, before tax'),
  prizeTdsPaise: z.number().int().nullable(),
  prizeUtr: z.string().nullable(),
  prizeUpiId: z.string().nullable(),
  prizePan: z.string().nullable(),
});

export const MoneySummarySchema = z.object({
  feePaise: z.number().int(),
  expectedPaise: z.number().int().describe('The entry fee of every placed team'),
  receivedPaise: z.number().int().describe("Credits on the tournament's statements matched to a team (once per team)"),
  verifiedPaise: z.number().int().describe('The entry fee of every team whose payment is verified (placed or not)'),
  refundedPaise: z.number().int(),
  prizesPaidPaise: z.number().int().describe('Decision 085: prizes paid out, before tax'),
  prizesTdsPaise: z.number().int().describe('The tax withheld from them'),
  statements: z.number().int(),
  teams: z.array(MoneyTeamSchema).describe('Every team that is placed, paid or refunded, by registration id'),
});
export type MoneySummary = z.infer<typeof MoneySummarySchema>;

// --- Prizes (decision 084): the table of amounts per final rank, and special prizes ---

const PrizeAmount = z.coerce
  .number({ required_error: 'Enter the amount in rupees.', invalid_type_error: 'The amount must be a number of rupees.' })
  .positive('The amount must be more than ₹0.')
  .max(MAX_PRIZE_RUPEES, `At most ₹${MAX_PRIZE_RUPEES.toLocaleString('en-IN')}.`)
  .multipleOf(0.01, 'The amount has at most two decimals.');

export const PrizeTableBodySchema = z
  .object({
    ranks: z
      .array(
        z.object({
          rank: z.coerce.number({ invalid_type_error: 'The rank must be a number.' }).int('The rank is a whole number.').min(1).max(1000),
          amount: PrizeAmount,
        }),
      )
      .max(MAX_PRIZE_RANKS, `At most ${MAX_PRIZE_RANKS} ranks.`),
    specials: z
      .array(
        z.object({
          label: visibleName(z.string({ required_error: 'Name the prize.' }).trim(), 'Prize name')
            .min(1, 'Name the prize, for example Top fragger.')
            .max(PRIZE_LABEL_MAX, `At most ${PRIZE_LABEL_MAX} characters.`),
          amount: PrizeAmount,
        }),
      )
      .max(MAX_SPECIAL_PRIZES, `At most ${MAX_SPECIAL_PRIZES} special prizes.`),
    askPan: z.boolean().optional().describe('Decision 085: ask the winners for the PAN of the person paid; left out keeps it'),
  })
  .superRefine((v, ctx) => {
    const seen = new Set<number>();
    v.ranks.forEach((r, i) => {
      if (seen.has(r.rank)) ctx.addIssue({ code: 'custom', path: ['ranks', i, 'rank'], message: `Rank ${r.rank} is listed twice.` });
      seen.add(r.rank);
    });
  });

export const PrizeTableSchema = z.object({
  ranks: z.array(z.object({ rank: z.number().int(), amountPaise: z.number().int() })).describe('By rank, 1 first'),
  specials: z.array(
    z.object({
      label: z.string(),
      amountPaise: z.number().int(),
      winner: z.string().nullable().optional().describe('Decision 085: the team awarded it, once named'),
    }),
  ),
  totalPaise: z.number().int(),
  askPan: z.boolean().optional().describe('Decision 085: whether the winners are asked for a PAN'),
});
export type PrizeTable = z.infer<typeof PrizeTableSchema>;
