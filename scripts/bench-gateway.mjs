#!/usr/bin/env node
// Gateway throughput benchmark: npm run bench:gateway [-- --json FILE] (after npm run build:gateway).
//
// Starts the built gateway on a temporary SQLite database (or BENCH_DATABASE_URL), fills it
// through the HTTP API as admin (50 tournaments; in one of them 25 teams x 6 matches x 5 days of
// points), fetches each target's answer once, and starts the reference: a minimal Fastify app in
// its own process serving exactly those bytes from memory at the same paths, with the same
// content-type and ETag (and an x-request-id like the gateway's). Then autocannon measures each
// target and its reference in interleaved rounds (the order flips every round), so drift on a
// shared machine hits both alike. Reported: medians of req/s and the median of the per-round
// ratios target/reference (decision 023: the hot reads must reach 0.7x).
//
// Env: BENCH_SECONDS (10) per run, BENCH_ROUNDS (3), BENCH_CONNECTIONS (10), BENCH_WARMUP=0 (no warm-up),
//      BENCH_DATABASE_URL (postgres://...; the run uses a schema of its own and drops it after;
//      default: SQLite in a temp dir).
// --json FILE writes {"suite":"gateway","database":"sqlite|postgres","rows":[...],"notes":[...]}.

import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { call, gatewayEnv, pgQuery, startChild, stopChild, waitForHealth } from './lib/bench-helpers.mjs';
import { freePort } from './lib/ports.mjs';
import { onCleanup, run as runCommand, stopAllOnExit } from './lib/processes.mjs';
import { pool } from './lib/rush.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SELF = fileURLToPath(import.meta.url);
const SERVER = path.join(ROOT, 'gateway', 'dist', 'server.js');

const TOURNAMENTS = 50;
const TEAMS = 25;
const DAYS = 5;
const MATCHES_PER_DAY = 6;
const TARGET_RATIO = 0.7;
/** The tournament (index) run in stages: free, so its teams are confirmed at once. */
const STAGED = 6;
const REFERENCE = 'minimal Fastify route, same bytes';

/**
 * The reference: the least a Fastify route can do to send the same answer, in its own process like
 * the gateway. BENCH_ANSWERS names a JSON file of { path, body (base64), contentType, etag }.
 */
