import { z } from 'zod';
import {
  DISPUTE_MINUTES_MAX,
  DISPUTE_REASON_MAX,
  DISPUTE_RESOLUTION_MAX,
  DISPUTE_STATES,
  MATCH_MINUTES_MAX,
  REPORT_CONFLICT_KINDS,
  REPORT_PLAYER_ROWS,
  REPORTING_STATES,
  SCREENSHOT_FIELD,
  reportFinishesField,
  reportPlayerField,
} from '../constants/reports.js';
import { MATCH_DAY_MAX, MATCH_NO_MAX, type FieldErrors } from '../constants.js';
import { IdSchema } from './common.js';
import { MatchResultSchema, MatchResultsBatchSchema, wholeNumber } from './points.js';

// Issue 30 (decision 071): captains report a group-match's result with a screenshot, staff confirm the
// lobby at once, teams dispute a confirmed row for a while, and per-player finishes feed "Top fraggers".

const DaySchema = wholeNumber('Day', 1, MATCH_DAY_MAX);
const MatchNoSchema = wholeNumber('Match', 1, MATCH_NO_MAX);
const GroupQuery = IdSchema.optional().describe("The group whose match this is; left out: the team's group, or the only one.");

/** /tournaments/{id}/reports/{day}/{match} */
export const ReportParamsSchema = z.object({ id: IdSchema, day: DaySchema, match: MatchNoSchema });
export const ReportGroupQuerySchema = z.object({ group: GroupQuery });
/** /tournaments/{id}/reports/{reportId}/screenshot and /tournaments/{id}/disputes/{disputeId}/... */
export const ReportIdParamsSchema = z.object({ id: IdSchema, reportId: IdSchema });
export const DisputeIdParamsSchema = z.object({ id: IdSchema, disputeId: IdSchema });

const IGN_MAX = 32;
export const ReportPlayerSchema = z.object({
  ign: z.string().trim().min(1, 'Give the player’s in-game name.').max(IGN_MAX, `At most ${IGN_MAX} characters.`),
  finishes: wholeNumber('Finishes', 0, 99),
});
export type ReportPlayer = z.infer<typeof ReportPlayerSchema>;

/** A report as the gateway reads it from the form's fields (after the screenshot is taken out). */
export interface ReportForm {
  position: number;
  players: ReportPlayer[];
}

const PositionSchema = wholeNumber('Placement', 1, 100);

/**
 * The report form's fields: `position`, and per player row n (1..6) `player{n}` and `finishes{n}`. A row
 * counts when its finishes are filled in (a player who did not play leaves them empty); its name is then
 * required. At least one player, at most the team's players in a match (`perTeam`).
 */
export function validateReportForm(
  fields: Record<string, string | undefined>,
  perTeam: number,
): { data: ReportForm } | { errors: FieldErrors } {
  const errors: FieldErrors = {};
  const position = PositionSchema.safeParse(fields.position ?? '');
  if (!position.success) errors.position = position.error.issues[0]!.message;
  const players: ReportPlayer[] = [];
  const seen = new Set<string>();
  for (let n = 1; n <= REPORT_PLAYER_ROWS; n++) {
    const ign = (fields[reportPlayerField(n)] ?? '').trim();
    const finishesText = (fields[reportFinishesField(n)] ?? '').trim();
    if (finishesText === '') continue;
    const row = ReportPlayerSchema.safeParse({ ign, finishes: finishesText });
    if (!row.success) {
      for (const issue of row.error.issues) {
        const key = issue.path[0] === 'ign' ? reportPlayerField(n) : reportFinishesField(n);
        errors[key] ??= issue.message;
      }
      continue;
    }
    const key = row.data.ign.toLowerCase();
    if (seen.has(key)) {
      errors[reportPlayerField(n)] = 'This player is already listed.';
      continue;
    }
    seen.add(key);
    players.push(row.data);
  }
  if (players.length === 0 && !Object.keys(errors).some((k) => k !== 'position')) {
    errors[reportFinishesField(1)] = 'Give the finishes of each player who played (0 for none).';
  } else if (players.length > perTeam) {
    errors.players = `A team fields at most ${perTeam} ${perTeam === 1 ? 'player' : 'players'} in a match: leave the finishes of those who did not play empty.`;
  }
  if (Object.keys(errors).length > 0) return { errors };
  return { data: { position: position.data!, players } };
}

