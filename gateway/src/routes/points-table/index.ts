import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { requireAdmin } from '../../plugins/auth.js';
import { badRequest, conflict, notFound } from '../../lib/errors.js';
import { placementPoints } from '../../lib/points-systems.js';
import { rankStandings } from '../../lib/ranking.js';
import { isUniqueViolation, nowIso, type Trx } from '../../db/index.js';
import {
  PLACEMENT_CONSTRAINT,
  findPlacementHolder,
  getScoringTournament,
  getTournamentTeam,
  listMatchResults,
  teamStandings,
  upsertMatchResult,
} from '../../db/results.js';
import { ErrorSchema } from '../../schemas/common.js';
import {
  DayQuerySchema,
  MatchResultSchema,
  MatchResultsQuerySchema,
  PointsSubmissionSchema,
  PointsTableSchema,
  TournamentParamsSchema,
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

const routes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/tournaments/:id/points-table',
    {
      // Before body validation, so an anonymous caller learns nothing about the payload rules.
      onRequest: requireAdmin,
      schema: {
        tags: TAGS,
        summary: "Record one team's result in one match (upsert; totals computed by the gateway)",
        security: [{ bearerAuth: [] }],
        params: TournamentParamsSchema,
        body: PointsSubmissionSchema,
        response: { 200: MatchResultSchema, 400: ErrorSchema, 401: ErrorSchema, 403: ErrorSchema, 404: ErrorSchema, 409: ErrorSchema },
      },
    },
    async (request) => {
      const tid = request.params.id;
      const { day, match, teamId, position, wins, finishes } = request.body;
      try {
        return await app.store.writeTransaction(async (trx) => {
          const tournament = await requireTournament(trx, tid);
          const team = await getTournamentTeam(trx, tid, teamId);
          if (!team) throw badRequest(NOT_REGISTERED, { teamId: NOT_REGISTERED });
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
          return { id, tid, day, match, teamId: team.id, teamName: team.team_name, position, positionPoints, wins, finishes, totalPoints };
        });
      } catch (err) {
        if (!isUniqueViolation(err, PLACEMENT_CONSTRAINT)) throw err;
        const holder = await findPlacementHolder(app.store.db, { tournamentId: tid, day, match, position, exceptRegistrationId: teamId });
        throw placementTaken(position, day, match, holder ?? 'another team');
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
    async (request) => {
      const tid = request.params.id;
      const { day } = request.query;
      await requireTournament(app.store.db, tid);
      return rankStandings(await teamStandings(app.store.db, tid, day === 0 ? undefined : day));
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
    async (request) => {
      const tid = request.params.id;
      await requireTournament(app.store.db, tid);
      return rankStandings(await teamStandings(app.store.db, tid));
    },
  );
};

export default routes;