async function referenceServer(port) {
  const { default: Fastify } = await import('fastify');
  const app = Fastify({ logger: false });
  const answers = JSON.parse(fs.readFileSync(process.env.BENCH_ANSWERS, 'utf8'));
  for (const answer of answers) {
    const body = Buffer.from(answer.body, 'base64');
    const [pathname] = answer.path.split('?');
    app.get(pathname, (_request, reply) => {
      reply.header('x-request-id', crypto.randomUUID()).header('content-type', answer.contentType);
      if (answer.etag) reply.header('etag', answer.etag);
      reply.send(body);
    });
  }
  app.get('/healthz', async () => ({ status: 'ok' }));
  await app.listen({ port, host: '127.0.0.1' });
  const stop = () => app.close().then(() => process.exit(0));
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

function jsonOutputPath() {
  const i = process.argv.indexOf('--json');
  if (i === -1) return undefined;
  const file = process.argv[i + 1];
  if (!file || file.startsWith('--')) {
    console.error('bench-gateway: --json needs a file name');
    process.exit(2);
  }
  return path.resolve(file);
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

  stopAllOnExit();
  await ensureBuilt();
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
    if (schema)
      await pgQuery(databaseUrl, `drop schema if exists ${schema} cascade`).catch((err) =>
        console.error(`bench-gateway: could not drop schema ${schema}: ${err.message}`),
      );
  };
  onCleanup(cleanup);

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
    const env = gatewayEnv({ port: gatewayPort, dataDir, admin, databaseUrl: gatewayDatabaseUrl });
    const gatewayUrl = `http://127.0.0.1:${gatewayPort}`;
    children.push(startChild('gateway', [SERVER], env));
    await waitForHealth(gatewayUrl, children[0]);

    console.log(
      `Populating through the API: ${TOURNAMENTS} tournaments; ${TEAMS} teams x ${MATCHES_PER_DAY} matches x ${DAYS} days of points in one...`,
    );
    const started = Date.now();
    const { tid, staged } = await populate(gatewayUrl, admin);
    console.log(`Populated in ${((Date.now() - started) / 1000).toFixed(1)} s.`);

    const targets = benchTargets(tid, staged);
    const referenceUrl = await startReference(gatewayUrl, targets, dataDir, children);

    const run = (url, duration) => autocannon({ url, connections, duration, headers: { accept: 'application/json' } });
    const measure = async (label, url) => {
      process.stdout.write(`  ${label} for ${seconds} s... `);
      const result = await run(url, seconds);
      const bad = result.non2xx + result.errors + result.timeouts;
      console.log(
        `${Math.round(result.requests.average).toLocaleString('en-IN')} req/s, p99 ${result.latency.p99} ms${bad ? `, ${bad} failed` : ''}`,
      );
      return { rps: result.requests.average, p99: result.latency.p99, bad };
    };

    // BENCH_WARMUP=0 (npm run bench -- --short): no warm-up runs.
    if (process.env.BENCH_WARMUP !== '0') {
      console.log('Warming up (1 s each)...');
      for (const t of targets) {
        await run(gatewayUrl + t.path, 1);
        await run(referenceUrl + t.path, 1);
      }
    }

    const runs = new Map(targets.map((t) => [t.name, []]));
    for (let round = 1; round <= rounds; round++) {
      console.log(`Round ${round}/${rounds}:`);
      for (const t of targets) {
        // Alternate which goes first, so neither always runs on a machine warmed (or tired) by the other.
        const order = round % 2 ? ['gateway', 'reference'] : ['reference', 'gateway'];
        const pair = {};
        for (const side of order)
          pair[side] = await measure(`${t.name} (${side})`, (side === 'gateway' ? gatewayUrl : referenceUrl) + t.path);
        runs.get(t.name).push(pair);
      }
    }

    const summary = summarise(targets, runs);
    // autocannon stops on time with requests still in flight; let the servers finish them before shutdown.
    await new Promise((r) => setTimeout(r, 1000));
    const setup = { connections, seconds, rounds, databaseUrl };
    const failed = printSummary(summary, setup);
    const jsonFile = jsonOutputPath();
    if (jsonFile) writeJsonReport(jsonFile, summary, setup, failed);
  } catch (err) {
    console.error(`bench-gateway: ${err.message}`);
    process.exitCode = 1;
  } finally {
    await cleanup();
  }
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
};

/** Each target's medians over the rounds, beside its reference's, and the median of the per-round ratios. */
function summarise(targets, runs) {
  return targets.map((t) => {
    const r = runs.get(t.name);
    const ratio = median(r.map((p) => p.gateway.rps / p.reference.rps));
    return {
      ...t,
      rps: median(r.map((p) => p.gateway.rps)),
      p99: median(r.map((p) => p.gateway.p99)),
      referenceRps: median(r.map((p) => p.reference.rps)),
      ratio,
      bad: r.reduce((n, p) => n + p.gateway.bad + p.reference.bad, 0),
    };
  });
}

