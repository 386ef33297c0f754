import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { endpoints } from '@custom-room/contract';
import { setStageRooms } from '../../services/stages/rooms.js';
import { scheduleStage } from '../../services/stages/schedule.js';
import { assertMatchesInScope } from '../../services/standing.js';

/** A stage's match schedule, and the rooms of its group matches. */
const routes: FastifyPluginAsyncZod = async (app) => {
  app.post(endpoints.scheduleStage.url, { schema: endpoints.scheduleStage.schema }, async (request) => {
    const { id: tid, stageId } = request.params;
    return scheduleStage(app, tid, stageId, request.body);
  });

  app.put(endpoints.setStageRooms.url, { schema: endpoints.setStageRooms.schema }, async (request) => {
    const { id: tid, stageId } = request.params;
    await assertMatchesInScope(
      app.store.db,
      request.standing,
      tid,
      request.body.rooms.map((r) => r.id),
    );
    return setStageRooms(app, tid, stageId, request.body);
  });
};

export default routes;
