import crypto from 'node:crypto';
import http from 'node:http';
import { finished } from 'node:stream';
import Fastify, { LogController, type FastifyInstance, type FastifyReply, type FastifyServerOptions } from 'fastify';
import swagger from '@fastify/swagger';
import rateLimit from '@fastify/rate-limit';
import { jsonSchemaTransform, serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Config } from './config.js';
import { openDatabase, type DatabaseHandle } from './db/index.js';
import { deleteExpiredSessions } from './db/sessions.js';
import { createTokenService, type TokenService } from './lib/tokens.js';
import { createMailer, type Mailer } from './lib/mailer.js';
import { systemClock, type Clock } from './lib/clock.js';
import { Notifier } from './lib/notify/worker.js';
import { loadVapidKeys } from './lib/push.js';
import { registerErrorHandling } from './plugins/errors.js';
import { accessControl } from './plugins/auth.js';
import { ResponseCache } from './lib/response-cache.js';
import { badRequest, NUL_MESSAGE } from './lib/errors.js';
import { ensureAdmin } from './seed/admin.js';
import { seedDemo } from './seed/demo.js';
import { startDeadlineSweeper } from './services/places/sweep.js';
import healthRoutes from './routes/health/index.js';
import generationRoutes from './routes/generation/index.js';
import authRoutes from './routes/auth/index.js';
import profileRoutes from './routes/profile/index.js';
import tournamentRoutes from './routes/tournaments/index.js';
import imageRoutes from './routes/images/index.js';
import pointsRoutes from './routes/points-table/index.js';
import shareImageRoutes from './routes/share-images/index.js';
import registrationRoutes from './routes/registrations/index.js';
import matchRoutes from './routes/matches/index.js';
import stageRoutes from './routes/stages/index.js';
import emptySlotRoutes from './routes/stages/empty-slots.js';
import notificationRoutes from './routes/notifications/index.js';

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

