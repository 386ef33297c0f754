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

buildIfNeeded();

const dataDir = path.resolve(process.env.DATA_DIR || './data');
const webPort = process.env.PORT || '3000';
const gatewayPort = process.env.GATEWAY_PORT || '4000';
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

const children = [];
let stopping = false;
function stopAll(code) {
  if (stopping) return;
  stopping = true;
  for (const c of children) if (c.exitCode === null) c.kill('SIGTERM');
  setTimeout(() => process.exit(code), 300).unref();
}
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => stopAll(0));

function run(name, args) {
  const child = spawn(process.execPath, args, { env, stdio: 'inherit' });
  children.push(child);
  child.on('exit', (code, signal) => {
    if (!stopping) {
      console.error(`start: ${name} stopped (${signal ?? `exit ${code}`}); stopping the other part`);
      stopAll(code || 1);
    }
  });
  return child;
}

const gateway = run('gateway', ['gateway/dist/server.js']);
try {
  await waitFor(`${gatewayUrl}/healthz`, gateway, 60_000);
} catch (err) {
  console.error(`start: the gateway did not start: ${err.message}`);
  stopAll(1);
}
const web = run('web', [path.join(root, 'node_modules/@remix-run/serve/dist/cli.js'), 'build/index.js']);
try {
  await waitFor(`http://127.0.0.1:${webPort}/healthz`, web, 60_000);
} catch (err) {
  console.error(`start: the web app did not start: ${err.message}`);
  stopAll(1);
}

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
