#!/usr/bin/env node
// `npm run bench`: every benchmark of the product in one run, figures beside their references.
//
// Runs, one after the other on the production build (built first when missing):
//   gateway   scripts/bench-gateway.mjs      hot reads vs a minimal Fastify route serving the same bytes
//                                            (SQLite, then PostgreSQL)
//   staff     scripts/bench-staff.mjs        what the crew's access check adds to an organiser's write (SQLite, then PostgreSQL)
//   reports   scripts/bench-reports.mjs      25 captains of a lobby report at once and staff confirm; 1,000 reports
//                                            with screenshots in 2 minutes (SQLite, then PostgreSQL)
//   statements scripts/bench-statements.mjs  a 5,000-row statement against 1,000 payments: parse and match, verify
//                                            (SQLite, then PostgreSQL)
//   web       scripts/bench-web-throughput.mjs  anonymous pages vs a static file of the same server
//   weights   scripts/bench-web.mjs          HTML/JS gzip sizes, stylesheets, image sizes, CLS
//   rush      scripts/bench-rush.mjs         1,000 signed-in players post the team form for 100 slots
//                                            (SQLite, then PostgreSQL)
//   room-rush scripts/bench-room-rush.mjs    1,000 captains open their room within 10 s, one web process and two
//                                            (SQLite, then PostgreSQL; decision 086)
//   lighthouse scripts/bench-lighthouse.mjs  mobile Lighthouse on six pages (Debian's chromium)
//   first-paint scripts/bench-first-paint.mjs  LCP and hydration in chromium with DevTools slow-4G throttling
// Each script writes its rows as JSON (`--json FILE`); this one gathers them into
// bench/results/<date>.json and bench/results/<date>.md and puts the table in the README between
// the `bench:start` and `bench:end` markers.
//
// PostgreSQL: BENCH_DATABASE_URL, or a throw-away cluster (scripts/pg-throwaway.sh) started here.
// Options: --only gateway,web,... (a subset; the README is then left alone), --no-readme, --short (below).
// Exits 1 when a suite fails to run or a target is missed.

import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { run as runTracked, startCluster, stopAllOnExit, stopCluster } from './lib/processes.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const RESULTS = path.join(ROOT, 'bench', 'results');

const args = process.argv.slice(2);
const onlyArg = args.find((a) => a.startsWith('--only'));
const only = onlyArg ? (onlyArg.includes('=') ? onlyArg.split('=')[1] : args[args.indexOf(onlyArg) + 1]).split(',') : null;
const short = args.includes('--short');
const writeReadme = !only && !short && !args.includes('--no-readme');

// --short (issue 32): every benchmark once, on SQLite, at a smaller size, without warm-ups, one round or run (and
// Lighthouse on four pages), to run after every change within about 3 minutes. Its figures are noisier and
// some sizes are not the targets' (a room rush of 100 squads); PostgreSQL is
// the full run's. It writes bench/results/<date>-short.*, never the README's table.
const ONE_SECOND_ONE_ROUND = { BENCH_SECONDS: '1', BENCH_ROUNDS: '1', BENCH_WARMUP: '0' };
const FEW_REQUESTS = { BENCH_REQUESTS: '200', BENCH_ROUNDS: '1' };
const SMALL_RUSH = ['--players', '200', '--slots', '20'];
const SMALL_ROOM_RUSH = ['--squads', '100', '--seconds', '2', '--rounds', '1'];

