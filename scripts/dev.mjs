#!/usr/bin/env node
// `npm run dev` (decision 036): the gateway and the web app as `npm start` runs them, rebuilt and
// restarted on every change. Watchers: `tsc --watch` for gateway/src → gateway/dist and server/ →
// build/server, `remix watch` for app/ → build/ and public/build (development mode). The two servers
// run under `node --watch` (through scripts/start.mjs, START_WATCH=1), which restarts each one when a
// file it loaded changes. Ctrl-C or SIGTERM stops every child, and this script exits once all have.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const tsc = path.join(root, 'node_modules', 'typescript', 'bin', 'tsc');
const remix = path.join(root, 'node_modules', '@remix-run', 'dev', 'dist', 'cli.js');
const env = { ...process.env, NODE_ENV: 'development', VITE_CJS_IGNORE_WARNING: '1' };

const children = [];
let stopping = false;

function run(name, args, extraEnv = {}) {
  // Straight to node (no npx or shell in between), so a signal reaches the process that does the work.
  const child = spawn(process.execPath, args, { cwd: root, env: { ...env, ...extraEnv }, stdio: 'inherit' });
  children.push(child);
  child.on('exit', (code, signal) => {
    if (stopping) return;
    console.error(`dev: ${name} stopped (${signal ?? `exit ${code}`}); stopping the rest`);
    stop(code || 1);
  });
  return child;
}

const running = (child) => child.exitCode === null && child.signalCode === null;

async function stop(code) {
  if (stopping) return;
  stopping = true;
  for (const child of children) if (running(child)) child.kill('SIGTERM');
  const late = setTimeout(() => children.forEach((child) => running(child) && child.kill('SIGKILL')), 10_000);
  await Promise.all(children.map((child) => (running(child) ? new Promise((resolve) => child.once('exit', resolve)) : null)));
  clearTimeout(late);
  process.exit(code);
}
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => stop(0));

run('tsc --watch (gateway)', [tsc, '-p', 'gateway/tsconfig.json', '--watch', '--preserveWatchOutput']);
run('tsc --watch (web server)', [tsc, '-p', 'server/tsconfig.json', '--watch', '--preserveWatchOutput']);
run('remix watch', [remix, 'watch']);
// start.mjs builds first if the build is missing or older than the sources, then runs both parts.
run('the servers', [path.join(root, 'scripts', 'start.mjs')], { START_WATCH: '1' });
