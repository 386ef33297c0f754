import { hasZodFastifySchemaValidationErrors, type FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { requireAdmin } from '../../plugins/auth.js';
import { HttpError, badRequest, conflict, notFound, type FieldErrors } from '../../lib/errors.js';
import { placementPoints } from '../../lib/points-systems.js';
import { rankStandings } from '../../lib/ranking.js';
import { isUniqueViolation, nowIso, type Trx } from '../../db/index.js';
import { bumpGeneration } from '../../db/generation.js';
import { countRegistrations } from '../../db/registrations.js';
import {
  PLACEMENT_CONSTRAINT,
  findPlacementHolder,
  getScoringTournament,
  getTournamentTeam,
  getTournamentTeams,
  listMatchResults,
  replaceMatchResults,
  teamStandings,
  upsertMatchResult,
  type NewMatchResult,
} from '../../db/results.js';
import { ErrorSchema } from '../../schemas/common.js';
import {
  DayQuerySchema,
  MAX_MATCH_ROWS,
  MatchParamsSchema,
  MatchResultSchema,
  MatchResultsBatchSchema,
  MatchResultsQuerySchema,
  type MatchResultsBatch,
  PointsSubmissionSchema,
  PointsTableSchema,
  TournamentParamsSchema,
  impossibleResult,
  lobbyLimits,
  winsFor,
} from '../../schemas/points.js';

const TAGS = ['points-table'];
const TOURNAMENT_NOT_FOUND = 'Tournament not found.';
const NOT_REGISTERED = 'This team is not registered in the tournament.';

const placementTaken = (position: number, day: number, match: number, team: string) => {
  const message = `Placement ${position} in day ${day} match ${match} is already taken by ${team}.`;
  return conflict(message, { position: message });
};

async function requireTournament(db: Trx, id: number) {
  const tournament = await getScoringTournament(db, id);
  if (!tournament) throw notFound(TOURNAMENT_NOT_FOUND);
  return tournament;
}

/** The lobby of a match: every registered team, while tournaments have no stages (decision 029). */
async function matchLobby(db: Trx, tournament: { id: number; format: string }) {
  return lobbyLimits(await countRegistrations(db, tournament.id), tournament.format);
}

const IMPOSSIBLE = 'This result cannot happen in this match: please check the highlighted fields.';

/** Ranked standings of one day, or overall when day is undefined. */
async function pointsTable(db: Trx, tid: number, day?: number) {
  await requireTournament(db, tid);
  return rankStandings(await teamStandings(db, tid, day));
}

const listNames = (names: string[]) => (names.length <= 2 ? names.join(' and ') : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`);

/**
 * The batch form names its inputs `position.{teamId}`, so row errors are keyed the same way
 * (`results.3.position` becomes `position.42`) wherever the row's teamId can be read.
 */
function batchValidationError(error: unknown, body: unknown): unknown {
  if (!hasZodFastifySchemaValidationErrors(error)) return error;
  const rows = (body as { results?: unknown } | null)?.results;
  const errors: FieldErrors = {};
  for (const issue of error.validation) {
    const path = issue.instancePath.replace(/^\//, '').split('/').filter(Boolean);
    let field = path.join('.') || 'request';
    if (error.validationContext === 'body' && path[0] === 'results' && path.length >= 3 && Array.isArray(rows)) {
      const teamId = Number((rows[Number(path[1])] as { teamId?: unknown } | undefined)?.teamId);
      if (Number.isInteger(teamId) && teamId > 0) field = `${path.slice(2).join('.')}.${teamId}`;
    }
    errors[field] ??= issue.message;
  }
  return badRequest('Please check the highlighted fields.', errors);
}

type BatchRow = MatchResultsBatch['results'][number];

/** 400 for a team listed twice or not registered in the tournament, both reported at once. */
function checkTeams(rows: readonly BatchRow[], teams: Map<number, string>) {
  const errors: FieldErrors = {};
  const messages: string[] = [];
  const seen = new Set<number>();
  for (const { teamId } of rows) {
    if (!teams.has(teamId)) {
      const message = `Team ${teamId} is not registered in this tournament.`;
      if (!errors[`teamId.${teamId}`]) messages.push(message);
      errors[`teamId.${teamId}`] = message;
    } else if (seen.has(teamId)) {
      const message = `${teams.get(teamId)} is listed more than once.`;
      if (!errors[`teamId.${teamId}`]) messages.push(message);
      errors[`teamId.${teamId}`] = message;
    }
    seen.add(teamId);
  }
  if (messages.length > 0) throw badRequest(messages.join(' '), errors);
}

/** 400 for results the lobby makes impossible, every one at once, keyed {field}.{teamId} like the form's inputs. */
function checkPossible(rows: readonly BatchRow[], lobby: { teams: number; maxFinishes: number }) {
  const errors: FieldErrors = {};
  for (const row of rows) {
    for (const [field, message] of Object.entries(impossibleResult(row, lobby))) errors[`${field}.${row.teamId}`] = message;
  }
  if (Object.keys(errors).length > 0) throw badRequest(IMPOSSIBLE, errors);
}

/** 409 naming every team of every shared placement, with an error beside each of their positions. */
function checkPlacements(rows: readonly BatchRow[], teams: Map<number, string>) {
  const holders = new Map<number, number[]>();
  for (const { teamId, position } of rows) {
    if (position > 0) holders.set(position, [...(holders.get(position) ?? []), teamId]);
  }
  const errors: FieldErrors = {};
  const messages: string[] = [];
  for (const [position, teamIds] of [...holders].sort(([a], [b]) => a - b)) {
    if (teamIds.length < 2) continue;
    const names = teamIds.map((id) => teams.get(id)!);
    messages.push(`Placement ${position} is given to ${names.length === 2 ? 'both ' : ''}${listNames(names)}.`);
    for (const [i, id] of teamIds.entries()) {
      errors[`position.${id}`] = `Placement ${position} is also given to ${listNames(names.filter((_, j) => j !== i))}.`;
    }
  }
  if (messages.length > 0) throw conflict(`Two teams cannot share a placement. ${messages.join(' ')}`, errors);
}

const routes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/tournaments/:id/points-table',
    {
      // Before body validation, so an anonymous caller learns nothing about the payload rules.
      onRequest: requireAdmin,
      schema: {
        tags: TAGS,
        summary: "Record one team's result in one match (upsert; totals computed by the gateway)",
        description:
          'The lobby is every registered team of the tournament: position 1 to their number (0 = not placed), finishes 0 to the other players (4 × (teams − 1) for squads). wins is derived from the position; a 1 for any position but 1 is refused (400, errors.wins).',
        security: [{ bearerAuth: [] }],
        params: TournamentParamsSchema,
        body: PointsSubmissionSchema,
        response: { 200: MatchResultSchema, 400: ErrorSchema, 401: ErrorSchema, 403: ErrorSchema, 404: ErrorSchema, 409: ErrorSchema },
      },
    },
    async (request) => {
      const tid = request.params.id;
      const { day, match, teamId, position, finishes } = request.body;
      const wins = winsFor(position);
      try {
        return await app.store.writeTransaction(async (trx) => {
          // The tournament's row first, as the batch does: one lock order, so the two cannot deadlock (decision 032).
          const locked = await app.store.lockTournament(trx, tid);
          if (!locked || locked.deleted_at) throw notFound(TOURNAMENT_NOT_FOUND);
          const tournament = await requireTournament(trx, tid);
          const team = await getTournamentTeam(trx, tid, teamId);
          if (!team) throw badRequest(NOT_REGISTERED, { teamId: NOT_REGISTERED });
          const impossible = impossibleResult(request.body, await matchLobby(trx, tournament));
          if (Object.keys(impossible).length > 0) throw badRequest(IMPOSSIBLE, impossible);
          // A friendly check first; the partial unique index still decides under concurrency (caught below).
          const holder = await findPlacementHolder(trx, { tournamentId: tid, day, match, position, exceptRegistrationId: team.id });
          if (holder) throw placementTaken(position, day, match, holder);
          const positionPoints = placementPoints(tournament.points_system, position);
          const totalPoints = positionPoints + finishes;
          const id = await upsertMatchResult(
            trx,
            { tournamentId: tid, day, match, registrationId: team.id, position, wins, finishes, positionPoints, totalPoints },
            nowIso(),
          );
          await bumpGeneration(trx, tid);
          return { id, tid, day, match, teamId: team.id, teamName: team.team_name, position, positionPoints, wins, finishes, totalPoints };
        });
      } catch (err) {
        if (!isUniqueViolation(err, PLACEMENT_CONSTRAINT)) throw err;
        const holder = await findPlacementHolder(app.store.db, { tournamentId: tid, day, match, position, exceptRegistrationId: teamId });
        throw placementTaken(position, day, match, holder ?? 'another team');
      }
    },
  );

  app.put(
    '/tournaments/:id/points-table/matches/:day/:match',
    {
      onRequest: requireAdmin,
      // Room for MAX_MATCH_ROWS rows that also carry the ignored teamName and totalPoints.
      bodyLimit: 256 * 1024,
      attachValidation: true,
      schema: {
        tags: TAGS,
        summary: "Replace one match's results with exactly these rows, atomically (admin)",
        description: [
          'All rows are stored or none. Teams not listed lose their row in this match; unchanged rows are not rewritten, so re-sending the same body changes nothing.',
          `At most ${MAX_MATCH_ROWS} rows, one per team (teamId = rid of a registration in this tournament). Position 0 = not placed; two rows may not share a position above 0 (409, naming both teams, errors keyed position.{teamId}).`,
          'The lobby is every registered team: positions up to their number, finishes up to the other players (4 × (teams − 1) for squads); wins are derived from the position (a 1 for any other position than 1 is refused). Impossible results: 400, errors keyed {field}.{teamId}.',
          'Swapping placements works in one call. Row errors are keyed {field}.{teamId}. Answers the stored rows of the match, as GET .../points-table/results.',
        ].join(' '),
        security: [{ bearerAuth: [] }],
        params: MatchParamsSchema,
        body: MatchResultsBatchSchema,
        response: { 200: MatchResultSchema.array(), 400: ErrorSchema, 401: ErrorSchema, 403: ErrorSchema, 404: ErrorSchema, 409: ErrorSchema, 413: ErrorSchema },
      },
    },
    async (request) => {
      if (request.validationError) throw batchValidationError(request.validationError, request.body);
      const { id: tid, day, match } = request.params;
      const rows = request.body.results;
      try {
        return await app.store.writeTransaction(async (trx) => {
          // Serialises batches of one tournament on PostgreSQL (SQLite holds the write lock already).
          const locked = await app.store.lockTournament(trx, tid);
          if (!locked || locked.deleted_at) throw notFound(TOURNAMENT_NOT_FOUND);
          const tournament = await requireTournament(trx, tid);
          const teams = await getTournamentTeams(trx, tid, [...new Set(rows.map((r) => r.teamId))]);
          checkTeams(rows, teams);
          checkPossible(rows, await matchLobby(trx, tournament));
          checkPlacements(rows, teams);
          const results: NewMatchResult[] = rows.map(({ teamId, position, finishes }) => {
            const positionPoints = placementPoints(tournament.points_system, position);
            return { tournamentId: tid, day, match, registrationId: teamId, position, wins: winsFor(position), finishes, positionPoints, totalPoints: positionPoints + finishes };
          });
          if (await replaceMatchResults(trx, { tournamentId: tid, day, match }, results, nowIso())) await bumpGeneration(trx, tid);
          return listMatchResults(trx, { tournamentId: tid, day, match });
        });
      } catch (err) {
        if (err instanceof HttpError || !isUniqueViolation(err, PLACEMENT_CONSTRAINT)) throw err;
        // Only a per-team submission racing this batch can get here: the batch itself never shares a placement.
        throw conflict(`Day ${day} match ${match} was changed by someone else at the same moment. Reload it and submit again.`);
      }
    },
  );

  app.get(
    '/tournaments/:id/points-table/results',
    {
      onRequest: requireAdmin,
      schema: {
        tags: TAGS,
        summary: 'Stored results of one match (to prefill the admin form)',
        security: [{ bearerAuth: [] }],
        params: TournamentParamsSchema,
        querystring: MatchResultsQuerySchema,
        response: { 200: MatchResultSchema.array(), 400: ErrorSchema, 401: ErrorSchema, 403: ErrorSchema, 404: ErrorSchema },
      },
    },
    async (request) => {
      const tid = request.params.id;
      await requireTournament(app.store.db, tid);
      return listMatchResults(app.store.db, { tournamentId: tid, day: request.query.day, match: request.query.match });
    },
  );

  app.get(
    '/tournaments/:id/points-table/day',
    {
      schema: {
        tags: TAGS,
        summary: 'Points table of one day (day=0: overall), ranked with the tie-breakers',
        params: TournamentParamsSchema,
        querystring: DayQuerySchema,
        response: { 200: PointsTableSchema, 400: ErrorSchema, 404: ErrorSchema },
      },
    },
    (request, reply) => {
      const tid = request.params.id;
      const day = request.query.day === 0 ? undefined : request.query.day;
      return app.answers.send(request, reply, {
        key: `points:${tid}:${day ?? 'overall'}`,
        tournamentId: tid,
        build: () => pointsTable(app.store.db, tid, day),
        schema: PointsTableSchema,
      });
    },
  );

  app.get(
    '/tournaments/:id/points-table/overall',
    {
      schema: {
        tags: TAGS,
        summary: 'Overall points table, ranked with the tie-breakers',
        params: TournamentParamsSchema,
        response: { 200: PointsTableSchema, 400: ErrorSchema, 404: ErrorSchema },
      },
    },
    (request, reply) => {
      const tid = request.params.id;
      return app.answers.send(request, reply, {
        key: `points:${tid}:overall`,
        tournamentId: tid,
        build: () => pointsTable(app.store.db, tid),
        schema: PointsTableSchema,
      });
    },
  );
};

export default routes;
