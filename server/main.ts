import cluster from 'node:cluster';
import http from 'node:http';
import path from 'node:path';
import { installGlobals } from '@remix-run/node';
import { createApp } from './app.js';
import { BuildError, loadBuild } from './build.js';
import { ConfigError, readServerConfig } from './config.js';
import { onSignals, shutdown } from './shutdown.js';

/** `node build/server/main.js` (`npm run start:web`): the web app's production server (decision 036). */

/** build/server/main.js → the repository (or image) root that holds build/ and public/. */
const ROOT = path.resolve(import.meta.dirname, '..', '..');
/**
 * A crowd connecting at once (a registration rush) overflowed Node's default accept queue of 511; the
 * kernel caps this at net.core.somaxconn.
 */
const BACKLOG = 4096;

function fail(message: string): never {
  console.error(`web: ${message}`);
  process.exit(1);
}

function config() {
  try {
    return readServerConfig();
  } catch (err) {
    if (err instanceof ConfigError) fail(err.message);
    throw err;
  }
}

/**
 * WEB_CONCURRENCY > 1 (decision 086): this process only keeps that many web processes on the port (node's
 * cluster module shares it), starts again one that died, and on SIGTERM/SIGINT passes the signal on and
 * exits once they all have. Each web process has its own page cache and request slots; they share
 * DATA_DIR's session secret, so any of them reads any session.
 */
function primary(count: number) {
  let stopping = false;
  const listened = new Set<number>();
  const fork = () => cluster.fork();
  cluster.on('listening', (worker) => listened.add(worker.id));
  cluster.on('exit', (worker, code, signal) => {
    if (stopping) {
      if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(process.exitCode ?? 0);
      return;
    }
    // One that never listened (a bad build, the port taken) would fail again: stop, as one process would.
    if (!listened.has(worker.id)) {
      stopping = true;
      for (const other of Object.values(cluster.workers ?? {})) other?.process.kill('SIGTERM');
      process.exitCode = code || 1;
      if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(process.exitCode);
      return;
    }
    console.error(`[web] process ${worker.process.pid} exited (${signal ?? code}); starting another`);
    setTimeout(fork, 1000).unref();
  });
  for (const signal of ['SIGTERM', 'SIGINT'] as const)
    process.once(signal, () => {
      stopping = true;
      const workers = Object.values(cluster.workers ?? {});
      if (workers.length === 0) process.exit(0);
      for (const worker of workers) worker?.process.kill('SIGTERM');
    });
  console.log(`[web] ${count} processes`);
  for (let i = 0; i < count; i++) fork();
}

async function main(config: ReturnType<typeof readServerConfig>) {
  // Before the build is imported: React and Remix read it once.
  process.env.NODE_ENV = config.NODE_ENV as typeof process.env.NODE_ENV;
  process.env.LOG_LEVEL = config.LOG_LEVEL;
  let build;
  try {
    build = await loadBuild(ROOT);
  } catch (err) {
    if (err instanceof BuildError) fail(err.message);
    throw err;
  }
  installGlobals({ nativeFetch: build.remix.future.v3_singleFetch });
  const stop = shutdown();
  const app = createApp(build, config, ROOT, stop);
  const { PORT: port, HOST: host } = config;
  const server = http.createServer(app);
  server.on('listening', () => console.log(`[web] http://localhost:${port}${host ? ` (listening on ${host})` : ''}`));
  server.on('error', (err) => fail(`cannot listen on ${host ?? '*'}:${port}: ${err.message}`));
  server.listen({ port, host, backlog: BACKLOG });
  onSignals(server, stop);
}

const settings = config();
if (cluster.isPrimary && settings.WEB_CONCURRENCY > 1) primary(settings.WEB_CONCURRENCY);
else await main(settings);
