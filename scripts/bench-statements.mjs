#!/usr/bin/env node
// `npm run bench:statements`: issue 31's benchmark. A 5,000-row bank statement against 1,000 submitted payments.
//
//   node scripts/bench-statements.mjs [--database sqlite|postgres|both] [--runs N] [--no-build] [--json FILE]
//
// Against the compiled gateway (built first: build:packages, build:gateway; --no-build skips it) with its own
// DATA_DIR (or PostgreSQL schema) and port. Setup per run, not timed: a ₹50 tournament of 1,000 squads written
// through the gateway's repository, each with a submitted UTR; a statement of 5,000 rows in an HDFC-like CSV
// (a header block, a footer, Indian amounts, dd/mm/yy dates): the 1,000 teams' credits shuffled among 3,000
// other credits and 1,000 debits.
// Timed: the upload (read, match-ready: every credit stored) plus the preview (every group worked out), the
// issue's "parse and match", target < 2 s; then "Verify the 1,000 matched" in one action, target < 2 s.
// The figures are medians of --runs runs (default 3), each on a fresh tournament.
// PostgreSQL: BENCH_DATABASE_URL, else a throw-away cluster (scripts/pg-throwaway.sh).
// Writes { suite: 'statements', rows, notes } to --json FILE, else bench/results/<date>-statements.json.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import {
  call,
  gatewayEnv,
  insertSquad,
  median,
  pgSchema,
  startChild,
  stopChild,
  throwawayPostgres,
  tournamentForm,
  waitForHealth,
} from './lib/bench-helpers.mjs';
import { freePort } from './lib/ports.mjs';
import { onCleanup, run, stopAllOnExit } from './lib/processes.mjs';
import { prng } from './lib/report-seed.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dist = (p) => pathToFileURL(path.join(ROOT, 'gateway', 'dist', p)).href;
const { values: args } = parseArgs({
  options: {
    database: { type: 'string', default: 'both' },
    runs: { type: 'string', default: '3' },
    'no-build': { type: 'boolean', default: false },
    json: { type: 'string' },
  },
});
const TEAMS = 1000;
const ROWS = 5000;
const RUNS = Math.max(1, Number(args.runs) || 3);
const TARGET = { matchMs: 2000, verifyMs: 2000 };
const databases = args.database === 'both' ? ['sqlite', 'postgres'] : [args.database];
if (!databases.every((d) => d === 'sqlite' || d === 'postgres')) {
  console.error('bench-statements: --database must be sqlite, postgres or both');
  process.exit(2);
}

/** Indian grouping with paise: 1,00,000.00. */
const indian = (paise) => {
  const [whole, frac] = (paise / 100).toFixed(2).split('.');
  const head = whole.length > 3 ? `${whole.slice(0, -3).replace(/\B(?=(\d{2})+(?!\d))/g, ',')},${whole.slice(-3)}` : whole;
  return `${head}.${frac}`;
};

/** The statement: the teams' ₹50 credits among other credits and debits, shuffled; rows in date order do not matter. */
function statementCsv(teams, random) {
  const rows = teams.map((t) => ({
    ref: t.utr,
    narration: `UPI-${t.teamName.toUpperCase()}-squad${t.rid}@okaxis-${t.utr}-PAY`,
    dr: '',
    cr: indian(5000),
  }));
  const other = () => String(900_000_000_000 + Math.floor(random() * 99_999_999_999));
  while (rows.length < ROWS - 1000) {
    const utr = other();
    rows.push({
      ref: utr,
      narration: `UPI-SOMEONE-someone${rows.length}@ybl-${utr}-SHOP`,
      dr: '',
      cr: indian(100 + Math.floor(random() * 10_000_000)),
    });
  }
  while (rows.length < ROWS)
    rows.push({ ref: '', narration: `NEFT DR-RENT-${rows.length}`, dr: indian(1_00_000 + Math.floor(random() * 50_00_000)), cr: '' });
  for (let i = rows.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [rows[i], rows[j]] = [rows[j], rows[i]];
  }
  const lines = [
    'HDFC BANK Ltd.,,,,,,',
    'Account No :,50100012345678,,,,,',
    'Statement From :,01/11/2026,To :,30/11/2026,,,',
    ',,,,,,',
    'Date,Narration,Chq./Ref.No.,Value Dt,Withdrawal Amt.,Deposit Amt.,Closing Balance',
    ...rows.map((r) => `28/11/26,${r.narration},${r.ref},28/11/26,"${r.dr}","${r.cr}","12,34,567.00"`),
    ',,,,,,',
    'STATEMENT SUMMARY :-,,,,,,',
  ];
  return Buffer.from(lines.join('\n'));
}

