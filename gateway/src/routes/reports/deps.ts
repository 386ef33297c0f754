import type { FastifyInstance } from 'fastify';
import type { ReportDeps } from '../../services/reports/team.js';

/** The reports' services need the app's zone besides the store and the clock. */
export const reportDeps = (app: FastifyInstance): ReportDeps => ({
  get store() {
    return app.store;
  },
  get clock() {
    return app.clock;
  },
  timeZone: app.config.APP_TIME_ZONE,
});
