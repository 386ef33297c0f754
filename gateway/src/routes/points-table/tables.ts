import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  endpoints,
  PointsBreakdownSchema,
  PointsDaysSchema,
  PointsTableSchema,
  RESULT_HISTORY_LIMIT,
  ResultHistorySchema,
} from '@custom-room/contract';
import { pointsBreakdown, pointsDays, pointsTable } from '../../services/points/tables.js';
import { resultHistory } from '../../services/results/history.js';

/** The public tables: a day's, the overall one, their days and per-match breakdown, and the history of result edits. */
const routes: FastifyPluginAsyncZod = async (app) => {
  app.get(endpoints.resultHistory.url, { schema: endpoints.resultHistory.schema }, (request, reply) => {
    const tid = request.params.id;
    const limit = request.query.limit ?? RESULT_HISTORY_LIMIT;
    const { before } = request.query;
    return app.answers.send(request, reply, {
      key: `history:${tid}:${limit}:${before ?? ''}`,
      tournamentId: tid,
      build: () => resultHistory(app.store.db, tid, { limit, before }),
      schema: ResultHistorySchema,
    });
  });

  app.get(endpoints.pointsTableDay.url, { schema: endpoints.pointsTableDay.schema }, (request, reply) => {
    const tid = request.params.id;
    const { stage, group } = request.query;
    const day = request.query.day === 0 ? undefined : request.query.day;
    return app.answers.send(request, reply, {
      key: `points:${tid}:${day ?? 'overall'}:${stage ?? ''}:${group ?? ''}`,
      tournamentId: tid,
      build: () => pointsTable(app.store.db, tid, day, { stage, group }),
      schema: PointsTableSchema,
    });
  });

  app.get(endpoints.pointsBreakdown.url, { schema: endpoints.pointsBreakdown.schema }, (request, reply) => {
    const tid = request.params.id;
    const { stage, group } = request.query;
    const day = request.query.day === 0 ? undefined : request.query.day;
    return app.answers.send(request, reply, {
      key: `breakdown:${tid}:${day ?? 'overall'}:${stage ?? ''}:${group ?? ''}`,
      tournamentId: tid,
      build: () => pointsBreakdown(app.store.db, tid, day, { stage, group }),
      schema: PointsBreakdownSchema,
    });
  });

  app.get(endpoints.pointsTableDays.url, { schema: endpoints.pointsTableDays.schema }, (request, reply) => {
    const tid = request.params.id;
    const { stage, group } = request.query;
    return app.answers.send(request, reply, {
      key: `days:${tid}:${stage ?? ''}:${group ?? ''}`,
      tournamentId: tid,
      build: () => pointsDays(app.store.db, tid, { stage, group }),
      schema: PointsDaysSchema,
    });
  });

  app.get(endpoints.pointsTableOverall.url, { schema: endpoints.pointsTableOverall.schema }, (request, reply) => {
    const tid = request.params.id;
    const { stage, group } = request.query;
    return app.answers.send(request, reply, {
      key: `points:${tid}:overall:${stage ?? ''}:${group ?? ''}`,
      tournamentId: tid,
      build: () => pointsTable(app.store.db, tid, undefined, { stage, group }),
      schema: PointsTableSchema,
    });
  });
};

export default routes;
