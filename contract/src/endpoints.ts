import { z } from 'zod';
import { MAX_BULK_PAYMENTS, MAX_MATCH_ROWS } from './constants.js';
import {
  LoginWithDeviceBodySchema,
  LoginWithDeviceResponseSchema,
  MeResponseSchema,
  PasswordResetConfirmBodySchema,
  PasswordResetRequestBodySchema,
  RegisterBodySchema,
  RegisterResponseSchema,
} from './schemas/auth.js';
import { ErrorSchema, MessageSchema } from './schemas/common.js';
import { MatchBodySchema, MatchIdParamsSchema, MatchSchema, MatchTournamentParamsSchema } from './schemas/match.js';
import {
  MoneySummarySchema,
  PrizeTableBodySchema,
  PayoutsSchema,
  PrizeAwardsBodySchema,
  PayoutBodySchema,
  PrizeWinnerSchema,
  PrizePayeeBodySchema,
  PrizeTableSchema,
  MyMoneySchema,
  RefundBodySchema,
  RefundSchema,
  RegistrationParamsSchema as MoneyRegistrationParamsSchema,
  StatementColumnsBodySchema,
  StatementMultipartDocSchema,
  StatementParamsSchema,
  StatementPreviewSchema,
  StatementSchema,
  StatementUploadSchema,
  StatementVerifyBodySchema,
  StatementVerifySchema,
} from './schemas/money.js';
import {
  FailedDeliverySchema,
  MarkReadBodySchema,
  NotificationListQuerySchema,
  NotificationListSchema,
  PushPublicKeySchema,
  PushSubscribeBodySchema,
  PushUnsubscribeBodySchema,
  UnreadCountSchema,
} from './schemas/notifications.js';
import {
  GenerationSchema,
  HealthDownSchema,
  HealthOkSchema,
  ImageLargestParamsSchema,
  ImageVariantParamsSchema,
} from './schemas/operations.js';
import {
  ActivitySchema,
  AnnouncementBodySchema,
  AnnouncementSchema,
  DeskSchema,
  InvitationParamsSchema,
  OrganiserBodySchema,
  OrganiserUpdateDocSchema,
  OrganiserDecisionSchema,
  OrganiserListQuerySchema,
  OrganiserPageSchema,
  OrganiserSchema,
  SlugParamsSchema,
  StaffInvitationSchema,
  StaffInviteSchema,
  StaffListSchema,
  StaffUserParamsSchema,
  StandingSchema,
} from './schemas/organisers.js';
import {
  DayQuerySchema,
  MatchParamsSchema,
  MatchResultSchema,
  MatchResultsBatchSchema,
  MatchResultsQuerySchema,
  PointsBreakdownSchema,
  PointsDaysSchema,
  PointsSubmissionSchema,
  PointsImageQuerySchema,
  PointsTableSchema,
  ResultHistoryQuerySchema,
  ResultHistorySchema,
  SlotListImageQuerySchema,
  TableScopeQuerySchema,
} from './schemas/points.js';
import { ProfileBodySchema, ProfileSchema } from './schemas/profile.js';
import {
  AdminRegistrationSchema,
  PaymentStatusBulkUpdateSchema,
  PaymentStatusUpdateSchema,
  PaymentSubmitSchema,
  RegistrationIdParamsSchema,
  RegistrationSchema,
  TeamRegisterSchema,
  TeamUpdateSchema,
  TournamentIdParamsSchema,
  UserRegistrationSchema,
  WithdrawalSchema,
} from './schemas/registration.js';
import {
  ConfirmLobbyBodySchema,
  ConfirmLobbySchema,
  DisputeIdParamsSchema,
  DisputeMultipartDocSchema,
  DisputeResolveBodySchema,
  DisputeSchema,
  DisputesQuerySchema,
  MyReportsSchema,
  PlayerStatsSchema,
  ReportGroupQuerySchema,
  ReportIdParamsSchema,
  ReportingBodySchema,
  ReportLobbySchema,
  ReportMultipartDocSchema,
  ReportParamsSchema,
  ReportSchema,
  ReportSettingsBodySchema,
  ReportSettingsSchema,
} from './schemas/reports.js';
import { MyScheduleSchema } from './schemas/schedule.js';
import {
  AdvanceSchema,
  CheckInSchema,
  DrawBodySchema,
  NoShowsBodySchema,
  StageCheckInsSchema,
  CompleteBodySchema,
  EntrantSchema,
  InviteBodySchema,
  SlotMoveSchema,
  SlotFillSchema,
  EmptySlotsSchema,
  StageCreateSchema,
  StageInviteParamsSchema,
  StageMatchesSchema,
  StageParamsSchema,
  StageRoomsSchema,
  StageScheduleSchema,
  StageSchema,
  StageUpdateSchema,
} from './schemas/stages.js';
import {
  TournamentAdminSummarySchema,
  TournamentListSchema,
  TournamentMultipartDocSchema,
  TournamentParamsSchema,
  TournamentSchema,
} from './schemas/tournament.js';

/**
 * The endpoint table (decision 035): every call the gateway serves, with its method, its path in
 * Fastify's syntax (":id"), and its schema as Fastify and @fastify/swagger read it (params,
 * querystring, body, responses by status, and the OpenAPI words). The gateway registers each route
 * from its entry; the web app's client builds each call from it; tests/gateway/contract.test.ts
 * checks that the gateway serves and documents exactly these.
 */

export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

export interface EndpointSchema {
  tags: string[];
  summary: string;
  description?: string;
  security?: { bearerAuth: string[] }[];
  consumes?: string[];
  params?: z.ZodTypeAny;
  querystring?: z.ZodTypeAny;
  body?: z.ZodTypeAny;
  response?: Record<number, z.ZodTypeAny>;
}

/**
 * What a tournament's crew may do (decision 065), by the caller's standing on the tournament the call is about:
 * - `own`: the owner (and a site admin): delete the tournament, manage its staff;
 * - `run`: the owner and co-organisers: everything else an organiser does;
 * - `payments`: those and payments staff: the registrations list, verify and reject payments;
 * - `lobby`: owner, co-organisers and lobby managers (for the groups of their scope): check-in, rooms, results;
 * - `organise`: an approved organiser (and a site admin): create a tournament;
 * - `desk`: any approved organiser or active staff member (the desk's list; calls naming their tournament in the body).
 */
export type StaffRight = 'own' | 'run' | 'payments' | 'lobby' | 'organise' | 'desk';

/**
 * Who may call an endpoint (decisions 058 and 065): anyone; any signed-in account (the endpoint
 * documents the bearer token); a site admin alone (`admin`); or a tournament's crew with a right
 * (`staff:<right>`, a site admin always included). The gateway's one access hook reads it before the
 * body is parsed, so a caller without the right answers 401/403 whatever the body.
 */
export type Access = 'public' | 'user' | 'admin' | `staff:${StaffRight}`;

export interface Endpoint {
  method: Method;
  /** Fastify's path syntax: ":name" is a parameter, also inside a segment ("/tournaments/admin/delete:id"). */
  url: string;
  schema: EndpointSchema;
  access: Access;
}

/** An entry of the table; `access` is 'user' for a call that documents the bearer token, else 'public', unless given. */
const endpoint = <const M extends Method, const U extends string, S extends EndpointSchema>(
  method: M,
  url: U,
  schema: S,
  access: Access = schema.security ? 'user' : 'public',
) => ({ method, url, schema, access });

const TAGS = {
  registrations: ['registrations'],
  matches: ['matches'],
  points: ['points-table'],
  stages: ['stages'],
  notifications: ['notifications'],
  organisers: ['organisers'],
  reports: ['reports'],
  money: ['money'],
};
const SECURITY = [{ bearerAuth: [] as string[] }];
const secured = { tags: ['profile'], security: SECURITY };
const adminErrors = { 400: ErrorSchema, 401: ErrorSchema, 403: ErrorSchema };
/** { [status]: ErrorSchema } for each status, e.g. errorResponses(400, 404). */
function errorResponses<const C extends number>(...codes: C[]): Record<C, typeof ErrorSchema> {
  return Object.fromEntries(codes.map((c) => [c, ErrorSchema])) as Record<C, typeof ErrorSchema>;
}

