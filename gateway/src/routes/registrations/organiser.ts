import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { endpoints } from '@custom-room/contract';
import { allowReturn, takeTeamOut } from '../../services/registrations/organiser.js';

/** The organiser's actions on one team (decisions 043, 052): release it, remove it, or let a removed team back. */
const routes: FastifyPluginAsyncZod = async (app) => {
  app.post(endpoints.releaseTeam.url, { schema: endpoints.releaseTeam.schema }, (request) =>
    takeTeamOut(app, request.params.rid, 'release'),
  );
  app.post(endpoints.removeTeam.url, { schema: endpoints.removeTeam.schema }, (request) => takeTeamOut(app, request.params.rid, 'remove'));
  app.post(endpoints.allowReturn.url, { schema: endpoints.allowReturn.schema }, (request) => allowReturn(app, request.params.rid));
};

export default routes;
