#!/usr/bin/env node
// `npm test`: every test, as CI runs it.
//   1. type check and lint (ESLint and Prettier), beside the production build
//   2. from one queue, two at a time, longest first (decision 040): the gateway suite and the security
//      suite (tests/security: attacks on the gateway) over HTTP, each on SQLite and on PostgreSQL
//      (TEST_DATABASE_URL, or a throw-away cluster started here); web unit tests (vitest project "web");
//      the web's attacks (tests/security/web*: a real gateway + the web server on the build); the
//      container image's runtime stage replayed without an engine (scripts/check-image.mjs)
//   3. Playwright end-to-end tests in Debian's chromium-headless-shell (installed here when missing, as root)
//   4. the cluster test (scripts/test-cluster.mjs): nginx, two webs, two gateways on PostgreSQL, the
//      Playwright smoke and a registration rush while a gateway and a web process are SIGKILLed
//      (nginx installed here when missing, as root)
// A step running beside another prints its output in one piece when it ends (decision 040).
// Ends with one line "total: N passed, N failed, N skipped".
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { run, startCluster, stopAllOnExit } from './lib/processes.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
process.chdir(root);
// Every step runs in its own process group; SIGINT, SIGTERM or a crash here stop it (and the cluster) first.
stopAllOnExit();
const resultsDir = fs.mkdtempSync(path.join(os.tmpdir(), 'custom-room-test-'));
const isRoot = process.getuid?.() === 0;
const totals = { passed: 0, failed: 0, skipped: 0 };
const failures = [];

/**
 * Runs a command to its end. Alone, its output streams to ours. With options.log (a step running
 * beside others), its output goes to that file and is printed in one piece when it ends, so the
 * steps' lines do not interleave.
 */
async function sh(cmd, args, options = {}) {
  const { log, ...rest } = options;
  const line = `$ ${[cmd, ...args].join(' ')}`;
  const env = { ...process.env, ...rest.env };
  if (!log) {
    console.log(`\n${line}`);
    return run(cmd, args, { ...rest, env });
  }
  const fd = fs.openSync(log, 'w');
  const started = performance.now();
  try {
    return await run(cmd, args, { ...rest, env, stdio: ['ignore', fd, fd] });
  } finally {
    fs.closeSync(fd);
    const seconds = Math.round((performance.now() - started) / 1000);
    process.stdout.write(`\n${line}   [ran beside other steps, ${seconds} s]\n${fs.readFileSync(log, 'utf8')}`);
  }
}

/** Where a step running beside others writes its output. */
const logOf = (name) => path.join(resultsDir, `${name}.log`);

async function apt(packages) {
  if (!isRoot) {
    console.error(`test: missing ${packages.join(', ')}; install them (apt-get install ${packages.join(' ')}) or run as root`);
    process.exit(1);
  }
  // No service of these packages is started (nginx on :80, a system PostgreSQL): invoke-rc.d asks policy-rc.d, 101 = not allowed.
  const policy = '/usr/sbin/policy-rc.d';
  const ownPolicy = !fs.existsSync(policy);
  if (ownPolicy) fs.writeFileSync(policy, '#!/bin/sh\nexit 101\n', { mode: 0o755 });
  await sh('apt-get', ['update', '-qq']);
  const r = await sh('apt-get', ['install', '-y', '-qq', ...packages], { env: { DEBIAN_FRONTEND: 'noninteractive' } });
  if (ownPolicy) fs.rmSync(policy, { force: true });
  if (r.status !== 0) process.exit(1);
}

const pgBin = () => fs.existsSync('/usr/lib/postgresql') && fs.readdirSync('/usr/lib/postgresql').length > 0;
const missing = [];
if (!fs.existsSync('/usr/bin/chromium')) missing.push('chromium'); // web-xss, benchmarks
if (!fs.existsSync('/usr/bin/chromium-headless-shell')) missing.push('chromium-headless-shell'); // e2e (decision 034)
if (!pgBin()) missing.push('postgresql'); // the cluster test runs its own PostgreSQL even with TEST_DATABASE_URL
if (!fs.existsSync('/usr/sbin/nginx')) missing.push('nginx');
if (missing.length) await apt(missing);

let pgDir;
let databaseUrl = process.env.TEST_DATABASE_URL;
if (!databaseUrl) {
  pgDir = fs.mkdtempSync(path.join(os.tmpdir(), 'custom-room-pg-'));
  fs.chmodSync(pgDir, 0o755);
  try {
    databaseUrl = startCluster(path.join(pgDir, 'cluster')); // stopped at exit, however the run ends
  } catch {
    console.error('test: could not start a throw-away PostgreSQL cluster');
    process.exit(1);
  }
  console.log(`test: throw-away PostgreSQL at ${databaseUrl}`);
}

function step(name, ok) {
  if (!ok) failures.push(name);
}

