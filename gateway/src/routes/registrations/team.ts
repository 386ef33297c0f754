import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { endpoints } from '@custom-room/contract';
import { currentUser } from '../../plugins/auth.js';
import { createRegistrar } from '../../services/registrations/register.js';
import { updateTeam, withdrawTeam } from '../../services/registrations/team.js';

/** The captain's own team: register it (or join the waitlist), edit it, withdraw it. */

export const registerRoute: FastifyPluginAsyncZod = async (app) => {
  const registrar = createRegistrar(app);
  app.post(endpoints.registerTeam.url, { schema: endpoints.registerTeam.schema }, async (request, reply) => {
    const { waitlist = false, ...team } = request.body;
    const answer = await registrar.register(request.params.tournamentId, currentUser(request).id, team, waitlist);
    return reply.status(201).send(answer);
  });
};

export const updateRoute: FastifyPluginAsyncZod = async (app) => {
  app.put(endpoints.updateTeam.url, { schema: endpoints.updateTeam.schema }, async (request) =>
    updateTeam(app, request.params.tournamentId, currentUser(request).id, request.body),
  );
};

export const withdrawRoute: FastifyPluginAsyncZod = async (app) => {
  app.post(endpoints.withdrawTeam.url, { schema: endpoints.withdrawTeam.schema }, async (request) =>
    withdrawTeam(app, request.params.tournamentId, currentUser(request).id),
  );
};
