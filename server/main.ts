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

async function main() {
  let config;
  try {
    config = readServerConfig();
  } catch (err) {
    if (err instanceof ConfigError) fail(err.message);
    throw err;
  }
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

await main();
