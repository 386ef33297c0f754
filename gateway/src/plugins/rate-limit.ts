import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance } from 'fastify';

/** The limiter the login, register and password-reset routes use (each names its own limit); RATE_LIMIT=off only for load tests. */
export async function limitRates(app: FastifyInstance): Promise<void> {
  if (!app.config.RATE_LIMIT) {
    app.log.warn('RATE_LIMIT=off: login, register and password-reset requests are NOT rate-limited. Use this only for load tests.');
    return;
  }
  await app.register(rateLimit, {
    global: false,
    errorResponseBuilder: (_req, context) => ({
      statusCode: 429,
      message: `Too many attempts. Please wait ${Math.ceil(context.ttl / 1000)} seconds and try again.`,
    }),
  });
}
