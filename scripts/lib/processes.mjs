import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

/**
 * What a script starts, stopped however the script ends (decision 037): on SIGINT, SIGTERM, an
 * uncaught error, and a normal exit that forgot something. Children run in their own process group
 * (detached), so a group is ended whole (npm → node → server) and a Ctrl-C in the terminal reaches
 * only the script, which then stops them in order. PostgreSQL throw-away clusters
 * (scripts/pg-throwaway.sh) are daemons, not children: they are tracked by directory.
 *
 * Importing this module changes nothing; a script opts in with stopAllOnExit(). Modules shared with
 * Playwright's runner (tests/e2e/support/stack.mjs) only register here, so the runner keeps its own
 * signal handling.
 */

const ROOT = path.resolve(import.meta.dirname, '..', '..');
const PG_THROWAWAY = path.join(ROOT, 'scripts', 'pg-throwaway.sh');

/** @type {Set<number>} process group ids */
const groups = new Set();
/** @type {Set<string>} cluster directories */
const clusters = new Set();
/** @type {Set<() => unknown>} */
const cleanups = new Set();

const sleep = (/** @type {number} */ ms) => new Promise((r) => setTimeout(r, ms));

/**
 * Whether any process of the group still runs. A zombie does not count: an exited child waits there
 * for its parent (this script, inside an 'exit' handler, never reaps it) or for init.
 */
function groupAlive(/** @type {number} */ pid) {
  try {
    process.kill(-pid, 0);
  } catch {
    return false;
  }
  let entries;
  try {
    entries = fs.readdirSync('/proc');
  } catch {
    return true; // no /proc: the signal test is all there is
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    let stat;
    try {
      stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
    } catch {
      continue; // gone meanwhile
    }
    // "pid (comm) state ppid pgrp …": comm may hold spaces and parentheses, so split after the last ')'.
    const [state, , pgrp] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (Number(pgrp) === pid && state !== 'Z' && state !== 'X') return true;
  }
  return false;
}

function signalGroup(/** @type {number} */ pid, /** @type {NodeJS.Signals} */ signal) {
  try {
    process.kill(-pid, signal);
  } catch {
    // already gone
  }
}

/**
 * Tracks a process group started elsewhere (spawned with detached: true). With its leader's
 * ChildProcess, it is forgotten once the leader exits and the group is empty.
 * @param {number} pid
 * @param {import('node:child_process').ChildProcess} [child]
 */
export function trackGroup(pid, child) {
  groups.add(pid);
  child?.once('exit', () => !groupAlive(pid) && groups.delete(pid));
}
export function untrackGroup(/** @type {number} */ pid) {
  groups.delete(pid);
}
/** Runs fn when everything is stopped (before the process groups and clusters are). Returns a function that removes it. */
export function onCleanup(/** @type {() => unknown} */ fn) {
  cleanups.add(fn);
  return () => cleanups.delete(fn);
}

/**
 * Signals a whole process group with SIGTERM; SIGKILL when it does not exit in time. Safe on groups
 * already gone. The group leaves the tracked set once it is gone.
 */
export async function killGroup(/** @type {number} */ pid, timeoutMs = 5000) {
  if (groupAlive(pid)) {
    signalGroup(pid, 'SIGTERM');
    const deadline = Date.now() + timeoutMs;
    while (groupAlive(pid) && Date.now() < deadline) await sleep(50);
    if (groupAlive(pid)) {
      signalGroup(pid, 'SIGKILL');
      while (groupAlive(pid)) await sleep(20);
    }
  }
  groups.delete(pid);
}

/**
 * spawn() in a process group of its own, tracked until it exits. stdin is never the terminal's (a
 * background group reading it would stop). The child gets an `exited` promise ({ code, signal }).
 * @param {string} cmd
 * @param {string[]} args
 * @param {import('node:child_process').SpawnOptions} [options]
 */
export function spawnTracked(cmd, args, options = {}) {
  const stdio = options.stdio ?? 'inherit';
  const child = spawn(cmd, args, {
    ...options,
    stdio: Array.isArray(stdio) ? ['ignore', ...stdio.slice(1)] : ['ignore', stdio, stdio],
    detached: true,
  });
  const pid = child.pid;
  if (pid) groups.add(pid);
  /** @type {Promise<{ code: number | null; signal: NodeJS.Signals | null }>} */
  const exited = new Promise((resolve) => {
    child.once('error', () => resolve({ code: null, signal: null }));
    child.once('exit', (code, signal) => resolve({ code, signal }));
  });
  // The group may outlive its leader (a grandchild): it stays tracked until killGroup() finds it empty.
  void exited.then(() => pid && !groupAlive(pid) && groups.delete(pid));
  return Object.assign(child, { exited });
}

/**
 * spawnSync's asynchronous twin: runs a command to its end in its own tracked process group, so
 * this script's signal handlers keep running meanwhile (spawnSync would hold them until the child
 * ends). Returns { status, signal, stdout } (stdout captured when options.capture).
 * @param {string} cmd
 * @param {string[]} args
 * @param {import('node:child_process').SpawnOptions & { capture?: boolean }} [options]
 */
