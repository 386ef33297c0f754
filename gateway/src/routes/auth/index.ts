import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { endpoints } from '@custom-room/contract';
import { dummyPasswordHash } from '../../lib/passwords.js';
import { currentUser } from '../../plugins/auth.js';
import { accountOf, MESSAGES, registerAccount } from '../../services/auth.js';
import { rateLimit } from './limits.js';
import passwordResetRoutes from './password-reset.js';
import sessionRoutes from './sessions.js';

/** Accounts: registering and the signed-in account; sessions and password resets beside (one file each). */
const routes: FastifyPluginAsyncZod = async (app) => {
  await dummyPasswordHash(); // computed once up front so the first unknown-account login is not measurably slower

  app.post(
    endpoints.register.url,
    {
      schema: endpoints.register.schema,
      config: rateLimit(app, app.config.RATE_LIMIT_REGISTER_MAX, (request) => `register:${request.ip}`, 'onRequest'),
    },
    async (request, reply) => {
      await registerAccount(app, request.body);
      return reply.status(201).send({ message: MESSAGES.registered, username: request.body.username });
    },
  );

  await app.register(sessionRoutes);

  app.get(endpoints.me.url, { schema: endpoints.me.schema }, async (request) => accountOf(app, currentUser(request).id));

  await app.register(passwordResetRoutes);
};

export default routes;
