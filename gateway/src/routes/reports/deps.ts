import type { FastifyInstance } from 'fastify';
import type { CheckDeps } from '../../services/reports/lookalikes.js';
import type { ReportDeps } from '../../services/reports/team.js';

/**
 * The reports' services need the app's zone besides the store and the clock, and the screenshot
 * comparisons a quiet moment to run in (decision 077).
 */
export const reportDeps = (app: FastifyInstance): ReportDeps & Required<CheckDeps> => ({
  get store() {
    return app.store;
  },
  get clock() {
    return app.clock;
  },
  timeZone: app.config.APP_TIME_ZONE,
  quiet: (capMs: number) => app.afterAnswer.quiet(capMs),
});
