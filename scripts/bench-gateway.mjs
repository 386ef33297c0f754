#!/usr/bin/env node
// Gateway throughput benchmark: npm run bench:gateway (after npm run build:gateway).
//
// Starts the built gateway on a temporary SQLite database (or BENCH_DATABASE_URL), fills it
// through the HTTP API as admin (50 tournaments; in one of them 25 teams x 6 matches x 5 days of
// points), starts a minimal Fastify app as the baseline, then measures with autocannon, rounds
// interleaved so drift on a shared machine hits every target alike.
//
// Env: BENCH_SECONDS (10) per run, BENCH_ROUNDS (3), BENCH_CONNECTIONS (10),
//      BENCH_DATABASE_URL (postgres://...; the run uses a schema of its own and drops it after;
//      default: SQLite in a temp dir).

import { spawn, spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SELF = fileURLToPath(import.meta.url);
const SERVER = path.join(ROOT, 'gateway', 'dist', 'server.js');

const TOURNAMENTS = 50;
const TEAMS = 25;
const DAYS = 5;
const MATCHES_PER_DAY = 6;

/** The baseline: the least a Fastify route can do, in its own process like the gateway. */
async function minimalServer(port) {
  const { default: Fastify } = await import('fastify');
  const app = Fastify({ logger: false });
  const body = [
    { id: 1, name: 'Alpha', status: 'Upcoming' },
    { id: 2, name: 'Bravo', status: 'Ongoing' },
    { id: 3, name: 'Charlie', status: 'Completed' },
  ];
  app.get('/minimal', async () => body);
  app.get('/healthz', async () => ({ status: 'ok' }));
  await app.listen({ port, host: '127.0.0.1' });
  const stop = () => app.close().then(() => process.exit(0));
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

function envInt(name, fallback) {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1) {
    console.error(`bench-gateway: ${name} must be a whole number >= 1 (got "${raw}")`);
    process.exit(2);
  }
  return n;
}

async function main() {
  const seconds = envInt('BENCH_SECONDS', 10);
  const rounds = envInt('BENCH_ROUNDS', 3);
  const connections = envInt('BENCH_CONNECTIONS', 10);
  const databaseUrl = process.env.BENCH_DATABASE_URL || undefined;

  ensureBuilt();
  const { default: autocannon } = await import('autocannon');

  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-gateway-'));
  const children = [];
  let schema;
  let cleaned = false;
  const cleanup = async () => {
    if (cleaned) return;
    cleaned = true;
    await Promise.all(children.map(stopChild));
    fs.rmSync(dataDir, { recursive: true, force: true });
    if (schema) await pgQuery(databaseUrl, `drop schema if exists ${schema} cascade`).catch((err) => console.error(`bench-gateway: could not drop schema ${schema}: ${err.message}`));
  };
  const onSignal = () => cleanup().finally(() => process.exit(130));
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);

  try {
    const admin = { email: 'bench-admin@example.com', password: crypto.randomBytes(12).toString('base64url') };
    let gatewayDatabaseUrl;
    if (databaseUrl) {
      schema = `bench_${crypto.randomBytes(6).toString('hex')}`;
      await pgQuery(databaseUrl, `create schema ${schema}`);
      const url = new URL(databaseUrl);
      url.searchParams.set('options', `-c search_path=${schema}`);
      gatewayDatabaseUrl = url.toString();
    }
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
      ADMIN_EMAIL: admin.email,
      ADMIN_PASSWORD: admin.password,
      ADMIN_USERNAME: 'benchadmin',
      ADMIN_PHONE: '9000000009',
      ...(gatewayDatabaseUrl ? { DATABASE_URL: gatewayDatabaseUrl } : {}),
    });
    const gatewayUrl = `http://127.0.0.1:${gatewayPort}`;
    children.push(startChild('gateway', [SERVER], env));
    await waitForHealth(gatewayUrl, children[0]);

    console.log(`Populating through the API: ${TOURNAMENTS} tournaments; ${TEAMS} teams x ${MATCHES_PER_DAY} matches x ${DAYS} days of points in one...`);
    const started = Date.now();
    const tid = await populate(gatewayUrl, admin);
    console.log(`Populated in ${((Date.now() - started) / 1000).toFixed(1)} s.`);

    const minimalPort = await freePort();
    children.push(startChild('minimal', [SELF, '--minimal-server'], { ...process.env, PORT: String(minimalPort) }));
    const minimalUrl = `http://127.0.0.1:${minimalPort}`;
    await waitForHealth(minimalUrl, children[1]);

    const targets = [
      { name: 'minimal Fastify GET /minimal', url: `${minimalUrl}/minimal` },
      { name: `GET /tournaments (${TOURNAMENTS})`, url: `${gatewayUrl}/tournaments` },
      { name: `GET /tournaments/{id}/points-table/overall (${TEAMS} teams, ${DAYS * MATCHES_PER_DAY} matches)`, url: `${gatewayUrl}/tournaments/${tid}/points-table/overall` },
    ];
    const runs = new Map(targets.map((t) => [t.name, []]));

    const run = (url, duration) =>
      autocannon({ url, connections, duration, headers: { accept: 'application/json' } });

    console.log(`Warming up (1 s each)...`);
    for (const t of targets) await run(t.url, 1);

    for (let round = 1; round <= rounds; round++) {
      for (const t of targets) {
        process.stdout.write(`Round ${round}/${rounds}: ${t.name} for ${seconds} s... `);
        const result = await run(t.url, seconds);
        const bad = result.non2xx + result.errors + result.timeouts;
        runs.get(t.name).push({ rps: result.requests.average, p99: result.latency.p99, bad });
        console.log(`${Math.round(result.requests.average).toLocaleString('en-IN')} req/s, p99 ${result.latency.p99} ms${bad ? `, ${bad} failed` : ''}`);
      }
    }

    const median = (xs) => {
      const s = [...xs].sort((a, b) => a - b);
      const mid = Math.floor(s.length / 2);
      return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
    };
    const summary = targets.map((t) => {
      const r = runs.get(t.name);
      return { name: t.name, rps: median(r.map((x) => x.rps)), p99: median(r.map((x) => x.p99)), bad: r.reduce((n, x) => n + x.bad, 0) };
    });
    const base = summary[0];
    // autocannon stops on time with requests still in flight; let the servers finish them before shutdown.
    await new Promise((r) => setTimeout(r, 1000));

    console.log('');
    console.log(`Node ${process.version}, ${os.cpus().length} CPUs, ${databaseUrl ? 'PostgreSQL' : 'SQLite'}; ${connections} connections, ${seconds} s x ${rounds} round(s), medians:`);
    const header = ['target', 'req/s', 'p99 ms', 'req/s vs minimal', 'failed'];
    const rows = summary.map((s) => [
      s.name,
      Math.round(s.rps).toLocaleString('en-IN'),
      String(s.p99),
      `${((s.rps / base.rps) * 100).toFixed(1)}%`,
      String(s.bad),
    ]);
    const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
    const line = (cells) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
    console.log(line(header));
    console.log(widths.map((w) => '-'.repeat(w)).join('  '));
    for (const r of rows) console.log(line(r));
    if (summary.some((s) => s.bad > 0)) {
      console.log('\nSome requests failed (non-2xx, errors or timeouts): the numbers above are not valid.');
      process.exitCode = 1;
    }
  } catch (err) {
    console.error(`bench-gateway: ${err.message}`);
    process.exitCode = 1;
  } finally {
    await cleanup();
  }
}

