import type { FastifyInstance } from 'fastify';
import authRoutes from './auth/index.js';
import generationRoutes from './generation/index.js';
import healthRoutes from './health/index.js';
import imageRoutes from './images/index.js';
import matchRoutes from './matches/index.js';
import moneyRoutes from './money/index.js';
import notificationRoutes from './notifications/index.js';
import organiserRoutes from './organisers/index.js';
import pointsRoutes from './points-table/index.js';
import profileRoutes from './profile/index.js';
import registrationRoutes from './registrations/index.js';
import reportRoutes from './reports/index.js';
import shareImageRoutes from './share-images/index.js';
import emptySlotRoutes from './stages/empty-slots.js';
import stageRoutes from './stages/index.js';
import tournamentRoutes from './tournaments/index.js';

/** Every call of the contract's endpoint table, one plugin per route folder. */
export async function registerRoutes(app: FastifyInstance): Promise<void> {
  await app.register(healthRoutes);
  await app.register(generationRoutes);
  await app.register(authRoutes);
  await app.register(profileRoutes);
  await app.register(tournamentRoutes);
  await app.register(imageRoutes);
  await app.register(pointsRoutes);
  await app.register(shareImageRoutes);
  await app.register(registrationRoutes);
  await app.register(matchRoutes);
  await app.register(stageRoutes);
  await app.register(emptySlotRoutes); // decision 052
  await app.register(notificationRoutes);
  await app.register(organiserRoutes); // issue 29
  await app.register(reportRoutes); // issue 30
  await app.register(moneyRoutes); // issue 31
}
