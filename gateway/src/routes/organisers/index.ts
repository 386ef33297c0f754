import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { endpoints } from '@custom-room/contract';
import { currentUser, optionalUser } from '../../plugins/auth.js';
import { activityOf } from '../../services/activity.js';
import { announcementsOf, postAnnouncement } from '../../services/announcements.js';
import { liveTournamentOr404 } from '../../services/live-tournament.js';
import { applyOrganiser, decideOrganiser, organiserPage, organisersList } from '../../services/organisers.js';
import { acceptInvitation, deskOfUser, inviteStaff, removeStaff, staffList, standingJson } from '../../services/staff.js';
import updateRoute from './update.js';

/** Issue 29 (decision 065): organisers, their pages, their tournaments' crews and activity. */
const routes: FastifyPluginAsyncZod = async (app) => {
  app.get(endpoints.listOrganisers.url, { schema: endpoints.listOrganisers.schema }, async (request, reply) => {
    const status = request.query.status;
    const user = status ? await optionalUser(request) : null;
    if (status) reply.header('cache-control', 'private, no-store');
    return organisersList(app, user, status);
  });

  app.post(endpoints.applyOrganiser.url, { schema: endpoints.applyOrganiser.schema }, async (request, reply) =>
    reply.status(201).send(await applyOrganiser(app, currentUser(request), request.body)),
  );

  app.get(endpoints.getOrganiser.url, { schema: endpoints.getOrganiser.schema }, async (request, reply) => {
    const user = request.headers.authorization ? await optionalUser(request) : null;
    reply.header('cache-control', user ? 'private, no-store' : 'public, max-age=0, must-revalidate');
    return organiserPage(app, request.params.slug, user);
  });

  await app.register(updateRoute); // JSON or multipart with a logo (decision 068)

  app.post(endpoints.decideOrganiser.url, { schema: endpoints.decideOrganiser.schema }, async (request) =>
    decideOrganiser(app, request.params.slug, currentUser(request), request.body.decision),
  );

  app.get(endpoints.desk.url, { schema: endpoints.desk.schema }, async (request, reply) => {
    reply.header('cache-control', 'private, no-store');
    return deskOfUser(app, currentUser(request));
  });

  app.get(endpoints.myStanding.url, { schema: endpoints.myStanding.schema }, async (request, reply) => {
    reply.header('cache-control', 'private, no-store');
    return standingJson(app, currentUser(request), request.params.id);
  });

  app.get(endpoints.listStaff.url, { schema: endpoints.listStaff.schema }, async (request, reply) => {
    reply.header('cache-control', 'private, no-store');
    return staffList(app, request.params.id);
  });

  app.post(endpoints.inviteStaff.url, { schema: endpoints.inviteStaff.schema }, async (request, reply) =>
    reply.status(201).send(await inviteStaff(app, currentUser(request), request.params.id, request.body)),
  );

  app.delete(endpoints.removeStaff.url, { schema: endpoints.removeStaff.schema }, async (request) => {
    await removeStaff(app, currentUser(request), request.params.id, request.params.userId);
    return { message: 'Removed from the crew.' };
  });

  app.post(endpoints.acceptInvitation.url, { schema: endpoints.acceptInvitation.schema }, async (request) =>
    acceptInvitation(app, currentUser(request), request.params.token),
  );

  app.get(endpoints.tournamentActivity.url, { schema: endpoints.tournamentActivity.schema }, async (request, reply) => {
    reply.header('cache-control', 'private, no-store');
    await liveTournamentOr404(app.store.db, request.params.id);
    return activityOf(app.store.db, request.params.id);
  });

  app.get(endpoints.listAnnouncements.url, { schema: endpoints.listAnnouncements.schema }, async (request) =>
    announcementsOf(app, request.params.id),
  );

  app.post(endpoints.postAnnouncement.url, { schema: endpoints.postAnnouncement.schema }, async (request, reply) =>
    reply.status(201).send(await postAnnouncement(app, currentUser(request), request.standing, request.params.id, request.body)),
  );
};

export default routes;
