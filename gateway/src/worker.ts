// The notification worker as a process of its own (decision 044): `node gateway/dist/worker.js`, or
// ROLE=worker in scripts/start.mjs and the image. It delivers notifications and serves no API, at the
// lowest CPU priority, so a burst of mail and push never takes CPU from the processes that answer
// requests. Same configuration as the gateway (DATABASE_URL or DATA_DIR, SMTP_URL, VAPID_*, WEB_URL).
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import { sql } from 'kysely';
import { pino } from 'pino';
import { loadConfig, ConfigError, type Config } from './config.js';
import { openDatabase, type DatabaseHandle } from './db/index.js';
import { systemClock } from './lib/clock.js';
import { Notifier } from './lib/notify/worker.js';
import { loadVapidKeys } from './lib/push.js';

/** /healthz answers 503 when no round has ended for this long (a round is 1,000 sends at most, 10 s timeouts). */
export const STALE_ROUND_MS = 5 * 60_000;

/** Lowers this process's CPU priority (positive niceness); says so when the system refuses. */
function lowerPriority(nice: number, log: pino.Logger): void {
  try {
    os.setPriority(0, nice);
  } catch (err) {
    log.warn({ err: (err as Error).message, nice }, 'notification worker: cannot lower its CPU priority');
  }
  lowerAutogroup(nice);
}

/**
 * Linux's autogroups (decision 088): a process's niceness ranks it only against the processes of its own
 * session, and each session's group gets an equal share of the CPU. A worker started in a session of its
 * own (setsid, a detached spawn) would compete with the web and the gateway as an equal, whatever its
 * niceness: such a worker is alone in its group, and lowers the group. In a shared session (`npm start`,
 * the image) the group is the others' too, and is left alone.
 */
function lowerAutogroup(nice: number): void {
  try {
    const stat = fs.readFileSync('/proc/self/stat', 'utf8');
    // After "pid (comm) ": state, ppid, process group, session.
    const session = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[3]);
    if (session === process.pid) fs.writeFileSync('/proc/self/autogroup', String(nice));
  } catch {
    // no autogroups here (another system, or a kernel without them): niceness is enough
  }
}

/** GET /healthz on 127.0.0.1:port: 200 while the database answers and rounds keep ending; for the container's HEALTHCHECK. */
function serveHealth(port: number, store: DatabaseHandle, notifier: Notifier): Promise<http.Server> {
  const server = http.createServer((req, res) => {
    const answer = (status: number, body: object) => {
      res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' }).end(JSON.stringify(body));
    };
    if (req.url !== '/healthz') return answer(404, { message: 'Not found.' });
    sql`select 1`.execute(store.db).then(
      () => {
        const since = systemClock.now() - notifier.lastRoundEndedAt;
        if (since > STALE_ROUND_MS)
          answer(503, { status: 'unavailable', message: `No notification round has ended for ${Math.round(since / 1000)} s.` });
        else answer(200, { status: 'ok' });
      },
      () => answer(503, { status: 'unavailable', message: 'The database is unreachable.' }),
    );
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve(server));
  });
}

async function main() {
  let config: Config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(`notification worker: bad configuration: ${err.message}`);
      process.exit(1);
    }
    throw err;
  }
  const log = pino({ level: config.LOG_LEVEL, base: { pid: process.pid, role: 'notification-worker' } });
  lowerPriority(config.NOTIFY_WORKER_NICE, log);

  let store: DatabaseHandle;
  try {
    store = await openDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR, now: systemClock.now });
  } catch (err) {
    console.error(`notification worker: cannot start: ${(err as Error).message}`);
    process.exit(1);
  }
  const vapid = loadVapidKeys({
    publicKey: config.VAPID_PUBLIC_KEY,
    privateKey: config.VAPID_PRIVATE_KEY,
    subject: config.VAPID_SUBJECT,
    dataDir: config.DATA_DIR,
    webUrl: config.WEB_URL,
    adminEmail: config.ADMIN_EMAIL,
  });
  const notifier = new Notifier(store, config, systemClock, log, vapid);
  let health: http.Server | undefined;
  if (config.NOTIFY_HEALTH_PORT) {
    try {
      health = await serveHealth(config.NOTIFY_HEALTH_PORT, store, notifier);
    } catch (err) {
      console.error(`notification worker: cannot listen on 127.0.0.1:${config.NOTIFY_HEALTH_PORT}: ${(err as Error).message}`);
      process.exit(1);
    }
  }

  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    log.info({ signal }, 'shutting down: finishing the round under way');
    const timer = setTimeout(() => process.exit(1), 30_000);
    timer.unref();
    (async () => {
      health?.close();
      await notifier.stop();
      await store.close();
    })().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));

  notifier.start();
  log.info(
    {
      nice: os.getPriority(0),
      pollMs: config.NOTIFY_POLL_MS,
      email: Boolean(config.SMTP_URL),
      healthPort: config.NOTIFY_HEALTH_PORT ?? null,
    },
    'notification worker started',
  );
}

void main();
