import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

const routes: FastifyPluginAsyncZod = async (_app) => {
  // TODO(issue 2): routes of profile.
};

export default routes;
