import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { endpoints } from '@custom-room/contract';
import { deleteSession } from '../../db/sessions.js';
import { tooManyRequests } from '../../lib/errors.js';
import { currentUser } from '../../plugins/auth.js';
import { logIn, logOutEverywhere, MESSAGES } from '../../services/auth.js';
import { rateLimit } from './limits.js';

/** Logging in and out (decisions 019, 022). */
const sessionRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    endpoints.login.url,
    {
      schema: endpoints.login.schema,
      // A ceiling on all attempts from one address, counted before the body is read (argon2 work per attempt).
      config: rateLimit(app, app.config.RATE_LIMIT_LOGIN_MAX, (request) => `login:${request.ip}`, 'onRequest'),
    },
    async (request, reply) => {
      const outcome = await logIn(app, { ...request.body, address: request.ip });
      if ('lockedForSeconds' in outcome) {
        reply.header('retry-after', outcome.lockedForSeconds);
        throw tooManyRequests(outcome.lockedForSeconds);
      }
      return outcome;
    },
  );

  app.post(endpoints.logout.url, { schema: endpoints.logout.schema }, async (request) => {
    await deleteSession(app.store.db, currentUser(request).sid);
    return { message: MESSAGES.loggedOut };
  });

  app.post(endpoints.logoutAll.url, { schema: endpoints.logoutAll.schema }, async (request) => {
    await logOutEverywhere(app, currentUser(request).id);
    return { message: MESSAGES.loggedOutEverywhere };
  });
};

export default sessionRoutes;
