import { sql } from 'kysely';
import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

const routes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/healthz',
    {
      schema: {
        tags: ['operations'],
        summary: 'Liveness and database reachability',
        response: { 200: z.object({ status: z.literal('ok') }), 503: z.object({ status: z.literal('unavailable'), message: z.string() }) },
      },
    },
    async (request, reply) => {
      try {
        await sql`select 1`.execute(app.store.db);
        return { status: 'ok' as const };
      } catch (err) {
        request.log.error({ err }, 'health check: database unreachable');
        return reply.status(503).send({ status: 'unavailable' as const, message: 'The database is unreachable.' });
      }
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
