import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import listRoutes from './lists.js';
import organiserRoutes from './organiser.js';
import paymentRoutes from './payments.js';
import { registerRoute, updateRoute, withdrawRoute } from './team.js';

/**
 * A tournament's teams, by sub-resource: the captain's team (team.ts), the lists (lists.ts), payments
 * (payments.ts) and the organiser's actions on a team (organiser.ts). Each handler parses, calls
 * services/registrations and answers; the access hook has checked who may call. Registered in this
 * order so the OpenAPI document lists the calls as before.
 */
const routes: FastifyPluginAsyncZod = async (app) => {
  await app.register(registerRoute);
  await app.register(listRoutes);
  await app.register(updateRoute);
  await app.register(paymentRoutes);
  await app.register(withdrawRoute);
  await app.register(organiserRoutes);
};

export default routes;