/** The suites, in the order they run. `pg` suites need a PostgreSQL URL; `short`: what --short adds. */
const SUITES = [
  { key: 'gateway', label: 'gateway, SQLite', script: 'bench-gateway.mjs', env: {}, short: { env: ONE_SECOND_ONE_ROUND } },
  { key: 'gateway', label: 'gateway, PostgreSQL', script: 'bench-gateway.mjs', pg: true, short: { env: ONE_SECOND_ONE_ROUND } },
  { key: 'staff', label: 'crew access check, SQLite', script: 'bench-staff.mjs', env: {}, short: { env: FEW_REQUESTS } },
  { key: 'staff', label: 'crew access check, PostgreSQL', script: 'bench-staff.mjs', pg: true, short: { env: FEW_REQUESTS } },
  {
    key: 'reports',
    label: 'captains report, SQLite',
    script: 'bench-reports.mjs',
    args: ['--database', 'sqlite', '--no-build'],
    short: { args: ['--quick'] },
  },
  {
    key: 'reports',
    label: 'captains report, PostgreSQL',
    script: 'bench-reports.mjs',
    args: ['--database', 'postgres', '--no-build'],
    pg: true,
    short: { args: ['--quick'] },
  },
  {
    key: 'statements',
    label: 'statement matching, SQLite',
    script: 'bench-statements.mjs',
    args: ['--database', 'sqlite', '--no-build'],
    short: { args: ['--runs', '1'] },
  },
  {
    key: 'statements',
    label: 'statement matching, PostgreSQL',
    script: 'bench-statements.mjs',
    args: ['--database', 'postgres', '--no-build'],
    pg: true,
    short: { args: ['--runs', '1'] },
  },
  { key: 'web', label: 'web pages', script: 'bench-web-throughput.mjs', env: {}, short: { env: ONE_SECOND_ONE_ROUND } },
  { key: 'weights', label: 'page weights', script: 'bench-web.mjs', env: {} },
  {
    key: 'rush',
    label: 'registration rush, SQLite',
    script: 'bench-rush.mjs',
    args: ['--database', 'sqlite'],
    short: { args: SMALL_RUSH },
  },
  {
    key: 'rush',
    label: 'registration rush, PostgreSQL',
    script: 'bench-rush.mjs',
    args: ['--database', 'postgres'],
    pg: true,
    short: { args: SMALL_RUSH },
  },
  {
    key: 'room-rush',
    label: 'room rush, SQLite',
    script: 'bench-room-rush.mjs',
    args: ['--database', 'sqlite'],
    short: { args: SMALL_ROOM_RUSH },
  },
  {
    key: 'room-rush',
    label: 'room rush, PostgreSQL',
    script: 'bench-room-rush.mjs',
    args: ['--database', 'postgres'],
    pg: true,
    short: { args: SMALL_ROOM_RUSH },
  },
  { key: 'lighthouse', label: 'Lighthouse mobile', script: 'bench-lighthouse.mjs', env: {}, short: { args: ['--runs', '1', '--quick'] } },
  { key: 'first-paint', label: 'throttled chromium', script: 'bench-first-paint.mjs', env: {}, short: { args: ['--runs', '1'] } },
];

/** A suite (or the build) in its own process group: SIGINT/SIGTERM here stop it and what it started. */
async function run(cmd, argv, env = {}) {
  const r = await runTracked(cmd, argv, { cwd: ROOT, env: { ...process.env, ...env } });
  return r.status ?? 1;
}

async function ensureBuilt() {
  const built = [
    'contract/dist/index.js',
    'toolkit/dist/index.js',
    'gateway/dist/server.js',
    'build/index.js',
    'build/server/main.js',
  ].every((f) => fs.existsSync(path.join(ROOT, f)));
  if (built) return;
  console.log('bench: building the production build first (npm run build)');
  if ((await run('npm', ['run', 'build'])) !== 0) {
    console.error('bench: the build failed');
    process.exit(1);
  }
}

