import { sql } from 'kysely';
import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

const routes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/healthz',
    {
      schema: {
        tags: ['operations'],
        summary: 'Liveness, database reachability, and whether writes are being stored',
        description:
          '503 unavailable: the database does not answer. 503 degraded: a write failed because the storage is full or failing; ' +
          'reads still work, and the health is ok again once a write succeeds (this call tries one while degraded).',
        response: {
          200: z.object({ status: z.literal('ok') }),
          503: z.union([
            z.object({ status: z.literal('unavailable'), message: z.string() }),
            z.object({ status: z.literal('degraded'), message: z.string(), since: z.string(), code: z.string() }),
          ]),
        },
      },
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
        const fault = app.store.storageFault() ?? { since: new Date().toISOString(), code: 'unknown' };
        request.log.error({ fault }, 'health check: writes fail (storage full or failing)');
        return reply.status(503).send({ status: 'degraded' as const, message: 'The server cannot save: its storage is full or failing. Reads still work.', ...fault });
      }
      return { status: 'ok' as const };
    },
  );

  app.get(
    '/.well-known/jwks.json',
    { schema: { tags: ['operations'], summary: 'Public keys that verify the gateway\'s tokens' } },
    async (_request, reply) => {
      reply.header('cache-control', 'public, max-age=300');
      return app.tokens.jwks();
    },
  );
};

export default routes;
