import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  endpoints,
  PointsBreakdownSchema,
  PlayerStatsSchema,
  PointsDaysSchema,
  type PointsDays,
  PointsTableSchema,
  RESULT_HISTORY_LIMIT,
  ResultHistorySchema,
} from '@custom-room/contract';
import type { CachedAnswer } from '../../lib/response-cache.js';
import { playerStats } from '../../services/points/players.js';
import { pointsBreakdown, pointsDays, pointsTable, provisionalEnds, type TableScope } from '../../services/points/tables.js';
import { resultHistory } from '../../services/results/history.js';

/**
 * A table's cached answer, keyed by kind, tournament, day and scope: day 0 (or none, the overall
 * table's call) is the overall table, so the day call's ?day=0 and the overall call share one answer.
 */
function tableAnswer(
  kind: string,
  tid: number,
  query: TableScope & { day?: number },
  schema: CachedAnswer['schema'],
  build: (day: number | undefined, scope: TableScope) => Promise<unknown>,
): CachedAnswer {
  const { stage, group } = query;
  const day = query.day === 0 ? undefined : query.day;
  return {
    key: `${kind}:${tid}:${day ?? 'overall'}:${stage ?? ''}:${group ?? ''}`,
    tournamentId: tid,
    build: () => build(day, { stage, group }),
    schema,
  };
}

/** The public tables: a day's, the overall one, their days and per-match breakdown, and the history of result edits. */
const routes: FastifyPluginAsyncZod = async (app) => {
  /** A day's table or the overall one (day 0 or none). */
  const pointsAnswer = (tid: number, query: TableScope & { day?: number }) =>
    tableAnswer('points', tid, query, PointsTableSchema, (day, scope) => pointsTable(app.store.db, tid, day, scope));

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

  app.get(endpoints.pointsTableDay.url, { schema: endpoints.pointsTableDay.schema }, (request, reply) =>
    app.answers.send(request, reply, pointsAnswer(request.params.id, request.query)),
  );

  app.get(endpoints.pointsBreakdown.url, { schema: endpoints.pointsBreakdown.schema }, (request, reply) => {
    const tid = request.params.id;
    const build = (day: number | undefined, scope: TableScope) => pointsBreakdown(app.store.db, tid, day, scope);
    return app.answers.send(request, reply, tableAnswer('breakdown', tid, request.query, PointsBreakdownSchema, build));
  });

  app.get(endpoints.pointsTableDays.url, { schema: endpoints.pointsTableDays.schema }, (request, reply) => {
    const tid = request.params.id;
    const { stage, group } = request.query;
    return app.answers.send(request, reply, {
      key: `days:${tid}:${stage ?? ''}:${group ?? ''}`,
      tournamentId: tid,
      build: () => pointsDays(app.store.db, tid, { stage, group }, app.clock.now()),
      schema: PointsDaysSchema,
      // Provisional marks end with their dispute window, not with a write: the answer is rebuilt then (decision 076).
      changesAt: (value) => provisionalEnds(value as PointsDays),
    });
  });

  // Issue 30: Top fraggers, each player's finishes in confirmed reports (the same scopes as the tables).
  app.get(endpoints.playerStats.url, { schema: endpoints.playerStats.schema }, (request, reply) => {
    const tid = request.params.id;
    const { stage, group } = request.query;
    return app.answers.send(request, reply, {
      key: `players:${tid}:${stage ?? ''}:${group ?? ''}`,
      tournamentId: tid,
      build: () => playerStats(app.store.db, tid, { stage, group }),
      schema: PlayerStatsSchema,
    });
  });

  app.get(endpoints.pointsTableOverall.url, { schema: endpoints.pointsTableOverall.schema }, (request, reply) =>
    app.answers.send(request, reply, pointsAnswer(request.params.id, request.query)),
  );
};

export default routes;