export async function run(cmd, args, options = {}) {
  const { capture, ...rest } = options;
  const child = spawnTracked(cmd, args, capture ? { ...rest, stdio: ['ignore', 'pipe', 'inherit'] } : rest);
  let stdout = '';
  if (capture) child.stdout?.on('data', (d) => (stdout += d));
  const { code, signal } = await child.exited;
  if (child.pid) await killGroup(child.pid); // leftovers of the group, if any
  return { status: code, signal, stdout };
}

/** Starts a throw-away PostgreSQL cluster in dir (tracked before it starts) and returns its URL. */
export function startCluster(/** @type {string} */ dir) {
  clusters.add(dir);
  const r = spawnSync('bash', [PG_THROWAWAY, 'start', dir], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
  if (r.status !== 0) {
    stopCluster(dir);
    throw new Error(`could not start a throw-away PostgreSQL cluster in ${dir} (pg-throwaway.sh exited ${r.status ?? r.signal})`);
  }
  return r.stdout.trim();
}

export function stopCluster(/** @type {string} */ dir) {
  spawnSync('bash', [PG_THROWAWAY, 'stop', dir], { stdio: 'ignore' });
  clusters.delete(dir);
}

let stopping;
/** Runs the cleanups, ends every tracked process group and stops every tracked cluster. */
export function stopAll() {
  stopping ??= (async () => {
    for (const fn of [...cleanups].reverse()) {
      try {
        await fn();
      } catch (err) {
        console.error('cleanup:', err);
      }
    }
    cleanups.clear();
    await Promise.all([...groups].map((pid) => killGroup(pid, 10_000)));
    for (const dir of [...clusters]) stopCluster(dir);
  })();
  return stopping;
}

/** The synchronous last resort of the 'exit' event: no promise runs any more there. */
function stopAllNow() {
  const alive = [...groups].filter(groupAlive);
  for (const pid of alive) signalGroup(pid, 'SIGTERM');
  const deadline = Date.now() + 5000;
  const pause = new Int32Array(new SharedArrayBuffer(4));
  while (alive.some(groupAlive) && Date.now() < deadline) Atomics.wait(pause, 0, 0, 50);
  for (const pid of alive) if (groupAlive(pid)) signalGroup(pid, 'SIGKILL');
  groups.clear();
  for (const dir of [...clusters]) stopCluster(dir);
}

/** This process's parent now: /proc's word (process.ppid is read once, at start); without /proc, 1 once the first parent is gone. */
function currentParent(/** @type {number} */ first) {
  try {
    const stat = fs.readFileSync('/proc/self/stat', 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
  } catch {
    try {
      process.kill(first, 0);
      return first;
    } catch {
      return 1;
    }
  }
}

/**
 * Calls fn once this process's parent has gone (issue 27). `npm run x` stopped by a SIGTERM to npm itself (as a
 * CI runner or `timeout` does) ends the shell between npm and the script, and nothing signals the script: it
 * is re-parented and ran on, with everything it started. Looked at every intervalMs, on a timer that keeps
 * nothing alive. A process started by init (a container's) has no parent to lose. Returns a function that stops watching.
 * @param {() => unknown} fn
 */
export function onParentGone(fn, intervalMs = 500) {
  const first = process.ppid;
  if (first <= 1) return () => {};
  const timer = setInterval(() => {
    if (currentParent(first) === first) return;
    clearInterval(timer);
    fn();
  }, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}

let installed = false;
/**
 * Installs the handlers: SIGINT (exit 130) and SIGTERM (143) stop everything first, and so does the
 * parent going away (129, onParentGone); a second signal kills at once; an uncaught error (or unhandled rejection) is printed, everything stopped, exit 1;
 * at any exit, what is still tracked is ended synchronously. options.signalExitCode replaces 130/143
 * for scripts whose normal end is a Ctrl-C (npm run cluster).
 * @param {{ signalExitCode?: number }} [options]
 */
export function stopAllOnExit(options = {}) {
  if (installed) return;
  installed = true;
  let signalled = false;
  const onSignal = (/** @type {NodeJS.Signals} */ signal, why = signal) => {
    const code = options.signalExitCode ?? { SIGINT: 130, SIGHUP: 129 }[signal] ?? 143;
    if (signalled) {
      for (const pid of groups) signalGroup(pid, 'SIGKILL');
      process.exit(code);
    }
    signalled = true;
    console.error(`\n${path.basename(process.argv[1] ?? 'script')}: ${why}, stopping what it started …`);
    void stopAll().finally(() => process.exit(code));
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  // The parent gone is a hang-up: the script and all it started stop as on a signal.
  onParentGone(() => onSignal('SIGHUP', 'its parent process is gone'));
  process.on('uncaughtException', (err) => {
    console.error(err);
    void stopAll().finally(() => process.exit(1));
  });
  process.on('exit', stopAllNow);
}
