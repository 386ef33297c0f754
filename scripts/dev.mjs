#!/usr/bin/env node
// `npm run dev` (decision 036): the gateway and the web app as `npm start` runs them, rebuilt and
// restarted on every change. Watchers: `tsc --watch` for the shared packages contract/src and
// toolkit/src → their dist/ (decision 063), gateway/src → gateway/dist and server/ → build/server,
// `remix watch` for app/ (and the packages' dist/, remix.config.js watchPaths) → build/ and
// public/build (development mode). The two servers run under `node --watch` (through
// scripts/start.mjs, START_WATCH=1), which restarts each one when a file it loaded changes, the
// packages' dist/ included: a contract edit reaches the gateway and the web app with no restart by hand. Ctrl-C or SIGTERM (or this script's parent going away) stops every child and
// all they started, and this script exits once they are gone.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { onParentGone } from './lib/processes.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const tsc = path.join(root, 'node_modules', 'typescript', 'bin', 'tsc');
const remix = path.join(root, 'node_modules', '@remix-run', 'dev', 'dist', 'cli.js');
const env = { ...process.env, NODE_ENV: 'development', VITE_CJS_IGNORE_WARNING: '1' };

const children = [];
let stopping = false;

function run(name, args, extraEnv = {}, stdout = 'inherit') {
  // Straight to node (no npx or shell in between), each in a process group of its own: stopping kills
  // the whole group, so nothing it started outlives us (`node --watch` can leave the server it was just
  // restarting behind when it is stopped mid-restart).
  const stdio = ['inherit', stdout, 'inherit'];
  const child = spawn(process.execPath, args, { cwd: root, env: { ...env, ...extraEnv }, stdio, detached: true });
  children.push(child);
  child.on('exit', (code, signal) => {
    if (stopping) return;
    console.error(`dev: ${name} stopped (${signal ?? `exit ${code}`}); stopping the rest`);
    stop(code || 1);
  });
  return child;
}

/** Sends signal to every process of the child's group; false when the group is empty. */
function signalGroup(child, signal) {
  try {
    process.kill(-child.pid, signal);
    return true;
  } catch {
    return false;
  }
}
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function stop(code) {
  if (stopping) return;
  stopping = true;
  for (const child of children) signalGroup(child, 'SIGTERM');
  // The servers finish requests in flight (up to 10 s, decision 020); then whatever is left is killed.
  for (let waited = 0; waited < 12_000 && children.some((child) => signalGroup(child, 0)); waited += 200) await sleep(200);
  for (const child of children) signalGroup(child, 'SIGKILL');
  process.exit(code);
}
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => stop(0));
// npm stopped by a SIGTERM of its own leaves us without a signal: our parent gone, we stop too (issue 27).
onParentGone(() => stop(129));

/**
 * `tsc --watch` for a shared package; resolves once its first build is done. Its output is passed on as
 * it comes; the first "Watching for file changes" line says dist/ is written.
 */
function watchPackage(dir) {
  const child = run(`tsc --watch (${dir})`, [tsc, '-p', `${dir}/tsconfig.json`, '--watch', '--preserveWatchOutput'], {}, 'pipe');
  child.stdout.pipe(process.stdout);
  return new Promise((resolve) => {
    let seen = '';
    const onData = (chunk) => {
      seen += chunk;
      if (!seen.includes('Watching for file changes')) return;
      child.stdout.off('data', onData);
      resolve();
    };
    child.stdout.on('data', onData);
  });
}

// The packages first: their first build rewrites dist/, which would restart the servers had they started.
await Promise.all(['contract', 'toolkit'].map(watchPackage));
run('tsc --watch (gateway)', [tsc, '-p', 'gateway/tsconfig.json', '--watch', '--preserveWatchOutput']);
run('tsc --watch (web server)', [tsc, '-p', 'server/tsconfig.json', '--watch', '--preserveWatchOutput']);
run('remix watch', [remix, 'watch']);
// start.mjs builds first if the build is missing or older than the sources, then runs both parts.
run('the servers', [path.join(root, 'scripts', 'start.mjs')], { START_WATCH: '1' });
