#!/usr/bin/env node
// `node scripts/bench-images.mjs` (after `npm run build:gateway`): do cover-image requests delay logins
// and page reads? (issue 16 item 10, decision 032)
//
// Starts the compiled gateway on a temporary SQLite database, uploads IMAGES tournaments with distinct
// 1600×900 covers, then measures, in three phases, 20 logins (one after another, POST /api/auth/login:
// argon2) and 20 page reads (one after another, GET /tournaments/{id}) while
//   - nothing else runs (baseline);
//   - cold: 100 clients each ask for the .jpg of its own cover, never asked for before, and keep asking
//     until the logins and reads are done (stored JPEG rows are deleted first, as for covers uploaded
//     before the JPEG was stored at upload);
//   - warm: the same 100 clients again, every JPEG already made.
// Reports median / p95 / max of logins and reads per phase, the .jpg answers per second and the time until
// each of the 100 cold covers had been answered once. No pass/fail: the figures go in the decision record.
//
//   npm run bench:images -- [--images 100] [--clients 100] [--port 4460] [--database-url postgres://...]
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import sharp from 'sharp';
import { killGroup, spawnTracked, stopAllOnExit } from './lib/processes.mjs';

// The flood runs in a worker thread: 100 fetch loops on the timing thread's event loop would delay
// the timed requests' own answers and be counted against the gateway.
if (!isMainThread) {
  const { urls, clients } = workerData;
  let done = false;
  let answers = 0;
  let failures = 0;
  const firstAnswered = [];
  const start = performance.now();
  parentPort.once('message', () => (done = true));
  await Promise.all(
    Array.from({ length: clients }, async (_, k) => {
      let first = true;
      while (!done) {
        const res = await fetch(urls[k % urls.length]);
        const body = await res.arrayBuffer();
        if (res.status !== 200 || body.byteLength === 0) failures++;
        answers++;
        if (first) firstAnswered.push(performance.now() - start);
        first = false;
      }
    }),
  );
  parentPort.postMessage({
    answers,
    failures,
    seconds: (performance.now() - start) / 1000,
    allFirstAnsweredMs: Math.max(...firstAnswered),
  });
  process.exit(0);
}

const { values: args } = parseArgs({
  options: {
    images: { type: 'string', default: '100' },
    clients: { type: 'string', default: '100' },
    port: { type: 'string', default: '4460' },
    'database-url': { type: 'string' },
    // Another build of the gateway (e.g. an older commit's gateway/dist/server.js) for a before/after.
    server: { type: 'string' },
  },
});
const IMAGES = Number(args.images);
const CLIENTS = Number(args.clients);
const PORT = Number(args.port);
const SAMPLES = 20;
const ROOT = path.resolve(import.meta.dirname, '..');
const ADMIN = { email: 'bench-admin@example.com', password: 'bench-admin-password-1', username: 'benchadmin', phone: '9000000077' };
const base = `http://127.0.0.1:${PORT}`;

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-images-'));
let databaseUrl = args['database-url'];
let schema;
if (databaseUrl) {
  schema = `bench_images_${process.pid}`;
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  await client.query(`create schema ${schema}`);
  await client.end();
  const url = new URL(databaseUrl);
  url.searchParams.set('options', `-c search_path=${schema}`);
  databaseUrl = url.toString();
}

stopAllOnExit();
const gateway = spawnTracked(process.execPath, [path.resolve(args.server ?? path.join(ROOT, 'gateway/dist/server.js'))], {
  env: {
    PATH: process.env.PATH,
    NODE_ENV: 'production',
    DATA_DIR: dataDir,
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    GATEWAY_PORT: String(PORT),
    SEED_DEMO: '0',
    RATE_LIMIT: 'off',
    LOG_LEVEL: 'warn',
    ADMIN_EMAIL: ADMIN.email,
    ADMIN_PASSWORD: ADMIN.password,
    ADMIN_USERNAME: ADMIN.username,
    ADMIN_PHONE: ADMIN.phone,
  },
  stdio: ['ignore', 'inherit', 'inherit'],
});
const stopGateway = () => killGroup(gateway.pid);

for (let i = 0; ; i++) {
  try {
    if ((await fetch(`${base}/healthz`)).ok) break;
  } catch {
    // not up yet
  }
  if (i > 300 || gateway.exitCode !== null) throw new Error('bench-images: the gateway did not start');
  await new Promise((r) => setTimeout(r, 100));
}

