import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { endpoints, NO_PROFILE } from '@custom-room/contract';
import { getProfile } from '../../db/profiles.js';
import { notFound } from '../../lib/errors.js';
import { currentUser } from '../../plugins/auth.js';
import { createProfile, replaceProfile } from '../../services/profile.js';

// There is no id in these paths: every call reads or writes the caller's own profile only.
const routes: FastifyPluginAsyncZod = async (app) => {
  app.get(endpoints.getProfile.url, { schema: endpoints.getProfile.schema }, async (request) => {
    const profile = await getProfile(app.store.db, currentUser(request).id);
    if (!profile) throw notFound(NO_PROFILE);
    return profile;
  });

  app.post(endpoints.createProfile.url, { schema: endpoints.createProfile.schema }, async (request, reply) =>
    reply.status(201).send(await createProfile(app, currentUser(request).id, request.body)),
  );

  app.put(endpoints.updateProfile.url, { schema: endpoints.updateProfile.schema }, async (request) =>
    replaceProfile(app, currentUser(request).id, request.body),
  );
};

export default routes;
