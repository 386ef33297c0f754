import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { endpoints } from '@custom-room/contract';
import { currentUser } from '../../plugins/auth.js';
import { previewAdvance } from '../../services/stages/advance.js';
import { completeStage } from '../../services/stages/complete.js';
import { publishStage, reopenStage } from '../../services/stages/lifecycle.js';

/** A stage's life: published, its advance previewed, completed, reopened. */
const routes: FastifyPluginAsyncZod = async (app) => {
  app.post(endpoints.publishStage.url, { schema: endpoints.publishStage.schema }, async (request) => {
    const { id: tid, stageId } = request.params;
    return publishStage(app, tid, stageId);
  });

  app.get(endpoints.stageAdvance.url, { schema: endpoints.stageAdvance.schema }, async (request) => {
    const { id: tid, stageId } = request.params;
    return previewAdvance(app, tid, stageId);
  });

  app.post(endpoints.completeStage.url, { schema: endpoints.completeStage.schema }, async (request) => {
    const { id: tid, stageId } = request.params;
    return completeStage(app, tid, stageId, request.body?.notPlayed ?? [], currentUser(request).username);
  });

  app.post(endpoints.reopenStage.url, { schema: endpoints.reopenStage.schema }, async (request) => {
    const { id: tid, stageId } = request.params;
    return reopenStage(app, tid, stageId);
  });
};

export default routes;
