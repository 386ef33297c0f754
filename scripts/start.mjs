#!/usr/bin/env node
// `npm start`: builds when the sources are newer than the build, then runs the gateway and the web
// app together on the embedded default (SQLite and generated secrets in DATA_DIR) and prints where to go.
// A role runs one part only (the container image, decision 027): `node scripts/start.mjs [both|web|gateway|worker]`,
// or ROLE=web|gateway|worker (the argument wins; in a container set ROLE, which the healthcheck reads too).
// Notifications (decision 044) go out from a process of their own, at the lowest CPU priority: `both` runs it
// beside the gateway (whose own worker is then off); `worker` runs only it; `gateway` runs the gateway as
// configured (its worker on unless NOTIFY_WORKER=off, which is right when a `worker` runs elsewhere).
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { printReadable, readableLogs } from './lib/log-lines.mjs';
import { onParentGone } from './lib/processes.mjs';
import { webServerArgs } from './lib/web-process.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
process.chdir(root);

function newestMtime(dir) {
  let newest = 0;
  if (!fs.existsSync(dir)) return newest;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(p) : fs.statSync(p).mtimeMs);
  }
  return newest;
}
const mtime = (file) => (fs.existsSync(file) ? fs.statSync(file).mtimeMs : 0);

function buildIfNeeded() {
  // The shared packages (npm workspaces, decision 038): the gateway runs their dist/, the web build bundles them.
  const packages = JSON.parse(fs.readFileSync('package.json', 'utf8')).workspaces ?? [];
  const packagesSource = Math.max(0, ...packages.map((dir) => newestMtime(`${dir}/src`)));
  const packagesStale = packages.some((dir) => !fs.existsSync(`${dir}/dist`) || newestMtime(`${dir}/src`) > newestMtime(`${dir}/dist`));
  // The web's build is the Remix build and its server (server/ compiled to build/server/, decision 036).
  const web = Math.min(mtime('build/index.js'), mtime('build/server/main.js'));
  const gw = mtime('gateway/dist/server.js');
  const webStale =
    runs.web && (!web || Math.max(newestMtime('app'), newestMtime('server'), packagesSource, mtime('remix.config.js')) > web);
  const gwStale = (runs.gateway || runs.worker) && (!gw || newestMtime('gateway/src') > Math.min(gw, mtime('gateway/dist/worker.js')));
  if (!webStale && !gwStale && !packagesStale) return;
  console.log(`start: building ${[packagesStale && 'packages', gwStale && 'gateway', webStale && 'web'].filter(Boolean).join(' and ')}…`);
  for (const script of [packagesStale && 'build:packages', gwStale && 'build:gateway', webStale && 'build:web'].filter(Boolean)) {
    // Always the production build: an inherited NODE_ENV (vitest sets "test") would make Remix emit its
    // development JSX runtime, which the production server cannot run ("jsxDEV is not a function").
    const r = spawnSync('npm', ['run', '--silent', script], { stdio: 'inherit', env: { ...process.env, NODE_ENV: 'production' } });
    if (r.status !== 0) {
      console.error(`start: npm run ${script} failed`);
      process.exit(1);
    }
  }
}

function waitFor(url, child, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  return new Promise((resolve, reject) => {
    const attempt = async () => {
      if (child.exitCode !== null) return reject(new Error('exited before it was ready'));
      try {
        const res = await fetch(url);
        if (res.ok) return resolve();
      } catch {
        // not listening yet
      }
      if (Date.now() > deadline) return reject(new Error(`not ready after ${timeoutMs / 1000} s`));
      setTimeout(attempt, 200);
    };
    attempt();
  });
}

/** A TCP port from the environment, or exit with one line naming the variable. */
function portFrom(name, fallback) {
  const raw = process.env[name] || fallback;
  if (!/^\d{1,5}$/.test(raw) || Number(raw) < 1 || Number(raw) > 65535) {
    console.error(`start: bad configuration: ${name}: must be a port number from 1 to 65535 (got "${raw}")`);
    process.exit(1);
  }
  return raw;
}

