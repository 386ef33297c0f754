#!/usr/bin/env node
// `npm run bench:images-share` (issue 20, decision 049): what a points-table image costs.
//
//   node scripts/bench-images-share.mjs [--no-build] [--seconds 5] [--rounds 3] [--connections 10] [--json FILE]
//
// Builds the packages and the gateway first (--no-build skips it), starts `node gateway/dist/server.js` on
// a temporary SQLite database, creates a BGMI tournament with 25 squads (written through the gateway's own
// repository: setup, not timed) and 3 matches of results (HTTP, as admin), then reports:
//   - render: the 25-team card rendered in this process by the built renderer (SVG -> sharp), median and
//     max of 20 renders after 3 warm-ups;
//   - cold request: GET /tournaments/{id}/points-table.png right after a result write (the gateway reads
//     the table and renders), median and max of 10 writes;
//   - cached req/s: autocannon on the cached image, beside a minimal Fastify app in its own process that
//     sends the same bytes from memory with the same headers, in interleaved rounds (the order flips every
//     round); the median of the per-round ratios must reach 0.7x.
// Exits 1 when the ratio misses 0.7x or a request fails.

import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { insertSquad } from './lib/bench-helpers.mjs';
import { freePort } from './lib/ports.mjs';
import { killGroup, onCleanup, run, spawnTracked, stopAll, stopAllOnExit } from './lib/processes.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SELF = fileURLToPath(import.meta.url);
const SERVER = path.join(ROOT, 'gateway', 'dist', 'server.js');
const dist = (p) => pathToFileURL(path.join(ROOT, 'gateway', 'dist', p)).href;
const TEAMS = 25;
const TARGET_RATIO = 0.7;

const { values: args } = parseArgs({
  options: {
    'no-build': { type: 'boolean', default: false },
    'reference-server': { type: 'boolean', default: false },
    seconds: { type: 'string', default: '5' },
    rounds: { type: 'string', default: '3' },
    connections: { type: 'string', default: '10' },
    json: { type: 'string' },
  },
});

/** The reference: a minimal Fastify route sending BENCH_PNG's bytes with the gateway's headers. */
async function referenceServer() {
  const { default: Fastify } = await import('fastify');
  const app = Fastify({ logger: false });
  const answer = JSON.parse(fs.readFileSync(process.env.BENCH_PNG, 'utf8'));
  const body = Buffer.from(answer.body, 'base64');
  app.get(answer.path.split('?')[0], (_request, reply) => {
    reply
      .header('x-request-id', crypto.randomUUID())
      .header('cache-control', answer.cacheControl)
      .header('etag', answer.etag)
      .header('x-content-type-options', 'nosniff')
      .header('content-disposition', answer.contentDisposition)
      .type('image/png')
      .send(body);
  });
  app.get('/healthz', async () => ({ status: 'ok' }));
  await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
  const stop = () => app.close().then(() => process.exit(0));
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
};
const ms = (n) => `${n.toFixed(1)} ms`;