/** OpenAPI only: the report's multipart body (the gateway reads the parts itself). */
export const ReportMultipartDocSchema = z.object({
  position: z.string().describe('The team’s placement in the match, 1 to the lobby’s teams.'),
  ...Object.fromEntries(
    Array.from({ length: REPORT_PLAYER_ROWS }, (_, i) => [
      [
        reportPlayerField(i + 1),
        z
          .string()
          .optional()
          .describe(`Player row ${i + 1}: in-game name.`),
      ],
      [
        reportFinishesField(i + 1),
        z
          .string()
          .optional()
          .describe(`Player row ${i + 1}: finishes; empty = did not play.`),
      ],
    ]).flat(),
  ),
  [SCREENSHOT_FIELD]: z
    .string()
    .describe('The result screen: JPEG, PNG or WebP, at most 5 MB; required on POST, optional on PUT (keeps the current one).'),
});

export const ReportConflictSchema = z.object({
  kind: z.enum(REPORT_CONFLICT_KINDS),
  message: z.string(),
  teamIds: z.array(z.number().int()),
});
export type ReportConflict = z.infer<typeof ReportConflictSchema>;

/** Another report whose screenshot looks the same (a perceptual hash within the threshold). */
export const SameScreenshotSchema = z.object({
  reportId: z.number().int(),
  sameTournament: z.boolean(),
  /** Only within the same tournament: the other report's team and match. */
  teamName: z.string().optional(),
  day: z.number().int().optional(),
  match: z.number().int().optional(),
  groupName: z.string().optional(),
  at: z.string(),
});

export const ReportSchema = z.object({
  id: z.number().int(),
  tournamentId: z.number().int(),
  day: z.number().int(),
  match: z.number().int(),
  groupId: z.number().int().describe('0 outside groups.'),
  teamId: z.number().int(),
  teamName: z.string(),
  position: z.number().int(),
  finishes: z.number().int().describe('The players’ finishes added up.'),
  players: z.array(ReportPlayerSchema.extend({ onTeam: z.boolean() })),
  screenshotUrl: z.string().describe('The gateway path of the screenshot (the team and the staff only).'),
  reportedBy: z.string(),
  reportedAt: z.string(),
  updatedAt: z.string(),
  confirmed: z.boolean(),
  /** Staff views only. */
  sameScreenshot: z.array(SameScreenshotSchema).optional(),
});
export type Report = z.infer<typeof ReportSchema>;

const MatchWindowFields = {
  day: z.number().int(),
  match: z.number().int(),
  groupId: z.number().int(),
  groupName: z.string().optional(),
  stageName: z.string().optional(),
  startsAt: z.string().nullable().describe('The match’s start (its day and time in the app’s zone); null when it cannot be read.'),
  endsAt: z.string().nullable().describe('startsAt plus the stage’s match duration.'),
  reporting: z.enum(REPORTING_STATES),
  confirmedBy: z.string().optional(),
  confirmedAt: z.string().optional(),
  provisionalUntil: z
    .string()
    .nullable()
    .describe('Results may be disputed until then; null when not confirmed or the window has no length.'),
};

/** GET /tournaments/{id}/reports/{day}/{match}?group= (staff): the lobby view. */
export const ReportLobbySchema = z.object({
  ...MatchWindowFields,
  lobby: z.object({ teams: z.number().int(), maxFinishes: z.number().int(), playersPerTeam: z.number().int() }),
  reports: z.array(ReportSchema).describe('In placement order.'),
  missing: z.array(z.object({ teamId: z.number().int(), teamName: z.string(), slot: z.number().int().optional() })),
  conflicts: z.array(ReportConflictSchema),
  screenshotChecksPending: z
    .number()
    .int()
    .describe(
      'Reports whose screenshot is still being compared with earlier reports (decision 077: after the report is answered, seconds at most): until 0, a same-screenshot conflict may still appear.',
    ),
  teams: z
    .array(z.object({ teamId: z.number().int(), teamName: z.string(), slot: z.number().int().optional(), igns: z.array(z.string()) }))
    .describe('Every team of the lobby, in slot order, with its roster.'),
  results: z.array(MatchResultSchema).describe('The match’s stored results.'),
});
export type ReportLobby = z.infer<typeof ReportLobbySchema>;

/** GET /tournaments/{id}/reports/mine: the caller's team's matches and where each one's report stands. */
export const MyReportsSchema = z.object({
  teamId: z.number().int(),
  teamName: z.string(),
  igns: z.array(z.string()).describe('The team’s roster: its players’ and substitutes’ names as registered.'),
  captain: z.boolean().describe('Whether the caller registered the team (the captain, told when another member reports).'),
  matches: z.array(
    z.object({
      ...MatchWindowFields,
      due: z.boolean().describe('Reporting is open and the team has not reported yet.'),
      report: ReportSchema.nullable(),
    }),
  ),
});
export type MyReports = z.infer<typeof MyReportsSchema>;

/** POST .../reports/{day}/{match}/confirm?group=: the rows to store (staff corrections included). */
export const ConfirmLobbyBodySchema = MatchResultsBatchSchema.omit({ groupId: true });
export const ConfirmLobbySchema = z.object({
  results: z.array(MatchResultSchema),
  confirmedBy: z.string(),
  confirmedAt: z.string(),
  provisionalUntil: z.string().nullable(),
});

