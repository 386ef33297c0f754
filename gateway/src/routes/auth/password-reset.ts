import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { endpoints } from '@custom-room/contract';
import { MESSAGES, resetPassword, sendPasswordReset } from '../../services/auth.js';
import { extraRateLimit, rateLimit } from './limits.js';

/** Asking for a reset link by mail, and setting a new password with it (decision 030). */
const passwordResetRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    endpoints.requestPasswordReset.url,
    {
      schema: endpoints.requestPasswordReset.schema,
      // Per client, counted before the body is read: one address cannot mail a long list of people.
      onRequest: extraRateLimit(app, app.config.RATE_LIMIT_RESET_CLIENT_MAX, (request) => `reset-client:${request.ip}`),
      // Per email, from any address: rotating addresses cannot flood one mailbox (or keep voiding its link).
      config: rateLimit(app, app.config.RATE_LIMIT_RESET_MAX, (request) => {
        const { email } = request.body as { email: string };
        return `reset:${email}`;
      }),
    },
    async (request, reply) => {
      // Decision 030: the answer leaves before any work whose cost depends on whether the account exists.
      app.afterAnswer.run(reply, () => sendPasswordReset(app, request.body.email, request.log));
      return reply.status(202).send({ message: MESSAGES.resetRequested });
    },
  );

  app.post(endpoints.confirmPasswordReset.url, { schema: endpoints.confirmPasswordReset.schema }, async (request) => {
    await resetPassword(app, request.body.token, request.body.password);
    return { message: MESSAGES.resetDone };
  });
};

export default passwordResetRoutes;
