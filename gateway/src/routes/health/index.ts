import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { sql } from 'kysely';
import { endpoints } from '@custom-room/contract';
import { isoAt } from '../../lib/clock.js';

const routes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    endpoints.health.url,
    {
      schema: endpoints.health.schema,
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      try {
        await sql`select 1`.execute(app.store.db);
      } catch (err) {
        request.log.error({ err }, 'health check: database unreachable');
        return reply.status(503).send({ status: 'unavailable' as const, message: 'The database is unreachable.' });
      }
      // Writes failed for lack of space: see whether they work again before saying ok (decision 032).
      if (app.store.storageFault() && !(await app.store.probeWrite().catch(() => false))) {
        const fault = app.store.storageFault() ?? { since: isoAt(app.clock.now()), code: 'unknown' };
        request.log.error({ fault }, 'health check: writes fail (storage full or failing)');
        return reply.status(503).send({
          status: 'degraded' as const,
          message: 'The server cannot save: its storage is full or failing. Reads still work.',
          ...fault,
        });
      }
      return { status: 'ok' as const };
    },
  );

  app.get(endpoints.jwks.url, { schema: endpoints.jwks.schema }, async (_request, reply) => {
    reply.header('cache-control', 'public, max-age=300');
    return app.tokens.jwks();
  });
};

export default routes;
