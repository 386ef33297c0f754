import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { endpoints, StageSchema } from '@custom-room/contract';
import { isAdmin, optionalUser } from '../../plugins/auth.js';
import { stagesJson } from '../../services/stages/json.js';
import { createStage, removeStage, updateStage } from '../../services/stages/settings.js';
import { standingOn } from '../../services/standing.js';

/** The stage list, and adding, changing and deleting a stage. */
const routes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    endpoints.listStages.url,
    { schema: endpoints.listStages.schema },
    async (request: FastifyRequest<{ Params: { id: number } }>, reply) => {
      const tid = request.params.id;
      const user = request.headers.authorization ? await optionalUser(request) : null;
      // Site admins and the tournament's crew see its draft stages too (decision 065).
      if (user && (isAdmin(user) || (await standingOn(app.store.db, user.id, tid)))) {
        reply.header('cache-control', 'private, no-store');
        return stagesJson(app.store.db, tid, true);
      }
      return app.answers.send(request, reply, {
        key: `stages:${tid}`,
        tournamentId: tid,
        personal: true,
        build: () => stagesJson(app.store.db, tid, false),
        schema: StageSchema.array(),
      });
    },
  );

  app.post(endpoints.createStage.url, { schema: endpoints.createStage.schema }, async (request, reply) => {
    return reply.status(201).send(await createStage(app, request.params.id, request.body));
  });

  app.put(endpoints.updateStage.url, { schema: endpoints.updateStage.schema }, async (request) => {
    const { id: tid, stageId } = request.params;
    return updateStage(app, tid, stageId, request.body);
  });

  app.delete(endpoints.deleteStage.url, { schema: endpoints.deleteStage.schema }, async (request) => {
    const { id: tid, stageId } = request.params;
    return removeStage(app, tid, stageId);
  });
};

export default routes;