/** Prints the table of medians; answers whether some requests failed (then the figures are not valid). */
function printSummary(summary, { connections, seconds, rounds, databaseUrl }) {
  console.log('');
  console.log(
    `Node ${process.version}, ${os.cpus().length} CPUs, ${databaseUrl ? 'PostgreSQL' : 'SQLite'}; ${connections} connections, ${seconds} s x ${rounds} round(s), medians:`,
  );
  const header = ['target', 'bytes', 'req/s', 'p99 ms', 'reference req/s', 'ratio', `>= ${TARGET_RATIO}x`, 'failed'];
  const rows = summary.map((s) => [
    `${s.name} (${s.detail})`,
    String(s.bytes),
    Math.round(s.rps).toLocaleString('en-IN'),
    String(s.p99),
    Math.round(s.referenceRps).toLocaleString('en-IN'),
    `${s.ratio.toFixed(2)}x`,
    s.ratio >= TARGET_RATIO ? 'yes' : 'NO',
    String(s.bad),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
  console.log(line(header));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const r of rows) console.log(line(r));
  const failed = summary.some((s) => s.bad > 0);
  if (failed) {
    console.log('\nSome requests failed (non-2xx, errors or timeouts): the numbers above are not valid.');
    process.exitCode = 1;
  }
  return failed;
}

/** The --json report (scripts/bench.mjs reads it). */
function writeJsonReport(jsonFile, summary, { connections, seconds, rounds, databaseUrl }, failed) {
  const database = databaseUrl ? 'postgres' : 'sqlite';
  const report = {
    suite: 'gateway',
    database,
    rows: summary.map((s) => ({
      name: s.name,
      value: Math.round(s.rps),
      unit: 'req/s',
      reference: REFERENCE,
      referenceValue: Math.round(s.referenceRps),
      ratio: Number(s.ratio.toFixed(3)),
      target: `≥ ${TARGET_RATIO}×`,
      pass: s.ratio >= TARGET_RATIO && s.bad === 0,
    })),
    notes: [
      `Node ${process.version}, ${os.cpus().length} CPUs, ${connections} connections, ${seconds} s x ${rounds} interleaved round(s); req/s are medians, ratio is the median of the per-round ratios.`,
      `Data: ${TOURNAMENTS} tournaments; the measured one has ${TEAMS} teams and ${DAYS * MATCHES_PER_DAY} matches of results. Answer sizes: ${summary.map((s) => `${s.name} ${s.bytes} B`).join(', ')}.`,
      'Reference: a minimal Fastify app in its own process serving the bytes the gateway answered, with the same content-type, ETag and an x-request-id.',
      ...(failed ? ['Some requests failed: the figures are not valid.'] : []),
    ],
  };
  fs.writeFileSync(jsonFile, `${JSON.stringify(report, null, 2)}\n`);
  console.log(`Wrote ${jsonFile}`);
}

/** The measured reads: the hot public answers of the big tournament and of the staged one. */
function benchTargets(tid, staged) {
  return [
    { name: 'GET /tournaments', detail: `${TOURNAMENTS} tournaments`, path: '/tournaments' },
    { name: 'GET /tournaments/{id}', detail: `${TEAMS} teams registered`, path: `/tournaments/${tid}` },
    {
      name: 'GET /tournaments/{id}/points-table/day',
      detail: `day 1: ${TEAMS} teams, ${MATCHES_PER_DAY} matches`,
      path: `/tournaments/${tid}/points-table/day?day=1`,
    },
    {
      name: 'GET /tournaments/{id}/points-table/overall',
      detail: `${TEAMS} teams, ${DAYS * MATCHES_PER_DAY} matches`,
      path: `/tournaments/${tid}/points-table/overall`,
    },
    {
      name: 'GET /tournaments/{id}/stages',
      detail: `${TEAMS} teams in ${staged.groups} groups`,
      path: `/tournaments/${staged.tid}/stages`,
    },
    {
      name: 'GET …/points-table/day?group=',
      detail: `one group, day 1: ${MATCHES_PER_DAY} matches`,
      path: `/tournaments/${staged.tid}/points-table/day?day=1&group=${staged.groupId}`,
    },
    {
      name: 'GET …/points-table/overall?stage=',
      detail: `${TEAMS} teams in ${staged.groups} groups`,
      path: `/tournaments/${staged.tid}/points-table/overall?stage=${staged.stageId}`,
    },
  ];
}

/**
 * Starts the reference on the bytes the gateway answered for each target (and notes their size),
 * checks it serves the same bytes, and answers its URL.
 */
async function startReference(gatewayUrl, targets, dataDir, children) {
  const answers = [];
  for (const t of targets) {
    const res = await fetch(gatewayUrl + t.path, { headers: { accept: 'application/json' } });
    if (res.status !== 200) throw new Error(`GET ${t.path} answered ${res.status}`);
    const body = Buffer.from(await res.arrayBuffer());
    t.bytes = body.length;
    answers.push({
      path: t.path,
      body: body.toString('base64'),
      contentType: res.headers.get('content-type'),
      etag: res.headers.get('etag'),
    });
  }
  const answersFile = path.join(dataDir, 'answers.json');
  fs.writeFileSync(answersFile, JSON.stringify(answers));
  const referencePort = await freePort();
  children.push(
    startChild('reference', [SELF, '--reference-server'], { ...process.env, PORT: String(referencePort), BENCH_ANSWERS: answersFile }),
  );
  const referenceUrl = `http://127.0.0.1:${referencePort}`;
  await waitForHealth(referenceUrl, children[1]);
  for (const [i, t] of targets.entries()) {
    const copy = Buffer.from(await (await fetch(referenceUrl + t.path)).arrayBuffer());
    if (!copy.equals(Buffer.from(answers[i].body, 'base64'))) throw new Error(`the reference does not serve the same bytes for ${t.path}`);
  }
  return referenceUrl;
}

/** The benchmark measures the build; build it when it is missing, warn when it looks stale. */
async function ensureBuilt() {
  if (!fs.existsSync(SERVER)) {
    console.log('gateway/dist is missing: running `npm run build:packages` and `npm run build:gateway` first...');
    // The gateway imports the shared packages' dist/ (decision 038): they build first.
    let build = await runCommand('npm', ['run', 'build:packages'], { cwd: ROOT });
    if (build.status === 0) build = await runCommand('npm', ['run', 'build:gateway'], { cwd: ROOT });
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
      // The first one takes the teams, and so does the seventh (free, run in stages): their registration must be open.
      status: i === 0 || i === STAGED ? 'Registration Ongoing' : statuses[i % statuses.length],
      overview: 'Day 1-5: six matches a day on Erangel, Miramar and Sanhok.',
      pointsSystem: 'bgis-10',
    };
    for (const [k, v] of Object.entries(fields)) form.append(k, v);
    ids[i] = (await call(baseUrl, 'POST', '/tournaments/add', { token, form })).id;
  });
  const tid = ids[0];
  const staged = ids[STAGED];

  const rids = new Array(TEAMS);
  const stagedRids = new Array(TEAMS);
  await pool([...Array(TEAMS).keys()], 4, async (i) => {
    const tag = `b${i + 1}`;
    const user = {
      email: `bench${i + 1}@example.com`,
      phone: `98${String(76000000 + i).padStart(8, '0')}`,
      username: `bench_${i + 1}`,
      password: 'bench-password-123',
    };
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
    stagedRids[i] = (await call(baseUrl, 'POST', `/registrations/${staged}`, { token: login.token, json: team })).rid;
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
        submissions.push({
          day,
          match,
          teamId,
          teamName: '',
          position,
          wins: position === 1 ? 1 : 0,
          finishes: Math.floor(Math.random() * 4),
          totalPoints: 0,
        });
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

  // Decision 041: the staged tournament's 25 teams in lobbies of 12 (groups of 9, 8, 8), one day of matches.
  const stages = `/tournaments/${staged}/stages`;
  const stage = await call(baseUrl, 'POST', stages, { token, json: { name: 'Qualifiers', lobbySize: 12, advancePerGroup: 4 } });
  const drawn = await call(baseUrl, 'POST', `${stages}/${stage.id}/groups`, {
    token,
    json: { method: 'random', seed: 'bench', confirmSplit: true },
  });
  await call(baseUrl, 'POST', `${stages}/${stage.id}/publish`, { token, json: {} });
  const schedule = [...Array(MATCHES_PER_DAY).keys()].map((m) => ({ day: 1, matchNo: m + 1, map: 'Erangel', time: '18:30' }));
  await call(baseUrl, 'POST', `${stages}/${stage.id}/matches`, { token, json: { matches: schedule } });
  for (const group of drawn.groups) {
    for (let match = 1; match <= MATCHES_PER_DAY; match++) {
      const order = group.slots.map((s) => s.teamId).sort(() => Math.random() - 0.5);
      const results = order.map((teamId, i) => ({ teamId, position: i + 1, finishes: Math.floor(Math.random() * 4) }));
      await call(baseUrl, 'PUT', `/tournaments/${staged}/points-table/matches/1/${match}`, { token, json: { groupId: group.id, results } });
    }
  }
  if (stagedRids.some((rid) => !rid)) throw new Error('a team is missing from the staged tournament');
  return { tid, staged: { tid: staged, stageId: stage.id, groupId: drawn.groups[0].id, groups: drawn.groups.length } };
}

// Last, so every module-level constant above is initialised first.
if (process.argv[2] === '--reference-server') {
  await referenceServer(Number(process.env.PORT));
} else {
  await main();
}
