#!/usr/bin/env node
// `npm run bench:notify`: issue 19's notification burst against the built gateway (decision 044).
//
//   node scripts/bench-notify.mjs [--no-build] [--json FILE] [--worker separate|in-process]
//
// Builds the gateway first (--no-build skips it), then on SQLite, and on PostgreSQL when
// BENCH_DATABASE_URL is set (a schema of its own, dropped after): starts `node gateway/dist/server.js`
// with NOTIFY_WORKER=off and the notification worker as its own process (`node gateway/dist/worker.js`,
// lowest CPU priority), as `npm start` and the image run them (--worker in-process: the gateway's own
// worker instead, one process), with a local SMTP server and a local web push service in a child process
// (they stand for other machines: their work must not delay this process's hot reads), writes 1,000 squads (each captain with a phone subscribed to push) through the
// gateway's repository, draws one stage of 40 groups of 25, publishes it and schedules 10 matches (setup,
// not timed). Then the organiser saves the rooms of the 10 matches for all 40 groups (10 PUTs, 400 room
// events → 10,000 notifications, each an email and a push), while a client reads GET /tournaments/{id}
// back to back. Reports notifications delivered per second, the time from the first room save to the last
// message received (target <= 60 s), and the hot read's latency meanwhile against idle.
// Writes bench/results/<date>-notify.json (or --json FILE). Exits 1 when a target is missed.

import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { gatewayEnv, pgQuery, tournamentForm, insertSquad } from './lib/bench-helpers.mjs';
import { benchPushKeys, nowMs, receivedAtLeast, startReceivers } from './lib/notify-receivers.mjs';
import { freePort } from './lib/ports.mjs';
import { killGroup, onCleanup, run, spawnTracked, stopAllOnExit } from './lib/processes.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SERVER = path.join(ROOT, 'gateway', 'dist', 'server.js');
const RESULTS = path.join(ROOT, 'bench', 'results');
const SQUADS = 1000;
const LOBBY = 25;
const MATCHES = 10;
const TARGET_MS = 60_000;

const { values: args } = parseArgs({
  options: {
    'no-build': { type: 'boolean', default: false },
    json: { type: 'string' },
    worker: { type: 'string', default: 'separate' },
  },
});
if (!['separate', 'in-process'].includes(args.worker)) throw new Error('--worker must be separate or in-process');
const WORKER = path.join(ROOT, 'gateway', 'dist', 'worker.js');

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const pct = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] : 0;
};

