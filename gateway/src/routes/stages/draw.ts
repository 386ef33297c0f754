import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { endpoints } from '@custom-room/contract';
import { drawGroups, moveSlot } from '../../services/stages/draw.js';

/** Drawing a stage's groups, and moving teams between its slots. */
const routes: FastifyPluginAsyncZod = async (app) => {
  app.post(endpoints.drawGroups.url, { schema: endpoints.drawGroups.schema }, async (request) => {
    const { id: tid, stageId } = request.params;
    return drawGroups(app, tid, stageId, request.body);
  });

  app.post(endpoints.moveSlot.url, { schema: endpoints.moveSlot.schema }, async (request) => {
    const { id: tid, stageId } = request.params;
    return moveSlot(app, tid, stageId, request.body);
  });
};

export default routes;
