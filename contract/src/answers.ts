import { z } from 'zod';
import { CHARACTER_ID_FIELDS, type CharacterIdField } from './constants/identity.js';
import { CHECK_IN_STATES, PLACES, RELEASE_REASONS, REJOIN_STATES, TOURNAMENT_PHASES } from './constants.js';
import type { EndpointName, Endpoints } from './endpoints.js';
import { MatchSchema } from './schemas/match.js';
import { MyReportsSchema } from './schemas/reports.js';
import { CheckInWindowSchema, SharedScheduleSchema } from './schemas/schedule.js';
import { TeamPlacementSchema } from './schemas/stages.js';

/**
 * How the web app reads each answer (decision 035): leniently. The table's response schemas say
 * exactly what this gateway sends; these say the least a gateway must send for the web app to work,
 * so the spec's reference gateway, which leaves some fields out or sends them as null, still works.
 * Fields it may leave out get defaults; unknown fields are dropped. The type check at the end proves
 * that every answer this gateway may send is one these accept, so the two cannot drift apart.
 */

const TournamentAnswer = z.object({
  id: z.coerce.number(),
  name: z.string(),
  game: z.string().default(''),
  description: z.string().default(''),
  startDate: z.string(),
  endDate: z.string().default(''),
  registrationOpen: z.string().default(''),
  registrationClose: z.string().default(''),
  maxTeams: z.coerce.number().default(0),
  format: z.string().default(''),
  platform: z.string().default(''),
  entryFee: z.coerce.number().default(0),
  prizePool: z.coerce.string().default(''),
  coverImageUrl: z
    .string()
    .nullish()
    .transform((v) => v ?? null),
  coverImageWidth: z
    .number()
    .nullish()
    .transform((v) => v ?? null),
  coverImageHeight: z
    .number()
    .nullish()
    .transform((v) => v ?? null),
  status: z.string(),
  overview: z.string().default(''),
  pointsSystem: z.string().default('bgis-10'),
  requireCharacterIds: z.boolean().default(false),
  registeredTeams: z.number().default(0),
  /** Decision 043 (absent when none, and on the original gateway). */
  paymentDeadlineHours: z.number().optional(),
  paymentDeadlineAt: z.string().optional(),
  /** Issue 27 (absent when none: the site's default payee). */
  payeeUpiId: z.string().optional(),
  payeeName: z.string().optional(),
  /** Issue 27 (absent on the original gateway): the web app derives the phase again at render time from these facts. */
  phase: z.enum(TOURNAMENT_PHASES).optional().catch(undefined),
  stageProgress: z.object({ stages: z.number(), started: z.boolean(), finished: z.boolean() }).optional().catch(undefined),
  /** Issue 29 (absent on the original gateway): who runs it. */
  organiser: z
    .object({ slug: z.string(), name: z.string(), logoUrl: z.string().nullable().default(null) })
    .optional()
    .catch(undefined),
});

const PointsRowAnswer = z.object({
  rank: z.number(),
  teamId: z.number().nullish(),
  teamName: z.string(),
  positionPoints: z.number(),
  finishes: z.number(),
  wins: z.number().default(0),
  totalPoints: z.number(),
  matchesPlayed: z.number().default(0),
  groupName: z.string().optional(),
  slot: z.number().optional(),
});

const LoginAnswer = z.object({
  token: z.string().min(1),
  username: z.string(),
  roles: z.array(z.string()).default([]),
  expiresAt: z.string().optional(),
  deviceToken: z.string().optional(),
});

const MessageAnswer = z.object({ message: z.string() }).passthrough();

const ProfileAnswer = z.object({
  fullName: z.string(),
  bio: z.string().default(''),
  gender: z.string().default(''),
  dateOfBirth: z.string().default(''),
  location: z.string().default(''),
  profilePictureUrl: z.string().default(''),
});

const characterIdAnswers = Object.fromEntries(
  CHARACTER_ID_FIELDS.map((f) => [
    f,
    z
      .string()
      .nullish()
      .transform((v) => v ?? ''),
  ]),
) as { [F in CharacterIdField]: z.ZodEffects<z.ZodOptional<z.ZodNullable<z.ZodString>>, string, string | null | undefined> };

