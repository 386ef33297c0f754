import { z } from 'zod';
import { IdSchema, IsoDateTimeSchema, nameText } from './common.js';
import { wholeNumber } from './points.js';
import { MatchBodySchema, MatchSchema } from './match.js';
import {
  DRAW_METHODS,
  FIRST_SLOT_MAX,
  LOBBY_MAX,
  LOBBY_MIN,
  MAX_ROOM_ROWS,
  MAX_SCHEDULE_ROWS,
  MAX_TEAMS_RANGE,
  SEED_MAX,
  STAGE_NAME_MAX,
  STAGE_STATES,
  CHECK_IN_STATES,
  NO_SHOW_ACTIONS,
} from '../constants.js';

/** A check-in window's end: an ISO date-time with a zone, or null to clear it. */
const windowEdge = (label: string) =>
  z.preprocess(
    (v) => (typeof v === 'string' && v.trim() === '' ? null : v),
    z
      .string({ invalid_type_error: `${label} must be a date and time.` })
      .pipe(IsoDateTimeSchema)
      .nullable()
      .optional()
      .describe(`${label}: ISO 8601 with a zone; null or "" clears the window (issue 19). Both ends or neither.`),
  );

/** /tournaments/{id}/stages/{stageId} */
export const StageParamsSchema = z.object({ id: IdSchema, stageId: IdSchema });
export const StageInviteParamsSchema = z.object({ id: IdSchema, stageId: IdSchema, teamId: IdSchema });

const stageFields = {
  name: nameText('Stage name', STAGE_NAME_MAX).describe('"Qualifiers", "Semi-finals", "Grand Final" …'),
  lobbySize: wholeNumber('Lobby size', LOBBY_MIN, LOBBY_MAX)
    .optional()
    .describe('Teams per group (room). Default from the game: 25 for BGMI / PUBG Mobile, 12 for Free Fire; required for other games.'),
  firstSlot: wholeNumber('First slot', 1, FIRST_SLOT_MAX).optional().describe('Slot number of the first team of each group (default 1).'),
  advancePerGroup: wholeNumber('Teams advancing per group', 0, LOBBY_MAX)
    .optional()
    .describe('The top N of each group advance (default 0: a final, nobody advances).'),
  advanceBest: wholeNumber('Best of the rest', 0, MAX_TEAMS_RANGE.max)
    .optional()
    .describe("Plus the best M of the other teams, by the stage's overall ranking (default 0)."),
  checkInOpensAt: windowEdge('Check-in opens'),
  checkInClosesAt: windowEdge('Check-in closes'),
};

export const StageCreateSchema = z.object(stageFields);
export type StageCreate = z.infer<typeof StageCreateSchema>;

/** Fields left out keep their value. */
export const StageUpdateSchema = z.object({ ...stageFields, name: stageFields.name.optional() });
export type StageUpdate = z.infer<typeof StageUpdateSchema>;

export const DrawBodySchema = z.object({
  method: z.enum(DRAW_METHODS, {
    errorMap: (issue) => ({
      message:
        issue.code === 'invalid_type' && issue.received === 'undefined'
          ? 'Method is required.'
          : 'Method must be registration, random or seeded.',
    }),
  }),
  seed: z
    .string({ invalid_type_error: 'Seed must be text.' })
    .trim()
    .max(SEED_MAX, `Seed must be at most ${SEED_MAX} characters.`)
    .regex(/^[A-Za-z0-9_-]*$/, 'Seed may only contain letters, digits, "-" and "_".')
    .optional()
    .describe('Random draws only: the seed to shuffle with. Left out: the gateway picks one. Either way it is recorded.'),
});
export type DrawBody = z.infer<typeof DrawBodySchema>;

export const SlotRefSchema = z.object({
  groupId: IdSchema,
  slot: wholeNumber('Slot', 1, FIRST_SLOT_MAX + LOBBY_MAX),
});

export const SlotMoveSchema = z.object({
  from: SlotRefSchema.describe('A slot that holds a team.'),
  to: SlotRefSchema.describe("Another slot of the stage: its team swaps places with from's; a free slot takes the team."),
});
export type SlotMove = z.infer<typeof SlotMoveSchema>;

export const InviteBodySchema = z.object({ teamId: IdSchema.describe('A registration (rid) of this tournament.') });

export const StageScheduleSchema = z.object({
  matches: z
    .array(MatchBodySchema.pick({ day: true, matchNo: true, map: true, time: true }), {
      required_error: 'Matches are required.',
      invalid_type_error: 'Matches must be a list.',
    })
    .min(1, 'Add at least one match.')
    .max(MAX_SCHEDULE_ROWS, `At most ${MAX_SCHEDULE_ROWS} matches in one schedule.`),
});
export type StageSchedule = z.infer<typeof StageScheduleSchema>;

const roomText = MatchBodySchema.shape.matchId;
export const StageRoomsSchema = z.object({
  rooms: z
    .array(
      z.object({
        id: IdSchema.describe('The match (its id in GET /matches/tournament/{tid}).'),
        matchId: roomText.describe('Room ID'),
        password: MatchBodySchema.shape.password.describe('Room password'),
      }),
      { required_error: 'Rooms are required.', invalid_type_error: 'Rooms must be a list.' },
    )
    .max(MAX_ROOM_ROWS, `At most ${MAX_ROOM_ROWS} rooms at once.`),
});
export type StageRooms = z.infer<typeof StageRoomsSchema>;