/** PUT .../reports/{day}/{match}/reporting?group=: close or reopen reporting. */
export const ReportingBodySchema = z.object({
  open: z.preprocess((v) => (v === 'true' || v === '1' ? true : v === 'false' || v === '0' ? false : v), z.boolean()),
});

const MatchMinutes = wholeNumber('Match length', 5, MATCH_MINUTES_MAX);
const DisputeMinutes = wholeNumber('Dispute window', 0, DISPUTE_MINUTES_MAX);
/** GET/PUT /tournaments/{id}/reports/settings */
export const ReportSettingsSchema = z.object({
  matchMinutes: z.number().int(),
  disputeMinutes: z.number().int(),
  stages: z.array(z.object({ stageId: z.number().int(), name: z.string(), matchMinutes: z.number().int() })),
});
export const ReportSettingsBodySchema = z.object({
  matchMinutes: MatchMinutes.optional(),
  disputeMinutes: DisputeMinutes.optional(),
  stages: z
    .array(z.object({ stageId: IdSchema, matchMinutes: MatchMinutes }))
    .max(50)
    .optional(),
});

/** The dispute form's text fields (multipart, with an optional screenshot). */
export const DisputeFormSchema = z.object({
  day: DaySchema,
  match: MatchNoSchema,
  group: IdSchema.optional(),
  teamId: IdSchema.describe('The team whose row is disputed (the caller’s own or another of its lobby).'),
  reason: z
    .string({ required_error: 'Say what is wrong with this result.' })
    .trim()
    .min(10, 'Say what is wrong with this result (at least 10 characters).')
    .max(DISPUTE_REASON_MAX, `At most ${DISPUTE_REASON_MAX} characters.`),
});
export type DisputeForm = z.infer<typeof DisputeFormSchema>;
export const DisputeMultipartDocSchema = DisputeFormSchema.extend({
  [SCREENSHOT_FIELD]: z.string().optional().describe('Optional proof: JPEG, PNG or WebP, at most 5 MB.'),
});

export const DisputeSchema = z.object({
  id: z.number().int(),
  tournamentId: z.number().int(),
  day: z.number().int(),
  match: z.number().int(),
  groupId: z.number().int(),
  byTeamId: z.number().int(),
  byTeamName: z.string(),
  aboutTeamId: z.number().int(),
  aboutTeamName: z.string(),
  reason: z.string(),
  screenshotUrl: z.string().nullable(),
  state: z.enum(DISPUTE_STATES),
  resolution: z.string().nullable(),
  resolvedBy: z.string().nullable(),
  resolvedAt: z.string().nullable(),
  filedBy: z.string(),
  filedAt: z.string(),
});
export type Dispute = z.infer<typeof DisputeSchema>;

export const DisputesQuerySchema = z.object({
  state: z.enum(['open', 'all']).default('all'),
  group: IdSchema.optional(),
});

/** POST .../disputes/{disputeId}/resolve */
export const DisputeResolveBodySchema = z
  .object({
    action: z.enum(['uphold', 'dismiss'], { errorMap: () => ({ message: 'Choose uphold or dismiss.' }) }),
    reason: z.string().trim().max(DISPUTE_RESOLUTION_MAX, `At most ${DISPUTE_RESOLUTION_MAX} characters.`).default(''),
    position: wholeNumber('Placement', 0, 100).optional(),
    finishes: wholeNumber('Finishes', 0, 99).optional(),
    absent: z
      .preprocess((v) => (v === 'on' || v === 'true' || v === '1' ? true : v === '' || v === 'false' || v === '0' ? false : v), z.boolean())
      .optional(),
  })
  .superRefine((body, ctx) => {
    if (body.action === 'dismiss' && body.reason.length < 3) {
      ctx.addIssue({ code: 'custom', path: ['reason'], message: 'Tell the team why the dispute is dismissed.' });
    }
    if (body.action === 'uphold' && body.position === undefined && body.finishes === undefined && body.absent === undefined) {
      ctx.addIssue({ code: 'custom', path: ['position'], message: 'Give the corrected placement or finishes.' });
    }
  });
export type DisputeResolveBody = z.infer<typeof DisputeResolveBodySchema>;

/** GET /tournaments/{id}/points-table/players: each player's finishes in confirmed reports. */
export const PlayerStatsSchema = z.array(
  z.object({
    rank: z.number().int(),
    ign: z.string(),
    teamId: z.number().int(),
    teamName: z.string(),
    finishes: z.number().int(),
    matches: z.number().int(),
  }),
);
export type PlayerStats = z.infer<typeof PlayerStatsSchema>;
