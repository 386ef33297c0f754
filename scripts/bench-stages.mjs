#!/usr/bin/env node
// `npm run bench:stages`: issue 18's 1,000-squad BGMI tournament against the built gateway, timing each
// organiser step as the one request it is (budget: < 1 s each, decision 041).
//
//   node scripts/bench-stages.mjs [--pg] [--no-build] [--json FILE]
//
// Builds first (npm run build:packages && npm run build:gateway; --no-build skips it), then, on SQLite and
// (with --pg, or when BENCH_DATABASE_URL / DATABASE_URL is set) on PostgreSQL: starts
// `node gateway/dist/server.js` with its own DATA_DIR (or schema) and port, creates a free-entry BGMI
// tournament over HTTP, writes 1,000 squads through the gateway's own repository (setup, not timed: 1,000
// sign-ups are the rush benchmark's business), then runs Qualifiers (40 groups of 25, top 4) → Semi-finals
// (160 squads, 7 groups, top 2 + best 2) → Grand Final (16 squads), each with 4 matches:
// generate groups, publish, the stage's schedule, the rooms of one match for every group in one PUT,
// every group match's results batch (median and max), complete.
// PostgreSQL: BENCH_DATABASE_URL or DATABASE_URL (a schema of its own, dropped after), else with --pg a
// throw-away cluster (scripts/pg-throwaway.sh). Writes bench/results/<date>-stages.json (or --json FILE).
// Exits 1 when a step fails or misses its budget.

import { spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { gatewayEnv, pgQuery, tournamentForm, insertSquad } from './lib/bench-helpers.mjs';
import { freePort } from './lib/ports.mjs';
import { killGroup, onCleanup, run, spawnTracked, startCluster, stopAllOnExit, stopCluster } from './lib/processes.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SERVER = path.join(ROOT, 'gateway', 'dist', 'server.js');
const RESULTS = path.join(ROOT, 'bench', 'results');
const BUDGET_MS = 1000;
const SQUADS = 1000;
const MATCHES = 4;
const MAPS = ['Erangel', 'Miramar', 'Sanhok', 'Vikendi'];
const count = (n, one, many) => `${n} ${n === 1 ? one : many}`;

const { values: args } = parseArgs({
  options: { pg: { type: 'boolean', default: false }, 'no-build': { type: 'boolean', default: false }, json: { type: 'string' } },
});
const pgUrlFromEnv = process.env.BENCH_DATABASE_URL || process.env.DATABASE_URL || undefined;

stopAllOnExit();

/** mulberry32: the same placements on every run. */
function prng(seed) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let x = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}

async function call(baseUrl, method, urlPath, { token, json, form } = {}) {
  const headers = { accept: 'application/json' };
  if (token) headers.authorization = `Bearer ${token}`;
  let body;
  if (json !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(json);
  } else if (form) body = form;
  const started = performance.now();
  const res = await fetch(baseUrl + urlPath, { method, headers, body });
  const text = await res.text();
  const ms = performance.now() - started;
  if (!res.ok) throw new Error(`${method} ${urlPath} answered ${res.status}: ${text.slice(0, 300)}`);
  return { data: text ? JSON.parse(text) : null, ms, bytes: Buffer.byteLength(text) };
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
};

