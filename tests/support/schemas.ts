// The one file through which the tests' shared support reads the gateway's schemas (decision 037).
// When the schemas move (to contract/, same export names), the import paths here are the only change.
import type { z } from 'zod';
import type { RegisterBodySchema } from '../../gateway/src/schemas/auth.js';
import type { MatchBodySchema } from '../../gateway/src/schemas/match.js';
import type { PointsRowSchema, PointsSubmissionSchema } from '../../gateway/src/schemas/points.js';
import type { TeamCreateSchema } from '../../gateway/src/schemas/registration.js';
import type { TournamentFormSchema } from '../../gateway/src/schemas/tournament.js';

export type { Match } from '../../gateway/src/schemas/match.js';
export type { MatchResult } from '../../gateway/src/schemas/points.js';
export type { AdminRegistration, PaymentStatus, Registration, UserRegistration } from '../../gateway/src/schemas/registration.js';
export type { TournamentJson } from '../../gateway/src/schemas/tournament.js';

/** POST /api/auth/register. */
export type RegisterBody = z.input<typeof RegisterBodySchema>;
/** POST /registrations/{tid}. */
export type TeamBody = z.input<typeof TeamCreateSchema>;
/** POST /matches. */
export type MatchBody = z.input<typeof MatchBodySchema>;
/** POST /tournaments/{id}/points-table: one team's result in one match. */
export type PointsBody = z.input<typeof PointsSubmissionSchema>;
/** One row of a points table (GET /tournaments/{id}/points-table/overall). */
export type PointsRow = z.infer<typeof PointsRowSchema>;
/** The admin's tournament form as multipart text fields (POST /tournaments/add). */
export type TournamentFields = { [K in keyof z.input<typeof TournamentFormSchema>]-?: string };

// The schemas themselves, for tests that check the builders still make what the gateway accepts and answers.
export { RegisterBodySchema } from '../../gateway/src/schemas/auth.js';
export { MatchBodySchema, MatchSchema } from '../../gateway/src/schemas/match.js';
export { PointsRowSchema, PointsSubmissionSchema } from '../../gateway/src/schemas/points.js';
export { RegistrationSchema, TeamCreateSchema } from '../../gateway/src/schemas/registration.js';
export { TournamentSchema, validateTournamentForm } from '../../gateway/src/schemas/tournament.js';
