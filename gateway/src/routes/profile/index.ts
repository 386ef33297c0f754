import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { endpoints, NO_PROFILE, PROFILE_EXISTS } from '@custom-room/contract';
import { isUniqueViolation } from '../../db/index.js';
import { getProfile, insertProfile, updateProfile } from '../../db/profiles.js';
import { conflict, notFound } from '../../lib/errors.js';
import { currentUser } from '../../plugins/auth.js';

// There is no id in these paths: every call reads or writes the caller's own profile only.
const routes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.store;

  app.get(
    endpoints.getProfile.url,
    {
      schema: endpoints.getProfile.schema,
    },
    async (request) => {
      const profile = await getProfile(db, currentUser(request).id);
      if (!profile) throw notFound(NO_PROFILE);
      return profile;
    },
  );

  app.post(
    endpoints.createProfile.url,
    {
      schema: endpoints.createProfile.schema,
    },
    async (request, reply) => {
      try {
        const profile = await insertProfile(db, currentUser(request).id, request.body);
        return reply.status(201).send(profile);
      } catch (err) {
        if (isUniqueViolation(err)) throw conflict(PROFILE_EXISTS);
        throw err;
      }
    },
  );

  app.put(
    endpoints.updateProfile.url,
    {
      schema: endpoints.updateProfile.schema,
    },
    async (request) => {
      const profile = await updateProfile(db, currentUser(request).id, request.body);
      if (!profile) throw notFound(NO_PROFILE);
      return profile;
    },
  );
};

export default routes;