async function login() {
  const res = await fetch(`${base}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ emailOrPhone: ADMIN.email, password: ADMIN.password }),
  });
  if (res.status !== 200) throw new Error(`login: ${res.status} ${await res.text()}`);
  return (await res.json()).token;
}

/** A photo-like cover: smooth colour fields plus noise, so it costs what a real one costs to encode. */
async function cover(seed) {
  const width = 1600;
  const height = 900;
  const raw = Buffer.alloc(width * height * 3);
  let x = seed * 2654435761;
  for (let p = 0; p < width * height; p++) {
    x = (x * 1103515245 + 12345) >>> 0;
    const col = p % width;
    const row = (p / width) | 0;
    raw[p * 3] = (col * 255) / width + (x & 31);
    raw[p * 3 + 1] = (row * 255) / height + ((x >> 5) & 31);
    raw[p * 3 + 2] = (seed * 37 + ((x >> 10) & 63)) & 255;
  }
  return sharp(raw, { raw: { width, height, channels: 3 } })
    .jpeg({ quality: 90 })
    .toBuffer();
}

const iso = (days) => new Date(Date.now() + days * 86_400_000).toISOString();
const admin = await login();
const tournaments = [];
process.stdout.write(`bench-images: uploading ${IMAGES} covers `);
for (let i = 0; i < IMAGES; i++) {
  const form = new FormData();
  const fields = {
    name: `Bench Cup ${i}`,
    game: 'BGMI',
    description: 'Bench.',
    startDate: iso(10),
    endDate: iso(12),
    registrationOpen: iso(-1),
    registrationClose: iso(9),
    maxTeams: '16',
    format: 'Squad',
    platform: 'Mobile',
    entryFee: '0',
    prizePool: '₹1,000',
    status: 'Registration Ongoing',
    overview: 'Bench.',
  };
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  form.append('coverImage', new Blob([await cover(i + 1)], { type: 'image/jpeg' }), 'cover.jpg');
  const res = await fetch(`${base}/tournaments/add`, { method: 'POST', headers: { authorization: `Bearer ${admin}` }, body: form });
  if (res.status !== 200) throw new Error(`upload: ${res.status} ${await res.text()}`);
  tournaments.push(await res.json());
  if (i % 10 === 9) process.stdout.write('.');
}
console.log('');
const jpgUrls = tournaments.map((t) => `${base}${t.coverImageUrl.replace(/\.webp$/, '.jpg')}`);

/** Forget the stored JPEGs (if this gateway stores them), as for covers uploaded before it did. */
async function forgetJpegs() {
  if (databaseUrl) {
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    const exists = await client.query(`select 1 from information_schema.tables where table_schema = $1 and table_name = 'image_jpegs'`, [
      schema,
    ]);
    if (exists.rowCount) await client.query('delete from image_jpegs');
    await client.end();
    return;
  }
  const db = new SQLite(path.join(dataDir, 'custom-room.sqlite'));
  db.pragma('busy_timeout = 5000');
  if (db.prepare(`select 1 from sqlite_master where name = 'image_jpegs'`).get()) db.prepare('delete from image_jpegs').run();
  db.close();
}

async function timed(fn) {
  const start = performance.now();
  await fn();
  return performance.now() - start;
}

async function lanes() {
  const logins = [];
  const reads = [];
  await Promise.all([
    (async () => {
      for (let i = 0; i < SAMPLES; i++) logins.push(await timed(login));
    })(),
    (async () => {
      for (let i = 0; i < SAMPLES; i++) {
        const t = tournaments[i % tournaments.length];
        reads.push(
          await timed(async () => {
            const res = await fetch(`${base}/tournaments/${t.id}`);
            if (res.status !== 200) throw new Error(`read: ${res.status}`);
            await res.arrayBuffer();
          }),
        );
      }
    })(),
  ]);
  return { logins, reads };
}

/** CLIENTS clients (in a worker thread), client k asking for cover k mod IMAGES again and again until `until` settles. */
async function flood(until) {
  const worker = new Worker(new URL(import.meta.url), { workerData: { urls: jpgUrls, clients: CLIENTS } });
  const finished = new Promise((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
  });
  const result = await until();
  worker.postMessage('stop');
  const counts = await finished;
  return {
    ...result,
    jpgPerSecond: counts.answers / counts.seconds,
    failures: counts.failures,
    allFirstAnsweredMs: counts.allFirstAnsweredMs,
  };
}

const quantile = (list, q) => {
  const sorted = [...list].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)];
};
const ms = (v) => `${Math.round(v)} ms`;
const line = (name, list) => `${name} median ${ms(quantile(list, 0.5))}, p95 ${ms(quantile(list, 0.95))}, max ${ms(Math.max(...list))}`;

const baseline = await lanes();
await forgetJpegs();
const cold = await flood(lanes);
const warm = await flood(lanes);

console.log(
  `bench-images (${databaseUrl ? 'postgres' : 'sqlite'}, ${IMAGES} covers, ${CLIENTS} .jpg clients, ${SAMPLES} logins and ${SAMPLES} reads per phase, ${os.cpus().length} cores, load ${os.loadavg()[0].toFixed(1)}):`,
);
console.log(`  baseline: ${line('login', baseline.logins)}; ${line('read', baseline.reads)}`);
for (const [name, r] of [
  ['cold', cold],
  ['warm', warm],
]) {
  console.log(
    `  ${name}: ${line('login', r.logins)}; ${line('read', r.reads)}; .jpg ${Math.round(r.jpgPerSecond)}/s, ${r.failures} failed, every cover answered once after ${ms(r.allFirstAnsweredMs)}`,
  );
}
await stopGateway();
if (schema) {
  const client = new pg.Client({ connectionString: args['database-url'] });
  await client.connect();
  await client.query(`drop schema ${schema} cascade`);
  await client.end();
}
fs.rmSync(dataDir, { recursive: true, force: true });
