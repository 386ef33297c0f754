import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import checkInRoutes from './check-in.js';
import drawRoutes from './draw.js';
import entrantRoutes from './entrants.js';
import lifecycleRoutes from './lifecycle.js';
import scheduleRoutes from './schedule.js';
import stageRoutes from './stages.js';

/**
 * Decision 041: a tournament's stages, groups and slots, by sub-resource. Each handler parses, calls
 * services/stages and answers; the access hook has checked who may call (the endpoint table says).
 * Registered in this order so the OpenAPI document lists the calls as before. empty-slots.ts is
 * registered by app.ts.
 */
const routes: FastifyPluginAsyncZod = async (app) => {
  await app.register(stageRoutes);
  await app.register(entrantRoutes);
  await app.register(drawRoutes);
  await app.register(lifecycleRoutes);
  await app.register(scheduleRoutes);
  await app.register(checkInRoutes);
};

export default routes;