function startPostgres() {
  if (process.env.BENCH_DATABASE_URL) return { url: process.env.BENCH_DATABASE_URL, stop() {} };
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-pg-'));
  fs.chmodSync(dir, 0o755);
  let url;
  try {
    url = startCluster(path.join(dir, 'cluster'));
  } catch (err) {
    console.error(`bench: could not start PostgreSQL: ${err.message}`);
    return null;
  }
  return {
    url,
    stop() {
      stopCluster(path.join(dir, 'cluster'));
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

function gitCommit() {
  const r = spawnSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: ROOT, encoding: 'utf8' });
  return r.status === 0 ? r.stdout.trim() : 'unknown';
}

function fmt(value, unit) {
  if (value === null || value === undefined) return '';
  if (typeof value !== 'number') return String(value);
  const n =
    Math.abs(value) >= 100 || Number.isInteger(value)
      ? Math.round(value).toLocaleString('en-US')
      : value.toFixed(Math.abs(value) < 1 ? 3 : 1);
  return unit && unit !== 'score' ? `${n} ${unit}` : n;
}

export function markdown(result) {
  const lines = [
    `Measured ${result.date} on commit ${result.commit} (${result.machine.cpus} cores, Node ${result.machine.node}); \`npm run bench\`.`,
    '',
    '| suite | measure | value | reference | ratio | target | |',
    '|---|---|---|---|---|---|---|',
  ];
  for (const suite of result.suites) {
    if (suite.error) {
      lines.push(`| ${suite.label} | (did not run: ${suite.error}) | | | | | FAIL |`);
      continue;
    }
    for (const row of suite.rows) {
      const ref = row.reference ? `${row.reference}${row.referenceValue != null ? `: ${fmt(row.referenceValue, row.unit)}` : ''}` : '';
      const ratio = row.ratio != null ? `${row.ratio.toFixed(2)}×` : '';
      const verdict = row.pass === true ? 'pass' : row.pass === false ? '**FAIL**' : '**no target**';
      lines.push(`| ${suite.label} | ${row.name} | ${fmt(row.value, row.unit)} | ${ref} | ${ratio} | ${row.target ?? ''} | ${verdict} |`);
    }
  }
  return lines.join('\n') + '\n';
}

function updateReadme(table) {
  const file = path.join(ROOT, 'README.md');
  const readme = fs.readFileSync(file, 'utf8');
  const start = '<!-- bench:start -->';
  const end = '<!-- bench:end -->';
  const i = readme.indexOf(start);
  const j = readme.indexOf(end);
  if (i < 0 || j < i) {
    console.error('bench: README.md has no bench:start/bench:end markers; table not copied');
    return;
  }
  fs.writeFileSync(file, readme.slice(0, i + start.length) + '\n' + table + readme.slice(j));
}

async function main() {
  stopAllOnExit();
  await ensureBuilt();
  fs.mkdirSync(RESULTS, { recursive: true });
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-json-'));
  const selected = SUITES.filter((s) => (!only || only.includes(s.key)) && !(short && s.pg));
  const pg = selected.some((s) => s.pg) ? startPostgres() : null;
  const date = new Date().toISOString();
  const result = {
    date,
    commit: gitCommit(),
    machine: { cpus: os.cpus().length, node: process.versions.node, platform: `${os.platform()} ${os.arch()}` },
    suites: [],
  };
  let failed = false;
  try {
    for (const [i, suite] of selected.entries()) {
      console.log(`\n=== bench: ${suite.label} (${suite.script}) ===`);
      const out = path.join(tmp, `${i}.json`);
      if (suite.pg && !pg) {
        result.suites.push({ label: suite.label, error: 'no PostgreSQL' });
        failed = true;
        continue;
      }
      const env = { ...(suite.env ?? {}), ...(short ? suite.short?.env : {}) };
      if (suite.pg) env.BENCH_DATABASE_URL = pg.url;
      else env.BENCH_DATABASE_URL = '';
      const argv = [...(suite.args ?? []), ...(short ? (suite.short?.args ?? []) : [])];
      const started = performance.now();
      const status = await run('node', [path.join('scripts', suite.script), ...argv, '--json', out], env);
      console.log(`bench: ${suite.label} took ${Math.round((performance.now() - started) / 1000)} s`);
      let rows = [];
      let notes = [];
      try {
        const json = JSON.parse(fs.readFileSync(out, 'utf8'));
        rows = json.rows ?? [];
        notes = json.notes ?? [];
      } catch {
        result.suites.push({ label: suite.label, error: `exit ${status}, no results` });
        failed = true;
        continue;
      }
      // Every row has a target (decision 066): a row without one fails the run, as a missed target does.
      if (status !== 0 || rows.some((r) => r.pass !== true)) failed = true;
      result.suites.push({ label: suite.label, script: suite.script, exit: status, rows, notes });
    }
  } finally {
    pg?.stop();
    fs.rmSync(tmp, { recursive: true, force: true });
  }

  const stamp = date.slice(0, 16).replace(':', '') + (short ? '-short' : '');
  const jsonFile = path.join(RESULTS, `${stamp}.json`);
  const mdFile = path.join(RESULTS, `${stamp}.md`);
  const table = markdown(result);
  fs.writeFileSync(jsonFile, JSON.stringify(result, null, 2) + '\n');
  fs.writeFileSync(mdFile, `# Benchmarks ${date}\n\n${table}${notesOf(result)}`);
  if (writeReadme) updateReadme(table);
  console.log('\n' + table);
  console.log(
    `bench: wrote ${path.relative(ROOT, jsonFile)} and ${path.relative(ROOT, mdFile)}${writeReadme ? ', README table updated' : ''}`,
  );
  console.log(`bench: ${failed ? 'FAIL: a suite did not run or a target was missed' : 'PASS: every target met'}`);
  process.exit(failed ? 1 : 0);
}

function notesOf(result) {
  const notes = result.suites.flatMap((s) => (s.notes ?? []).map((n) => `- ${s.label}: ${n}`));
  return notes.length ? `\nNotes:\n${notes.join('\n')}\n` : '';
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((err) => {
    console.error(`bench: ${err.stack ?? err}`);
    process.exit(1);
  });
}