/** Work that must not delay an answer, nor show in its timing (decision 030: password reset mails). */
export interface AfterAnswer {
  /** Runs task once this request's answer has been sent (or its client has gone); its errors are logged. */
  run(reply: FastifyReply, task: () => Promise<void>): void;
  /** Resolves when every task scheduled so far has ended: closing waits for it before the database goes. */
  settled(): Promise<void>;
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

const REQUEST_ID = /^[\w.:-]{1,128}$/;

/** Decision 023: a successful answer is logged (at info) only when it took at least this long. */
export const SLOW_REQUEST_MS = 500;

/** Far deeper than any call's body (a points batch is 3 levels); the walk below stops there. */
export const MAX_JSON_DEPTH = 64;
export const NESTING_MESSAGE = 'This request is nested too deeply.';

/**
 * The first problem of a parsed JSON body, in document order: a string holding U+0000 (at its dotted
 * path, '' for the body itself), or nesting deeper than MAX_JSON_DEPTH (at the top-level field that
 * holds it). Iterative: a 64 KB body can nest 32,000 levels, far past the call stack (issue 16, item 13).
 */
function bodyProblem(body: unknown): { field: string; message: string } | undefined {
  const stack: { value: unknown; path: string; depth: number; top: string }[] = [{ value: body, path: '', depth: 0, top: '' }];
  for (let next = stack.pop(); next; next = stack.pop()) {
    const { value, path, depth, top } = next;
    if (typeof value === 'string') {
      if (value.includes('\u0000')) return { field: path, message: NUL_MESSAGE };
      continue;
    }
    if (value === null || typeof value !== 'object') continue;
    if (depth >= MAX_JSON_DEPTH) return { field: Array.isArray(body) ? '' : top, message: NESTING_MESSAGE };
    const entries = Object.entries(value);
    for (let i = entries.length - 1; i >= 0; i--) {
      const [key, item] = entries[i]!;
      stack.push({ value: item, path: path ? `${path}.${key}` : key, depth: depth + 1, top: top || key });
    }
  }
  return undefined;
}

/** Answers for connections that fail before a request is complete (Node's clientError), in the contract's shape. */
function clientErrorAnswer(code: string | undefined): { status: number; message: string } {
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') return { status: 408, message: 'The request took too long to arrive. Please try again.' };
  if (code === 'HPE_HEADER_OVERFLOW') return { status: 431, message: 'The request headers are too large.' };
  return { status: 400, message: 'The request could not be read.' };
}

export async function buildApp({
  config,
  logger,
  sqliteFile,
  validateResponses = false,
  clock = systemClock,
}: BuildOptions): Promise<FastifyInstance> {
  const app = Fastify({
    logger: logger ?? { level: config.LOG_LEVEL, redact: ['req.headers.authorization'] },
    // Fastify's two info lines per request cost more than a cached answer; see the onResponse hook.
    // (Through a LogController: the top-level disableRequestLogging option warns FSTDEP023 at every start.)
    logController: new LogController({ disableRequestLogging: true }),
    trustProxy: config.TRUST_PROXY,
    bodyLimit: 64 * 1024,
    genReqId(req) {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && REQUEST_ID.test(given) ? given : crypto.randomUUID();
    },
    routerOptions: { ignoreTrailingSlash: true },
    // Slow clients (decision 030): the headers, and the whole request with its body, must arrive in time
    // (Node answers 408), and a connection on which nothing moves is closed. Node checks the first two
    // every connectionsCheckingInterval (30 s by default): often enough to keep to the timeouts set.
    requestTimeout: config.GATEWAY_REQUEST_TIMEOUT_MS,
    connectionTimeout: config.GATEWAY_IDLE_TIMEOUT_MS,
    http: {
      headersTimeout: config.GATEWAY_HEADERS_TIMEOUT_MS,
      requestTimeout: config.GATEWAY_REQUEST_TIMEOUT_MS,
      connectionsCheckingInterval: Math.min(30_000, Math.ceil(config.GATEWAY_HEADERS_TIMEOUT_MS / 4)),
    },
    clientErrorHandler(error, socket) {
      if (error.code === 'ECONNRESET' || socket.destroyed) return;
      const { status, message } = clientErrorAnswer(error.code);
      // Anyone can cause these: one line, no stack.
      (this as unknown as FastifyInstance).log.info(
        { code: error.code, remoteAddress: socket.remoteAddress, status },
        'connection refused before a complete request',
      );
      const body = JSON.stringify({ message });
      if (socket.writable) {
        socket.write(
          `HTTP/1.1 ${status} ${http.STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
        );
      }
      socket.destroy();
    },
    // Errors the router raises before any route runs (a malformed %-escape, an over-long path
    // parameter) would otherwise get Fastify's own body; answer them in the contract's shape.
    frameworkErrors(error, _request, res) {
      const reply = res as unknown as FastifyReply;
      const status = error.statusCode && error.statusCode < 500 ? error.statusCode : 400;
      reply.status(status).send({ message: status === 414 ? 'The address is too long.' : 'The address is not valid.' });
    },
  }).withTypeProvider<ZodTypeProvider>();

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(validateResponses ? serializerCompiler : () => (data) => JSON.stringify(data));

  const store = await openDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR, sqliteFile });
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
  // Close the database only after the handlers still running have answered (even to clients that
  // already hung up), so a shutdown never turns a request in flight into a "driver destroyed" error.
  // Callback-style hooks: they run on every request, and an async hook costs a promise each time.
  let inFlight = 0;
  const counted = new WeakSet<object>();
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    inFlight += 1;
    counted.add(request);
    done();
  });
  // Who may call what, before anything of the body is read (decision 058); then repeats of a cached
  // public read are answered, before parsing and validation (decision 023).
  accessControl(app);
  app.addHook('onRequest', app.answers.onRequest);
  let closing = false;
  // Decision 043: releases overdue teams (and promotes the waitlist) even when nobody reads their tournament.
  const sweeper = startDeadlineSweeper(store, clock, config.PAYMENT_SWEEP_INTERVAL_MS, app.log);
  app.addHook('preClose', async () => {
    closing = true;
    await sweeper.stop();
    await app.notifier.stop();
  });
  app.addHook('onSend', (request, reply, payload, done) => {
    if (counted.delete(request)) inFlight -= 1;
    // A keep-alive connection that was busy when closing began would otherwise hold the server open.
    if (closing) reply.header('connection', 'close');
    done(null, payload);
  });
  // A write's answer waits out the generation lease of the commits before it (PostgreSQL, decision 023).
  app.addHook('onSend', (request, _reply, payload, done) => {
    const settled = request.method === 'GET' || request.method === 'HEAD' ? undefined : store.settleWrites();
    if (settled) settled.then(() => done(null, payload), done);
    else done(null, payload);
  });
  // One line per answer that is an error, a refusal or slow; every answer only at debug.
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
  const pending = new Set<Promise<void>>();
  app.decorate('afterAnswer', {
    run(reply, task) {
      const run: Promise<void> = new Promise<void>((resolve) => finished(reply.raw, () => resolve()))
        .then(task)
        .catch((err) => reply.log.error({ err }, 'work after the answer failed'))
        .finally(() => pending.delete(run));
      pending.add(run);
    },
    async settled() {
      while (pending.size) await Promise.allSettled([...pending]);
    },
  } satisfies AfterAnswer);
  app.addHook('onClose', async () => {
    const deadline = Date.now() + 10_000;
    while (inFlight > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([app.afterAnswer.settled(), new Promise((r) => (timer = setTimeout(r, Math.max(0, deadline - Date.now()))))]);
    clearTimeout(timer);
    await store.close();
  });

  // The bearer token is checked (signature, claims, open session) by accessControl on the calls that
  // need a user; see plugins/auth.ts.
  app.decorateRequest('user', null);

  registerErrorHandling(app);
  // PostgreSQL text cannot hold U+0000 (it fails the statement), so no call accepts it, on either database;
  // nor a body nested deeper than any call's (decision 030).
  app.addHook('preValidation', async (request) => {
    const problem = bodyProblem(request.body);
    if (!problem) return;
    // Deep nesting is refused whole: its message leads, and no field below it is worth naming.
    const message = problem.message === NESTING_MESSAGE ? NESTING_MESSAGE : 'Please check the highlighted fields.';
    throw badRequest(message, { [problem.field || 'request']: problem.message });
  });

  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: { title: 'Custom Room gateway', version: '1.0.0', description: 'Esports tournament API (spec section 7, completed).' },
      components: { securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } } },
    },
    transform: jsonSchemaTransform,
  });

  if (config.RATE_LIMIT) {
    await app.register(rateLimit, {
      global: false,
      errorResponseBuilder: (_req, context) => ({
        statusCode: 429,
        message: `Too many attempts. Please wait ${Math.ceil(context.ttl / 1000)} seconds and try again.`,
      }),
    });
  } else {
    app.log.warn('RATE_LIMIT=off: login, register and password-reset requests are NOT rate-limited. Use this only for load tests.');
  }

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

  app.get('/openapi.json', { schema: { hide: true }, config: { access: 'public' } }, async () => app.swagger());

  await deleteExpiredSessions(store.db);
  await ensureAdmin(app);
  if (config.SEED_DEMO) await seedDemo(app);
  if (config.NOTIFY_WORKER) app.notifier.start();

  return app;
}
