import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { endpoints } from '@custom-room/contract';

/** Decision 023: the web app's page cache asks this before reusing a page it rendered. */
const routes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    endpoints.generation.url,
    {
      schema: endpoints.generation.schema,
    },
    async (_request, reply) => {
      reply.header('cache-control', 'no-store');
      return { generation: (await app.store.generation()).value };
    },
  );
};

export default routes;