export const endpoints = {
  health: endpoint('GET', '/healthz', {
    tags: ['operations'],
    summary: 'Liveness, database reachability, and whether writes are being stored',
    description:
      '503 unavailable: the database does not answer. 503 degraded: a write failed because the storage is full or failing; ' +
      'reads still work, and the health is ok again once a write succeeds (this call tries one while degraded).',
    response: { 200: HealthOkSchema, 503: HealthDownSchema },
  }),
  jwks: endpoint('GET', '/.well-known/jwks.json', { tags: ['operations'], summary: "Public keys that verify the gateway's tokens" }),
  generation: endpoint('GET', '/generation', {
    tags: ['operations'],
    summary: 'The cache generation: changes whenever a public answer may have changed',
    description: [
      'An opaque string. It changes with every write that can change an anonymous answer of GET /tournaments,',
      'GET /tournaments/{id}, the points tables (day and overall) or GET /matches/tournament/{tid}: tournaments',
      'created, edited (status included) or deleted; teams registered or renamed; results recorded; matches created or edited.',
      "Strict: a value read after any write's response was sent (by any gateway process on the same database) differs",
      'from every value read before that write. Equal values mean those answers are unchanged. Compare for equality only:',
      'the format is not part of the contract. Not cacheable (Cache-Control: no-store); cheap (concurrent calls share one',
      'database round trip on PostgreSQL, none at all on SQLite while nothing was written).',
    ].join(' '),
    response: { 200: GenerationSchema },
  }),
  register: endpoint('POST', '/api/auth/register', {
    tags: ['auth'],
    summary: 'Create a player account',
    description:
      'Email, phone (Indian mobile) and username (case-insensitive, look-alikes the same: decision 033) must each be unused. Rate-limited per IP address (a ceiling a crowd behind one address does not reach).',
    body: RegisterBodySchema,
    response: { 201: RegisterResponseSchema, 400: ErrorSchema, 409: ErrorSchema, 429: ErrorSchema },
  }),
  login: endpoint('POST', '/api/auth/login', {
    tags: ['auth'],
    summary: 'Log in with email or phone and password',
    description:
      'emailOrPhone containing "@" is an email, otherwise an Indian mobile number (+91 and spaces allowed). ' +
      'A successful login returns a deviceToken; sent back with later logins of the same account, it spares them the ' +
      'per-account lockout (which only failures without it trigger) and the per-address failure limit (decision 022). ' +
      'Rate-limited per IP address (all attempts, and failed ones), per account and per device token.',
    body: LoginWithDeviceBodySchema,
    response: { 200: LoginWithDeviceResponseSchema, 400: ErrorSchema, 401: ErrorSchema, 429: ErrorSchema },
  }),
  logout: endpoint('POST', '/api/auth/logout', {
    tags: ['auth'],
    summary: 'End this token',
    description:
      'Ends the session of the bearer token: from now on it gets 401 everywhere. Other logins of the same account stay. No body.',
    security: SECURITY,
    response: { 200: MessageSchema, 401: ErrorSchema },
  }),
  logoutAll: endpoint('POST', '/api/auth/logout-all', {
    tags: ['auth'],
    summary: 'Log out everywhere',
    description:
      'Ends every session of the account, this one included: every token issued so far gets 401, and every device token is forgotten. No body.',
    security: SECURITY,
    response: { 200: MessageSchema, 401: ErrorSchema },
  }),
  me: endpoint('GET', '/api/auth/me', {
    tags: ['auth'],
    summary: 'The signed-in account',
    security: SECURITY,
    response: { 200: MeResponseSchema, 401: ErrorSchema },
  }),
  requestPasswordReset: endpoint('POST', '/api/auth/password-reset/request', {
    tags: ['auth'],
    summary: 'Email a password reset link',
    description:
      'Always 202, whether or not the account exists. The link is valid for one hour and works once. Rate-limited per email (whoever asks) and per client address.',
    body: PasswordResetRequestBodySchema,
    response: { 202: MessageSchema, 400: ErrorSchema, 429: ErrorSchema },
  }),
  confirmPasswordReset: endpoint('POST', '/api/auth/password-reset/confirm', {
    tags: ['auth'],
    summary: 'Set a new password with a reset link token',
    description: 'Also ends every session of the account (tokens issued before the reset get 401) and forgets its device tokens.',
    body: PasswordResetConfirmBodySchema,
    response: { 200: MessageSchema, 400: ErrorSchema },
  }),
  getProfile: endpoint('GET', '/api/profile/get', {
    ...secured,
    summary: "The caller's profile",
    response: { 200: ProfileSchema, 401: ErrorSchema, 404: ErrorSchema },
  }),
  createProfile: endpoint('POST', '/api/profile/create', {
    ...secured,
    summary: "Create the caller's profile (one per account)",
    body: ProfileBodySchema,
    response: { 201: ProfileSchema, 400: ErrorSchema, 401: ErrorSchema, 409: ErrorSchema },
  }),
  updateProfile: endpoint('PUT', '/api/profile/update', {
    ...secured,
    summary: "Replace the caller's profile",
    description: 'The whole profile is replaced: optional fields left out become "".',
    body: ProfileBodySchema,
    response: { 200: ProfileSchema, 400: ErrorSchema, 401: ErrorSchema, 404: ErrorSchema },
  }),
  listTournaments: endpoint('GET', '/tournaments', {
    tags: ['tournaments'],
    summary: 'Live tournaments, soonest start first, each with its registered team count',
    response: { 200: TournamentListSchema },
  }),
  adminTournamentSummary: endpoint(
    'GET',
    '/tournaments/admin/summary',
    {
      tags: ['tournaments'],
      summary: 'Every live tournament with registered/max teams and payments by status (admin)',
      description:
        'Ordered like GET /tournaments (soonest start first). paymentsAwaiting counts registrations whose payment is "submitted".',
      security: SECURITY,
      response: { 200: TournamentAdminSummarySchema.array(), 401: ErrorSchema, 403: ErrorSchema },
    },
    'staff:desk',
  ),
  getTournament: endpoint('GET', '/tournaments/:id', {
    tags: ['tournaments'],
    summary: 'One tournament',
    params: TournamentParamsSchema,
    response: { 200: TournamentSchema, 400: ErrorSchema, 404: ErrorSchema },
  }),
  addTournament: endpoint(
    'POST',
    '/tournaments/add',
    {
      tags: ['tournaments'],
      summary: 'Create a tournament (admin); multipart form with an optional coverImage',
      security: SECURITY,
      consumes: ['multipart/form-data'],
      body: TournamentMultipartDocSchema,
      response: { 200: TournamentSchema, ...adminErrors, 413: ErrorSchema, 415: ErrorSchema },
    },
    'staff:organise',
  ),
  updateTournament: endpoint(
    'PUT',
    '/tournaments/admin/update/:id',
    {
      tags: ['tournaments'],
      summary: 'Update a tournament (admin); without coverImage the current cover stays',
      security: SECURITY,
      consumes: ['multipart/form-data'],
      params: TournamentParamsSchema,
      body: TournamentMultipartDocSchema,
      response: { 200: TournamentSchema, ...adminErrors, 404: ErrorSchema, 409: ErrorSchema, 413: ErrorSchema, 415: ErrorSchema },
    },
    'staff:run',
  ),
  deleteTournament: endpoint(
    'DELETE',
    '/tournaments/admin/delete:id',
    {
      tags: ['tournaments'],
      summary: 'Soft-delete a tournament (admin); registrations, matches and points stay in the database',
      description: 'The id follows "delete" directly, with no slash: DELETE /tournaments/admin/delete42.',
      security: SECURITY,
      params: TournamentParamsSchema,
      response: { 200: MessageSchema, ...adminErrors, 404: ErrorSchema },
    },
    'staff:own',
  ),
  imageVariant: endpoint('GET', '/images/:imageId-:width.webp', {
    tags: ['images'],
    summary:
      "A cover image or an organiser's logo at a nominal width (covers: 400, 800 or 1200; logos: 128 or 400); a smaller original is served at its own size",
    params: ImageVariantParamsSchema,
    response: { 400: ErrorSchema, 404: ErrorSchema },
  }),
  imageWebp: endpoint('GET', '/images/:imageId.webp', {
    tags: ['images'],
    summary: 'A cover image at its largest stored width',
    params: ImageLargestParamsSchema,
    response: { 400: ErrorSchema, 404: ErrorSchema },
  }),
  imageJpeg: endpoint('GET', '/images/:imageId.jpg', {
    tags: ['images'],
    summary: 'A cover image at its largest stored width as JPEG, for link previews',
    params: ImageLargestParamsSchema,
    response: { 400: ErrorSchema, 404: ErrorSchema },
  }),
  submitResult: endpoint(
    'POST',
    '/tournaments/:id/points-table',
    {
      tags: TAGS.points,
      summary: "Record one team's result in one match (upsert; totals computed by the gateway)",
      description:
        'The lobby is every registered team of the tournament: position 1 to their number (0 = not placed), finishes 0 to the other players (4 × (teams − 1) for squads). wins is derived from the position; a 1 for any position but 1 is refused (400, errors.wins).',
      security: SECURITY,
      params: TournamentParamsSchema,
      body: PointsSubmissionSchema,
      response: { 200: MatchResultSchema, 400: ErrorSchema, 401: ErrorSchema, 403: ErrorSchema, 404: ErrorSchema, 409: ErrorSchema },
    },
    'staff:lobby',
  ),
  saveMatchResults: endpoint(
    'PUT',
    '/tournaments/:id/points-table/matches/:day/:match',
    {
      tags: TAGS.points,
      summary: "Replace one match's results with exactly these rows, atomically (admin)",
      description: [
        'All rows are stored or none. Teams not listed lose their row in this match; unchanged rows are not rewritten, so re-sending the same body changes nothing.',
        `At most ${MAX_MATCH_ROWS} rows, one per team (teamId = rid of a registration in this tournament). Position 0 = not placed; two rows may not share a position above 0 (409, naming both teams, errors keyed position.{teamId}).`,
        'The lobby is every registered team: positions up to their number, finishes up to the other players (4 × (teams − 1) for squads); wins are derived from the position (a 1 for any other position than 1 is refused). Impossible results: 400, errors keyed {field}.{teamId}.',
        'Swapping placements works in one call. Row errors are keyed {field}.{teamId}. Answers the stored rows of the match, as GET .../points-table/results.',
      ].join(' '),
      security: SECURITY,
      params: MatchParamsSchema,
      body: MatchResultsBatchSchema,
      response: {
        200: MatchResultSchema.array(),
        400: ErrorSchema,
        401: ErrorSchema,
        403: ErrorSchema,
        404: ErrorSchema,
        409: ErrorSchema,
        413: ErrorSchema,
      },
    },
    'staff:lobby',
  ),
  matchResults: endpoint(
    'GET',
    '/tournaments/:id/points-table/results',
    {
      tags: TAGS.points,
      summary: 'Stored results of one match (to prefill the admin form)',
      security: SECURITY,
      params: TournamentParamsSchema,
      querystring: MatchResultsQuerySchema,
      response: { 200: MatchResultSchema.array(), 400: ErrorSchema, 401: ErrorSchema, 403: ErrorSchema, 404: ErrorSchema },
    },
    'staff:lobby',
  ),
  pointsTableDay: endpoint('GET', '/tournaments/:id/points-table/day', {
    tags: TAGS.points,
    summary: 'Points table of one day (day=0: overall), ranked with the tie-breakers',
    description:
      'With stages (issue 18): stage and group choose the table; left out, the current stage (the last one published) as one table, every team of its groups listed (groupName and slot on each row). A tournament without stages answers as before.',
    params: TournamentParamsSchema,
    querystring: DayQuerySchema,
    response: { 200: PointsTableSchema, 400: ErrorSchema, 404: ErrorSchema },
  }),
  pointsTableOverall: endpoint('GET', '/tournaments/:id/points-table/overall', {
    tags: TAGS.points,
    summary: 'Overall points table, ranked with the tie-breakers',
    params: TournamentParamsSchema,
    querystring: TableScopeQuerySchema,
    response: { 200: PointsTableSchema, 400: ErrorSchema, 404: ErrorSchema },
  }),
  pointsTableDays: endpoint('GET', '/tournaments/:id/points-table/days', {
    tags: TAGS.points,
    summary: 'The days a points table has matches or results on (public): the day picker of the points page',
    description:
      'Same stage and group query as GET .../points-table/overall (404 as there). Issue 27: the points page offers only these days, and says a day without matches has none rather than ranking every team at 0.',
    params: TournamentParamsSchema,
    querystring: TableScopeQuerySchema,
    response: { 200: PointsDaysSchema, 400: ErrorSchema, 404: ErrorSchema },
  }),
  pointsBreakdown: endpoint('GET', '/tournaments/:id/points-table/breakdown', {
    tags: TAGS.points,
    summary: "A points table's rows with each team's placement and finishes per match (public)",
    description:
      'The same query and the same ranked rows as GET .../points-table/day (day=0: overall), each row with its result in every match of that table: the per-match view of the public points page (issue 20).',
    params: TournamentParamsSchema,
    querystring: DayQuerySchema,
    response: { 200: PointsBreakdownSchema, 400: ErrorSchema, 404: ErrorSchema },
  }),
  resultHistory: endpoint('GET', '/tournaments/:id/points-table/history', {
    tags: TAGS.points,
    summary: 'Corrections of match results: who changed which result, when, from what to what (public)',
    description: [
      'Every write of a result is kept (issue 20); this lists the edits, newest first: changes to a result after its first entry, and removals.',
      'One change per call: a whole-match save (PUT .../matches/{day}/{match}) that swaps two teams is one change with both teams.',
      "A change that only entered first results is not listed. changedBy is the admin's username at the time.",
    ].join(' '),
    params: TournamentParamsSchema,
    querystring: ResultHistoryQuerySchema,
    response: { 200: ResultHistorySchema, 400: ErrorSchema, 404: ErrorSchema },
  }),
  pointsTableImage: endpoint('GET', '/tournaments/:id/points-table.png', {
    tags: TAGS.points,
    summary: 'The points table as a 1080×1350 PNG to share (issue 20): the same table and ranking as the day and overall calls',
    description:
      'Same query as the day table (day left out: overall). ETag from what the image shows (results, names, tournament name, renderer version); If-None-Match answers 304. Cache-Control lets a CDN keep it a minute and serve it stale while it fetches the next.',
    params: TournamentParamsSchema,
    querystring: PointsImageQuerySchema,
    response: { 400: ErrorSchema, 404: ErrorSchema },
  }),
  playerStatsImage: endpoint('GET', '/tournaments/:id/points-table/players.png', {
    tags: TAGS.points,
    summary: 'Top fraggers as a 1080×1350 PNG to share (issue 30): the same players, ranks and scopes as GET .../points-table/players',
    description:
      'Same query as the players call (stage and group; neither: the whole tournament). ETag, 304 and Cache-Control as the points-table image.',
    params: TournamentParamsSchema,
    querystring: TableScopeQuerySchema,
    response: { 400: ErrorSchema, 404: ErrorSchema },
  }),
  slotListImage: endpoint('GET', '/tournaments/:id/slot-list.png', {
    tags: TAGS.stages,
    summary: "A group's slot list as a 1080×1350 PNG to share (issue 20): group, slot and team",
    description: 'Groups of draft stages have no public slot list (404). ETag, 304 and Cache-Control as the points-table image.',
    params: TournamentParamsSchema,
    querystring: SlotListImageQuerySchema,
    response: { 400: ErrorSchema, 404: ErrorSchema },
  }),
  pointsCardImage: endpoint('GET', '/tournaments/:id/points-card.png', {
    tags: TAGS.points,
    summary: "The points table's link preview, a 1200×630 PNG (issue 20): the current top 3 with their totals",
    description:
      'The og:image of the points pages. Same query as the points-table image (day left out: overall). ETag, 304 and Cache-Control as the points-table image.',
    params: TournamentParamsSchema,
    querystring: PointsImageQuerySchema,
    response: { 400: ErrorSchema, 404: ErrorSchema },
  }),
  tournamentCardImage: endpoint('GET', '/tournaments/:id/card.png', {
    tags: ['tournaments'],
    summary: "A tournament's link preview, a 1200×630 PNG (issue 20): name, game, entry fee, prize pool, dates and status",
    description:
      "The og:image of the tournament's page. ETag, 304 and Cache-Control as the points-table image; a deleted tournament is 404.",
    params: TournamentParamsSchema,
    response: { 400: ErrorSchema, 404: ErrorSchema },
  }),
  registerTeam: endpoint('POST', '/registrations/:tournamentId', {
    tags: TAGS.registrations,
    summary: 'Register a team for a tournament',
    description:
      'Team name and four player IGNs are required, two substitutes optional. Allowed while the tournament is "Registration Ongoing" and inside its registration window; one team per account, team names and IGNs unique per tournament (case-insensitive, look-alikes the same: decision 033), never more than maxTeams placed teams. ' +
      'When full: with waitlist true the team joins the waitlist (place "waitlist", waitlistPosition), else 409 "Registration is full.". Released and withdrawn teams hold no place, name or IGN: their captain may register again (decision 043).',
    security: SECURITY,
    params: TournamentIdParamsSchema,
    body: TeamRegisterSchema,
    response: { 201: RegistrationSchema, ...errorResponses(400, 401, 404, 409) },
  }),
  myRegistrations: endpoint('GET', '/registrations/user', {
    tags: TAGS.registrations,
    summary: "The caller's registrations, newest first",
    description: 'Each registration carries a summary of its tournament; deleted tournaments are left out.',
    security: SECURITY,
    response: { 200: z.array(UserRegistrationSchema), ...errorResponses(401) },
  }),
  tournamentRegistrations: endpoint(
    'GET',
    '/registrations/tournament/:tournamentId',
    {
      tags: TAGS.registrations,
      summary: 'All teams of a tournament (admin)',
      description: 'Ordered by rid; each team carries the username of the account that registered it.',
      security: SECURITY,
      params: TournamentIdParamsSchema,
      response: { 200: z.array(AdminRegistrationSchema), ...errorResponses(400, 401, 403, 404) },
    },
    'staff:payments',
  ),
  myTeam: endpoint('GET', '/registrations/:tournamentId', {
    tags: TAGS.registrations,
    summary: "The caller's team for a tournament",
    security: SECURITY,
    params: TournamentIdParamsSchema,
    response: { 200: RegistrationSchema, ...errorResponses(400, 401, 404) },
  }),
  updateTeam: endpoint('PUT', '/registrations/:tournamentId', {
    tags: TAGS.registrations,
    summary: "Update the caller's team",
    description:
      'Team name, player 1 and player 2 are required; omitted optional players become empty. Allowed until the tournament starts; same uniqueness rules as registering.',
    security: SECURITY,
    params: TournamentIdParamsSchema,
    body: TeamUpdateSchema,
    response: { 200: RegistrationSchema, ...errorResponses(400, 401, 404, 409) },
  }),
  submitPayment: endpoint('POST', '/registrations/:tournamentId/payment', {
    tags: TAGS.registrations,
    summary: "Report the UPI payment of the caller's team",
    description:
      'Sets the payment status to "submitted" with the 12-digit UTR from the player\'s UPI app (spaces and dashes are dropped; one digit repeated is refused). A UTR already on another registration, of any tournament, is refused with 409 without naming it. Allowed until an admin has verified the payment.',
    security: SECURITY,
    params: TournamentIdParamsSchema,
    body: PaymentSubmitSchema,
    response: { 200: RegistrationSchema, ...errorResponses(400, 401, 404, 409) },
  }),
  withdrawTeam: endpoint('POST', '/registrations/:tournamentId/withdraw', {
    tags: TAGS.registrations,
    summary: "Withdraw the caller's team (placed or waitlisted)",
    description:
      'Until registration closes (the tournament is Upcoming or Registration Ongoing and registrationClose has not passed), else 409. The place, team name and IGNs are freed at once, and the first waitlisted team is promoted. paid: the payment had been verified (refunds are between the captain and the organiser). No body.',
    security: SECURITY,
    params: TournamentIdParamsSchema,
    response: { 200: WithdrawalSchema, ...errorResponses(400, 401, 404, 409) },
  }),
  releaseTeam: endpoint(
    'POST',
    '/registrations/admin/:rid/release',
    {
      tags: TAGS.registrations,
      summary: 'Release a placed team whose payment is not verified, e.g. a rejected payment (admin)',
      description:
        'The team loses its place (reason payment-rejected when its payment was rejected, else removed), is told, and the first waitlisted team is promoted. 409 when the team is not placed or is confirmed (remove it instead). No body.',
      security: SECURITY,
      params: RegistrationIdParamsSchema,
      response: { 200: RegistrationSchema, ...errorResponses(400, 401, 403, 404, 409) },
    },
    'staff:run',
  ),
  removeTeam: endpoint(
    'POST',
    '/registrations/admin/:rid/remove',
    {
      tags: TAGS.registrations,
      summary: 'Remove a placed or waitlisted team, paid or not (admin)',
      description:
        "The team is released (reason removed) and told; a placed team's place goes to the first waitlisted team (not once a stage is published: its slot is left empty, decision 052). The team may not register again until the organiser allows it (rejoin barred). 409 when it is already released or withdrawn. No body.",
      security: SECURITY,
      params: RegistrationIdParamsSchema,
      response: { 200: RegistrationSchema, ...errorResponses(400, 401, 403, 404, 409) },
    },
    'staff:run',
  ),
  allowReturn: endpoint(
    'POST',
    '/registrations/admin/:rid/allow-return',
    {
      tags: TAGS.registrations,
      summary: 'Let a team the organiser removed register again in its tournament (admin)',
      description:
        'Decision 052: a removed team (rejoin barred) cannot register again, by its account, team name, IGNs or character IDs, until the organiser allows it (rejoin allowed). 409 when the team is not barred. No body.',
      security: SECURITY,
      params: RegistrationIdParamsSchema,
      response: { 200: RegistrationSchema, ...errorResponses(400, 401, 403, 404, 409) },
    },
    'staff:run',
  ),
  setPaymentStatuses: endpoint(
    'PUT',
    '/registrations/admin/payments',
    {
      tags: TAGS.registrations,
      summary: 'Set the payment status of several teams of one tournament at once (admin)',
      description: `All or nothing: every rid must be a registration of tournamentId, else 400 and nothing changes. At most ${MAX_BULK_PAYMENTS} rids. To verify or reject, expectedUpiReferences carries, per team that has a reference, the one the admin was shown: if any team changed it since, 409 naming those teams (errors expectedUpiReferences.{rid}) and nothing changes. Answers the listed registrations, by rid.`,
      security: SECURITY,
      body: PaymentStatusBulkUpdateSchema,
      response: { 200: z.array(RegistrationSchema), ...errorResponses(400, 401, 403, 404, 409) },
    },
    'staff:payments',
  ),
  setPaymentStatus: endpoint(
    'PUT',
    '/registrations/admin/:rid/payment',
    {
      tags: TAGS.registrations,
      summary: "Set a team's payment status (admin)",
      description:
        'To verify or reject a team that has a UPI reference, expectedUpiReference is the one the admin was shown; if the team changed it since, 409 "This team changed its UPI reference; check it again." and nothing changes.',
      security: SECURITY,
      params: RegistrationIdParamsSchema,
      body: PaymentStatusUpdateSchema,
      response: { 200: RegistrationSchema, ...errorResponses(400, 401, 403, 404, 409) },
    },
    'staff:payments',
  ),
  listMatches: endpoint('GET', '/matches/tournament/:tournamentId', {
    tags: TAGS.matches,
    summary: 'Match schedule of a tournament, by day and match number',
    description:
      'matchId (room ID) and password are filled only for admins and confirmed teams of the tournament (payment verified, or any registered team when the entry fee is 0); null for everyone else.',
    security: SECURITY,
    params: MatchTournamentParamsSchema,
    response: { 200: z.array(MatchSchema), ...errorResponses(400, 401, 404) },
  }),
  createMatch: endpoint(
    'POST',
    '/matches',
    {
      tags: TAGS.matches,
      summary: 'Create a match (admin)',
      description: 'One match per (tournament, day, match number): day 1-7, match 1-6; time is HH:MM or HH:MM:SS (24-hour).',
      security: SECURITY,
      body: MatchBodySchema,
      response: { 201: MatchSchema, ...errorResponses(400, 401, 403, 404, 409) },
    },
    'staff:run',
  ),
  updateMatch: endpoint(
    'PUT',
    '/matches/:id',
    {
      tags: TAGS.matches,
      summary: 'Update a match (admin)',
      description: 'Same fields as creating one; the match stays in its tournament.',
      security: SECURITY,
      params: MatchIdParamsSchema,
      body: MatchBodySchema,
      response: { 200: MatchSchema, ...errorResponses(400, 401, 403, 404, 409) },
    },
    'staff:run',
  ),
  // Issue 32 (decision 087): the matches page's five reads in one, for the minute the rooms are posted.
  mySchedule: endpoint('GET', '/tournaments/:id/schedule/mine', {
    tags: TAGS.matches,
    summary:
      "The matches page in one answer: the tournament, its matches as the caller may see them, the caller's team and reports, and the check-in windows",
    description:
      'Signed in. Each part is what its own call answers the same caller (GET /tournaments/{id}, GET /matches/tournament/{id}, GET /registrations/{id}, GET /tournaments/{id}/reports/mine); team and reports are null where those answer 404.',
    security: SECURITY,
    params: TournamentParamsSchema,
    response: { 200: MyScheduleSchema, ...errorResponses(400, 401, 404) },
  }),
  listStages: endpoint('GET', '/tournaments/:id/stages', {
    tags: TAGS.stages,
    summary: 'Stages of a tournament, in order, each with its groups and slot lists',
    description:
      'Anyone. Groups are listed once the stage is published; an admin (bearer token) also sees the groups of draft stages. No room details here.',
    params: TournamentParamsSchema,
    response: { 200: z.array(StageSchema), ...errorResponses(400, 404) },
  }),
  createStage: endpoint(
    'POST',
    '/tournaments/:id/stages',
    {
      tags: TAGS.stages,
      summary: 'Add a stage after the last one (admin)',
      description:
        'The lobby size defaults from the game (25 BGMI / PUBG Mobile, 12 Free Fire) and is required for any other game. A new stage is a draft with no groups.',
      security: SECURITY,
      params: TournamentParamsSchema,
      body: StageCreateSchema,
      response: { 201: StageSchema, ...errorResponses(400, 401, 403, 404, 409) },
    },
    'staff:run',
  ),
  updateStage: endpoint(
    'PUT',
    '/tournaments/:id/stages/:stageId',
    {
      tags: TAGS.stages,
      summary: "Edit a stage's name, lobby, first slot or advance rule (admin)",
      description:
        'Fields left out keep their value. Lobby size and first slot cannot change once the stage has results (409); before that, changing either clears the groups and returns the stage to draft. The advance rule cannot change once the stage is completed.',
      security: SECURITY,
      params: StageParamsSchema,
      body: StageUpdateSchema,
      response: { 200: StageSchema, ...errorResponses(400, 401, 403, 404, 409) },
    },
    'staff:run',
  ),
  deleteStage: endpoint(
    'DELETE',
    '/tournaments/:id/stages/:stageId',
    {
      tags: TAGS.stages,
      summary: 'Delete a stage with its groups and group matches (admin)',
      description: 'Refused (409) once it has results, and while a later stage exists (delete that first).',
      security: SECURITY,
      params: StageParamsSchema,
      response: { 200: MessageSchema, ...errorResponses(400, 401, 403, 404, 409) },
    },
    'staff:run',
  ),
  stageEntrants: endpoint(
    'GET',
    '/tournaments/:id/stages/:stageId/entrants',
    {
      tags: TAGS.stages,
      summary: "The teams a stage's groups are drawn from (admin)",
      description:
        "First stage: the confirmed teams (payment verified, or every team when the entry fee is 0). Later stages: the previous stage's qualifiers (once it is completed) and the teams the organiser invited.",
      security: SECURITY,
      params: StageParamsSchema,
      response: { 200: z.array(EntrantSchema), ...errorResponses(400, 401, 403, 404) },
    },
    'staff:run',
  ),
  inviteTeam: endpoint(
    'POST',
    '/tournaments/:id/stages/:stageId/invites',
    {
      tags: TAGS.stages,
      summary: 'Invite a registered team straight into a later stage (admin)',
      security: SECURITY,
      params: StageParamsSchema,
      body: InviteBodySchema,
      response: { 200: z.array(EntrantSchema), ...errorResponses(400, 401, 403, 404, 409) },
    },
    'staff:run',
  ),
  removeInvite: endpoint(
    'DELETE',
    '/tournaments/:id/stages/:stageId/invites/:teamId',
    {
      tags: TAGS.stages,
      summary: 'Withdraw an invitation (admin)',
      security: SECURITY,
      params: StageInviteParamsSchema,
      response: { 200: z.array(EntrantSchema), ...errorResponses(400, 401, 403, 404, 409) },
    },
    'staff:run',
  ),
  drawGroups: endpoint(
    'POST',
    '/tournaments/:id/stages/:stageId/groups',
    {
      tags: TAGS.stages,
      summary: "Generate a draft stage's groups from its entrants (admin)",
      description: [
        "Replaces the draft's groups. As few groups as the lobby size allows, sizes differing by at most one, named A, B … Z, AA, AB …; slots from firstSlot up.",
        'registration: entrants in registration order, filling group A, then B …',
        'random: the entrants in registration order shuffled with the seed (given, or picked and recorded), then filled in that order (decision 041 says how to repeat it).',
        "seeded: later stages only, by the previous stage's overall ranking in snake order (1st to A, 2nd to B …, then back), invited teams after the ranked ones.",
        'Refused (409) once the stage is published.',
        'A stage with a check-in window draws only its checked-in entrants (issue 19).',
      ].join(' '),
      security: SECURITY,
      params: StageParamsSchema,
      body: DrawBodySchema,
      response: { 200: StageSchema, ...errorResponses(400, 401, 403, 404, 409) },
    },
    'staff:run',
  ),
  moveSlot: endpoint(
    'POST',
    '/tournaments/:id/stages/:stageId/slots',
    {
      tags: TAGS.stages,
      summary: 'Swap two teams, or move a team to a free slot of any group of the stage (admin)',
      description:
        'Before the stage has results (else 409). The target group must have room: at most lobbySize teams, slots firstSlot … firstSlot + lobbySize − 1.',
      security: SECURITY,
      params: StageParamsSchema,
      body: SlotMoveSchema,
      response: { 200: StageSchema, ...errorResponses(400, 401, 403, 404, 409) },
    },
    'staff:run',
  ),
  emptySlots: endpoint(
    'GET',
    '/tournaments/:id/stages/:stageId/empty-slots',
    {
      tags: TAGS.stages,
      summary: "A published stage's empty slots and the teams that may fill them (admin)",
      description: 'Decision 052. 409 unless the stage is published (a draft is drawn again; a completed stage is over).',
      security: SECURITY,
      params: StageParamsSchema,
      response: { 200: EmptySlotsSchema, ...errorResponses(400, 401, 403, 404, 409) },
    },
    'staff:run',
  ),
  fillSlot: endpoint(
    'POST',
    '/tournaments/:id/stages/:stageId/empty-slots',
    {
      tags: TAGS.stages,
      summary: 'Seat a waitlisted team, or a confirmed team without a slot, in an empty slot of a published stage (admin)',
      description:
        'Decision 052. After the draw places no longer move by themselves: a team that leaves leaves its slot empty. A waitlisted team takes a place (within Max Teams) and, in a paid tournament, a payment deadline from now. The team is told its group and slot. 409 when the slot is taken, the stage is not published, or the team may not be seated.',
      security: SECURITY,
      params: StageParamsSchema,
      body: SlotFillSchema,
      response: { 200: StageSchema, ...errorResponses(400, 401, 403, 404, 409) },
    },
    'staff:run',
  ),
  publishStage: endpoint(
    'POST',
    '/tournaments/:id/stages/:stageId/publish',
    {
      tags: TAGS.stages,
      summary: 'Publish the slot list: players see their group and slot (admin)',
      security: SECURITY,
      params: StageParamsSchema,
      response: { 200: StageSchema, ...errorResponses(400, 401, 403, 404, 409) },
    },
    'staff:run',
  ),
  stageAdvance: endpoint(
    'GET',
    '/tournaments/:id/stages/:stageId/advance',
    {
      tags: TAGS.stages,
      summary: 'Who advances if the stage were completed now, and the cut lines in words (admin)',
      security: SECURITY,
      params: StageParamsSchema,
      response: { 200: AdvanceSchema, ...errorResponses(400, 401, 403, 404, 409) },
    },
    'staff:run',
  ),
  completeStage: endpoint(
    'POST',
    '/tournaments/:id/stages/:stageId/complete',
    {
      tags: TAGS.stages,
      summary: "Complete a published stage: its qualifiers become the next stage's entrants (admin)",
      description:
        "The top advancePerGroup of each group (group table), then the best advanceBest of the others by the stage's overall table; ties broken as on the points table. Answers the qualifiers and each cut line with the tie-break that decided it, in words. Issue 27: refused (409, naming them) while a scheduled group match has no results, unless notPlayed marks it as not played; refused while the stage has no scheduled match.",
      security: SECURITY,
      params: StageParamsSchema,
      body: CompleteBodySchema,
      response: { 200: AdvanceSchema, ...errorResponses(400, 401, 403, 404, 409) },
    },
    'staff:run',
  ),
  reopenStage: endpoint(
    'POST',
    '/tournaments/:id/stages/:stageId/reopen',
    {
      tags: TAGS.stages,
      summary: 'Reopen a completed stage (admin)',
      description:
        'Until the next stage has results (else 409). The next stage goes back to draft and loses its groups and group matches, since its entrants may change.',
      security: SECURITY,
      params: StageParamsSchema,
      response: { 200: StageSchema, ...errorResponses(400, 401, 403, 404, 409) },
    },
    'staff:run',
  ),
  scheduleStage: endpoint(
    'POST',
    '/tournaments/:id/stages/:stageId/matches',
    {
      tags: TAGS.stages,
      summary: 'Schedule matches for every group of a stage at once (admin)',
      description:
        "Each row (day, match number, map, time) becomes one match per group; a row whose day and match number the stage already has updates those matches' map and time (rooms are kept). A day and match number belong to one stage. Answers the stage's matches, rooms included.",
      security: SECURITY,
      params: StageParamsSchema,
      body: StageScheduleSchema,
      response: { 200: StageMatchesSchema, ...errorResponses(400, 401, 403, 404, 409) },
    },
    'staff:run',
  ),
  checkIn: endpoint('POST', '/tournaments/:id/stages/:stageId/check-in', {
    tags: TAGS.stages,
    summary: "Check the caller's team in for a stage",
    description:
      "While the stage's check-in window is open (409 before and after). The team must be confirmed and among the stage's teams: its groups once drawn, else its entrants (first stage: the confirmed placed teams). Checking in again answers the first check-in. No body.",
    security: SECURITY,
    params: StageParamsSchema,
    response: { 200: CheckInSchema, ...errorResponses(400, 401, 404, 409) },
  }),
  stageCheckIns: endpoint(
    'GET',
    '/tournaments/:id/stages/:stageId/check-ins',
    {
      tags: TAGS.stages,
      summary: 'Who checked in for a stage, and the no-shows once the window has closed (admin)',
      description: '404 when the stage has no check-in window.',
      security: SECURITY,
      params: StageParamsSchema,
      response: { 200: StageCheckInsSchema, ...errorResponses(400, 401, 403, 404) },
    },
    'staff:lobby',
  ),
  resolveNoShows: endpoint(
    'POST',
    '/tournaments/:id/stages/:stageId/no-shows',
    {
      tags: TAGS.stages,
      summary: "Decide a stage's no-shows once its check-in window has closed (admin)",
      description:
        'replace (first stage, before it is published): the no-shows are released (reason no-show) and waitlisted teams promoted into their places; promoted teams count as checked in. leave: the no-shows keep their registration, their slots stay empty (the draw uses checked-in teams only). Once per stage (409 after), and only after the window has closed (409 before).',
      security: SECURITY,
      params: StageParamsSchema,
      body: NoShowsBodySchema,
      response: { 200: StageCheckInsSchema, ...errorResponses(400, 401, 403, 404, 409) },
    },
    'staff:lobby',
  ),
  setStageRooms: endpoint(
    'PUT',
    '/tournaments/:id/stages/:stageId/rooms',
    {
      tags: TAGS.stages,
      summary: 'Set the room ID and password of many group matches at once (admin)',
      description: "All or nothing; every id must be a match of this stage's groups. Answers the stage's matches, rooms included.",
      security: SECURITY,
      params: StageParamsSchema,
      body: StageRoomsSchema,
      response: { 200: StageMatchesSchema, ...errorResponses(400, 401, 403, 404) },
    },
    'staff:lobby',
  ),
  listNotifications: endpoint('GET', '/notifications', {
    tags: TAGS.notifications,
    summary: "The caller's notifications, newest first",
    description:
      "Pages of limit lines (default 20): pass the answer's nextBefore as before for the next page. Also answers the unread count. Never a room ID or password: room notices link to the room card.",
    security: SECURITY,
    querystring: NotificationListQuerySchema,
    response: { 200: NotificationListSchema, ...errorResponses(400, 401) },
  }),
  unreadCount: endpoint('GET', '/notifications/unread-count', {
    tags: TAGS.notifications,
    summary: "How many of the caller's notifications are unread",
    security: SECURITY,
    response: { 200: UnreadCountSchema, 401: ErrorSchema },
  }),
  markNotificationsRead: endpoint('POST', '/notifications/read', {
    tags: TAGS.notifications,
    summary: "Mark the caller's notifications as read: the ids given, or all",
    description: "Ids that are not the caller's, or already read, are passed over. Answers the unread count after.",
    security: SECURITY,
    body: MarkReadBodySchema,
    response: { 200: UnreadCountSchema, ...errorResponses(400, 401) },
  }),
  pushPublicKey: endpoint('GET', '/push/public-key', {
    tags: TAGS.notifications,
    summary: "The gateway's VAPID public key (applicationServerKey for PushManager.subscribe)",
    response: { 200: PushPublicKeySchema },
  }),
  pushSubscribe: endpoint('POST', '/push/subscribe', {
    tags: TAGS.notifications,
    summary: "Send the caller's notifications to this browser as web pushes",
    description:
      'The body is PushSubscription.toJSON(). The same endpoint again from the caller refreshes its keys; an endpoint another ' +
      'account holds is refused (409, endpoint). An account keeps at most 10 phones: a new one past that replaces the oldest. ' +
      'Endpoints must be https:// at a browser push service (fcm.googleapis.com, *.push.services.mozilla.com, ' +
      '*.notify.windows.com, *.push.apple.com); any other address is refused (400, endpoint: "Must be a browser push service URL.").',
    security: SECURITY,
    body: PushSubscribeBodySchema,
    response: { 201: MessageSchema, ...errorResponses(400, 401, 409) },
  }),
  pushUnsubscribe: endpoint('POST', '/push/unsubscribe', {
    tags: TAGS.notifications,
    summary: 'Stop web pushes to this browser',
    description: "Only the caller's own subscription is removed; an endpoint the caller does not hold answers 404 (nothing changed).",
    security: SECURITY,
    body: PushUnsubscribeBodySchema,
    response: { 200: MessageSchema, ...errorResponses(400, 401, 404) },
  }),
  failedDeliveries: endpoint(
    'GET',
    '/tournaments/:id/notifications/failed',
    {
      tags: TAGS.notifications,
      summary: "A tournament's emails and pushes that could not be delivered, newest first (admin)",
      description: 'Each after its last attempt (5, with growing waits), or at once when the phone turned notifications off. At most 200.',
      security: SECURITY,
      params: TournamentParamsSchema,
      response: { 200: FailedDeliverySchema.array(), ...errorResponses(400, 401, 403, 404) },
    },
    'staff:run',
  ),

  // Issue 29 (decision 065): organisers, their pages and their tournaments' crews.
  listOrganisers: endpoint('GET', '/organisers', {
    tags: TAGS.organisers,
    summary: 'Approved organisers, by name; a site admin may ask for those of a status (pending applications)',
    querystring: OrganiserListQuerySchema,
    response: { 200: OrganiserSchema.array(), ...errorResponses(400, 401, 403) },
  }),
  applyOrganiser: endpoint(
    'POST',
    '/organisers',
    {
      tags: TAGS.organisers,
      summary: 'Apply to organise (pending until a site admin approves); a site admin creating one for an account approves it at once',
      security: SECURITY,
      body: OrganiserBodySchema,
      response: { 201: OrganiserSchema, ...errorResponses(400, 401, 403, 404, 409) },
    },
    'user',
  ),
  getOrganiser: endpoint('GET', '/organisers/:slug', {
    tags: TAGS.organisers,
    summary: "An organiser's page: name, logo, about, links and its tournaments, open first",
    params: SlugParamsSchema,
    response: { 200: OrganiserPageSchema, ...errorResponses(400, 404) },
  }),
  updateOrganiser: endpoint(
    'PUT',
    '/organisers/:slug',
    {
      tags: TAGS.organisers,
      summary: "Change an organiser's page (its owner or a site admin); the slug stays",
      description:
        'A JSON body, or multipart/form-data with the same text fields plus an optional `logo` image file ' +
        '(the formats and limits of a tournament cover, its messages naming the logo; 413 too large, 415 not an image) and a `removeLogo` ' +
        'checkbox. Without either the logo stays. logoUrl then names the logo at 128 pixels wide (/images/{id}-128.webp).',
      security: SECURITY,
      consumes: ['application/json', 'multipart/form-data'],
      params: SlugParamsSchema,
      body: OrganiserUpdateDocSchema,
      response: { 200: OrganiserSchema, ...errorResponses(400, 401, 403, 404, 413, 415) },
    },
    'user',
  ),
  decideOrganiser: endpoint(
    'POST',
    '/organisers/:slug/approve',
    {
      tags: TAGS.organisers,
      summary: 'Approve an application, or withdraw an organiser (site admin); a withdrawn organiser runs nothing from its next request',
      security: SECURITY,
      params: SlugParamsSchema,
      body: OrganiserDecisionSchema,
      response: { 200: OrganiserSchema, ...errorResponses(400, 401, 403, 404) },
    },
    'admin',
  ),
  desk: endpoint(
    'GET',
    '/desk',
    {
      tags: TAGS.organisers,
      summary: "The caller's organiser, the tournaments it works on with its part in each, and its pending staff invitations",
      security: SECURITY,
      response: { 200: DeskSchema, ...errorResponses(401) },
    },
    'user',
  ),
  myStanding: endpoint(
    'GET',
    '/tournaments/:id/staff/me',
    {
      tags: TAGS.organisers,
      summary: "The caller's part in a tournament: site admin, owner, a staff role with its scope, or none",
      security: SECURITY,
      params: TournamentParamsSchema,
      response: { 200: StandingSchema, ...errorResponses(400, 401, 404) },
    },
    'user',
  ),
  listStaff: endpoint(
    'GET',
    '/tournaments/:id/staff',
    {
      tags: TAGS.organisers,
      summary: "A tournament's owner and staff with their roles and scopes, pending invitations included",
      security: SECURITY,
      params: TournamentParamsSchema,
      response: { 200: StaffListSchema, ...errorResponses(400, 401, 403, 404) },
    },
    'staff:run',
  ),
  inviteStaff: endpoint(
    'POST',
    '/tournaments/:id/staff',
    {
      tags: TAGS.organisers,
      summary: 'Invite an account (by username or email) to the crew with a role; the invitee accepts (owner)',
      security: SECURITY,
      params: TournamentParamsSchema,
      body: StaffInviteSchema,
      response: { 201: StaffInvitationSchema, ...errorResponses(400, 401, 403, 404, 409) },
    },
    'staff:own',
  ),
  removeStaff: endpoint(
    'DELETE',
    '/tournaments/:id/staff/:userId',
    {
      tags: TAGS.organisers,
      summary: 'Remove a crew member or withdraw an invitation (owner); effective on its next request',
      security: SECURITY,
      params: StaffUserParamsSchema,
      response: { 200: MessageSchema, ...errorResponses(400, 401, 403, 404) },
    },
    'staff:own',
  ),
  acceptInvitation: endpoint(
    'POST',
    '/staff-invitations/:token/accept',
    {
      tags: TAGS.organisers,
      summary: 'Accept a staff invitation, signed in as the invited account',
      security: SECURITY,
      params: InvitationParamsSchema,
      response: { 200: StaffInvitationSchema, ...errorResponses(400, 401, 403, 404, 409) },
    },
    'user',
  ),
  tournamentActivity: endpoint(
    'GET',
    '/tournaments/:id/activity',
    {
      tags: TAGS.organisers,
      summary: 'Who did what on a tournament and when, newest first (owner and co-organisers)',
      security: SECURITY,
      params: TournamentParamsSchema,
      response: { 200: ActivitySchema, ...errorResponses(400, 401, 403, 404) },
    },
    'staff:run',
  ),
  listAnnouncements: endpoint('GET', '/tournaments/:id/announcements', {
    tags: TAGS.organisers,
    summary: "A tournament's announcements, newest first, each with its audience (the tournament, a stage or a group)",
    params: TournamentParamsSchema,
    response: { 200: AnnouncementSchema.array(), ...errorResponses(400, 404) },
  }),
  postAnnouncement: endpoint(
    'POST',
    '/tournaments/:id/announcements',
    {
      tags: TAGS.organisers,
      summary:
        'Announce to the tournament, a stage or a group (owner, co-organisers; lobby managers to their groups); never a room ID or password',
      security: SECURITY,
      params: TournamentParamsSchema,
      body: AnnouncementBodySchema,
      response: { 201: AnnouncementSchema, ...errorResponses(400, 401, 403, 404) },
    },
    'staff:lobby',
  ),
  // Issue 30 (decision 071): captains report, staff confirm a lobby, teams dispute, per-player finishes.
  myReports: endpoint('GET', '/tournaments/:id/reports/mine', {
    tags: TAGS.reports,
    summary: "The caller's team's matches and where each one's report stands (a member of a confirmed team)",
    security: SECURITY,
    params: TournamentParamsSchema,
    response: { 200: MyReportsSchema, ...errorResponses(400, 401, 404) },
  }),
  fileReport: endpoint('POST', '/tournaments/:id/reports/:day/:match', {
    tags: TAGS.reports,
    summary: "A team's report of one group-match: placement, each player's finishes and a screenshot (multipart; any member of the team)",
    description:
      'From the match start until reporting closes or the lobby is confirmed. Once per team and match (409 after that: PUT edits it). The screenshot is re-encoded without its metadata and kept once. The captain is told when another member reports.',
    security: SECURITY,
    consumes: ['multipart/form-data'],
    params: ReportParamsSchema,
    querystring: ReportGroupQuerySchema,
    body: ReportMultipartDocSchema,
    response: { 201: ReportSchema, ...errorResponses(400, 401, 403, 404, 409, 413, 415) },
  }),
  editReport: endpoint('PUT', '/tournaments/:id/reports/:day/:match', {
    tags: TAGS.reports,
    summary: "Edit the team's report until the lobby is confirmed (multipart; without a screenshot the current one stays)",
    security: SECURITY,
    consumes: ['multipart/form-data'],
    params: ReportParamsSchema,
    querystring: ReportGroupQuerySchema,
    body: ReportMultipartDocSchema,
    response: { 200: ReportSchema, ...errorResponses(400, 401, 403, 404, 409, 413, 415) },
  }),
  reportLobby: endpoint(
    'GET',
    '/tournaments/:id/reports/:day/:match',
    {
      tags: TAGS.reports,
      summary:
        'The lobby view of one group-match (staff): reports in placement order, conflicts, reused screenshots, teams that have not reported',
      security: SECURITY,
      params: ReportParamsSchema,
      querystring: ReportGroupQuerySchema,
      response: { 200: ReportLobbySchema, ...errorResponses(400, 401, 403, 404) },
    },
    'staff:lobby',
  ),
  reportScreenshot: endpoint('GET', '/tournaments/:id/reports/:reportId/screenshot', {
    tags: TAGS.reports,
    summary: "A report's screenshot: the reporting team's members and the tournament's staff only (403 for anyone else)",
    security: SECURITY,
    params: ReportIdParamsSchema,
    response: { ...errorResponses(400, 401, 403, 404) },
  }),
  confirmLobby: endpoint(
    'POST',
    '/tournaments/:id/reports/:day/:match/confirm',
    {
      tags: TAGS.reports,
      summary: "Confirm a lobby: these rows become the match's results in one transaction (the rules of manual entry); reporting closes",
      description:
        "Rows as PUT .../points-table/matches/{day}/{match}. A row that differs from the team's report is a correction in the result history; a team's per-player finishes are kept when they add up to its confirmed finishes. The results are provisional for the dispute window.",
      security: SECURITY,
      params: ReportParamsSchema,
      querystring: ReportGroupQuerySchema,
      body: ConfirmLobbyBodySchema,
      response: { 200: ConfirmLobbySchema, ...errorResponses(400, 401, 403, 404, 409, 413) },
    },
    'staff:lobby',
  ),
  setReporting: endpoint(
    'PUT',
    '/tournaments/:id/reports/:day/:match/reporting',
    {
      tags: TAGS.reports,
      summary: 'Close (or reopen) reporting for one group-match',
      security: SECURITY,
      params: ReportParamsSchema,
      querystring: ReportGroupQuerySchema,
      body: ReportingBodySchema,
      response: { 200: MessageSchema, ...errorResponses(400, 401, 403, 404, 409) },
    },
    'staff:lobby',
  ),
  reportSettings: endpoint(
    'GET',
    '/tournaments/:id/reports/settings',
    {
      tags: TAGS.reports,
      summary: 'The match length per stage (reminders) and the dispute window',
      security: SECURITY,
      params: TournamentParamsSchema,
      response: { 200: ReportSettingsSchema, ...errorResponses(400, 401, 403, 404) },
    },
    'staff:lobby',
  ),
  setReportSettings: endpoint(
    'PUT',
    '/tournaments/:id/reports/settings',
    {
      tags: TAGS.reports,
      summary: "Set the match length (the tournament's and per stage) and the dispute window; left out keeps",
      security: SECURITY,
      params: TournamentParamsSchema,
      body: ReportSettingsBodySchema,
      response: { 200: ReportSettingsSchema, ...errorResponses(400, 401, 403, 404) },
    },
    'staff:run',
  ),
  fileDispute: endpoint('POST', '/tournaments/:id/disputes', {
    tags: TAGS.reports,
    summary:
      "Dispute a confirmed row of the caller's group-match (its own or another team's) within the window, once per match (multipart, optional screenshot)",
    security: SECURITY,
    consumes: ['multipart/form-data'],
    params: TournamentParamsSchema,
    body: DisputeMultipartDocSchema,
    response: { 201: DisputeSchema, ...errorResponses(400, 401, 403, 404, 409, 413, 415) },
  }),
  listDisputes: endpoint('GET', '/tournaments/:id/disputes', {
    tags: TAGS.reports,
    summary: "Disputes: the staff see the tournament's (a lobby manager its groups'), a team member its team's (filed by it or about it)",
    security: SECURITY,
    params: TournamentParamsSchema,
    querystring: DisputesQuerySchema,
    response: { 200: DisputeSchema.array(), ...errorResponses(400, 401, 404) },
  }),
  disputeScreenshot: endpoint('GET', '/tournaments/:id/disputes/:disputeId/screenshot', {
    tags: TAGS.reports,
    summary: "A dispute's screenshot: the disputing team and the staff only",
    security: SECURITY,
    params: DisputeIdParamsSchema,
    response: { ...errorResponses(400, 401, 403, 404) },
  }),
  resolveDispute: endpoint(
    'POST',
    '/tournaments/:id/disputes/:disputeId/resolve',
    {
      tags: TAGS.reports,
      summary: 'Uphold a dispute (the row changes, kept in the result history) or dismiss it with a reason the team sees',
      security: SECURITY,
      params: DisputeIdParamsSchema,
      body: DisputeResolveBodySchema,
      response: { 200: DisputeSchema, ...errorResponses(400, 401, 403, 404, 409) },
    },
    'staff:lobby',
  ),
  playerStats: endpoint('GET', '/tournaments/:id/points-table/players', {
    tags: TAGS.points,
    summary: "Top fraggers: each player's finishes in confirmed reports (the tournament, a stage or a group)",
    params: TournamentParamsSchema,
    querystring: TableScopeQuerySchema,
    response: { 200: PlayerStatsSchema, ...errorResponses(400, 404) },
  }),
  uploadStatement: endpoint(
    'POST',
    '/tournaments/:id/statements',
    {
      tags: TAGS.money,
      summary: "Upload a bank or UPI business statement (CSV or XLSX, multipart) to match its credits to the teams' UTRs",
      description:
        'The file is read at once: 201 with state "read", or state "needs-columns" (headers, a guess and sample rows) when its columns cannot be told apart; the organiser\'s earlier choice for the same layout is used. The same file uploaded to the tournament again answers 200 with repeated: true and changes nothing. Nothing is verified here.',
      security: SECURITY,
      consumes: ['multipart/form-data'],
      params: TournamentParamsSchema,
      body: StatementMultipartDocSchema,
      response: { 200: StatementUploadSchema, 201: StatementUploadSchema, ...errorResponses(400, 401, 403, 404, 413, 415) },
    },
    'staff:payments',
  ),
  listStatements: endpoint(
    'GET',
    '/tournaments/:id/statements',
    {
      tags: TAGS.money,
      summary: "The tournament's uploaded statements, newest first",
      security: SECURITY,
      params: TournamentParamsSchema,
      response: { 200: z.array(StatementSchema), ...errorResponses(400, 401, 403, 404) },
    },
    'staff:payments',
  ),
  statementPreview: endpoint(
    'GET',
    '/tournaments/:id/statements/:statementId',
    {
      tags: TAGS.money,
      summary: "A statement matched to the teams' payments: matched, amount differs, no team, not on the statement, duplicates",
      security: SECURITY,
      params: StatementParamsSchema,
      response: { 200: StatementPreviewSchema, ...errorResponses(400, 401, 403, 404) },
    },
    'staff:payments',
  ),
  setStatementColumns: endpoint(
    'PUT',
    '/tournaments/:id/statements/:statementId/columns',
    {
      tags: TAGS.money,
      summary: "Read a statement with the organiser's choice of columns (remembered for the same layout)",
      security: SECURITY,
      params: StatementParamsSchema,
      body: StatementColumnsBodySchema,
      response: { 200: StatementSchema, ...errorResponses(400, 401, 403, 404) },
    },
    'staff:payments',
  ),
  verifyStatement: endpoint(
    'POST',
    '/tournaments/:id/statements/:statementId/verify',
    {
      tags: TAGS.money,
      summary: 'Verify the matched teams of a statement, all or nothing',
      description:
        'Each rid must still match a credit of this statement (its UTR, or its payment note when it sent none, and the entry fee) with the UTR the organiser was shown (expectedUpiReferences), else 409 naming the teams and nothing is verified. A team already verified counts as done.',
      security: SECURITY,
      params: StatementParamsSchema,
      body: StatementVerifyBodySchema,
      response: { 200: StatementVerifySchema, ...errorResponses(400, 401, 403, 404, 409) },
    },
    'staff:payments',
  ),
  listRefunds: endpoint(
    'GET',
    '/tournaments/:id/refunds',
    {
      tags: TAGS.money,
      summary:
        'Paid teams owed a refund: withdrawn or released, or every paid team of a cancelled tournament; with the payer the statement names',
      security: SECURITY,
      params: TournamentParamsSchema,
      response: { 200: z.array(RefundSchema), ...errorResponses(400, 401, 403, 404) },
    },
    'staff:payments',
  ),
  recordRefund: endpoint(
    'POST',
    '/tournaments/:id/refunds/:rid',
    {
      tags: TAGS.money,
      summary: "Record a team's refund with its UTR (once); the team is told",
      description: '409 when the team is not owed a refund (it is placed and paid, or never paid) or its refund is already recorded.',
      security: SECURITY,
      params: MoneyRegistrationParamsSchema,
      body: RefundBodySchema,
      response: { 200: RefundSchema, ...errorResponses(400, 401, 403, 404, 409) },
    },
    'staff:payments',
  ),
  myMoney: endpoint('GET', '/tournaments/:id/money/mine', {
    tags: TAGS.money,
    summary: "The caller's team's money in the tournament: its refund when recorded, its prize once it won one",
    security: SECURITY,
    params: TournamentParamsSchema,
    response: { 200: MyMoneySchema, ...errorResponses(400, 401, 404) },
  }),
  moneySummary: endpoint(
    'GET',
    '/tournaments/:id/money',
    {
      tags: TAGS.money,
      summary: "The tournament's money: fees expected, received (matched on statements), verified and refunded, and each team's line",
      security: SECURITY,
      params: TournamentParamsSchema,
      response: { 200: MoneySummarySchema, ...errorResponses(400, 401, 403, 404) },
    },
    'staff:payments',
  ),
  getPrizes: endpoint('GET', '/tournaments/:id/prizes', {
    tags: TAGS.money,
    summary: "The tournament's prize table: an amount per final rank, and special prizes (empty when none is set)",
    params: TournamentParamsSchema,
    response: { 200: PrizeTableSchema, ...errorResponses(400, 404) },
  }),
  setPrizes: endpoint(
    'PUT',
    '/tournaments/:id/prizes',
    {
      tags: TAGS.money,
      summary: 'Replace the prize table (amounts in rupees); empty lists clear it',
      security: SECURITY,
      params: TournamentParamsSchema,
      body: PrizeTableBodySchema,
      description: '409 once a prize payout is recorded: the amounts paid stand.',
      response: { 200: PrizeTableSchema, ...errorResponses(400, 401, 403, 404, 409) },
    },
    'staff:run',
  ),
  listPayouts: endpoint(
    'GET',
    '/tournaments/:id/payouts',
    {
      tags: TAGS.money,
      summary: 'The prize winners (once the final standings are in), where each asked to be paid, and each payout',
      security: SECURITY,
      params: TournamentParamsSchema,
      response: { 200: PayoutsSchema, ...errorResponses(400, 401, 403, 404) },
    },
    'staff:payments',
  ),
  awardPrizes: endpoint(
    'PUT',
    '/tournaments/:id/payouts/awards',
    {
      tags: TAGS.money,
      summary: 'Name the team that won each special prize (Top fragger…)',
      description: '409 for a prize whose payout is recorded; 400 for a prize or team the tournament does not have.',
      security: SECURITY,
      params: TournamentParamsSchema,
      body: PrizeAwardsBodySchema,
      response: { 200: PayoutsSchema, ...errorResponses(400, 401, 403, 404, 409) },
    },
    'staff:payments',
  ),
  remindWinners: endpoint(
    'POST',
    '/tournaments/:id/payouts/remind',
    {
      tags: TAGS.money,
      summary: 'Ask the winners who have not given a UPI ID yet to give one (a notification each)',
      security: SECURITY,
      params: TournamentParamsSchema,
      response: { 200: z.object({ asked: z.number().int(), message: z.string() }), ...errorResponses(400, 401, 403, 404, 409) },
    },
    'staff:payments',
  ),
  recordPayout: endpoint(
    'POST',
    '/tournaments/:id/payouts/:rid',
    {
      tags: TAGS.money,
      summary: "Record a winner's payout with its UTR and the TDS withheld (once); the team is told",
      description:
        '409 before the final standings, for a team that won nothing, before its captain gave a UPI ID, or when its payout is recorded.',
      security: SECURITY,
      params: MoneyRegistrationParamsSchema,
      body: PayoutBodySchema,
      response: { 200: PrizeWinnerSchema, ...errorResponses(400, 401, 403, 404, 409) },
    },
    'staff:payments',
  ),
  setPrizePayee: endpoint('PUT', '/tournaments/:id/money/mine/payee', {
    tags: TAGS.money,
    summary: 'The captain of a winning team gives the UPI ID to be paid (and the PAN when asked); changeable until paid',
    description: '409 when the team won no prize, the final standings are not in, or the prize is already paid.',
    security: SECURITY,
    params: TournamentParamsSchema,
    body: PrizePayeeBodySchema,
    response: { 200: MyMoneySchema, ...errorResponses(400, 401, 404, 409) },
  }),
};

export type Endpoints = typeof endpoints;
export type EndpointName = keyof Endpoints;
