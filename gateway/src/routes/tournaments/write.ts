import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { endpoints, TOURNAMENT_DELETED } from '@custom-room/contract';
import { currentUser } from '../../plugins/auth.js';
import { liveTournamentOr404 } from '../../services/live-tournament.js';
import { createTournament, deleteTournament, editTournament, tournamentJsonOr404 } from '../../services/tournaments.js';
import { documentOnlyBody, multipartDocTransform, readTournamentForm, requireMultipart } from './upload.js';

/** The multipart body is parsed by the handler: Fastify only documents it (and refuses other content types before reading it). */
const multipartRoute = () => ({
  onRequest: requireMultipart,
  validatorCompiler: documentOnlyBody,
  config: { swaggerTransform: multipartDocTransform },
});

/** The organiser's tournament writes: add and edit (multipart, with a cover), and delete. */
const writeRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(endpoints.addTournament.url, { ...multipartRoute(), schema: endpoints.addTournament.schema }, async (request) => {
    const { form, cover } = await readTournamentForm(request);
    const id = await createTournament(app, form, cover, currentUser(request));
    return tournamentJsonOr404(app, id); // 404 when deleted in the blink since the insert
  });

  app.put(endpoints.updateTournament.url, { ...multipartRoute(), schema: endpoints.updateTournament.schema }, async (request) => {
    const { id } = request.params;
    const { form, cover } = await readTournamentForm(request, () => liveTournamentOr404(app.store.db, id));
    await editTournament(app, id, form, cover);
    return tournamentJsonOr404(app, id);
  });

  // The spec's path has no slash before the id: /tournaments/admin/delete42.
  app.delete(endpoints.deleteTournament.url, { schema: endpoints.deleteTournament.schema }, async (request) => {
    await deleteTournament(app, request.params.id);
    return { message: TOURNAMENT_DELETED };
  });
};

export default writeRoutes;
