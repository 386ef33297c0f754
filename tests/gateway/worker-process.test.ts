import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPushService, startSmtpSink, type PushService, type SmtpSink } from '../support/notify-servers.js';
import {
  ADMIN,
  Api,
  adminToken,
  createStorage,
  createTournamentWithTeams,
  createUser,
  freePort,
  matchFields,
  spawnGateway,
  unique,
  type GatewayProcess,
  type Storage,
} from './helpers.js';

const COMPILED_WORKER = path.resolve('gateway/dist/worker.js');
const WEB_URL = 'https://play.example.test';

/** The niceness of a process's autogroup (Linux: "/autogroup-7 nice 0"). */
const autogroupNice = (pid: number) => Number(/nice (-?\d+)/.exec(fs.readFileSync(`/proc/${pid}/autogroup`, 'utf8'))?.[1]);

/** `node gateway/dist/worker.js`: the notification worker's own process (decision 044). */
function spawnWorker(env: Record<string, string>, options: { detached?: boolean } = {}) {
  const child = spawn(process.execPath, [COMPILED_WORKER], {
    env: { PATH: process.env.PATH, NODE_ENV: 'production', LOG_LEVEL: 'info', ADMIN_EMAIL: ADMIN.email, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: options.detached ?? false,
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (err += d));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return {
    child,
    exited,
    stdout: () => out,
    stderr: () => err,
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      return exited;
    },
  };
}

/**
 * The worker role as a process: a gateway that answers requests with its own worker off, and the worker
 * process beside it on the same database, at the lowest CPU priority, delivering what the gateway's
 * writes enqueued (a real SMTP server and push service in this process).
 */
describe('the notification worker process', () => {
  let storage: Storage;
  let gateway: GatewayProcess;
  let smtp: SmtpSink;
  let push: PushService;
  const workers: ReturnType<typeof spawnWorker>[] = [];
  const start = (env: Record<string, string>, options: { detached?: boolean } = {}) => {
    const w = spawnWorker(env, options);
    workers.push(w);
    return w;
  };
  const shared = () => ({
    DATA_DIR: storage.dataDir,
    ...(storage.databaseUrl ? { DATABASE_URL: storage.databaseUrl } : {}),
    SMTP_URL: smtp.url,
    WEB_URL,
    PUSH_ALLOW_HTTP: 'on',
    NOTIFY_POLL_MS: '100',
  });

  beforeAll(async () => {
    smtp = await startSmtpSink();
    push = await startPushService();
    storage = await createStorage();
    gateway = spawnGateway({ ...shared(), NOTIFY_WORKER: 'off', GATEWAY_PORT: String(await freePort()) });
    await gateway.ready();
  });
  afterAll(async () => {
    await Promise.all(workers.map((w) => w.stop()));
    await gateway?.stop();
    await smtp?.close();
    await push?.close();
  });

  it('is built (npm run build:gateway) before this suite runs', () => {
    expect(fs.existsSync(COMPILED_WORKER)).toBe(true);
  });

  it('in a session of its own (a detached spawn) lowers its autogroup too, which ranks it below the other parts (decision 088)', async () => {
    const healthPort = await freePort();
    const w = start({ ...shared(), NOTIFY_HEALTH_PORT: String(healthPort) }, { detached: true });
    await expect
      .poll(async () => (await fetch(`http://127.0.0.1:${healthPort}/healthz`).catch(() => undefined))?.status, {
        timeout: 15_000,
        interval: 100,
      })
      .toBe(200);
    expect(os.getPriority(w.child.pid!)).toBe(19);
    expect(autogroupNice(w.child.pid!)).toBe(19);
    expect(autogroupNice(process.pid)).toBe(0);
  });

  it('fails fast with one clear line naming a bad variable', async () => {
    const w = start({ DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'worker-proc-')), NOTIFY_WORKER_NICE: '20' });
    expect(await w.exited).toBe(1);
    const lines = w.stderr().trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^notification worker: bad configuration: NOTIFY_WORKER_NICE: /);
  });

  it('runs at the lowest CPU priority, answers /healthz on loopback, delivers what a request enqueued by email and push with the gateway’s keys, and stops on SIGTERM', async () => {
    const healthPort = await freePort();
    const w = start({ ...shared(), NOTIFY_HEALTH_PORT: String(healthPort) });
    const health = `http://127.0.0.1:${healthPort}/healthz`;
    await expect.poll(async () => (await fetch(health).catch(() => undefined))?.status, { timeout: 15_000, interval: 100 }).toBe(200);
    expect(await (await fetch(health)).json()).toEqual({ status: 'ok' });
    expect(os.getPriority(w.child.pid!)).toBe(19);
    // In this test's session: its autogroup is the test runner's too, and is left as it was (decision 088).
    expect(autogroupNice(w.child.pid!)).toBe(autogroupNice(process.pid));
    expect(w.stdout()).toContain('notification worker started');

    const api = new Api(gateway.url);
    const admin = await adminToken(api);
    const player = await createUser(api);
    const phone = push.subscribe();
    expect((await api.post('/push/subscribe', { endpoint: phone.endpoint, keys: phone.keys }, player.token)).status).toBe(201);
    const { tid } = await createTournamentWithTeams(api, admin, [player], [`W ${unique()}`], { entryFee: '0', maxTeams: '10' });
    const room = { matchId: `R${unique()}`.slice(0, 12), password: `P${unique()}`.slice(0, 12) };
    // The room save enqueues a room-posted event in its transaction; only the worker process delivers it.
    expect((await api.post('/matches', matchFields(tid, { day: 1, matchNo: 1, ...room }), admin)).status).toBe(201);

    const mine = () => push.received.filter((r) => r.path === new URL(phone.endpoint).pathname);
    await expect.poll(() => mine().length + smtp.mails.filter((m) => m.to.includes(player.email)).length, { timeout: 20_000 }).toBe(2);
    expect(push.problems).toEqual([]);
    const mail = smtp.mails.find((m) => m.to.includes(player.email))!;
    expect(mail.subject).toBe('Room details are up');
    expect(mail.text).toContain(`${WEB_URL}/tournament/${tid}/matches`);
    expect(mail.raw).not.toContain(room.password);
    // Signed with the key the gateway publishes (both read DATA_DIR's vapid.json, or the same VAPID_* settings).
    const key = (await api.get('/push/public-key')).body.publicKey as string;
    expect(mine()[0]!.vapid.publicKey).toBe(key);
    expect(JSON.parse(mine()[0]!.payload)).toMatchObject({ title: 'Room details are up' });
    // The player's list shows it, read back through the gateway.
    const list = await api.get('/notifications', player.token);
    expect(list.body.items.filter((n: { tournamentId: number }) => n.tournamentId === tid).map((n: { kind: string }) => n.kind)).toEqual([
      'room-posted',
    ]);

    expect(await w.stop()).toBe(0);
    expect(w.stdout()).toContain('shutting down');
    await expect(fetch(health)).rejects.toThrow();
  });
});
