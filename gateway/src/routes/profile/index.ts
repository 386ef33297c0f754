import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ErrorSchema } from '../../schemas/common.js';
import { ProfileBodySchema, ProfileSchema } from '../../schemas/profile.js';
import { isUniqueViolation } from '../../db/index.js';
import { getProfile, insertProfile, updateProfile } from '../../db/profiles.js';
import { conflict, notFound } from '../../lib/errors.js';
import { currentUser, requireUser } from '../../plugins/auth.js';

export const NO_PROFILE = 'No Profile Found';
export const PROFILE_EXISTS = 'You already have a profile.';

// There is no id in these paths: every call reads or writes the caller's own profile only.
const routes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.store;
  const secured = { tags: ['profile'], security: [{ bearerAuth: [] }] };

  app.get(
    '/api/profile/get',
    {
      onRequest: requireUser,
      schema: { ...secured, summary: 'The caller\'s profile', response: { 200: ProfileSchema, 401: ErrorSchema, 404: ErrorSchema } },
    },
    async (request) => {
      const profile = await getProfile(db, currentUser(request).id);
      if (!profile) throw notFound(NO_PROFILE);
      return profile;
    },
  );

  app.post(
    '/api/profile/create',
    {
      onRequest: requireUser,
      schema: {
        ...secured,
        summary: 'Create the caller\'s profile (one per account)',
        body: ProfileBodySchema,
        response: { 201: ProfileSchema, 400: ErrorSchema, 401: ErrorSchema, 409: ErrorSchema },
      },
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
    '/api/profile/update',
    {
      onRequest: requireUser,
      schema: {
        ...secured,
        summary: 'Replace the caller\'s profile',
        description: 'The whole profile is replaced: optional fields left out become "".',
        body: ProfileBodySchema,
        response: { 200: ProfileSchema, 400: ErrorSchema, 401: ErrorSchema, 404: ErrorSchema },
      },
    },
    async (request) => {
      const profile = await updateProfile(db, currentUser(request).id, request.body);
      if (!profile) throw notFound(NO_PROFILE);
      return profile;
    },
  );
};

export default routes;
