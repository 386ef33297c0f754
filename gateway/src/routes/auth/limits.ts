import type { RateLimitOptions } from '@fastify/rate-limit';
import type { FastifyContextConfig, FastifyInstance, FastifyRequest, onRequestHookHandler } from 'fastify';
import { tooManyRequests } from '../../lib/errors.js';

/** Per-route rate limit; the hook runs after body validation when the key needs the body. */
export function rateLimit(
  app: FastifyInstance,
  max: number,
  keyGenerator: (request: FastifyRequest) => string,
  hook: RateLimitOptions['hook'] = 'preHandler',
): FastifyContextConfig {
  if (!app.config.RATE_LIMIT) return {};
  return { rateLimit: { max, timeWindow: app.config.RATE_LIMIT_WINDOW_SECONDS * 1000, keyGenerator, hook } };
}

/**
 * A further limit for a route that already has one: the plugin runs only one of its own hooks per
 * request, so this one counts through createRateLimit and answers 429 itself, in the same words.
 */
export function extraRateLimit(
  app: FastifyInstance,
  max: number,
  keyGenerator: (request: FastifyRequest) => string,
): onRequestHookHandler[] {
  if (!app.config.RATE_LIMIT) return [];
  const count = app.createRateLimit({ max, timeWindow: app.config.RATE_LIMIT_WINDOW_SECONDS * 1000, keyGenerator });
  return [
    async (request, reply) => {
      const result = await count(request);
      if (result.isAllowed || !result.isExceeded) return;
      reply.header('retry-after', result.ttlInSeconds);
      throw tooManyRequests(result.ttlInSeconds);
    },
  ];
}
