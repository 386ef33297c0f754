import type { FastifyInstance } from 'fastify';

/** Decision 023: a successful answer is logged (at info) only when it took at least this long. */
export const SLOW_REQUEST_MS = 500;

/** One line per answer that is an error, a refusal or slow; every answer only at debug. */
export function logAnswers(app: FastifyInstance): void {
  const logEveryAnswer = app.log.level === 'debug' || app.log.level === 'trace';
  app.addHook('onResponse', (request, reply, done) => {
    const status = reply.statusCode;
    const responseTime = reply.elapsedTime;
    if (status >= 500 || responseTime >= SLOW_REQUEST_MS) {
      request.log.warn({ req: request, res: reply, responseTime }, status >= 500 ? 'request failed' : 'slow request');
    } else if (status >= 400) {
      request.log.info({ req: request, res: reply, responseTime }, 'request refused');
    } else if (logEveryAnswer) {
      request.log.debug({ req: request, res: reply, responseTime }, 'request completed');
    }
    done();
  });
}