/** A vitest project; every one runs beside another, so its output is printed when it ends. */
async function vitest(name, project, env = {}) {
  const out = path.join(resultsDir, `${name}.json`);
  const r = await sh('npx', ['vitest', 'run', '--project', project, '--reporter=default', '--reporter=json', `--outputFile.json=${out}`], {
    env,
    log: logOf(name),
  });
  if (fs.existsSync(out)) {
    const report = JSON.parse(fs.readFileSync(out, 'utf8'));
    // A file that fails before its tests run (its setup threw) reports them as skipped: count its tests as failed.
    const brokenFiles = report.testResults.filter((f) => f.status === 'failed' && !f.assertionResults.some((t) => t.status === 'failed'));
    const lost = brokenFiles.reduce((n, f) => n + Math.max(1, f.assertionResults.length), 0);
    const lostSkipped = brokenFiles.reduce(
      (n, f) => n + f.assertionResults.filter((t) => t.status === 'pending' || t.status === 'skipped').length,
      0,
    );
    totals.passed += report.numPassedTests;
    totals.failed += report.numFailedTests + lost;
    totals.skipped += report.numPendingTests + report.numTodoTests - lostSkipped;
  } else {
    totals.failed += 1;
  }
  step(name, r.status === 0);
}

// Independent layers run two at a time (decision 040): the machine has two cores and much of each
// layer's time is spent waiting on the servers it starts. The cluster test, whose kills and rush
// are timed, runs alone at the end.
// The type check and lint, beside the production build (the gateway suite runs the compiled
// server as a process, and e2e needs the build).
const checks = (async () => {
  const typecheck = await sh('npx', ['tsc', '--noEmit', '-p', '.'], { log: logOf('typecheck') });
  // ESLint and Prettier over every TypeScript and script file (decision 039).
  return { typecheck, lint: await sh('npm', ['run', '--silent', 'lint'], { log: logOf('lint') }) };
})();
const build = await sh('npm', ['run', '--silent', 'build'], { log: logOf('build') });
const { typecheck, lint } = await checks;
step('typecheck', typecheck.status === 0);
step('lint', lint.status === 0);
step('build', build.status === 0);

// The vitest layers and the image check share nothing (each PostgreSQL test has its own schema, every
// server its own port): they run two at a time from one queue, longest first, so that a slot freed by a
// short layer takes the next one at once instead of waiting for its pair (decision 040).
// Longest first, by the layers' times in a full run (issue 19: 303, 264, 243, 237, 225, 79 and 75 s; since
// decision 067 the gateway and security layers are shorter: 215, 114, 218, 140, 216, 82 and 123 s, and this
// order still ends both slots within 15 s of each other).
const layers = [
  () => vitest('gateway-postgres', 'gateway', { TEST_DATABASE_URL: databaseUrl }),
  () => vitest('gateway-sqlite', 'gateway', { TEST_DATABASE_URL: '' }),
  ...(build.status === 0 ? [() => vitest('web-security', 'web-security', {})] : []),
  () => vitest('security-sqlite', 'security', { TEST_DATABASE_URL: '' }),
  () => vitest('security-postgres', 'security', { TEST_DATABASE_URL: databaseUrl }),
  () => checkImage(),
  () => vitest('web', 'web', {}),
];
await Promise.all(
  [0, 1].map(async () => {
    for (let next = layers.shift(); next; next = layers.shift()) await next();
  }),
);

if (build.status === 0) {
  const out = path.join(resultsDir, 'e2e.json');
  const r = await sh('npx', ['playwright', 'test', '--reporter=list,json'], { env: { PLAYWRIGHT_JSON_OUTPUT_NAME: out } });
  if (fs.existsSync(out)) {
    const { stats } = JSON.parse(fs.readFileSync(out, 'utf8'));
    totals.passed += stats.expected + stats.flaky;
    totals.failed += stats.unexpected;
    totals.skipped += stats.skipped;
  } else {
    totals.failed += 1;
  }
  step('e2e', r.status === 0);
}

if (build.status === 0) {
  // Its own PostgreSQL cluster (many instances of one database; TEST_DATABASE_URL stays the suites').
  const out = path.join(resultsDir, 'cluster.json');
  const r = await sh('node', ['scripts/test-cluster.mjs', '--json', out]);
  addCounts(out);
  step('cluster', r.status === 0);
}

/** The container image's runtime stage replayed without an engine (decision 027); beside another layer. */
async function checkImage() {
  const out = path.join(resultsDir, 'check-image.json');
  const r = await sh('node', ['scripts/check-image.mjs', '--json', out], { log: logOf('check-image') });
  addCounts(out);
  step('check-image', r.status === 0);
}

/** Adds a step's "passed/failed/skipped" JSON to the totals; a step that wrote none counts as one failure. */
function addCounts(out) {
  if (fs.existsSync(out)) {
    const counts = JSON.parse(fs.readFileSync(out, 'utf8'));
    totals.passed += counts.passed;
    totals.failed += counts.failed;
    totals.skipped += counts.skipped;
  } else {
    totals.failed += 1;
  }
}

console.log(failures.length ? `\ntest: failed steps: ${failures.join(', ')}` : '\ntest: every step passed');
console.log(`total: ${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
process.exitCode = failures.length || totals.failed ? 1 : 0;
