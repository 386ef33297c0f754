import { z } from 'zod';
import {
  DRAW_METHODS,
  FIRST_SLOT_MAX,
  LOBBY_MAX,
  LOBBY_MIN,
  MAX_ROOM_ROWS,
  MAX_SCHEDULE_ROWS,
  GROUP_GAP_MAX,
  MAX_TEAMS_RANGE,
  SEED_MAX,
  STAGE_NAME_MAX,
  STAGE_STATES,
  CHECK_IN_STATES,
  NO_SHOW_ACTIONS,
  SEAT_SOURCES,
} from '../constants.js';
import { IdSchema, IsoDateTimeSchema, nameText } from './common.js';
import { MatchBodySchema, MatchSchema } from './match.js';
import { wholeNumber } from './points.js';

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
  confirmSplit: z
    .boolean({ invalid_type_error: 'confirmSplit must be true or false.' })
    .optional()
    .describe(
      'Issue 27: true to draw anyway when the entrants exceed whole lobbies by a few teams (the draw adds a group for them and shrinks the others); without it such a draw answers 409 and says so.',
    ),
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

/** Decision 052: the organiser seats a team in an empty slot of a published stage. */
export const SlotFillSchema = SlotRefSchema.extend({
  teamId: IdSchema.describe('A waitlisted team, or a confirmed team without a slot in this stage (rid).'),
});
export type SlotFill = z.infer<typeof SlotFillSchema>;

/** The empty slots of a published stage and the teams that may fill them (decision 052). */
export const EmptySlotsSchema = z.object({
  slots: z
    .array(z.object({ groupId: z.number().int(), groupName: z.string(), slot: z.number().int() }))
    .describe('Every free slot of each group (firstSlot … firstSlot + lobbySize − 1), in group and slot order.'),
  teams: z
    .array(
      z.object({
        teamId: z.number().int(),
        teamName: z.string(),
        from: z.enum(SEAT_SOURCES).describe('waitlist: waits for a place; unseated: confirmed, without a slot in this stage.'),
        waitlistPosition: z.number().int().nullable(),
        confirmed: z.boolean().describe('False for a waitlisted team of a paid tournament: once seated it has to pay to play.'),
      }),
    )
    .describe('Waitlisted teams first (waitlist order), then confirmed teams without a slot (registration order).'),
});
export type EmptySlots = z.infer<typeof EmptySlotsSchema>;

export const InviteBodySchema = z.object({
  teamId: IdSchema.describe('A registration (rid) of this tournament.'),
  checkIn: z
    .boolean({ invalid_type_error: 'checkIn must be true or false.' })
    .optional()
    .describe(
      "Issue 27: true asks the invited team to check in itself (in the stage's window); left out or false, it counts as checked in.",
    ),
});

export const StageScheduleSchema = z.object({
  matches: z
    .array(MatchBodySchema.pick({ day: true, matchNo: true, map: true, time: true }), {
      required_error: 'Matches are required.',
      invalid_type_error: 'Matches must be a list.',
    })
    .min(1, 'Add at least one match.')
    .max(MAX_SCHEDULE_ROWS, `At most ${MAX_SCHEDULE_ROWS} matches in one schedule.`),
  groupGap: wholeNumber('Minutes between groups', 0, GROUP_GAP_MAX)
    .optional()
    .describe(
      "Issue 27: groups hosted one after another. Group A plays at the row's time, B that many minutes later, C twice that … Left out: the stage's last gap (0 at first: every group at once). Remembered as the stage's groupGap.",
    ),
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
  groupGap: z.number().int().describe("Minutes between one group's start and the next one's (0: every group at the same time)."),
  groupMatches: z
    .object({
      scheduled: z.number().int().describe('Group matches scheduled (a day and match number × each group).'),
      withResults: z.number().int().describe('Of those, the ones with at least one result.'),
      notPlayed: z.number().int().describe('Of those without results, the ones the organiser marked as not played.'),
    })
    .describe('Issue 27: "3 of 16 group-matches have results".'),
  checkedIn: z.number().int().optional().describe('Stages with a check-in window: how many entrants have checked in. Only they are drawn.'),
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

/** A scheduled group match without results (issue 27): completing needs its results, or it marked not played. */
export const MissingMatchSchema = z.object({
  id: z.number().int().describe('The match (its id in GET /matches/tournament/{tid}).'),
  day: z.number().int(),
  matchNo: z.number().int(),
  groupId: z.number().int(),
  groupName: z.string(),
  notPlayed: z.boolean().describe('Already marked not played.'),
});

export const AdvanceSchema = z.object({
  stage: StageSchema,
  missing: z.array(MissingMatchSchema).describe('Group matches without results, by day, match and group.'),
  qualifiers: z.array(QualifierSchema),
  cuts: z.array(CutSchema),
  nextStage: z.object({ id: z.number().int(), name: z.string() }).nullable(),
});
export type Advance = z.infer<typeof AdvanceSchema>;

export const StageMatchesSchema = z.array(MatchSchema);

export const CompleteBodySchema = z
  .object({
    notPlayed: z
      .array(IdSchema, { invalid_type_error: 'notPlayed must be a list of match ids.' })
      .max(MAX_ROOM_ROWS, `At most ${MAX_ROOM_ROWS} matches at once.`)
      .optional()
      .describe(
        'Issue 27: group matches without results that were not played; recorded (who and when) and shown in the result history. Every scheduled group match needs results or this mark.',
      ),
  })
  .strict();
export type CompleteBody = z.infer<typeof CompleteBodySchema>;

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