export const SlotSchema = z.object({ slot: z.number().int(), teamId: z.number().int(), teamName: z.string() });
export const GroupSchema = z.object({ id: z.number().int(), name: z.string(), slots: z.array(SlotSchema) });
export type Group = z.infer<typeof GroupSchema>;

export const StageSchema = z.object({
  id: z.number().int(),
  tid: z.number().int(),
  name: z.string(),
  order: z.number().int().describe('1 for the first stage.'),
  lobbySize: z.number().int(),
  firstSlot: z.number().int(),
  advancePerGroup: z.number().int(),
  advanceBest: z.number().int(),
  state: z.enum(STAGE_STATES),
  draw: z
    .object({ method: z.enum(DRAW_METHODS), seed: z.string().nullable(), drawnAt: z.string() })
    .nullable()
    .describe('How the groups were drawn; the seed lets anyone repeat a random draw (decision 041).'),
  entrants: z.number().int().describe('Teams the groups are drawn from.'),
  hasResults: z.boolean(),
  groups: z.array(GroupSchema).describe('Empty for everyone but admins while the stage is a draft.'),
  checkIn: z
    .object({
      opensAt: z.string(),
      closesAt: z.string(),
      noShows: z.enum(NO_SHOW_ACTIONS).nullable().describe('What the organiser did with the no-shows; null until decided.'),
    })
    .optional()
    .describe('The check-in window (issue 19); left out when the stage has none.'),
});
export type Stage = z.infer<typeof StageSchema>;

export const QualifierSchema = z.object({
  teamId: z.number().int(),
  teamName: z.string(),
  groupName: z.string(),
  groupRank: z.number().int(),
  stageRank: z.number().int(),
  totalPoints: z.number().int(),
  via: z.enum(['group', 'best']).describe('group: top N of its group; best: among the best M of the rest.'),
});

export const CutSchema = z.object({
  scope: z.string().describe('"Group C" or "Best of the rest".'),
  lastIn: z.object({ teamId: z.number().int(), teamName: z.string(), rank: z.number().int() }),
  firstOut: z.object({ teamId: z.number().int(), teamName: z.string(), rank: z.number().int() }).nullable(),
  decidedBy: z.string().describe('In words: which tie-break put lastIn above firstOut.'),
});

export const AdvanceSchema = z.object({
  stage: StageSchema,
  qualifiers: z.array(QualifierSchema),
  cuts: z.array(CutSchema),
  nextStage: z.object({ id: z.number().int(), name: z.string() }).nullable(),
});
export type Advance = z.infer<typeof AdvanceSchema>;

export const StageMatchesSchema = z.array(MatchSchema);

export const EntrantSchema = z.object({
  teamId: z.number().int(),
  teamName: z.string(),
  via: z
    .enum(['confirmed', 'qualified', 'invited'])
    .describe('confirmed: first stage; qualified: from the previous stage; invited: by the organiser.'),
  seed: z.number().int().nullable().describe("Qualified teams: their rank in the previous stage's overall table."),
});

/** Where a team plays in one stage, and (once the stage is completed) how it did. */
export const TeamPlacementSchema = z.object({
  stageId: z.number().int(),
  stageName: z.string(),
  stageState: z.enum(STAGE_STATES),
  groupId: z.number().int(),
  groupName: z.string(),
  slot: z.number().int(),
  outcome: z
    .object({
      groupRank: z.number().int(),
      stageRank: z.number().int(),
      qualified: z.boolean(),
      nextStageName: z.string().nullable(),
      final: z.boolean(),
    })
    .nullable(),
});
export type TeamPlacement = z.infer<typeof TeamPlacementSchema>;

/** POST /tournaments/{id}/stages/{stageId}/check-in: the captain's check-in. */
export const CheckInSchema = z.object({
  stageId: z.number().int(),
  teamId: z.number().int(),
  checkedInAt: z.string(),
});
export type CheckIn = z.infer<typeof CheckInSchema>;

/** GET /tournaments/{id}/stages/{stageId}/check-ins: every team that should check in, and how it stands. */
export const StageCheckInsSchema = z.object({
  stageId: z.number().int(),
  opensAt: z.string(),
  closesAt: z.string(),
  closed: z.boolean().describe('The window has closed: teams not checked in are no-shows.'),
  noShows: z.enum(NO_SHOW_ACTIONS).nullable().describe('What the organiser did with the no-shows; null until decided.'),
  teams: z.array(
    z.object({
      teamId: z.number().int(),
      teamName: z.string(),
      state: z.enum(CHECK_IN_STATES),
      checkedInAt: z.string().nullable(),
    }),
  ),
});
export type StageCheckIns = z.infer<typeof StageCheckInsSchema>;

export const NoShowsBodySchema = z.object({
  action: z
    .enum(NO_SHOW_ACTIONS, {
      errorMap: (issue) => ({
        message:
          issue.code === 'invalid_type' && issue.received === 'undefined'
            ? 'Choose what to do with the no-shows.'
            : 'Action must be replace or leave.',
      }),
    })
    .describe('replace (first stage only): release the no-shows and promote waitlisted teams; leave: their places stay empty.'),
});
export type NoShowsBody = z.infer<typeof NoShowsBodySchema>;

/**
 * What the cut line of a group's overall table means (issue 27 item 23, decision 056): the top
 * advancePerGroup of the group qualify; the best of the rest are decided across groups. The group page
 * and its share image say the same words.
 */
export function qualifyingNote(perGroup: number, best: number): string {
  const rest = best > 0 ? `, and the best ${best} of the rest across groups` : '';
  return `Above the line: the top ${perGroup} qualify for the next stage${rest}.`;
}