/** The benchmark measures the build; build it when it is missing, warn when it looks stale. */
function ensureBuilt() {
  if (!fs.existsSync(SERVER)) {
    console.log('gateway/dist is missing: running `npm run build:gateway` first...');
    const build = spawnSync('npm', ['run', 'build:gateway'], { cwd: ROOT, stdio: 'inherit' });
    if (build.status !== 0 || !fs.existsSync(SERVER)) {
      console.error('bench-gateway: the build failed; fix it and run `npm run build:gateway`.');
      process.exit(1);
    }
    return;
  }
  const newestSource = newestMtime(path.join(ROOT, 'gateway', 'src'));
  if (newestSource > fs.statSync(SERVER).mtimeMs) {
    console.warn('Note: gateway/src is newer than gateway/dist; run `npm run build:gateway` to measure the current code.');
  }
}

function newestMtime(dir) {
  let newest = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(p) : fs.statSync(p).mtimeMs);
  }
  return newest;
}

async function pgQuery(databaseUrl, text) {
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

function startChild(name, args, env) {
  const child = spawn(process.execPath, args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  child.output = '';
  const forward = (chunk) => {
    child.output += chunk;
    for (const l of String(chunk).split('\n')) if (l.trim()) process.stderr.write(`[${name}] ${l}\n`);
  };
  child.stdout.on('data', forward);
  child.stderr.on('data', forward);
  child.exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  return child;
}

async function stopChild(child) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await child.exited;
  clearTimeout(timer);
}

async function waitForHealth(baseUrl, child) {
  const deadline = Date.now() + 60_000;
  let exited = null;
  child.exited.then((e) => (exited = e));
  while (Date.now() < deadline) {
    if (exited) throw new Error(`${baseUrl} exited before it was ready (code ${exited.code}, signal ${exited.signal})`);
    try {
      const res = await fetch(`${baseUrl}/healthz`);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${baseUrl} did not become healthy within 60 s`);
}

async function call(baseUrl, method, urlPath, { token, json, form } = {}) {
  const headers = {};
  if (token) headers.authorization = `Bearer ${token}`;
  let body;
  if (json !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(json);
  } else if (form) {
    body = form;
  }
  const res = await fetch(baseUrl + urlPath, { method, headers, body });
  const text = await res.text();
  const data = text ? JSON.parse(text) : null;
  if (!res.ok) throw new Error(`${method} ${urlPath} answered ${res.status}: ${text.slice(0, 300)}`);
  return data;
}

/** Runs fn over items with at most `limit` in flight. */
async function pool(items, limit, fn) {
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      await fn(items[i], i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

const isoIn = (days) => new Date(Date.now() + days * 86_400_000).toISOString();

/** Fills the gateway through its API; returns the id of the tournament with the points. */
async function populate(baseUrl, admin) {
  const { token } = await call(baseUrl, 'POST', '/api/auth/login', { json: { emailOrPhone: admin.email, password: admin.password } });
  const statuses = ['Registration Ongoing', 'Upcoming', 'Ongoing', 'Completed', 'Registration Closed'];
  const ids = new Array(TOURNAMENTS);
  await pool([...Array(TOURNAMENTS).keys()], 4, async (i) => {
    const form = new FormData();
    const fields = {
      name: `Bench Cup ${i + 1}`,
      game: i % 4 === 3 ? 'Free Fire' : 'BGMI',
      description: 'A squad tournament created by the gateway benchmark. '.repeat(4).trim(),
      startDate: isoIn(10 + i),
      endDate: isoIn(12 + i),
      registrationOpen: isoIn(-1),
      registrationClose: isoIn(9 + i),
      maxTeams: String(TEAMS),
      format: 'Squad',
      platform: 'Mobile',
      entryFee: String((i % 6) * 100),
      prizePool: '₹25,000',
      // The first one takes the teams, so its registration must be open.
      status: i === 0 ? 'Registration Ongoing' : statuses[i % statuses.length],
      overview: 'Day 1-5: six matches a day on Erangel, Miramar and Sanhok.',
      pointsSystem: 'bgis-10',
    };
    for (const [k, v] of Object.entries(fields)) form.append(k, v);
    ids[i] = (await call(baseUrl, 'POST', '/tournaments/add', { token, form })).id;
  });
  const tid = ids[0];

  const rids = new Array(TEAMS);
  await pool([...Array(TEAMS).keys()], 4, async (i) => {
    const tag = `b${i + 1}`;
    const user = { email: `bench${i + 1}@example.com`, phone: `98${String(76000000 + i).padStart(8, '0')}`, username: `bench_${i + 1}`, password: 'bench-password-123' };
    await call(baseUrl, 'POST', '/api/auth/register', { json: user });
    const login = await call(baseUrl, 'POST', '/api/auth/login', { json: { emailOrPhone: user.email, password: user.password } });
    const team = {
      teamName: `Bench Squad ${i + 1}`,
      player1Username: `${tag}_one`,
      player2Username: `${tag}_two`,
      player3Username: `${tag}_three`,
      player4Username: `${tag}_four`,
      substitute1Username: '',
      substitute2Username: '',
    };
    rids[i] = (await call(baseUrl, 'POST', `/registrations/${tid}`, { token: login.token, json: team })).rid;
  });

  const submissions = [];
  for (let day = 1; day <= DAYS; day++) {
    for (let match = 1; match <= MATCHES_PER_DAY; match++) {
      const order = [...rids];
      for (let i = order.length - 1; i > 0; i--) {
        const j = Math.floor(Math.random() * (i + 1));
        [order[i], order[j]] = [order[j], order[i]];
      }
      order.forEach((teamId, i) => {
        const position = i + 1;
        submissions.push({ day, match, teamId, teamName: '', position, wins: position === 1 ? 1 : 0, finishes: Math.floor(Math.random() * 8), totalPoints: 0 });
      });
    }
  }
  await pool(submissions, 8, (body) => call(baseUrl, 'POST', `/tournaments/${tid}/points-table`, { token, json: body }));

  const overall = await call(baseUrl, 'GET', `/tournaments/${tid}/points-table/overall`);
  if (overall.length !== TEAMS || overall.some((r) => r.matchesPlayed !== DAYS * MATCHES_PER_DAY)) {
    throw new Error('the overall table does not show every team with every match');
  }
  const list = await call(baseUrl, 'GET', '/tournaments');
  if (list.length !== TOURNAMENTS) throw new Error(`GET /tournaments lists ${list.length} tournaments, expected ${TOURNAMENTS}`);
  return tid;
}

// Last, so every module-level constant above is initialised first.
if (process.argv[2] === '--minimal-server') {
  await minimalServer(Number(process.env.PORT));
} else {
  await main();
}
