// The one file through which the tests' shared support reads the gateway's schemas (decision 037).
// When the schemas move (they did: contract/, decision 035), the import paths here are the only change.
import type { z } from 'zod';
import type {
  RegisterBodySchema,
  MatchBodySchema,
  PointsRowSchema,
  PointsSubmissionSchema,
  TeamCreateSchema,
  TournamentFormSchema,
} from '@custom-room/contract';

export type {
  Match,
  MatchResult,
  AdminRegistration,
  PaymentStatus,
  Registration,
  UserRegistration,
  TournamentJson,
} from '@custom-room/contract';

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
export {
  RegisterBodySchema,
  MatchBodySchema,
  MatchSchema,
  PointsRowSchema,
  PointsSubmissionSchema,
  RegistrationSchema,
  TeamCreateSchema,
  TournamentSchema,
  validateTournamentForm,
} from '@custom-room/contract';
