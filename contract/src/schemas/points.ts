import { z } from 'zod';
import { MATCH_DAY_MAX, MATCH_NO_MAX, MAX_MATCH_ROWS, RESULT_HISTORY_LIMIT } from '../constants.js';
import { IdSchema } from './common.js';

/**
 * A whole number in [min, max]. JSON numbers, and strings of digits (query strings, lenient form posts);
 * anything else ("abc", 1.5, "", null) is a field error, never silently 0.
 */
export const wholeNumber = (label: string, min: number, max: number, required = `${label} is required.`) => {
  const message = `${label} must be a whole number from ${min} to ${max}.`;
  return z.preprocess(
    (v) => (typeof v === 'string' && /^\s*-?\d+\s*$/.test(v) ? Number(v) : v),
    z.number({ required_error: required, invalid_type_error: message }).int(message).min(min, message).max(max, message),
  );
};

const TeamIdSchema = z.preprocess(
  (v) => (typeof v === 'string' && /^\s*\d+\s*$/.test(v) ? Number(v) : v),
  z
    .number({ required_error: 'Team is required.', invalid_type_error: 'Team must be a registration id.' })
    .int('Team must be a registration id.')
    .positive('Team must be a registration id.')
    .max(2_147_483_647, 'Team must be a registration id.'),
);

const DaySchema = wholeNumber('Day', 1, MATCH_DAY_MAX);
const MatchSchema = wholeNumber('Match', 1, MATCH_NO_MAX);

/** One team's result in one match: the fields both the per-team call and the batch call take. */
const teamResultFields = {
  teamId: TeamIdSchema,
  teamName: z.unknown().optional().describe("Accepted and ignored: the registration's team name is used."),
  position: wholeNumber('Position', 0, 100).describe(
    'Finishing position, 1 to the number of teams in the lobby; 0 = no placement recorded.',
  ),
  wins: wholeNumber('Wins', 0, 1)
    .optional()
    .describe(
      'Derived from the position (1 for position 1, else 0) and stored that way; 0 or absent are read as "not given", a 1 for any other position is refused.',
    ),
  finishes: wholeNumber('Finishes', 0, 99).describe('0 to the other players of the lobby: 4 × (teams − 1) for squads.'),
  totalPoints: z.unknown().optional().describe('Accepted and ignored: the gateway computes placement points + finishes.'),
  absent: z
    .preprocess((v) => (v === 'on' || v === 'true' || v === '1' ? true : v === 'false' || v === '0' || v === '' ? false : v), z.boolean())
    .optional()
    .describe('Group matches: the team did not play (no points, not counted as played). Position and finishes must be 0.'),
};

const GroupIdSchema = IdSchema.optional().describe("The group whose match this is (issue 18); left out: found from the teams' groups.");

/** A win is placement 1 (decision 029): wins are derived, never typed. */
export const winsFor = (position: number) => (position === 1 ? 1 : 0);

/** Players per team in a match, from the tournament's format text: solo 1, duo 2, anything else a squad of 4. */
export function playersPerTeam(format: string): number {
  if (/\bsolos?\b/i.test(format)) return 1;
  if (/\bduos?\b/i.test(format)) return 2;
  return 4;
}

/**
 * What one match's lobby allows. Tournaments have no stages or groups yet, so the lobby is every
 * registered team (decision 029): positions 1..teams (0 = not placed), finishes 0..the other players.
 */
export function lobbyLimits(teams: number, format: string): { teams: number; maxFinishes: number } {
  return { teams, maxFinishes: Math.max(0, playersPerTeam(format) * (teams - 1)) };
}

/**
 * Issue 27: one match's finishes all come from the lobby's players, and the last one standing is never
 * finished, so their sum is at most the players in the lobby minus one (4 × teams − 1 for squads).
 * The message names the total entered; null when the sum is possible.
 */
export function finishesTotalError(total: number, teams: number, format: string): string | null {
  const players = playersPerTeam(format) * teams;
  const most = Math.max(0, players - 1);
  if (total <= most) return null;
  return `The finishes add up to ${total}: a lobby of ${teams} ${teams === 1 ? 'team' : 'teams'} has ${players} players, so one match has at most ${most} finishes.`;
}