async function waitForHealth(baseUrl, child) {
  let exited = null;
  void child.exited.then((e) => (exited = e));
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (exited) throw new Error(`a server exited before it was ready (code ${exited.code})`);
    try {
      if ((await fetch(`${baseUrl}/healthz`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${baseUrl} did not become healthy within 60 s`);
}

async function call(baseUrl, method, urlPath, { token, json } = {}) {
  const headers = { accept: 'application/json' };
  if (token) headers.authorization = `Bearer ${token}`;
  if (json !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(baseUrl + urlPath, { method, headers, body: json === undefined ? undefined : JSON.stringify(json) });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${urlPath} answered ${res.status}: ${text.slice(0, 300)}`);
  return text ? JSON.parse(text) : null;
}

/** 25 squads written through the gateway's repository (its built modules), as one transaction. */
async function seedSquads(dataDir, tid) {
  const { openDatabase } = await import(dist('db/index.js'));
  const { insertUser } = await import(dist('db/users.js'));
  const { insertRegistration } = await import(dist('db/registrations.js'));
  const { bumpGeneration } = await import(dist('db/generation.js'));
  const names = ['Soul Esports', 'GodLike 🔥', 'टीम इंडिया', 'क्षत्रिय योद्धा', 'शेर दल 🦁'];
  const store = await openDatabase({ dataDir });
  const rids = [];
  try {
    await store.writeTransaction(async (trx) => {
      for (let i = 1; i <= TEAMS; i++) {
        const { rid } = await insertSquad(
          { insertUser, insertRegistration },
          trx,
          tid,
          i,
          names[i - 1] ?? `Squad ${String(i).padStart(2, '0')} Esports`,
        );
        rids.push(rid);
      }
      await bumpGeneration(trx, tid);
    });
  } finally {
    await store.close();
  }
  return rids;
}

/** A 25-team overall card like the gateway draws, with Devanagari names and emoji, for the in-process render time. */
function benchCard(title, imagePath) {
  return {
    site: 'Custom Room',
    title,
    subtitle: 'BGMI · Overall',
    columns: [
      { label: '#', align: 'center', width: 76 },
      { label: 'Team', align: 'start', width: 'fill' },
      { label: 'M', align: 'end', width: 64 },
      { label: 'Place', align: 'end', width: 100 },
      { label: 'Fin.', align: 'end', width: 84 },
      { label: 'Wins', align: 'end', width: 84 },
      { label: 'Total', align: 'end', width: 104, bold: true },
    ],
    rows: Array.from({ length: TEAMS }, (_, i) => ({
      cells: [
        String(i + 1),
        i < 5 ? ['Soul Esports', 'GodLike 🔥', 'टीम इंडिया', 'क्षत्रिय योद्धा', 'शेर दल 🦁'][i] : `Squad ${i + 1} Esports`,
        '3',
        '20',
        '9',
        '1',
        '29',
      ],
      ...(i < 3 ? { medal: i + 1 } : {}),
    })),
    url: `http://localhost:3000${imagePath.replace('.png', '')}`,
    more: (n) => `and ${n} more`,
    empty: 'No results yet.',
  };
}

/** 23 renders of the card in this process; the first 3 warm up and are not counted. */
async function timeRenders(renderTableCard, card) {
  const renders = [];
  let png;
  for (let i = 0; i < 23; i++) {
    const started = performance.now();
    png = await renderTableCard(card);
    if (i >= 3) renders.push(performance.now() - started);
  }
  return { renders, png };
}

/** The suite's figures as JSON: medians of the rounds. */
function summaryOf({ pairs, renders, png, cold, pngBytes, connections, seconds, rounds }) {
  const ratio = median(pairs.map((p) => p.gateway.rps / p.reference.rps));
  const failed = pairs.reduce((n, p) => n + p.gateway.bad + p.reference.bad, 0);
  return {
    suite: 'images-share',
    node: process.version,
    cpus: os.cpus().length,
    database: 'sqlite',
    teams: TEAMS,
    pngBytes,
    renderMs: { median: median(renders), max: Math.max(...renders), samples: renders.length, bytes: png.length },
    coldRequestMs: { median: median(cold), max: Math.max(...cold), samples: cold.length },
    cached: {
      connections,
      seconds,
      rounds,
      rps: median(pairs.map((p) => p.gateway.rps)),
      p99: median(pairs.map((p) => p.gateway.p99)),
      referenceRps: median(pairs.map((p) => p.reference.rps)),
      ratio,
      target: TARGET_RATIO,
      failed,
    },
  };
}

/** The figures, one line each, as `npm run bench:images-share` prints them. */
function printSummary(summary, renderCount, coldCount) {
  const { ratio, failed } = summary.cached;
  console.log('');
  console.log(
    `Node ${process.version}, ${os.cpus().length} CPUs, SQLite; a ${TEAMS}-team points table, 1080×1350 PNG of ${summary.pngBytes} bytes`,
  );
  console.log(
    `  render (in process, sharp):   median ${ms(summary.renderMs.median)}, max ${ms(summary.renderMs.max)} (${renderCount} renders)`,
  );
  console.log(
    `  cold request after a write:   median ${ms(summary.coldRequestMs.median)}, max ${ms(summary.coldRequestMs.max)} (${coldCount} writes)`,
  );
  console.log(
    `  cached: ${Math.round(summary.cached.rps)} req/s (p99 ${summary.cached.p99} ms) vs same bytes from memory ${Math.round(summary.cached.referenceRps)} req/s: ${ratio.toFixed(2)}x (target >= ${TARGET_RATIO}x)${failed ? `, ${failed} failed` : ''}`,
  );
}

async function main() {
  const seconds = Number(args.seconds);
  const rounds = Number(args.rounds);
  const connections = Number(args.connections);
  stopAllOnExit();
  if (!args['no-build']) {
    for (const script of ['build:packages', 'build:gateway']) {
      const { status } = await run('npm', ['run', '--silent', script], { cwd: ROOT });
      if (status !== 0) throw new Error(`npm run ${script} failed`);
    }
  }
  const { default: autocannon } = await import('autocannon');
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-images-share-'));
  const children = [];
  onCleanup(async () => {
    await Promise.all(children.map((c) => c.pid && killGroup(c.pid)));
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  const admin = { email: 'bench-admin@example.com', password: crypto.randomBytes(12).toString('base64url') };
  const gatewayPort = await freePort();
  const env = { ...process.env };
  delete env.DATABASE_URL;
  Object.assign(env, {
    GATEWAY_HOST: '127.0.0.1',
    GATEWAY_PORT: String(gatewayPort),
    DATA_DIR: dataDir,
    SEED_DEMO: '0',
    RATE_LIMIT: 'off',
    LOG_LEVEL: 'warn',
    NOTIFY_WORKER: 'off',
    ADMIN_EMAIL: admin.email,
    ADMIN_PASSWORD: admin.password,
    ADMIN_USERNAME: 'benchadmin',
    ADMIN_PHONE: '9000000009',
  });
  const gatewayUrl = `http://127.0.0.1:${gatewayPort}`;
  children.push(spawnTracked(process.execPath, [SERVER], { env, stdio: ['ignore', 'inherit', 'inherit'] }));
  await waitForHealth(gatewayUrl, children[0]);

  const { token } = await call(gatewayUrl, 'POST', '/api/auth/login', { json: { emailOrPhone: admin.email, password: admin.password } });
  const iso = (days) => new Date(Date.now() + days * 86_400_000).toISOString();
  const form = new FormData();
  const fields = {
    name: 'Monsoon Clash · Season 3',
    game: 'BGMI',
    description: 'Bench.',
    startDate: iso(10),
    endDate: iso(12),
    registrationOpen: iso(-1),
    registrationClose: iso(9),
    maxTeams: '100',
    format: 'Squad',
    platform: 'Mobile',
    entryFee: '0',
    prizePool: '₹1,000',
    status: 'Registration Ongoing',
    overview: 'Bench.',
    pointsSystem: 'bmps-15',
  };
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  const created = await fetch(`${gatewayUrl}/tournaments/add`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: form,
  });
  if (created.status !== 200) throw new Error(`create tournament: ${created.status} ${await created.text()}`);
  const tid = (await created.json()).id;
  const rids = await seedSquads(dataDir, tid);
  const results = (shift) => rids.map((teamId, i) => ({ teamId, position: ((i * 7 + shift) % TEAMS) + 1, finishes: (i * 3 + shift) % 4 })); // within the lobby (issue 27 item 8)
  for (let m = 1; m <= 3; m++)
    await call(gatewayUrl, 'PUT', `/tournaments/${tid}/points-table/matches/1/${m}`, { token, json: { results: results(m) } });
  const imagePath = `/tournaments/${tid}/points-table.png`;

  // Render time in this process, through the built renderer, of the same kind of card.
  const { renderTableCard } = await import(dist('lib/share-image.js'));
  const card = benchCard(fields.name, imagePath);
  const { renders, png } = await timeRenders(renderTableCard, card);

  // Cold requests: the first request after a result write reads the table and renders.
  const cold = [];
  for (let i = 0; i < 10; i++) {
    await call(gatewayUrl, 'PUT', `/tournaments/${tid}/points-table/matches/2/1`, { token, json: { results: results(10 + i) } });
    const started = performance.now();
    const res = await fetch(gatewayUrl + imagePath);
    await res.arrayBuffer();
    cold.push(performance.now() - started);
    if (res.status !== 200) throw new Error(`cold image: ${res.status}`);
  }

  // The cached image beside the same bytes from memory.
  const res = await fetch(gatewayUrl + imagePath);
  const body = Buffer.from(await res.arrayBuffer());
  const answerFile = path.join(dataDir, 'png.json');
  fs.writeFileSync(
    answerFile,
    JSON.stringify({
      path: imagePath,
      body: body.toString('base64'),
      etag: res.headers.get('etag'),
      cacheControl: res.headers.get('cache-control'),
      contentDisposition: res.headers.get('content-disposition'),
    }),
  );
  const referencePort = await freePort();
  children.push(
    spawnTracked(process.execPath, [SELF, '--reference-server'], {
      env: { ...process.env, PORT: String(referencePort), BENCH_PNG: answerFile },
      stdio: ['ignore', 'inherit', 'inherit'],
    }),
  );
  const referenceUrl = `http://127.0.0.1:${referencePort}`;
  await waitForHealth(referenceUrl, children[1]);
  if (!Buffer.from(await (await fetch(referenceUrl + imagePath)).arrayBuffer()).equals(body))
    throw new Error('the reference serves other bytes');

  const measure = async (label, url, duration) => {
    const r = await autocannon({ url, connections, duration });
    const bad = r.non2xx + r.errors + r.timeouts;
    if (label) console.log(`  ${label}: ${Math.round(r.requests.average)} req/s, p99 ${r.latency.p99} ms${bad ? `, ${bad} failed` : ''}`);
    return { rps: r.requests.average, p99: r.latency.p99, bad };
  };
  await measure('', gatewayUrl + imagePath, 1);
  await measure('', referenceUrl + imagePath, 1);
  const pairs = [];
  for (let round = 1; round <= rounds; round++) {
    console.log(`Round ${round}/${rounds}:`);
    const pair = {};
    for (const side of round % 2 ? ['gateway', 'reference'] : ['reference', 'gateway'])
      pair[side] = await measure(side, (side === 'gateway' ? gatewayUrl : referenceUrl) + imagePath, seconds);
    pairs.push(pair);
  }
  await new Promise((r) => setTimeout(r, 500));

  const summary = summaryOf({ pairs, renders, png, cold, pngBytes: body.length, connections, seconds, rounds });
  const { ratio, failed } = summary.cached;
  printSummary(summary, renders.length, cold.length);
  if (args.json) fs.writeFileSync(path.resolve(args.json), `${JSON.stringify(summary, null, 2)}\n`);
  await stopAll();
  process.exit(ratio >= TARGET_RATIO && failed === 0 ? 0 : 1);
}

if (args['reference-server']) await referenceServer();
else await main();