const RegistrationAnswer = z.object({
  rid: z.number(),
  tid: z.number(),
  teamName: z.string(),
  player1Username: z.string(),
  player2Username: z.string(),
  player3Username: z.string().default(''),
  player4Username: z.string().default(''),
  substitute1Username: z
    .string()
    .nullish()
    .transform((v) => v ?? ''),
  substitute2Username: z
    .string()
    .nullish()
    .transform((v) => v ?? ''),
  /** Decision 046: each player's in-game character ID ('' for none; absent on the original gateway). */
  ...characterIdAnswers,
  paymentStatus: z.string().default('pending'),
  paymentReference: z.string().default(''),
  createdAt: z.string().default(''),
  /** Decision 041: the team's group and slot per published stage (absent on the original gateway). */
  placements: z.array(TeamPlacementSchema).default([]),
  /** Decision 043: the team's place (absent on the original gateway: every team there is placed). */
  place: z.enum(PLACES).default('placed'),
  /** Absent on the original gateway: the page decides from the payment status and the entry fee. */
  confirmed: z.boolean().optional(),
  payBy: z
    .string()
    .nullish()
    .transform((v) => v ?? null),
  waitlistPosition: z
    .number()
    .nullish()
    .transform((v) => v ?? null),
  placedAt: z
    .string()
    .nullish()
    .transform((v) => v ?? null),
  releasedAt: z
    .string()
    .nullish()
    .transform((v) => v ?? null),
  releasedReason: z
    .enum(RELEASE_REASONS)
    .nullish()
    .transform((v) => v ?? null),
  /** Decision 052: barred once the organiser removed the team, allowed once it lets it back (absent otherwise). */
  rejoin: z.enum(REJOIN_STATES).optional(),
  checkIns: z
    .array(
      z.object({
        stageId: z.number(),
        stageName: z.string(),
        opensAt: z.string(),
        closesAt: z.string(),
        state: z.enum(CHECK_IN_STATES),
        checkedInAt: z.string().nullable(),
      }),
    )
    .default([]),
});

/** GET /registrations/user: each registration with a summary of its tournament (absent on the original gateway). */
const UserRegistrationAnswer = RegistrationAnswer.extend({
  tournament: z
    .object({
      id: z.coerce.number(),
      name: z.string(),
      game: z.string().default(''),
      status: z.string().default(''),
      startDate: z.string().default(''),
      endDate: z.string().default(''),
      entryFee: z.coerce.number().nullish(),
      price: z.coerce.number().nullish(),
      coverImageUrl: z
        .string()
        .nullish()
        .transform((v) => v ?? null),
      phase: z.enum(TOURNAMENT_PHASES).optional().catch(undefined),
    })
    .nullish()
    .transform((v) => v ?? null),
});

const TournamentAdminSummaryAnswer = z.object({
  id: z.number(),
  name: z.string(),
  game: z.string().default(''),
  status: z.string().default(''),
  startDate: z.string().default(''),
  endDate: z.string().default(''),
  registrationClose: z.string().default(''),
  phase: z.enum(TOURNAMENT_PHASES).optional().catch(undefined),
  maxTeams: z.number().default(0),
  entryFee: z.number().default(0),
  pointsSystem: z.string().default(''),
  registeredTeams: z.number().default(0),
  waitlisted: z.number().default(0),
  paymentsAwaiting: z.number().default(0),
  failedDeliveries: z.number().default(0),
  payeeUpiId: z.string().optional(),
  payments: z
    .object({
      pending: z.number().default(0),
      submitted: z.number().default(0),
      verified: z.number().default(0),
      rejected: z.number().default(0),
    })
    .default({}),
});

const AdminRegistrationAnswer = RegistrationAnswer.extend({
  username: z.string().default(''),
  /** Decision 043's sort key (absent on the original gateway: rid order). */
  listOrder: z.number().default(0),
  /** Decision 046: the captain's account contact, for the organiser (absent on the original gateway). */
  captainPhone: z.string().default(''),
  captainEmail: z.string().default(''),
  /** Other registrations with the same UPI reference (older data; absent on the original gateway). */
  sameReferenceAs: z.array(z.object({ rid: z.number(), tid: z.number(), teamName: z.string() })).default([]),
});

const MatchResultAnswer = z.object({
  teamId: z.number(),
  teamName: z.string().default(''),
  position: z.number(),
  positionPoints: z.number(),
  wins: z.number(),
  finishes: z.number(),
  totalPoints: z.number(),
  groupId: z.number().optional(),
  absent: z.boolean().optional(),
});

