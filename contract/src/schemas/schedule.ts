import { z } from 'zod';
import { MatchSchema } from './match.js';
import { RegistrationSchema } from './registration.js';
import { MyReportsSchema } from './reports.js';
import { TournamentSchema } from './tournament.js';

/** A stage's check-in window (issue 27), as the matches page offers it to a placed team. */
export const CheckInWindowSchema = z.object({
  stageId: z.number().int(),
  stageName: z.string(),
  opensAt: z.string().describe('ISO 8601'),
  closesAt: z.string().describe('ISO 8601'),
});

/**
 * GET /tournaments/{id}/schedule/mine (issue 32, decision 087): the matches page in one answer, the moment a
 * thousand players open it at once. Each part is what its own call answers the same caller.
 */
export const MyScheduleSchema = z.object({
  tournament: TournamentSchema.describe('As GET /tournaments/{id}.'),
  matches: z.array(MatchSchema).describe('As GET /matches/tournament/{id} answers the caller: rooms only where it may see them.'),
  team: RegistrationSchema.nullable().describe('As GET /registrations/{id}; null when the caller has no team here.'),
  reports: MyReportsSchema.nullable().describe(
    'As GET /tournaments/{id}/reports/mine; null when the caller is on no confirmed team of this tournament.',
  ),
  checkInWindows: z.array(CheckInWindowSchema).describe('Every stage of the tournament that has a check-in window, in order.'),
});

export type CheckInWindow = z.infer<typeof CheckInWindowSchema>;
export type MySchedule = z.infer<typeof MyScheduleSchema>;