/** One run: a fresh tournament of 1,000 squads with submitted UTRs; upload + preview, then verify all. */
async function oneRun(base, adminToken, store, run, random) {
  const { insertUser } = await import(dist('db/users.js'));
  const { insertRegistration, submitPayment } = await import(dist('db/registrations.js'));
  const { bumpGeneration } = await import(dist('db/generation.js'));
  const form = tournamentForm(TEAMS, {
    name: `Statement Bench Cup ${run}`,
    entryFee: '50',
    description: 'Statement matching.',
    overview: 'Bench.',
  });
  const tid = (await call(base, 'POST', '/tournaments/add', { token: adminToken, form })).id;
  const teams = [];
  await store.writeTransaction(async (trx) => {
    for (let i = 1; i <= TEAMS; i++) {
      const n = run * TEAMS + i;
      const t = await insertSquad({ insertUser, insertRegistration }, trx, tid, n, `Squad ${n}`);
      t.rid = Number(t.rid);
      t.utr = String(100_000_000_000 + n * 7919 + run);
      await submitPayment(trx, t.rid, t.utr, Date.now());
      teams.push(t);
    }
    await bumpGeneration(trx, tid);
  });
  const csv = statementCsv(teams, random);
  const upload = new FormData();
  upload.append('statement', new Blob([csv], { type: 'text/csv' }), `hdfc-${run}.csv`);
  const t0 = performance.now();
  const statement = await call(base, 'POST', `/tournaments/${tid}/statements`, { token: adminToken, form: upload });
  const uploadMs = performance.now() - t0;
  const preview = await call(base, 'GET', `/tournaments/${tid}/statements/${statement.id}`, { token: adminToken });
  const matchMs = performance.now() - t0;
  if (statement.state !== 'read') throw new Error(`the statement was not read: ${statement.state}`);
  const rids = preview.matched.map((m) => m.registrationId);
  const expectedUpiReferences = Object.fromEntries(preview.matched.map((m) => [String(m.registrationId), m.credit.utr ?? '']));
  const t1 = performance.now();
  const verified = await call(base, 'POST', `/tournaments/${tid}/statements/${statement.id}/verify`, {
    token: adminToken,
    json: { rids, expectedUpiReferences },
  });
  const verifyMs = performance.now() - t1;
  return {
    uploadMs,
    matchMs,
    verifyMs,
    credits: statement.credits,
    matched: preview.matched.length,
    verified: verified.verified,
    bytes: csv.length,
  };
}

