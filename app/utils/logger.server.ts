import { pino } from 'pino';

/**
 * The web app's one logger (decision 036): JSON lines like the gateway's, with the level as a word
 * (`"level":"warn"`) so a log grep needs no table. The web server (server/) logs its access lines
 * through this same instance, and every line about a request carries `reqId`, the id the gateway logs
 * for the calls made for that request.
 */
export const logger = pino({
  level: process.env.LOG_LEVEL || 'info',
  base: { name: 'web' },
  formatters: { level: (label) => ({ level: label }) },
});
