import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { endpoints } from '@custom-room/contract';
import { inviteTeam, listEntrants, removeInvite } from '../../services/stages/entrants.js';

/** A stage's entrants, and the teams invited to a later stage. */
const routes: FastifyPluginAsyncZod = async (app) => {
  app.get(endpoints.stageEntrants.url, { schema: endpoints.stageEntrants.schema }, async (request) => {
    const { id: tid, stageId } = request.params;
    return listEntrants(app, tid, stageId);
  });

  app.post(endpoints.inviteTeam.url, { schema: endpoints.inviteTeam.schema }, async (request) => {
    const { id: tid, stageId } = request.params;
    const { teamId, checkIn } = request.body;
    return inviteTeam(app, tid, stageId, teamId, checkIn);
  });

  app.delete(endpoints.removeInvite.url, { schema: endpoints.removeInvite.schema }, async (request) => {
    const { id: tid, stageId, teamId } = request.params;
    return removeInvite(app, tid, stageId, teamId);
  });
};

export default routes;
