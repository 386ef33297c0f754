import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { freePort } from '../../scripts/lib/ports.mjs';

/** `npm start` (scripts/start.mjs) runs the gateway, the web app and the notification worker together: all, or none. */

const ROOT = path.resolve(import.meta.dirname, '..', '..');

const listening = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });

/** Nothing starts listening on the port for a while (a web app left behind binds it a second or two later). */
async function staysClosed(port: number, ms = 4000) {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (await listening(port)) return false;
    await new Promise((r) => setTimeout(r, 200));
  }
  return true;
}

const started: ChildProcess[] = [];
afterEach(() => {
  for (const child of started.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
});

async function start(env: Record<string, string>) {
  const taken = new Set<number>();
  const [web, gateway] = [await freePort(taken), await freePort(taken)];
  const child = spawn(process.execPath, ['scripts/start.mjs'], {
    cwd: ROOT,
    env: {
      ...process.env,
      DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'start-test-')),
      PORT: String(web),
      GATEWAY_PORT: String(gateway),
      SEED_DEMO: '0',
      LOG_LEVEL: 'warn',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  started.push(child);
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, web, gateway, exited, output: () => out };
}

describe('npm start', () => {
  it.each([
    ['RATE_LIMIT', 'maybe'],
    ['DATABASE_URL', 'mysql://x'],
    ['UPI_PAYEE_VPA', 'not a upi id'],
    ['ROLE', 'everything'],
  ])(
    'with a bad %s stops with a line naming it and leaves nothing running',
    async (name, value) => {
      const run = await start({ [name]: value });
      expect(await run.exited).toBe(1);
      expect(run.output()).toMatch(new RegExp(`bad configuration: ${name}\\b`));
      expect(await staysClosed(run.web)).toBe(true);
      expect(await listening(run.gateway)).toBe(false);
    },
    90_000,
  );

  it('with PORT=notaport names PORT, not a derived variable, and starts nothing', async () => {
    // remix-serve falls back to :3000 for a PORT it cannot read: that is where a left-behind web app would be.
    const fallbackBusy = await listening(3000);
    const run = await start({ PORT: 'notaport' });
    expect(await run.exited).toBe(1);
    expect(run.output()).toContain('bad configuration: PORT:');
    expect(run.output()).not.toContain('WEB_URL');
    if (!fallbackBusy) expect(await staysClosed(3000)).toBe(true);
    expect(await listening(run.gateway)).toBe(false);
  }, 30_000);

  it('runs both parts, and stops both when one of them dies', async () => {
    const run = await start({});
    await expect.poll(() => run.output(), { timeout: 60_000, interval: 250 }).toContain('Custom Room is running');
    expect(await listening(run.web)).toBe(true);
    expect(await listening(run.gateway)).toBe(true);
    const health = await fetch(`http://127.0.0.1:${run.web}/healthz`);
    expect(health.status).toBe(200);
    // Notifications go out from a process of their own beside them, at the lowest CPU priority (decision 044).
    const worker = childrenOf(run.child.pid!).find((pid) => commandOf(pid).includes('gateway/dist/worker.js'));
    expect(worker, childrenOf(run.child.pid!).map(commandOf).join('\n')).toBeDefined();
    expect(os.getPriority(worker!)).toBe(19);
    // The web app leaves a core to the gateway, the worker and the database on this one machine (decision 087).
    const webApp = childrenOf(run.child.pid!).find((pid) => commandOf(pid).includes('server/main.js'));
    expect(webApp, childrenOf(run.child.pid!).map(commandOf).join('\n')).toBeDefined();
    // With young-generation semi-spaces of 32 MB (scripts/lib/web-process.mjs, decision 090).
    expect(commandOf(webApp!)).toContain('--max-semi-space-size=32');
    const environ = fs.readFileSync(`/proc/${webApp}/environ`, 'utf8').split('\0');
    if (process.env.WEB_CONCURRENCY === undefined)
      expect(environ).toContain(`WEB_CONCURRENCY=${Math.max(1, os.availableParallelism() - 1)}`);

    // Kill the gateway from outside: the web app must not be left running alone.
    const pid = Number(/"pid":(\d+)/.exec(run.output())?.[1] ?? NaN);
    const gatewayPid = Number.isNaN(pid) ? await pidListeningOn(run.gateway) : pid;
    process.kill(gatewayPid, 'SIGKILL');
    expect(await run.exited).not.toBe(0);
    expect(run.output()).toContain('stopping the other part');
    expect(await listening(run.web)).toBe(false);
  }, 90_000);
});

describe('npm start log lines (issue 27)', () => {
  it('in a terminal prints each part’s log line readable, not as JSON; piped, JSON as before', async () => {
    const taken = new Set<number>();
    const [web, gateway] = [await freePort(taken), await freePort(taken)];
    // A terminal of its own: util-linux `script` runs start.mjs on a pseudo-terminal (exec: start.mjs is its child).
    const child = spawn('script', ['-qfec', `exec ${JSON.stringify(process.execPath)} scripts/start.mjs`, '/dev/null'], {
      cwd: ROOT,
      env: {
        ...process.env,
        DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'start-test-')),
        PORT: String(web),
        GATEWAY_PORT: String(gateway),
        SEED_DEMO: '0',
        LOG_LEVEL: 'info',
        NO_COLOR: '1',
      },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    started.push(child);
    let out = '';
    child.stdout!.on('data', (d) => (out += d));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    try {
      await expect.poll(() => out, { timeout: 60_000, interval: 250 }).toContain('Custom Room is running');
      expect((await fetch(`http://127.0.0.1:${web}/healthz`)).status).toBe(200);
      await expect.poll(() => out, { timeout: 10_000, interval: 100 }).toMatch(/^\d\d:\d\d:\d\d INFO {2}web +GET \/healthz 200/m);
      const lines = out.split(/\r?\n/);
      expect(lines.filter((l) => l.trimStart().startsWith('{'))).toEqual([]);
      // Each part's own lines, named.
      expect(out).toMatch(/^\d\d:\d\d:\d\d INFO {2}gateway {2}/m);
      // (The worker says nothing at info while it starts; its lines go through the same printer.)
    } finally {
      const startPid = childrenOf(child.pid!).find((pid) => commandOf(pid).includes('scripts/start.mjs'));
      if (startPid) process.kill(startPid, 'SIGTERM');
      await exited;
    }
    // Piped (a container's log collector): the JSON lines as they were.
    const { readableLogs } = await import('../../scripts/lib/log-lines.mjs');
    expect(readableLogs({ isTTY: false }, {})).toBe(false);
    expect(readableLogs({ isTTY: true }, {})).toBe(true);
    expect(readableLogs({ isTTY: true }, { LOG_FORMAT: 'json' })).toBe(false);
  }, 90_000);
});

describe('readable log lines', () => {
  it('one line per entry: time, level, part, words, the other fields; an error with its stack; other lines as they came', async () => {
    const { formatLogLine } = await import('../../scripts/lib/log-lines.mjs');
    const time = Date.parse('2026-11-28T09:30:05Z');
    const clock = new Date(time).toTimeString().slice(0, 8);
    const line = (entry: Record<string, unknown>) => formatLogLine(JSON.stringify({ time, pid: 7, hostname: 'h', ...entry }), 'gateway');
    expect(line({ level: 30, reqId: 'a1b2c3d4-e5', req: { method: 'GET', url: '/healthz' }, msg: 'incoming request' })).toBe(
      `${clock} INFO  gateway  incoming request GET /healthz  req=a1b2c3d4`,
    );
    expect(line({ level: 30, res: { statusCode: 204 }, responseTime: 2.6, msg: 'request completed' })).toBe(
      `${clock} INFO  gateway  request completed 204 (3 ms)`,
    );
    expect(
      line({ level: 'warn', name: 'web', status: 400, reason: 'legacy ?_data request', url: '/x?_data=root', msg: 'request refused' }),
    ).toBe(`${clock} WARN  gateway  request refused  status=400 reason="legacy ?_data request" url="/x?_data=root"`);
    expect(
      line({ level: 50, err: { type: 'Error', message: 'boom', stack: 'Error: boom\n    at run (worker.js:1:1)' }, msg: 'round failed' }),
    ).toBe(`${clock} ERROR gateway  round failed\n    Error: boom\n        at run (worker.js:1:1)`);
    for (const other of ['', 'start: building web…', '{"not":"a log line"}', '{broken']) expect(formatLogLine(other, 'web')).toBe(other);
    expect(formatLogLine(JSON.stringify({ level: 40, time, msg: 'slow' }), 'web', { color: true })).toBe(
      `${clock} \u001b[33mWARN \u001b[0m web      slow`,
    );
  });
});

describe('npm start with a role (one part per container, decision 027)', () => {
  it('ROLE=gateway runs the gateway alone, on GATEWAY_HOST, and the healthcheck follows the role', async () => {
    const run = await start({ ROLE: 'gateway', GATEWAY_HOST: '0.0.0.0' });
    await expect.poll(() => run.output(), { timeout: 60_000, interval: 250 }).toContain('gateway is running');
    expect(await listening(run.gateway)).toBe(true);
    expect(await listening(run.web)).toBe(false);
    const check = (role: string) =>
      spawnSync(process.execPath, ['scripts/healthcheck.mjs'], {
        cwd: ROOT,
        env: { ...process.env, ROLE: role, PORT: String(run.web), GATEWAY_PORT: String(run.gateway), GATEWAY_HOST: '0.0.0.0' },
      });
    expect(check('gateway').status).toBe(0);
    expect(check('web').status).toBe(1);
    expect(check('both').status).toBe(1);
    run.child.kill('SIGTERM');
    expect(await run.exited).toBe(0);
  }, 90_000);

  it('ROLE=worker runs the notification worker alone (no API), its /healthz on loopback at GATEWAY_PORT for the healthcheck', async () => {
    const run = await start({ ROLE: 'worker' });
    await expect.poll(() => run.output(), { timeout: 60_000, interval: 250 }).toContain('notification worker is running');
    expect(await listening(run.web)).toBe(false);
    const health = await fetch(`http://127.0.0.1:${run.gateway}/healthz`);
    expect(await health.json()).toEqual({ status: 'ok' });
    // Not the gateway: no API beside the health answer.
    expect((await fetch(`http://127.0.0.1:${run.gateway}/tournaments`)).status).toBe(404);
    const check = (role: string) =>
      spawnSync(process.execPath, ['scripts/healthcheck.mjs'], {
        cwd: ROOT,
        env: { ...process.env, ROLE: role, PORT: String(run.web), GATEWAY_PORT: String(run.gateway) },
      });
    expect(check('worker').status).toBe(0);
    expect(check('web').status).toBe(1);
    run.child.kill('SIGTERM');
    expect(await run.exited).toBe(0);
  }, 90_000);
});

/** The pids of a process's children (Linux /proc). */
function childrenOf(pid: number): number[] {
  return fs
    .readdirSync(`/proc/${pid}/task`)
    .flatMap((task) => fs.readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').trim().split(/\s+/))
    .filter(Boolean)
    .map(Number);
}
const commandOf = (pid: number) => {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
  } catch {
    return '';
  }
};

/** The pid of the process listening on a loopback port (Linux /proc). */
async function pidListeningOn(port: number): Promise<number> {
  const hex = port.toString(16).toUpperCase().padStart(4, '0');
  const inodes = new Set<string>();
  for (const file of ['/proc/net/tcp', '/proc/net/tcp6']) {
    if (!fs.existsSync(file)) continue;
    for (const line of fs.readFileSync(file, 'utf8').split('\n').slice(1)) {
      const cols = line.trim().split(/\s+/);
      if (cols[1]?.endsWith(`:${hex}`) && cols[3] === '0A') inodes.add(cols[9]!);
    }
  }
  for (const pid of fs.readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      for (const fd of fs.readdirSync(`/proc/${pid}/fd`)) {
        const link = fs.readlinkSync(`/proc/${pid}/fd/${fd}`);
        const m = /^socket:\[(\d+)\]$/.exec(link);
        if (m && inodes.has(m[1]!)) return Number(pid);
      }
    } catch {
      // process gone or not ours
    }
  }
  throw new Error(`no process listens on port ${port}`);
}