/** Field → message for a result the lobby makes impossible; {} when it is possible. */
export function impossibleResult(
  row: { position: number; wins?: number; finishes: number },
  lobby: { teams: number; maxFinishes: number },
): Partial<Record<'position' | 'wins' | 'finishes', string>> {
  const errors: Partial<Record<'position' | 'wins' | 'finishes', string>> = {};
  if (row.position > lobby.teams) {
    errors.position = `Position must be from 1 to ${lobby.teams}: the lobby has ${lobby.teams} ${lobby.teams === 1 ? 'team' : 'teams'} (0 = not placed).`;
  }
  if (row.wins === 1 && row.position !== 1) {
    errors.wins = `Wins must be 0 for position ${row.position}: only the team placed 1st wins the match.`;
  }
  if (row.finishes > lobby.maxFinishes) {
    errors.finishes = `Finishes must be from 0 to ${lobby.maxFinishes}: the other players in a lobby of ${lobby.teams} ${lobby.teams === 1 ? 'team' : 'teams'}.`;
  }
  return errors;
}

export const PointsSubmissionSchema = z.object({
  day: DaySchema,
  match: MatchSchema,
  groupId: GroupIdSchema,
  ...teamResultFields,
});
export type PointsSubmission = z.infer<typeof PointsSubmissionSchema>;

export const MatchResultSchema = z.object({
  id: z.number().int(),
  tid: z.number().int(),
  day: z.number().int(),
  match: z.number().int(),
  teamId: z.number().int(),
  teamName: z.string(),
  position: z.number().int(),
  positionPoints: z.number().int(),
  wins: z.number().int(),
  finishes: z.number().int(),
  totalPoints: z.number().int(),
  groupId: z.number().int().optional().describe('Only on group matches.'),
  absent: z.boolean().optional().describe('Only when true.'),
});
export type MatchResult = z.infer<typeof MatchResultSchema>;

export const MatchResultsQuerySchema = z.object({
  day: DaySchema,
  match: MatchSchema,
  group: IdSchema.optional().describe("A group match's group id."),
});

/** PUT /tournaments/{id}/points-table/matches/{day}/{match} */
export const MatchParamsSchema = z.object({ id: IdSchema, day: DaySchema, match: MatchSchema });

export const MatchResultsBatchSchema = z.object({
  groupId: GroupIdSchema,
  results: z
    .array(z.object(teamResultFields), {
      required_error: 'Results are required.',
      invalid_type_error: 'Results must be a list of team rows.',
    })
    .max(MAX_MATCH_ROWS, `At most ${MAX_MATCH_ROWS} rows in one match.`)
    .describe('Every result of the match: teams not listed lose their row in this match. [] clears the match.'),
});
export type MatchResultsBatch = z.infer<typeof MatchResultsBatchSchema>;

const tableScope = {
  stage: IdSchema.optional().describe(
    "A stage id: that stage's table, all its groups as one. Left out: the current stage (the last one published), or the whole tournament when it has none.",
  ),
  group: IdSchema.optional().describe("A group id: that group's table."),
};

export const DayQuerySchema = z.object({
  day: wholeNumber('Day', 0, MATCH_DAY_MAX).describe('1-7 for one day; 0 = overall.'),
  ...tableScope,
});

export const TableScopeQuerySchema = z.object(tableScope);

/** The points-table image (issue 20): the day table's query, the day optional (left out: Overall). */
export const PointsImageQuerySchema = z.object({
  day: wholeNumber('Day', 0, MATCH_DAY_MAX).optional().describe('1-7 for one day; 0 or left out = overall.'),
  ...tableScope,
});

/** The slot-list image of one group (issue 20). */
export const SlotListImageQuerySchema = z.object({
  group: IdSchema.describe("A group id of a published or completed stage: that group's slot list."),
});

export const PointsRowSchema = z.object({
  rank: z.number().int(),
  teamId: z.number().int(),
  teamName: z.string(),
  positionPoints: z.number().int(),
  finishes: z.number().int(),
  wins: z.number().int(),
  totalPoints: z.number().int(),
  matchesPlayed: z.number().int(),
  groupName: z.string().optional().describe("Stage tables: the team's group."),
  slot: z.number().int().optional().describe("Stage tables: the team's slot in its group."),
});
export const PointsTableSchema = z.array(PointsRowSchema);

