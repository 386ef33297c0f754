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

/** Other groups of one stage that play the same matches (day, match number, map, time), listed once; no rooms. */
export const SharedScheduleSchema = z.object({
  stageId: z.number().int(),
  stageName: z.string(),
  groups: z.array(z.object({ groupId: z.number().int(), groupName: z.string() })).describe('By name: A, B … Z, AA.'),
  matches: z.array(
    z.object({
      id: z.number().int().describe("The first group's match."),
      day: z.number().int(),
      matchNo: z.number().int(),
      map: z.string(),
      time: z.string(),
    }),
  ),
});

/**
 * GET /tournaments/{id}/schedule/mine (issue 32, decision 087): the matches page in one answer, the moment a
 * thousand players open it at once. Each part is what its own call answers the same caller.
 */
export const MyScheduleSchema = z.object({
  tournament: TournamentSchema.describe('As GET /tournaments/{id}.'),
  matches: z
    .array(MatchSchema)
    .describe(
      "The matches of the caller's team's groups (every stage) and those outside the stages, as GET /matches/tournament/{id} answers the caller: rooms only where it may see them.",
    ),
  otherGroups: z
    .array(SharedScheduleSchema)
    .describe("Every other group's matches (published stages), by stage and group name, without rooms: groups that share a schedule once."),
  team: RegistrationSchema.nullable().describe('As GET /registrations/{id}; null when the caller has no team here.'),
  reports: MyReportsSchema.nullable().describe(
    'As GET /tournaments/{id}/reports/mine; null when the caller is on no confirmed team of this tournament.',
  ),
  checkInWindows: z.array(CheckInWindowSchema).describe('Every stage of the tournament that has a check-in window, in order.'),
  viewer: z
    .object({
      id: z.number().int(),
      username: z.string(),
      roles: z.array(z.string()),
      unreadNotifications: z.number().int().min(0),
    })
    .describe('The caller, as GET /api/auth/me says it (without email and phone): the page needs no second call for its header.'),
});

export type CheckInWindow = z.infer<typeof CheckInWindowSchema>;
export type MySchedule = z.infer<typeof MyScheduleSchema>;
export type SharedSchedule = z.infer<typeof SharedScheduleSchema>;
