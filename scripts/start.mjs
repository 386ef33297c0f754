#!/usr/bin/env node
// `npm start`: builds when the sources are newer than the build, then runs the gateway and the web
// app together on the embedded default (SQLite and generated secrets in DATA_DIR) and prints where to go.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

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
  const web = mtime('build/index.js');
  const gw = mtime('gateway/dist/server.js');
  const webStale = !web || Math.max(newestMtime('app'), mtime('remix.config.js')) > web;
  const gwStale = !gw || newestMtime('gateway/src') > gw;
  if (!webStale && !gwStale) return;
  console.log(`start: building ${[gwStale && 'gateway', webStale && 'web'].filter(Boolean).join(' and ')}…`);
  for (const script of [gwStale && 'build:gateway', webStale && 'build:web'].filter(Boolean)) {
    const r = spawnSync('npm', ['run', '--silent', script], { stdio: 'inherit' });
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
// One TRUST_PROXY name, two processes: here it is the web app's (its load balancer, decision 020).
// The gateway's only proxy is the web app beside it on loopback, whatever the web app trusts.
const envOf = { gateway: { ...env, TRUST_PROXY: '127.0.0.1,::1' }, 'web app': env };

// Both parts run, or neither: when one cannot start or stops, the other is stopped too and we exit.
const children = [];
let stopping = false;
const exited = (child) => (child.exitCode !== null || child.signalCode !== null ? Promise.resolve() : new Promise((r) => child.once('exit', r)));
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

function run(name, args) {
  const child = spawn(process.execPath, args, { env: envOf[name], stdio: 'inherit' });
  children.push(child);
  child.on('exit', (code, signal) => {
    if (!stopping) {
      console.error(`start: the ${name} stopped (${signal ?? `exit ${code}`}); stopping the other part`);
      stopAll(code || 1);
    }
  });
  return child;
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

await startPart('gateway', ['gateway/dist/server.js'], `${gatewayUrl}/healthz`);
if (!stopping) await startPart('web app', [path.join(root, 'server.mjs')], `http://127.0.0.1:${webPort}/healthz`);

if (!stopping) {
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
