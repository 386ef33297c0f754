import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { endpoints } from '@custom-room/contract';
import { currentUser } from '../../plugins/auth.js';
import { changeMatch, createMatch } from '../../services/matches.js';
import { matchesForCaller, mySchedule } from '../../services/schedule.js';
import { reportDeps } from '../reports/deps.js';

const routes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    endpoints.listMatches.url,
    {
      schema: endpoints.listMatches.schema,
    },
    async (request, reply) => {
      const answer = await matchesForCaller(app.store, currentUser(request), request.params.tournamentId);
      // Room details must never sit in a shared cache.
      reply.header('cache-control', 'private, no-store');
      return answer;
    },
  );

  // Issue 32 (decision 087): the matches page's reads in one answer.
  app.get(endpoints.mySchedule.url, { schema: endpoints.mySchedule.schema }, async (request, reply) => {
    const answer = await mySchedule(reportDeps(app), currentUser(request), request.params.id);
    reply.header('cache-control', 'private, no-store');
    return answer;
  });

  app.post(endpoints.createMatch.url, { schema: endpoints.createMatch.schema }, async (request, reply) =>
    reply.status(201).send(await createMatch(app, request.body)),
  );

  app.put(endpoints.updateMatch.url, { schema: endpoints.updateMatch.schema }, async (request) =>
    changeMatch(app, request.params.id, request.body),
  );
};

export default routes;
