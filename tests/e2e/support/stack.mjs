import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '../../../scripts/lib/ports.mjs';
import { killGroup, trackGroup } from '../../../scripts/lib/processes.mjs';
import { webServerArgs } from '../../../scripts/lib/web-process.mjs';

export { freePort, killGroup };

/**
 * A real gateway + web pair on the production build: `node gateway/dist/server.js` and `node build/server/main.js`
 * (the web server, server/ compiled, around build/index.js), each in its own process group on a free port, output captured to files.
 * Used by globalSetup (the shared stack), by tests that need a stack of their own (gateway down)
 * and by the bench scripts. Plain JavaScript (typed in stack.d.mts) so the bench script can import it.
 */

export const ROOT = path.resolve(import.meta.dirname, '..', '..', '..');
export const GATEWAY_ENTRY = path.join(ROOT, 'gateway', 'dist', 'server.js');
export const WEB_ENTRY = path.join(ROOT, 'build', 'index.js');
export const WEB_SERVER = path.join(ROOT, 'build', 'server', 'main.js');

/** The web server as run from a build copy's root. */
const WEB_SERVER_ARGS = webServerArgs();

export const ADMIN = {
  email: 'e2e-admin@test.example',
  password: 'e2e-admin-password-123',
  username: 'e2eadmin',
  phone: '9000000009',
};

/** The shared packages (npm workspaces, decision 038): folder and package name; the gateway runs their dist/. */
const PACKAGES = (JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')).workspaces ?? []).map((folder) => ({
  folder,
  name: JSON.parse(fs.readFileSync(path.join(ROOT, folder, 'package.json'), 'utf8')).name,
}));

export function requireBuild() {
  const built = [GATEWAY_ENTRY, WEB_ENTRY, WEB_SERVER, ...PACKAGES.map((p) => path.join(ROOT, p.folder, 'dist'))];
  const missing = built.filter((f) => !fs.existsSync(f)).map((f) => path.relative(ROOT, f));
  if (missing.length) {
    throw new Error(
      `e2e: the production build is missing (${missing.join(', ')}). Run \`npm run build\` first (it builds the gateway and the web app), then \`npx playwright test\`.`,
    );
  }
}

/**
 * A private copy of the production build (build/ with the web server, public/, gateway/dist/, each
 * package's package.json and dist/; node_modules linked) that the stacks run from, so a `npm run build`
 * elsewhere during the run cannot swap assets under a running server (it would answer the old page's
 * /build/*.css with a 404).
 */
export function snapshotBuild() {
  requireBuild();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'e2e-build-'));
  fs.cpSync(path.join(ROOT, 'build'), path.join(dir, 'build'), { recursive: true });
  fs.cpSync(path.join(ROOT, 'public'), path.join(dir, 'public'), { recursive: true });
  fs.cpSync(path.join(ROOT, 'gateway', 'dist'), path.join(dir, 'gateway', 'dist'), { recursive: true });
  // The share images' subset fonts (decision 056), beside dist/ as in the image.
  fs.cpSync(path.join(ROOT, 'gateway', 'fonts'), path.join(dir, 'gateway', 'fonts'), { recursive: true });
  fs.copyFileSync(path.join(ROOT, 'package.json'), path.join(dir, 'package.json'));
  for (const { folder } of PACKAGES) {
    fs.mkdirSync(path.join(dir, folder));
    fs.copyFileSync(path.join(ROOT, folder, 'package.json'), path.join(dir, folder, 'package.json'));
    fs.cpSync(path.join(ROOT, folder, 'dist'), path.join(dir, folder, 'dist'), { recursive: true });
  }
  // node_modules of its own: a link to each entry of the real one, but @custom-room/* to the copies above
  // (the real node_modules links them to the working tree's folders, which a build rewrites).
  const modules = path.join(dir, 'node_modules');
  fs.mkdirSync(modules);
  for (const entry of fs.readdirSync(path.join(ROOT, 'node_modules'))) {
    if (entry !== '@custom-room') fs.symlinkSync(path.join(ROOT, 'node_modules', entry), path.join(modules, entry));
  }
  for (const { folder, name } of PACKAGES) {
    fs.mkdirSync(path.dirname(path.join(modules, name)), { recursive: true });
    fs.symlinkSync(path.join(dir, folder), path.join(modules, name), 'dir');
  }
  return dir;
}

