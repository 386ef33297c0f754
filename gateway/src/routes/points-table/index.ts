import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import results from './results.js';
import tables from './tables.js';

/** Points tables (decision 041): the admin's results writes, then the public tables and history. */
const routes: FastifyPluginAsyncZod = async (app) => {
  await app.register(results);
  await app.register(tables);
};

export default routes;