/** GET /tournaments/{id}/points-table/days (issue 27): the days a table has something to show. */
export const PointsDaysSchema = z.object({
  days: z
    .array(z.number().int())
    .describe(
      "Days (1-7), ascending, with a scheduled match or a stored result in the table's scope (the same stage and group query as GET .../points-table/day); matches marked not played are left out.",
    ),
  provisional: z
    .array(
      z.object({
        day: z.number().int(),
        match: z.number().int(),
        groupId: z.number().int().optional().describe('Left out for a match outside groups.'),
        groupName: z.string().optional(),
        until: z.string().describe('ISO instant: the end of the dispute window, when the results become final.'),
      }),
    )
    .optional()
    .describe(
      "Issue 30 (decision 076): the group-matches in the table's scope whose results were confirmed from the teams' reports and are still in their dispute window, by day, match and group. Left out when there are none; the answer is cached no later than the first window's end.",
    ),
});
export type PointsDays = z.infer<typeof PointsDaysSchema>;

/** GET /tournaments/{id}/points-table/history (issue 20, decision 048). */
export const ResultHistoryQuerySchema = z.object({
  limit: wholeNumber('Limit', 1, RESULT_HISTORY_LIMIT)
    .optional()
    .describe(`Changes to answer, newest first: 1 to ${RESULT_HISTORY_LIMIT} (left out: ${RESULT_HISTORY_LIMIT}).`),
  before: IdSchema.optional().describe("Only changes older than this changeId: the previous answer's nextBefore, for the next page."),
});

/** A team's result in a match at one moment: what the history compares. */
export const ResultValuesSchema = z.object({
  position: z.number().int().describe('0 = no placement recorded.'),
  wins: z.number().int(),
  finishes: z.number().int(),
  absent: z.boolean().optional().describe('Only when true: the team did not play (group matches).'),
});
export type ResultValues = z.infer<typeof ResultValuesSchema>;

export const ResultChangeSchema = z.object({
  changeId: z.number().int().describe('One per write: a whole-match save is one change, however many teams it touched.'),
  changedAt: z.string().describe('ISO 8601, UTC.'),
  changedBy: z.string().describe("The admin's username when they made the change."),
  day: z.number().int(),
  match: z.number().int(),
  groupId: z.number().int().optional().describe('Only on group matches (issue 18).'),
  groupName: z.string().optional().describe('Only on group matches.'),
  stageName: z.string().optional().describe('Only on group matches.'),
  teams: z
    .array(
      z.object({
        teamId: z.number().int(),
        teamName: z.string(),
        before: ResultValuesSchema,
        after: ResultValuesSchema.nullable().describe('null: the result was removed.'),
      }),
    )
    .describe("The teams whose stored result this change edited (first entries of a team's result are not edits and are left out)."),
});
export type ResultChange = z.infer<typeof ResultChangeSchema>;

/** Issue 27: a group match the organiser marked as not played when completing its stage. */
export const NotPlayedMarkSchema = z.object({
  markedAt: z.string().describe('ISO 8601, UTC.'),
  markedBy: z.string().describe("The admin's username when they marked it."),
  day: z.number().int(),
  match: z.number().int(),
  groupId: z.number().int(),
  groupName: z.string(),
  stageName: z.string(),
});
export type NotPlayedMark = z.infer<typeof NotPlayedMarkSchema>;

export const ResultHistorySchema = z.object({
  changes: z.array(ResultChangeSchema).describe('Edits of results after their first entry, newest first.'),
  nextBefore: z.number().int().nullable().describe('Pass as ?before= for older changes; null when there are none.'),
  notPlayed: z
    .array(NotPlayedMarkSchema)
    .optional()
    .describe(
      'Issue 27: group matches marked not played (and still without results), newest first; on the first page only, left out when none.',
    ),
});
export type ResultHistory = z.infer<typeof ResultHistorySchema>;

/** One team's result in one match of a breakdown: placement and finishes (issue 20, decision 048). */
export const BreakdownCellSchema = z.object({
  position: z.number().int().describe('0 = no placement recorded.'),
  finishes: z.number().int(),
  absent: z.boolean().optional().describe('Only when true: the team did not play (group matches).'),
});

/** GET /tournaments/{id}/points-table/breakdown: the table's rows with each team's result per match. */
export const PointsBreakdownSchema = z.object({
  matches: z
    .array(z.object({ day: z.number().int(), match: z.number().int() }))
    .describe('The columns: every match of the table with a result, by day then match number.'),
  rows: z
    .array(
      PointsRowSchema.extend({
        results: z
          .array(BreakdownCellSchema.nullable())
          .describe('One per entry of matches, in the same order; null: no result stored for this team in that match.'),
      }),
    )
    .describe('The same rows, in the same order, as GET .../points-table/day with the same query.'),
});
export type PointsBreakdown = z.infer<typeof PointsBreakdownSchema>;
