import { z } from 'zod';

/** What the web app reads from the gateway. Lenient where the original gateway may differ (nullable/optional extras). */

export const TournamentSchema = z.object({
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
  coverImageUrl: z.string().nullish().transform((v) => v ?? null),
  coverImageWidth: z.number().nullish().transform((v) => v ?? null),
  coverImageHeight: z.number().nullish().transform((v) => v ?? null),
  status: z.string(),
  overview: z.string().default(''),
  pointsSystem: z.string().default('bgis-10'),
  registeredTeams: z.number().default(0),
});
export type Tournament = z.infer<typeof TournamentSchema>;

export const PointsRowSchema = z.object({
  rank: z.number(),
  teamId: z.number().nullish(),
  teamName: z.string(),
  positionPoints: z.number(),
  finishes: z.number(),
  wins: z.number().default(0),
  totalPoints: z.number(),
  matchesPlayed: z.number().default(0),
});
export type PointsRow = z.infer<typeof PointsRowSchema>;

export const LoginSchema = z.object({
  token: z.string().min(1),
  username: z.string(),
  roles: z.array(z.string()).default([]),
  expiresAt: z.string().optional(),
});

export const MessageSchema = z.object({ message: z.string() }).passthrough();

export const ProfileSchema = z.object({
  fullName: z.string(),
  bio: z.string().default(''),
  gender: z.string().default(''),
  dateOfBirth: z.string().default(''),
  location: z.string().default(''),
  profilePictureUrl: z.string().default(''),
});
export type Profile = z.infer<typeof ProfileSchema>;

export const RegistrationSchema = z.object({
  rid: z.number(),
  tid: z.number(),
  teamName: z.string(),
  player1Username: z.string(),
  player2Username: z.string(),
  player3Username: z.string().default(''),
  player4Username: z.string().default(''),
  substitute1Username: z.string().nullish().transform((v) => v ?? ''),
  substitute2Username: z.string().nullish().transform((v) => v ?? ''),
  paymentStatus: z.string().default('pending'),
  paymentReference: z.string().default(''),
  createdAt: z.string().default(''),
});
export type Registration = z.infer<typeof RegistrationSchema>;

/** GET /registrations/user: each registration with a summary of its tournament (absent on the original gateway). */
export const UserRegistrationSchema = RegistrationSchema.extend({
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
      coverImageUrl: z.string().nullish().transform((v) => v ?? null),
    })
    .nullish()
    .transform((v) => v ?? null),
});
export type UserRegistration = z.infer<typeof UserRegistrationSchema>;

export const MatchSchema = z.object({
  id: z.number(),
  tid: z.number(),
  day: z.number(),
  matchNo: z.number(),
  map: z.string(),
  matchId: z.string().nullable(),
  password: z.string().nullable(),
  time: z.string(),
});
export type Match = z.infer<typeof MatchSchema>;

/** The gateway's error body: { message, errors? }. */
export const ErrorBodySchema = z.object({ message: z.string(), errors: z.record(z.string()).optional() });

// --- admin: matches, points, payments ---

/** GET /tournaments/admin/summary: one row per live tournament (decision 013). */
export const TournamentAdminSummarySchema = z.object({
  id: z.number(),
  name: z.string(),
  game: z.string().default(''),
  status: z.string().default(''),
  startDate: z.string().default(''),
  endDate: z.string().default(''),
  registrationClose: z.string().default(''),
  maxTeams: z.number().default(0),
  entryFee: z.number().default(0),
  pointsSystem: z.string().default(''),
  registeredTeams: z.number().default(0),
  paymentsAwaiting: z.number().default(0),
  payments: z
    .object({ pending: z.number().default(0), submitted: z.number().default(0), verified: z.number().default(0), rejected: z.number().default(0) })
    .default({}),
});
export type TournamentAdminSummary = z.infer<typeof TournamentAdminSummarySchema>;

/** GET /registrations/tournament/{tid} (admin): each team with the username of the account that registered it. */
export const AdminRegistrationSchema = RegistrationSchema.extend({
  username: z.string().default(''),
  /** Other registrations with the same UPI reference (older data; absent on the original gateway). */
  sameReferenceAs: z.array(z.object({ rid: z.number(), tid: z.number(), teamName: z.string() })).default([]),
});
export type AdminRegistration = z.infer<typeof AdminRegistrationSchema>;

/** One stored result of one match: GET .../points-table/results and the answer of the batch PUT. */
export const MatchResultSchema = z.object({
  teamId: z.number(),
  teamName: z.string().default(''),
  position: z.number(),
  positionPoints: z.number(),
  wins: z.number(),
  finishes: z.number(),
  totalPoints: z.number(),
});
export type MatchResult = z.infer<typeof MatchResultSchema>;
