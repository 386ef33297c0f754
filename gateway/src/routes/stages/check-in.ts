import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { endpoints } from '@custom-room/contract';
import { currentUser } from '../../plugins/auth.js';
import { checkIn, listCheckIns, resolveNoShows } from '../../services/stages/check-in.js';
import { findStageOr404 } from '../../services/stages/stage.js';
import { assertWholeStageInScope, scopeCheckIns } from '../../services/standing.js';

/** Decision 043: a team's check-in, the stage's check-in list, and the no-shows decision. */
const routes: FastifyPluginAsyncZod = async (app) => {
  app.post(endpoints.checkIn.url, { schema: endpoints.checkIn.schema }, async (request) => {
    const { id: tid, stageId } = request.params;
    return checkIn(app, tid, stageId, currentUser(request).id);
  });

  app.get(endpoints.stageCheckIns.url, { schema: endpoints.stageCheckIns.schema }, async (request, reply) => {
    const { id: tid, stageId } = request.params;
    const found = await findStageOr404(app.store.db, tid, stageId);
    reply.header('cache-control', 'private, no-store'); // on the 404 of a stage without a window too
    return scopeCheckIns(app.store.db, request.standing, stageId, await listCheckIns(app, found));
  });

  app.post(endpoints.resolveNoShows.url, { schema: endpoints.resolveNoShows.schema }, async (request) => {
    const { id: tid, stageId } = request.params;
    assertWholeStageInScope(request.standing, stageId);
    return resolveNoShows(app, tid, stageId, request.body.action);
  });
};

export default routes;