/** Every stylesheet and script the page at url links must load: a torn copy of the build fails here, not in 30 tests. */
async function checkAssets(url) {
  const html = await (await fetch(url)).text();
  const assets = [...html.matchAll(/(?:href|src)="(\/build\/[^"]+)"/g)].map((m) => m[1]);
  for (const asset of new Set(assets)) {
    const res = await fetch(new URL(asset, url));
    if (!res.ok)
      throw new Error(
        `e2e: ${asset} linked from ${url} answers ${res.status}: the build changed while it was copied; run \`npm run build\` and try again.`,
      );
  }
}

const sleep = (/** @type {number} */ ms) => new Promise((r) => setTimeout(r, ms));

async function waitForUrl(url, child, log, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  let last = '';
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`e2e: process for ${url} exited (${child.exitCode ?? child.signalCode}) before it was ready; output:\n${tail(log)}`);
    }
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(2000) });
      if (res.ok) return;
      last = `status ${res.status}`;
    } catch (err) {
      last = err.message;
    }
    await sleep(150);
  }
  throw new Error(`e2e: ${url} not ready after ${timeoutMs} ms (${last}); output:\n${tail(log)}`);
}

function tail(file, lines = 30) {
  try {
    return fs.readFileSync(file, 'utf8').split('\n').slice(-lines).join('\n');
  } catch {
    return '(no output)';
  }
}

function spawnLogged(args, env, logFile, cwd) {
  fs.mkdirSync(path.dirname(logFile), { recursive: true });
  const fd = fs.openSync(logFile, 'a');
  const child = spawn(process.execPath, args, {
    cwd,
    // A clean environment plus PATH/HOME: the runner's own variables (NODE_OPTIONS, DATABASE_URL …) must not leak in.
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? os.homedir(), ...env },
    stdio: ['ignore', fd, fd],
    detached: true, // own process group: killed as a group, never left behind
  });
  fs.closeSync(fd);
  // A script using stacks (bench-*) stops this group on SIGINT/SIGTERM too (scripts/lib/processes.mjs).
  if (child.pid) trackGroup(child.pid, child);
  return child;
}

/** A running stack with handles to stop and restart its gateway (same port and data dir). */
export class Stack {
  constructor(info, gatewayEnv, webEnv, buildDir, ownBuild) {
    this.info = info;
    this.gatewayEnv = gatewayEnv;
    this.webEnv = webEnv;
    this.buildDir = buildDir;
    this.ownBuild = ownBuild;
    this.gatewayProc = undefined;
    this.webProc = undefined;
  }