export const answers = {
  health: z.object({ status: z.string() }),
  listTournaments: z.array(TournamentAnswer),
  getTournament: TournamentAnswer,
  pointsTableDay: z.array(PointsRowAnswer),
  pointsTableOverall: z.array(PointsRowAnswer),
  login: LoginAnswer,
  register: MessageAnswer.or(z.string()),
  requestPasswordReset: MessageAnswer,
  confirmPasswordReset: MessageAnswer,
  logout: MessageAnswer.or(z.null()),
  logoutAll: MessageAnswer.or(z.null()),
  me: z.object({
    id: z.number(),
    username: z.string(),
    roles: z.array(z.string()),
    unreadNotifications: z.number().int().min(0).optional(),
  }),
  getProfile: ProfileAnswer,
  createProfile: ProfileAnswer.or(MessageAnswer),
  updateProfile: ProfileAnswer.or(MessageAnswer),
  registerTeam: RegistrationAnswer.partial({ rid: true }),
  myRegistrations: z.array(UserRegistrationAnswer),
  myTeam: RegistrationAnswer,
  updateTeam: RegistrationAnswer,
  submitPayment: RegistrationAnswer,
  listMatches: z.array(MatchSchema),
  mySchedule: z.object({
    tournament: TournamentAnswer,
    matches: z.array(MatchSchema),
    otherGroups: z.array(SharedScheduleSchema).default([]),
    team: RegistrationAnswer.nullable(),
    reports: MyReportsSchema.nullable(),
    checkInWindows: z.array(CheckInWindowSchema).default([]),
    viewer: z
      .object({ id: z.number(), username: z.string(), roles: z.array(z.string()), unreadNotifications: z.number().int().min(0) })
      .optional(),
  }),
  addTournament: TournamentAnswer,
  updateTournament: TournamentAnswer,
  deleteTournament: MessageAnswer.or(z.string()).or(z.null()),
  adminTournamentSummary: z.array(TournamentAdminSummaryAnswer),
  tournamentRegistrations: z.array(AdminRegistrationAnswer),
  createMatch: MatchSchema,
  updateMatch: MatchSchema,
  matchResults: z.array(MatchResultAnswer),
  saveMatchResults: z.array(MatchResultAnswer),
  setPaymentStatus: RegistrationAnswer,
  withdrawTeam: RegistrationAnswer.extend({ paid: z.boolean().default(false) }),
  releaseTeam: RegistrationAnswer,
  removeTeam: RegistrationAnswer,
  setPaymentStatuses: z.array(RegistrationAnswer),
  // Decision 084: a gateway without prize tables (or an answer of another shape) reads as an empty table.
  getPrizes: z.object({
    ranks: z.array(z.object({ rank: z.number().int(), amountPaise: z.number().int() })).catch([]),
    specials: z
      .array(z.object({ label: z.string(), amountPaise: z.number().int(), winner: z.string().nullable().catch(null).optional() }))
      .catch([]),
    totalPaise: z.number().int().catch(0),
    // Decision 085: the PAN asked of winners, and each special prize's winner.
    askPan: z.boolean().catch(false).optional(),
  }),
} satisfies Partial<Record<EndpointName, z.ZodTypeAny>>;

export type Answers = typeof answers;

/** The schema of an endpoint's successful answer (200, else 201, else 202) in the table. */
export type SuccessSchema<N extends EndpointName> = Endpoints[N]['schema'] extends { response: infer R }
  ? R extends { 200: infer S extends z.ZodTypeAny }
    ? S
    : R extends { 201: infer S extends z.ZodTypeAny }
      ? S
      : R extends { 202: infer S extends z.ZodTypeAny }
        ? S
        : z.ZodUnknown
  : z.ZodUnknown;

/** What the web app gets from a successful call: the reading above, or the table's own schema. */
export type Answer<N extends EndpointName> = N extends keyof Answers ? z.output<Answers[N]> : z.output<SuccessSchema<N>>;

// Every answer this gateway may send is one the web app reads: a field made required here that the
// table leaves optional, or typed differently, fails the type check (`npx tsc`) on the line below.
type Unreadable = { [N in keyof Answers]: z.output<SuccessSchema<N>> extends z.input<Answers[N]> ? never : N }[keyof Answers];
const everyAnswerReadable: [Unreadable] extends [never] ? true : Unreadable = true;
void everyAnswerReadable;