const ROLES = ['both', 'web', 'gateway', 'worker'];
const role = process.argv[2] || process.env.ROLE || 'both';
if (!ROLES.includes(role)) {
  console.error(
    `start: bad configuration: ${process.argv[2] ? 'the role argument' : 'ROLE'}: must be both, web, gateway or worker (got "${role}")`,
  );
  process.exit(1);
}
const runs = {
  gateway: role === 'both' || role === 'gateway',
  web: role === 'both' || role === 'web',
  worker: role === 'both' || role === 'worker',
};

const dataDir = path.resolve(process.env.DATA_DIR || './data');
const webPort = portFrom('PORT', '3000');
const gatewayPort = portFrom('GATEWAY_PORT', '4000');
buildIfNeeded();
const gatewayUrl = process.env.GATEWAY_URL || `http://127.0.0.1:${gatewayPort}`;
const env = {
  ...process.env,
  DATA_DIR: dataDir,
  GATEWAY_PORT: gatewayPort,
  GATEWAY_URL: gatewayUrl,
  PORT: webPort,
  WEB_URL: process.env.WEB_URL || `http://localhost:${webPort}`,
  NODE_ENV: process.env.NODE_ENV || 'production',
};
// One TRUST_PROXY name, two processes: together it is the web app's (its load balancer, decision 020),
// and the gateway, whose only client is the web app beside it, listens and trusts on loopback only.
// Alone, each part takes its own TRUST_PROXY and GATEWAY_HOST as given.
// Together, the gateway leaves notifications to the worker process beside it. Alone, the worker answers its
// /healthz on loopback at GATEWAY_PORT (no gateway listens there in its container) for the healthcheck.
const workerHealthPort = process.env.NOTIFY_HEALTH_PORT || gatewayPort;
const envOf = {
  gateway: role === 'both' ? { ...env, TRUST_PROXY: '127.0.0.1,::1', GATEWAY_HOST: '127.0.0.1', NOTIFY_WORKER: 'off' } : env,
  // Everything on one machine (decision 087): the gateway, the worker and the database need a core too. The room
  // rush on 2 cores was slower with two web processes than with one (PostgreSQL p99 2.5 s against 1.5 s).
  'web app':
    role === 'both' && !env.WEB_CONCURRENCY ? { ...env, WEB_CONCURRENCY: String(Math.max(1, os.availableParallelism() - 1)) } : env,
  'notification worker': role === 'worker' ? { ...env, NOTIFY_HEALTH_PORT: workerHealthPort } : env,
};

// All parts run, or none: when one cannot start or stops, the others are stopped too and we exit.
const children = [];
let stopping = false;
const exited = (child) =>
  child.exitCode !== null || child.signalCode !== null ? Promise.resolve() : new Promise((r) => child.once('exit', r));
async function stopAll(code) {
  if (stopping) return;
  stopping = true;
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGTERM');
  const killLate = setTimeout(() => children.forEach((c) => c.exitCode === null && c.signalCode === null && c.kill('SIGKILL')), 10_000);
  await Promise.all(children.map(exited));
  clearTimeout(killLate);
  process.exit(code);
}
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => stopAll(0));
// `npm start` stopped by a SIGTERM to npm leaves us without a signal: our parent gone, the parts stop too (issue 27).
onParentGone(() => stopAll(129));

// `npm run dev` (scripts/dev.mjs): each part under `node --watch`, restarted when a file it loaded changes.
const watchArgs = process.env.START_WATCH === '1' ? ['--watch'] : [];

// In a terminal the parts' JSON lines are printed readable (scripts/lib/log-lines.mjs); anywhere else as they are.
const readable = readableLogs();
const SHORT = { gateway: 'gateway', 'web app': 'web', 'notification worker': 'worker' };

function run(name, args) {
  const child = spawn(process.execPath, [...watchArgs, ...args], {
    env: envOf[name],
    stdio: readable ? ['inherit', 'pipe', 'inherit'] : 'inherit',
  });
  if (readable) printReadable(child.stdout, SHORT[name] ?? name);
  children.push(child);
  child.on('exit', (code, signal) => {
    if (!stopping) {
      console.error(`start: the ${name} stopped (${signal ?? `exit ${code}`})${children.length > 1 ? '; stopping the other parts' : ''}`);
      stopAll(code || 1);
    }
  });
  return child;
}