  static async start(options = {}) {
    requireBuild();
    const label = options.label ?? 'stack';
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `e2e-${label}-`));
    const buildDir = options.buildDir ?? snapshotBuild();
    const logDir = options.logDir ?? path.join(ROOT, 'test-results', `${label}-${path.basename(dataDir)}`);
    fs.mkdirSync(logDir, { recursive: true });
    const [gatewayPort, webPort] = options.webPort
      ? [options.gatewayPort ?? options.webPort + 1, options.webPort]
      : await (async (taken) => [await freePort(taken), await freePort(taken)])(new Set());
    const webUrl = `http://127.0.0.1:${webPort}`;
    const gatewayUrl = `http://127.0.0.1:${gatewayPort}`;
    const info = {
      webUrl,
      gatewayUrl,
      gatewayPort,
      webPort,
      dataDir,
      buildDir,
      gatewayLog: path.join(logDir, 'gateway.log'),
      webLog: path.join(logDir, 'web.log'),
      pids: [],
      webPid: 0,
      admin: ADMIN,
    };
    const gatewayEnv = {
      GATEWAY_PORT: String(gatewayPort),
      GATEWAY_HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      SEED_DEMO: '0',
      RATE_LIMIT: 'off',
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      ADMIN_USERNAME: ADMIN.username,
      ADMIN_PHONE: ADMIN.phone,
      LOG_LEVEL: 'warn',
      WEB_URL: webUrl,
      ...options.gatewayEnv,
    };
    const webEnv = {
      PORT: String(webPort),
      HOST: '127.0.0.1',
      GATEWAY_URL: gatewayUrl,
      DATA_DIR: dataDir,
      NODE_ENV: 'production',
      // One web process unless a test asks for more (decision 086: the default is one per core).
      WEB_CONCURRENCY: '1',
      ...options.webEnv,
    };
    const stack = new Stack(info, gatewayEnv, webEnv, buildDir, !options.buildDir);
    // Node's own flags for the gateway (a benchmark's --cpu-prof: node refuses it in NODE_OPTIONS).
    stack.gatewayNodeArgs = options.gatewayNodeArgs ?? [];
    try {
      await stack.startGateway();
      stack.webProc = spawnLogged(WEB_SERVER_ARGS, webEnv, info.webLog, buildDir);
      info.pids.push(stack.webProc.pid);
      info.webPid = stack.webProc.pid;
      await waitForUrl(`${webUrl}/`, stack.webProc, info.webLog, 30_000);
      await checkAssets(`${webUrl}/`);
    } catch (err) {
      await stack.stop();
      throw err;
    }
    return stack;
  }

  /** (Re)starts the gateway on the stack's port and data dir and waits for /healthz. */
  async startGateway() {
    if (this.gatewayProc && this.gatewayProc.exitCode === null && this.gatewayProc.signalCode === null) return;
    this.gatewayProc = spawnLogged(
      [...(this.gatewayNodeArgs ?? []), 'gateway/dist/server.js'],
      this.gatewayEnv,
      this.info.gatewayLog,
      this.buildDir,
    );
    this.info.pids.push(this.gatewayProc.pid);
    await waitForUrl(`${this.info.gatewayUrl}/healthz`, this.gatewayProc, this.info.gatewayLog, 30_000);
  }

  /**
   * One more web server on this stack's build and data dir (same session secret), with environment
   * overrides (TRUST_PROXY, GATEWAY_URL …); stopped with the stack.
   */
  async startExtraWeb(env = {}) {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const log = path.join(path.dirname(this.info.webLog), `web-${port}.log`);
    const proc = spawnLogged(WEB_SERVER_ARGS, { ...this.webEnv, PORT: String(port), ...env }, log, this.buildDir);
    this.info.pids.push(proc.pid);
    await waitForUrl(`${url}/healthz`, proc, log, 30_000);
    return { url, pid: proc.pid, log };
  }

  /**
   * The notification worker as a process of its own (gateway/dist/worker.js, as `npm start` and the image run
   * it), on the gateway's environment plus env; start the gateway with NOTIFY_WORKER=off. Stopped with the stack.
   */
  startWorker(env = {}) {
    const log = path.join(path.dirname(this.info.gatewayLog), 'worker.log');
    const proc = spawnLogged(['gateway/dist/worker.js'], { ...this.gatewayEnv, ...env }, log, this.buildDir);
    this.info.pids.push(proc.pid);
    return { pid: proc.pid, log };
  }

  async stopGateway() {
    const pid = this.gatewayProc?.pid;
    if (pid) await killGroup(pid);
    this.info.pids = this.info.pids.filter((p) => p !== pid);
  }

  async stop() {
    await Promise.all(this.info.pids.map((pid) => killGroup(pid)));
    this.info.pids = [];
    fs.rmSync(this.info.dataDir, { recursive: true, force: true });
    if (this.ownBuild) fs.rmSync(this.buildDir, { recursive: true, force: true });
  }
}

/** Where globalSetup leaves the shared stack's StackInfo for tests and globalTeardown. */
export const STACK_FILE_ENV = 'E2E_STACK_FILE';

export function sharedStack() {
  const file = process.env[STACK_FILE_ENV];
  if (!file || !fs.existsSync(file))
    throw new Error('e2e: no shared stack: run the suite with `npx playwright test` (globalSetup starts it).');
  return JSON.parse(fs.readFileSync(file, 'utf8'));
}
