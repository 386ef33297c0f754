import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

export const GenerationSchema = z.object({
  generation: z.string().describe('Opaque; compare for equality only'),
});

/** Decision 023: the web app's page cache asks this before reusing a page it rendered. */
const routes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/generation',
    {
      schema: {
        tags: ['operations'],
        summary: 'The cache generation: changes whenever a public answer may have changed',
        description: [
          'An opaque string. It changes with every write that can change an anonymous answer of GET /tournaments,',
          'GET /tournaments/{id}, the points tables (day and overall) or GET /matches/tournament/{tid}: tournaments',
          'created, edited (status included) or deleted; teams registered or renamed; results recorded; matches created or edited.',
          'Strict: a value read after any write\'s response was sent (by any gateway process on the same database) differs',
          'from every value read before that write. Equal values mean those answers are unchanged. Compare for equality only:',
          'the format is not part of the contract. Not cacheable (Cache-Control: no-store); cheap (concurrent calls share one',
          'database round trip on PostgreSQL, none at all on SQLite while nothing was written).',
        ].join(' '),
        response: { 200: GenerationSchema },
      },
    },
    async (_request, reply) => {
      reply.header('cache-control', 'no-store');
      return { generation: (await app.store.generation()).value };
    },
  );
};

export default routes;
