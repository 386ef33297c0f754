import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { endpoints } from '@custom-room/contract';
import { emptySlots, fillSlot } from '../../services/stages/fill-slot.js';

/** Decision 052: a published stage's empty slots, and seating a team in one. */
const routes: FastifyPluginAsyncZod = async (app) => {
  app.get(endpoints.emptySlots.url, { schema: endpoints.emptySlots.schema }, async (request, reply) => {
    const { id: tid, stageId } = request.params;
    const answer = await emptySlots(app, tid, stageId);
    reply.header('cache-control', 'private, no-store');
    return answer;
  });

  app.post(endpoints.fillSlot.url, { schema: endpoints.fillSlot.schema }, async (request) => {
    const { id: tid, stageId } = request.params;
    return fillSlot(app, tid, stageId, request.body);
  });
};

export default routes;