async function runOn(database, pgUrl) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-statements-'));
  const { databaseUrl, drop } = await pgSchema(pgUrl, 'bench_statements');
  const admin = { email: 'bench-admin@example.com', password: crypto.randomBytes(12).toString('base64url') };
  const env = gatewayEnv({ port: await freePort(), dataDir, admin, databaseUrl }, { NODE_ENV: 'production' });
  const child = startChild('gateway', ['gateway/dist/server.js'], env, { quiet: true });
  let store;
  const cleanup = async () => {
    await store?.close();
    await stopChild(child);
    fs.rmSync(dataDir, { recursive: true, force: true });
    await drop();
  };
  const removeCleanup = onCleanup(cleanup);
  try {
    const base = `http://127.0.0.1:${env.GATEWAY_PORT}`;
    await waitForHealth(base, child);
    const { openDatabase } = await import(dist('db/index.js'));
    store = await openDatabase({ databaseUrl, dataDir });
    const adminToken = (await call(base, 'POST', '/api/auth/login', { json: { emailOrPhone: admin.email, password: admin.password } }))
      .token;
    const random = prng(31);
    const runs = [];
    for (let r = 0; r < RUNS; r++) {
      const o = await oneRun(base, adminToken, store, r, random);
      console.log(
        `  ${database} run ${r + 1}: upload ${Math.round(o.uploadMs)} ms, upload + preview ${Math.round(o.matchMs)} ms (${o.credits} credits, ${o.matched} matched), verify ${o.verified} in ${Math.round(o.verifyMs)} ms`,
      );
      runs.push(o);
    }
    return { database, runs };
  } finally {
    removeCleanup();
    await cleanup();
  }
}

async function main() {
  stopAllOnExit();
  if (!args['no-build']) {
    for (const script of ['build:packages', 'build:gateway']) {
      if ((await run('npm', ['run', script], { cwd: ROOT })).status !== 0) throw new Error(`npm run ${script} failed`);
    }
  }
  const rows = [];
  let statementBytes = 0;
  for (const database of databases) {
    console.log(`\nbench-statements (${database}): ${ROWS} statement rows, ${TEAMS} submitted payments, ${RUNS} runs`);
    const pg = database === 'postgres' ? await throwawayPostgres('bench-statements') : null;
    let o;
    try {
      o = await runOn(database, pg?.url);
    } finally {
      await pg?.stop();
    }
    const d = database === 'postgres' ? 'PostgreSQL' : 'SQLite';
    const row = (name, value, unit, target, pass) =>
      rows.push({ name: `${d}: ${name}`, value, unit, reference: null, referenceValue: null, ratio: null, target, pass });
    statementBytes = o.runs[0].bytes;
    const matchMs = median(o.runs.map((r) => r.matchMs));
    const verifyMs = median(o.runs.map((r) => r.verifyMs));
    row(
      `${ROWS.toLocaleString('en-US')}-row statement vs ${TEAMS.toLocaleString('en-US')} payments: upload, parse and match (upload + preview), median of ${RUNS}`,
      Math.round(matchMs),
      'ms',
      `< ${TARGET.matchMs}`,
      matchMs < TARGET.matchMs,
    );
    const matched = Math.min(...o.runs.map((r) => r.matched));
    row('teams matched (every run)', matched, 'teams', `= ${TEAMS}`, matched === TEAMS);
    row(
      `verify the ${TEAMS.toLocaleString('en-US')} matched in one action, median of ${RUNS}`,
      Math.round(verifyMs),
      'ms',
      `< ${TARGET.verifyMs}`,
      verifyMs < TARGET.verifyMs && o.runs.every((r) => r.verified === TEAMS),
    );
  }
  const notes = [`Node ${process.version}, ${os.cpus().length} cores; the statement is ~${Math.round(statementBytes / 1024)} KB of CSV.`];
  console.log('');
  for (const r of rows) console.log(`  ${r.pass ? 'PASS' : 'FAIL'}  ${r.name}: ${r.value} ${r.unit} (${r.target})`);
  const file = args.json
    ? path.resolve(args.json)
    : path.join(ROOT, 'bench', 'results', `${new Date().toISOString().slice(0, 16).replace(':', '')}-statements.json`);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, `${JSON.stringify({ suite: 'statements', rows, notes }, null, 2)}\n`);
  console.log(`bench-statements: wrote ${path.relative(process.cwd(), file)}`);
  process.exitCode = rows.every((r) => r.pass) ? 0 : 1;
}

main().catch((err) => {
  console.error(`bench-statements: ${err.stack ?? err}`);
  process.exit(1);
});