async function waitForHealth(baseUrl, child) {
  let exited = null;
  void child.exited.then((e) => (exited = e));
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (exited) throw new Error(`the gateway exited before it was ready (code ${exited.code}): ${child.tail().join('\n')}`);
    try {
      if ((await fetch(`${baseUrl}/healthz`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('the gateway did not become healthy within 60 s');
}

/** 1,000 squads written through the gateway's repository (its built modules), as one transaction. */
async function seedSquads({ databaseUrl, dataDir }, tid) {
  const dist = (p) => pathToFileURL(path.join(ROOT, 'gateway', 'dist', p)).href;
  const { openDatabase } = await import(dist('db/index.js'));
  const { insertUser } = await import(dist('db/users.js'));
  const { insertRegistration } = await import(dist('db/registrations.js'));
  const { bumpGeneration } = await import(dist('db/generation.js'));
  const store = await openDatabase({ databaseUrl, dataDir });
  try {
    await store.writeTransaction(async (trx) => {
      for (let i = 1; i <= SQUADS; i++) {
        await insertSquad({ insertUser, insertRegistration }, trx, tid, i);
      }
      await bumpGeneration(trx, tid);
    });
  } finally {
    await store.close();
  }
}

/** One database: a fresh gateway, the whole tournament, the rows of the table. */
/** The day's results: per match and group, its squads in a random order with random finishes, one PUT each; answers each PUT's time. */
async function sendResults(api, tid, day, groups, random) {
  const batchTimes = [];
  for (let m = 1; m <= MATCHES; m++) {
    for (const g of groups) {
      const ids = g.slots.map((s) => s.teamId);
      for (let i = ids.length - 1; i > 0; i--) {
        const j = Math.floor(random() * (i + 1));
        [ids[i], ids[j]] = [ids[j], ids[i]];
      }
      let left = 4 * (ids.length - 1);
      const results = ids.map((teamId, i) => {
        const finishes = Math.min(left, Math.floor(random() * 4) + (i < 5 ? Math.floor(random() * 5) : 0));
        left -= finishes;
        return { teamId, position: i + 1, finishes };
      });
      batchTimes.push((await api('PUT', `/tournaments/${tid}/points-table/matches/${day}/${m}`, { groupId: g.id, results })).ms);
    }
  }
  return batchTimes;
}

async function runOn(database, pgUrl) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-stages-'));
  let schema;
  let databaseUrl;
  if (pgUrl) {
    schema = `bench_${crypto.randomBytes(6).toString('hex')}`;
    await pgQuery(pgUrl, `create schema ${schema}`);
    const url = new URL(pgUrl);
    url.searchParams.set('options', `-c search_path=${schema}`);
    databaseUrl = url.toString();
  }
  const admin = { email: 'bench-admin@example.com', password: crypto.randomBytes(12).toString('base64url') };
  const port = await freePort();
  const env = gatewayEnv({ port, dataDir, admin, databaseUrl }, { NODE_ENV: 'production' });
  const child = spawnTracked(process.execPath, [SERVER], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  const lines = [];
  const keep = (chunk) => {
    for (const l of String(chunk).split('\n')) if (l.trim()) lines.push(l);
    if (lines.length > 200) lines.splice(0, lines.length - 200);
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  child.tail = () => lines.slice(-20);
  const cleanup = async () => {
    await killGroup(child.pid, 10_000);
    fs.rmSync(dataDir, { recursive: true, force: true });
    if (schema)
      await pgQuery(pgUrl, `drop schema if exists ${schema} cascade`).catch((err) =>
        console.error(`bench-stages: drop schema ${schema}: ${err.message}`),
      );
  };
  const removeCleanup = onCleanup(cleanup);

  const rows = [];
  const notes = [];
  const step = (name, ms, detail = '') => {
    rows.push({ name, value: Math.round(ms), unit: 'ms', target: `< ${BUDGET_MS} ms`, pass: ms < BUDGET_MS, detail });
    console.log(`  ${name.padEnd(58)} ${String(Math.round(ms)).padStart(6)} ms${detail ? `  (${detail})` : ''}`);
  };
  try {
    const baseUrl = `http://127.0.0.1:${port}`;
    await waitForHealth(baseUrl, child);
    const { token } = (await call(baseUrl, 'POST', '/api/auth/login', { json: { emailOrPhone: admin.email, password: admin.password } }))
      .data;
    const api = (method, urlPath, json) => call(baseUrl, method, urlPath, { token, json });

    const form = tournamentForm(SQUADS, {
      name: 'BGMI Monsoon Showdown 1000',
      description: 'A 1,000-squad BGMI tournament created by the stages benchmark.',
      overview: 'Qualifiers, semi-finals and a grand final of 16 squads.',
      pointsSystem: 'bmps-15',
    });
    const tid = (await call(baseUrl, 'POST', '/tournaments/add', { token, form })).data.id;
    const seeded = performance.now();
    await seedSquads({ databaseUrl, dataDir }, tid);
    notes.push(
      `Setup: ${SQUADS} squads written through the repository in ${Math.round(performance.now() - seeded)} ms (not timed as a step).`,
    );
    const registered = (await api('GET', `/tournaments/${tid}`)).data.registeredTeams;
    if (registered !== SQUADS) throw new Error(`the tournament has ${registered} teams, expected ${SQUADS}`);

    const stagesUrl = `/tournaments/${tid}/stages`;
    const plan = [
      { body: { name: 'Qualifiers', advancePerGroup: 4 }, draw: { method: 'random', seed: 'bench-1000' }, groups: 40, qualifiers: 160 },
      { body: { name: 'Semi-finals', advancePerGroup: 2, advanceBest: 2 }, draw: { method: 'seeded' }, groups: 7, qualifiers: 16 },
      { body: { name: 'Grand Final' }, draw: { method: 'seeded' }, groups: 1, qualifiers: 0 },
    ];
    const stages = [];
    for (const p of plan) stages.push((await api('POST', stagesUrl, p.body)).data);
    const random = prng(41);

    for (const [index, p] of plan.entries()) {
      const stage = stages[index];
      const url = `${stagesUrl}/${stage.id}`;
      const label = stage.name;
      const drawn = await api('POST', `${url}/groups`, p.draw);
      const groups = drawn.data.groups;
      if (groups.length !== p.groups) throw new Error(`${label}: ${groups.length} groups, expected ${p.groups}`);
      const teams = groups.reduce((n, g) => n + g.slots.length, 0);
      step(`${label}: generate groups (${p.draw.method})`, drawn.ms, `${teams} squads → ${count(groups.length, 'group', 'groups')}`);
      step(`${label}: publish`, (await api('POST', `${url}/publish`)).ms);
      const matches = Array.from({ length: MATCHES }, (_, i) => ({ day: index + 1, matchNo: i + 1, map: MAPS[i], time: `1${i + 4}:00` }));
      const scheduled = await api('POST', `${url}/matches`, { matches });
      if (scheduled.data.length !== MATCHES * groups.length) throw new Error(`${label}: ${scheduled.data.length} matches scheduled`);
      step(`${label}: schedule`, scheduled.ms, `${MATCHES} rows → ${scheduled.data.length} matches`);
      const roomTimes = [];
      for (let m = 1; m <= MATCHES; m++) {
        const rooms = scheduled.data
          .filter((x) => x.matchNo === m)
          .map((x) => ({ id: x.id, matchId: String(5_000_000 + x.id), password: `p${x.id.toString(36)}` }));
        roomTimes.push((await api('PUT', `${url}/rooms`, { rooms })).ms);
      }
      step(
        `${label}: ${count(groups.length, 'room', 'rooms')} in one PUT, max of ${MATCHES}`,
        Math.max(...roomTimes),
        `median ${Math.round(median(roomTimes))} ms`,
      );

      const batchTimes = await sendResults(api, tid, index + 1, groups, random);
      step(`${label}: results batch, median of ${batchTimes.length}`, median(batchTimes), `${groups[0].slots.length} rows each`);
      step(`${label}: results batch, max of ${batchTimes.length}`, Math.max(...batchTimes));
      if (index === 0) {
        const table = await call(baseUrl, 'GET', `/tournaments/${tid}/points-table/overall?stage=${stage.id}`);
        step(`${label}: stage table read (anonymous, first read)`, table.ms, `${table.data.length} rows, ${table.bytes} B`);
      }
      const done = await api('POST', `${url}/complete`);
      if (done.data.qualifiers.length !== p.qualifiers)
        throw new Error(`${label}: ${done.data.qualifiers.length} qualifiers, expected ${p.qualifiers}`);
      step(`${label}: complete`, done.ms, `${done.data.qualifiers.length} qualifiers`);
    }
    const list = await call(baseUrl, 'GET', stagesUrl);
    step('GET /tournaments/{id}/stages (anonymous, first read)', list.ms, `${list.data.length} stages, ${list.bytes} B`);
    return { label: `stages, ${database === 'postgres' ? 'PostgreSQL' : 'SQLite'}`, database, exit: 0, rows, notes };
  } catch (err) {
    console.error(`bench-stages (${database}): ${err.message}`);
    return { label: `stages, ${database === 'postgres' ? 'PostgreSQL' : 'SQLite'}`, database, exit: 1, error: err.message, rows, notes };
  } finally {
    removeCleanup();
    await cleanup();
  }
}

function gitCommit() {
  const r = spawnSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: ROOT, encoding: 'utf8' });
  return r.status === 0 ? r.stdout.trim() : 'unknown';
}

async function main() {
  if (!args['no-build']) {
    console.log('bench-stages: npm run build:packages && npm run build:gateway');
    for (const script of ['build:packages', 'build:gateway']) {
      if ((await run('npm', ['run', script], { cwd: ROOT })).status !== 0) {
        console.error(`bench-stages: npm run ${script} failed`);
        process.exit(1);
      }
    }
  } else if (!fs.existsSync(SERVER)) {
    console.error('bench-stages: gateway/dist is missing; run without --no-build');
    process.exit(1);
  }

  const suites = [];
  console.log(`\nSQLite (${SQUADS} squads, ${MATCHES} matches per stage):`);
  suites.push(await runOn('sqlite'));
  if (args.pg || pgUrlFromEnv) {
    let url = pgUrlFromEnv;
    let dir;
    if (!url) {
      dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-stages-pg-'));
      fs.chmodSync(dir, 0o755);
      url = startCluster(path.join(dir, 'cluster'));
    }
    try {
      console.log(`\nPostgreSQL (${SQUADS} squads, ${MATCHES} matches per stage):`);
      suites.push(await runOn('postgres', url));
    } finally {
      if (dir) {
        stopCluster(path.join(dir, 'cluster'));
        fs.rmSync(dir, { recursive: true, force: true });
      }
    }
  }

  // The table: one line per step, a column per database.
  const names = [...new Set(suites.flatMap((s) => s.rows.map((r) => r.name)))];
  const header = ['step', ...suites.map((s) => s.label.replace('stages, ', '')), `< ${BUDGET_MS} ms`];
  const lines = names.map((name) => {
    const cells = suites.map((s) => s.rows.find((r) => r.name === name));
    return [name, ...cells.map((c) => (c ? `${c.value} ms` : '')), cells.every((c) => c?.pass) ? 'yes' : 'NO'];
  });
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i].length)));
  const fmt = (cells) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
  console.log(`\nNode ${process.version}, ${os.cpus().length} CPUs; each step is one request:`);
  console.log(fmt(header));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const l of lines) console.log(fmt(l));

  const date = new Date().toISOString();
  const result = {
    date,
    commit: gitCommit(),
    machine: { cpus: os.cpus().length, node: process.versions.node, platform: `${process.platform} ${process.arch}` },
    suites: suites.map((s) => ({
      label: s.label,
      script: 'bench-stages.mjs',
      exit: s.exit,
      ...(s.error ? { error: s.error } : {}),
      rows: s.rows,
      notes: s.notes,
    })),
  };
  const file = args.json ? path.resolve(args.json) : path.join(RESULTS, `${date.slice(0, 16).replace(':', '')}-stages.json`);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, `${JSON.stringify(result, null, 2)}\n`);
  console.log(`\nWrote ${path.relative(ROOT, file)}`);
  const failed = suites.some((s) => s.exit !== 0 || s.rows.some((r) => !r.pass));
  if (failed) {
    console.log('A step failed or took 1 s or more.');
    process.exitCode = 1;
  }
}

await main();