async function call(baseUrl, method, urlPath, { token, json, form } = {}) {
  const headers = { accept: 'application/json' };
  if (token) headers.authorization = `Bearer ${token}`;
  let body;
  if (json !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(json);
  } else if (form) body = form;
  const res = await fetch(baseUrl + urlPath, { method, headers, body });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${urlPath} answered ${res.status}: ${text.slice(0, 300)}`);
  return text ? JSON.parse(text) : null;
}

/** 1,000 squads and their captains' phones, written through the gateway's repository. */
async function seed({ databaseUrl, dataDir }, tid, pushUrl) {
  const dist = (p) => pathToFileURL(path.join(ROOT, 'gateway', 'dist', p)).href;
  const { openDatabase } = await import(dist('db/index.js'));
  const { insertUser } = await import(dist('db/users.js'));
  const { insertRegistration } = await import(dist('db/registrations.js'));
  const { bumpGeneration } = await import(dist('db/generation.js'));
  const store = await openDatabase({ databaseUrl, dataDir });
  const keys = benchPushKeys();
  try {
    await store.writeTransaction(async (trx) => {
      for (let i = 1; i <= SQUADS; i++) {
        const { userId } = await insertSquad({ insertUser, insertRegistration }, trx, tid, i);
        await trx
          .insertInto('push_subscriptions')
          .values({
            user_id: userId,
            endpoint: `${pushUrl}/push/${i}`,
            p256dh: keys.p256dh,
            auth: keys.auth(),
            created_at: new Date().toISOString(),
          })
          .execute();
      }
      await bumpGeneration(trx, tid);
    });
  } finally {
    await store.close();
  }
}

/** GET /tournaments/{id} back to back until stop() (a hot, cached read); latencies in ms. */
function hotReads(baseUrl, tid) {
  const times = [];
  let stopped = false;
  const loop = (async () => {
    while (!stopped) {
      const started = performance.now();
      const res = await fetch(`${baseUrl}/tournaments/${tid}`);
      await res.arrayBuffer();
      times.push(performance.now() - started);
    }
  })();
  return {
    times,
    stop: async () => {
      stopped = true;
      await loop;
      return times;
    },
  };
}

/** Request count and percentiles (ms, two decimals) of the hot read's times. */
const latencies = (times) => ({
  requests: times.length,
  p50: +pct(times, 50).toFixed(2),
  p95: +pct(times, 95).toFixed(2),
  p99: +pct(times, 99).toFixed(2),
});

async function runOn(database, pgUrl) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-notify-'));
  let schema;
  let databaseUrl;
  if (pgUrl) {
    schema = `bench_${crypto.randomBytes(6).toString('hex')}`;
    await pgQuery(pgUrl, `create schema ${schema}`);
    const url = new URL(pgUrl);
    url.searchParams.set('options', `-c search_path=${schema}`);
    databaseUrl = url.toString();
  }
  const receivers = await startReceivers();
  const admin = { email: 'bench-admin@example.com', password: crypto.randomBytes(12).toString('base64url') };
  const port = await freePort();
  const env = gatewayEnv(
    { port, dataDir, admin, databaseUrl },
    { NODE_ENV: 'production', LOG_LEVEL: 'warn', SMTP_URL: receivers.smtpUrl, PUSH_ALLOW_HTTP: 'on', WEB_URL: 'https://play.example.test' },
  );
  const separate = args.worker === 'separate';
  const child = spawnTracked(process.execPath, [SERVER], {
    cwd: ROOT,
    env: { ...env, NOTIFY_WORKER: separate ? 'off' : 'on' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let worker;
  const lines = [];
  const keep = (chunk) => {
    for (const l of String(chunk).split('\n')) if (l.trim()) lines.push(l);
    if (lines.length > 200) lines.splice(0, lines.length - 200);
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  const cleanup = async () => {
    if (worker) await killGroup(worker.pid, 10_000);
    await killGroup(child.pid, 10_000);
    await receivers.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
    if (schema) await pgQuery(pgUrl, `drop schema if exists ${schema} cascade`).catch(() => {});
  };
  const removeCleanup = onCleanup(cleanup);
  const baseUrl = `http://127.0.0.1:${port}`;
  try {
    for (let i = 0; ; i++) {
      try {
        if ((await fetch(`${baseUrl}/healthz`)).ok) break;
      } catch {
        // not yet
      }
      if (i > 600) throw new Error(`the gateway did not start: ${lines.slice(-10).join('\n')}`);
      await sleep(100);
    }
    // After the gateway: it migrated the database and wrote DATA_DIR's VAPID keys, which the worker reads.
    if (separate) {
      worker = spawnTracked(process.execPath, [WORKER], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
      worker.stdout.on('data', keep);
      worker.stderr.on('data', keep);
    }
    const { token } = await call(baseUrl, 'POST', '/api/auth/login', { json: { emailOrPhone: admin.email, password: admin.password } });
    const api = (method, urlPath, json) => call(baseUrl, method, urlPath, { token, json });
    const form = tournamentForm(SQUADS, {
      name: 'BGMI Notify Bench 1000',
      description: 'A 1,000-squad tournament for the notifications benchmark.',
      overview: 'Forty lobbies.',
    });
    const tid = (await call(baseUrl, 'POST', '/tournaments/add', { token, form })).id;
    await seed({ databaseUrl, dataDir }, tid, receivers.pushUrl);
    const stage = await api('POST', `/tournaments/${tid}/stages`, { name: 'Qualifiers', lobbySize: LOBBY, advancePerGroup: 4 });
    const drawn = await api('POST', `/tournaments/${tid}/stages/${stage.id}/groups`, { method: 'registration' });
    if (drawn.groups.length !== SQUADS / LOBBY) throw new Error(`${drawn.groups.length} groups`);
    await api('POST', `/tournaments/${tid}/stages/${stage.id}/publish`);
    const scheduled = await api('POST', `/tournaments/${tid}/stages/${stage.id}/matches`, {
      // Six matches a day at most.
      matches: Array.from({ length: MATCHES }, (_, i) => ({
        day: 1 + Math.floor(i / 6),
        matchNo: 1 + (i % 6),
        map: 'Erangel',
        time: '18:00',
      })),
    });
    // The publish's 1,000 notices (2,000 messages) go out first: wait them out, then count from zero.
    await receivedAtLeast(receivers, 2 * SQUADS); // the publish's notices: a mail and a push per squad
    const base = await receivers.count();

    // Idle: the hot read alone.
    await fetch(`${baseUrl}/tournaments/${tid}`).then((r) => r.arrayBuffer());
    const idle = hotReads(baseUrl, tid);
    await sleep(5000);
    const idleTimes = await idle.stop();

    // The burst: 10 room saves of 40 groups each, the hot read running meanwhile.
    const busy = hotReads(baseUrl, tid);
    const t0 = nowMs();
    const saveTimes = [];
    for (let m = 1; m <= MATCHES; m++) {
      const rooms = scheduled
        .filter((x) => x.matchNo === m)
        .map((x) => ({ id: x.id, matchId: String(5_000_000 + x.id), password: `p${x.id}` }));
      const s = performance.now();
      await api('PUT', `/tournaments/${tid}/stages/${stage.id}/rooms`, { rooms });
      saveTimes.push(performance.now() - s);
    }
    const expected = SQUADS * MATCHES * 2;
    const deadline = performance.now() + 180_000;
    let got = await receivers.count();
    while (got.mails + got.pushes - base.mails - base.pushes < expected && performance.now() < deadline) {
      await sleep(100);
      got = await receivers.count();
    }
    const busyTimes = await busy.stop();
    const mails = got.mails - base.mails;
    const pushes = got.pushes - base.pushes;
    const total = (got.last - t0) / 1000;
    const notifications = Math.min(mails, pushes);
    const result = {
      database,
      worker: args.worker === 'separate' ? 'its own process (gateway/dist/worker.js, nice 19)' : 'in the gateway process',
      notifications: SQUADS * MATCHES,
      events: (SQUADS / LOBBY) * MATCHES,
      mails,
      pushes,
      roomSaveMs: { median: Math.round(pct(saveTimes, 50)), max: Math.round(Math.max(...saveTimes)) },
      secondsToLastDelivered: Number(total.toFixed(2)),
      notificationsPerSecond: Math.round(notifications / total),
      messagesPerSecond: Math.round((mails + pushes) / total),
      hotReadIdleMs: latencies(idleTimes),
      hotReadBusyMs: latencies(busyTimes),
      pass: mails === SQUADS * MATCHES && pushes === SQUADS * MATCHES && total * 1000 <= TARGET_MS,
    };
    console.log(JSON.stringify(result, null, 2));
    return result;
  } finally {
    await cleanup();
    removeCleanup();
  }
}

stopAllOnExit();
if (!args['no-build']) {
  await run('npm', ['run', 'build:packages'], { cwd: ROOT });
  await run('npm', ['run', 'build:gateway'], { cwd: ROOT });
}
const results = [await runOn('sqlite')];
if (process.env.BENCH_DATABASE_URL) results.push(await runOn('postgres', process.env.BENCH_DATABASE_URL));
const date = new Date().toISOString();
const file = args.json ? path.resolve(args.json) : path.join(RESULTS, `${date.slice(0, 16).replace(':', '')}-notify.json`);
fs.mkdirSync(path.dirname(file), { recursive: true });
fs.writeFileSync(file, `${JSON.stringify({ date, machine: `${os.cpus().length} cores, ${os.cpus()[0]?.model}`, results }, null, 2)}\n`);
console.log(`written ${path.relative(ROOT, file)}`);
process.exit(results.every((r) => r.pass) ? 0 : 1);