/**
 * The worker lowers its own priority once its modules have loaded (decision 044); beside the other parts it
 * is lowered here as well, at once, so it never competes with them even while it starts. A bad
 * NOTIFY_WORKER_NICE is left to the worker, which refuses it with a message.
 */
function lowerPriority(child) {
  const nice = Number(process.env.NOTIFY_WORKER_NICE ?? 19);
  if (!Number.isInteger(nice) || nice < 0 || nice > 19 || !child.pid) return;
  try {
    os.setPriority(child.pid, nice);
  } catch {
    // Not allowed here: the worker says so in its own log.
  }
}

async function startPart(name, args, healthUrl) {
  const child = run(name, args);
  try {
    await waitFor(healthUrl, child, 60_000);
  } catch (err) {
    if (!stopping) console.error(`start: the ${name} did not start: ${err.message}`);
    await stopAll(1);
  }
}

// Alone, the gateway may listen on one address only (GATEWAY_HOST): ask it there.
const gatewayHost =
  process.env.GATEWAY_HOST && !['0.0.0.0', '::'].includes(process.env.GATEWAY_HOST) ? process.env.GATEWAY_HOST : '127.0.0.1';
const ownGatewayUrl =
  role === 'both' ? gatewayUrl : `http://${gatewayHost.includes(':') ? `[${gatewayHost}]` : gatewayHost}:${gatewayPort}`;
if (runs.gateway) await startPart('gateway', ['gateway/dist/server.js'], `${ownGatewayUrl}/healthz`);
// After the gateway: it has migrated the database and written DATA_DIR's keys (vapid.json) that the worker reads.
// Beside the gateway it has no port of its own; it is watched like the others (when it stops, everything stops).
if (runs.worker && !stopping) {
  if (role === 'worker') await startPart('notification worker', ['gateway/dist/worker.js'], `http://127.0.0.1:${workerHealthPort}/healthz`);
  else lowerPriority(run('notification worker', ['gateway/dist/worker.js']));
}
if (runs.web && !stopping) await startPart('web app', webServerArgs(), `http://127.0.0.1:${webPort}/healthz`); // from root, the working directory

// Issue 27 (decision 055): say so while a tournament that takes fees still pays the placeholder UPI ID.
// After the gateway has migrated the database; only where this process can reach it (both, or the gateway alone).
function payeeWarning() {
  if (!runs.gateway || stopping) return '';
  const check = spawnSync(process.execPath, ['gateway/dist/payee-check.js'], { env: envOf.gateway, encoding: 'utf8', timeout: 15_000 });
  return check.stdout?.trimEnd() ?? '';
}
const warning = payeeWarning();

if (!stopping && role === 'worker') {
  console.log(`\n  Custom Room notification worker is running (health: http://127.0.0.1:${workerHealthPort}/healthz)   Data: ${dataDir}\n`);
} else if (!stopping && role === 'gateway') {
  console.log(`\n  Custom Room gateway is running: ${ownGatewayUrl} (OpenAPI at /openapi.json)   Data: ${dataDir}\n`);
} else if (!stopping && role === 'web') {
  console.log(`\n  Custom Room web app is running: http://localhost:${webPort}   Gateway: ${gatewayUrl}\n`);
} else if (!stopping) {
  const adminEmail = process.env.ADMIN_EMAIL || 'admin@example.com';
  const passwordFile = path.join(dataDir, 'admin-password.txt');
  const adminPassword = process.env.ADMIN_PASSWORD
    ? '(the ADMIN_PASSWORD you set)'
    : fs.existsSync(passwordFile)
      ? fs.readFileSync(passwordFile, 'utf8').trim()
      : `(see ${passwordFile})`;
  console.log(
    [
      '',
      `  Custom Room is running: http://localhost:${webPort}`,
      `  Admin login: ${adminEmail} / ${adminPassword}`,
      `  Data: ${dataDir}   API: ${gatewayUrl} (OpenAPI at ${gatewayUrl}/openapi.json)`,
      '  Stop with Ctrl+C.',
      '',
    ].join('\n'),
  );
}
if (warning) console.log(`${warning}\n`);
