import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Config } from './config.js';
import { openDatabase, type DatabaseHandle } from './db/index.js';
import { deleteExpiredSessions } from './db/sessions.js';
import { isoAt, systemClock, type Clock } from './lib/clock.js';
import { createMailer, type Mailer } from './lib/mailer.js';
import { Notifier } from './lib/notify/worker.js';
import { loadVapidKeys } from './lib/push.js';
import { ResponseCache } from './lib/response-cache.js';
import { createTokenService, type TokenService } from './lib/tokens.js';
import { activityLog } from './plugins/activity.js';
import { accessControl } from './plugins/auth.js';
import { guardBodies } from './plugins/body-guard.js';
import { registerErrorHandling } from './plugins/errors.js';
import { closeGracefully, countRequests, type AfterAnswer } from './plugins/lifecycle.js';
import { logAnswers } from './plugins/logging.js';
import { describeApi, serveOpenApi } from './plugins/openapi.js';
import { limitRates } from './plugins/rate-limit.js';
import { serverOptions } from './plugins/server-options.js';
import { registerRoutes } from './routes/index.js';
import { ensureAdmin } from './seed/admin.js';
import { seedDemo } from './seed/demo.js';
import { startDeadlineSweeper } from './services/places/sweep.js';

declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
    store: DatabaseHandle;
    tokens: TokenService;
    mailer: Mailer;
    answers: ResponseCache;
    afterAnswer: AfterAnswer;
    /** The gateway's time (issue 19): read it instead of Date.now() wherever a rule depends on the time. */
    clock: Clock;
    /** The notification worker (decision 044): started unless NOTIFY_WORKER=off; tests call runOnce. */
    notifier: Notifier;
  }
}

export interface BuildOptions {
  config: Config;
  logger?: FastifyServerOptions['logger'];
  /** SQLite file name inside DATA_DIR; tests give each app its own. */
  sqliteFile?: string;
  /**
   * Check every answer against its route's zod schema (tests turn this on). Off in production:
   * the schemas still document the API, and our own mappers build the answers, so re-validating
   * each one would only cost time (it was a third of GET /tournaments).
   */
  validateResponses?: boolean;
  /** The time the gateway's rules read; tests pass a FakeClock (lib/clock.ts). */
  clock?: Clock;
}

/**
 * The gateway: its services decorated on the instance, then the hooks in the order they must run
 * (each onRequest hook in the order added: counting, who may call, the response cache), then the routes.
 */
export async function buildApp({
  config,
  logger,
  sqliteFile,
  validateResponses = false,
  clock = systemClock,
}: BuildOptions): Promise<FastifyInstance> {
  const app = Fastify(serverOptions(config, logger)).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(validateResponses ? serializerCompiler : () => (data) => JSON.stringify(data));

  const store = await openDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR, sqliteFile, now: () => clock.now() });
  await decorateServices(app, { config, clock, store, validateResponses });

  const inFlight = countRequests(app);
  // Who may call what: each protected route checks its caller first, before anything of the body is
  // read (decision 058). Repeats of a cached public read are answered here, before parsing and
  // validation (decision 023).
  accessControl(app);
  activityLog(app); // issue 29: staff writes logged, per route
  app.addHook('onRequest', app.answers.onRequest);
  // Decision 043: releases overdue teams (and promotes the waitlist) even when nobody reads their tournament.
  const sweeper = startDeadlineSweeper(store, clock, config.PAYMENT_SWEEP_INTERVAL_MS, app.log);
  closeGracefully(app, inFlight, [sweeper, app.notifier]);
  logAnswers(app);

  // The bearer token is checked (signature, claims, open session) by accessControl on the calls that
  // need a user; see plugins/auth.ts.
  app.decorateRequest('user', null);
  registerErrorHandling(app);
  guardBodies(app);
  await describeApi(app);
  await limitRates(app);
  await registerRoutes(app);
  serveOpenApi(app);

  await deleteExpiredSessions(store.db, isoAt(clock.now()));
  await ensureAdmin(app);
  if (config.SEED_DEMO) await seedDemo(app);
  if (config.NOTIFY_WORKER) app.notifier.start();
  return app;
}

/** The instance's services (config, clock, store, response cache, tokens, mailer, notifier), before any hook that reads them. */
async function decorateServices(
  app: FastifyInstance,
  { config, clock, store, validateResponses }: { config: Config; clock: Clock; store: DatabaseHandle; validateResponses: boolean },
): Promise<void> {
  app.decorate('config', config);
  app.decorate('clock', clock);
  app.decorate('store', store);
  app.decorate('answers', new ResponseCache(store, { validate: validateResponses, now: () => clock.now() }));
  app.decorate(
    'tokens',
    await createTokenService({
      privateKeyPem: config.JWT_PRIVATE_KEY,
      privateKeyFile: config.JWT_PRIVATE_KEY_FILE,
      dataDir: config.DATA_DIR,
      ttlSeconds: config.JWT_TTL_SECONDS,
    }),
  );
  app.decorate('mailer', createMailer({ smtpUrl: config.SMTP_URL, from: config.SMTP_FROM, log: app.log }));
  const vapid = loadVapidKeys({
    publicKey: config.VAPID_PUBLIC_KEY,
    privateKey: config.VAPID_PRIVATE_KEY,
    subject: config.VAPID_SUBJECT,
    dataDir: config.DATA_DIR,
    webUrl: config.WEB_URL,
    adminEmail: config.ADMIN_EMAIL,
  });
  app.decorate('notifier', new Notifier(store, config, clock, app.log, vapid));
}
