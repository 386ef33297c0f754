import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { endpoints } from '@custom-room/contract';
import { currentUser } from '../../plugins/auth.js';
import { liveTournamentOr404 } from '../../services/live-tournament.js';
import { myRegistrations, myTeam, tournamentRegistrations } from '../../services/registrations/lists.js';

/** The lists of teams: the player's own, the organiser's of a tournament, and the player's team in one. */
const routes: FastifyPluginAsyncZod = async (app) => {
  app.get(endpoints.myRegistrations.url, { schema: endpoints.myRegistrations.schema }, async (request, reply) => {
    const user = currentUser(request);
    reply.header('cache-control', 'private, no-store');
    return myRegistrations(app, user.id);
  });

  app.get(endpoints.tournamentRegistrations.url, { schema: endpoints.tournamentRegistrations.schema }, async (request, reply) => {
    const tournament = await liveTournamentOr404(app.store.db, request.params.tournamentId);
    reply.header('cache-control', 'private, no-store');
    return tournamentRegistrations(app, tournament);
  });

  app.get(endpoints.myTeam.url, { schema: endpoints.myTeam.schema }, async (request, reply) => {
    const answer = await myTeam(app, request.params.tournamentId, currentUser(request).id);
    reply.header('cache-control', 'private, no-store');
    return answer;
  });
};

export default routes;
