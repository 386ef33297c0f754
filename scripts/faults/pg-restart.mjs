#!/usr/bin/env node
// PostgreSQL restarted under load (issue 10, faults). Starts a throw-away cluster of its own
// (scripts/pg-throwaway.sh), the compiled gateway on it, and a steady load of reads, signed-in
// reads, registrations and points batches; then restarts PostgreSQL several ways while the load
// runs. Checks: no 500 and no stack in any answer, 503 `{ message }` while the database is away,
// the gateway process stays up and answers 2xx again by itself, and every acknowledged
// registration is stored once.
//
//   npm run build:gateway && node scripts/faults/pg-restart.mjs [--dir /tmp/pg-fault] [--rounds 2]
//
// Exit 0 when every check holds; the figures are printed either way.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify, parseArgs } from 'node:util';
import { freePort } from '../lib/ports.mjs';
import { killGroup, onCleanup, spawnTracked, startCluster, stopAllOnExit, stopCluster } from '../lib/processes.mjs';

const { values: args } = parseArgs({
  // --keep leaves the stopped cluster's directory (its server.log) for a look afterwards.
  options: {
    dir: { type: 'string', default: path.join(os.tmpdir(), `pg-fault-${process.pid}`) },
    rounds: { type: 'string', default: '2' },
    keep: { type: 'boolean', default: false },
  },
});
const ROOT = path.resolve(import.meta.dirname, '../..');
const DIR = path.resolve(args.dir);
const ROUNDS = Number(args.rounds);
const ADMIN = { email: 'admin@fault.example', password: 'admin-password-123' };

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const pgBin = () => {
  const versions = fs.readdirSync('/usr/lib/postgresql').sort((a, b) => Number(a) - Number(b));
  return `/usr/lib/postgresql/${versions.at(-1)}/bin`;
};
// Asynchronous, so the load keeps running while PostgreSQL goes down and comes back.
const asPostgres = (cmd, cmdArgs) =>
  process.getuid?.() === 0 ? promisify(execFile)('runuser', ['-u', 'postgres', '--', cmd, ...cmdArgs]) : promisify(execFile)(cmd, cmdArgs);
const pgCtl = (...a) => asPostgres(`${pgBin()}/pg_ctl`, ['-D', path.join(DIR, 'data'), ...a]);

// ---- set-up --------------------------------------------------------------------------------------
fs.mkdirSync(path.dirname(DIR), { recursive: true });
if (fs.existsSync(DIR)) {
  // A throw-away directory from an earlier run: stop what may still run there and start clean.
  stopCluster(DIR);
  fs.rmSync(DIR, { recursive: true, force: true });
}
stopAllOnExit(); // SIGINT, SIGTERM or a crash: the gateway and the cluster are stopped too
const databaseUrl = startCluster(DIR);
const pgPort = new URL(databaseUrl).port;
const startOptions = `-p ${pgPort} -k ${DIR} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=300`;
console.log(`cluster ${DIR} at ${databaseUrl}`);

const port = await freePort();
const base = `http://127.0.0.1:${port}`;
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pg-fault-gw-'));
const gateway = spawnTracked(process.execPath, [path.join(ROOT, 'gateway/dist/server.js')], {
  env: {
    PATH: process.env.PATH,
    NODE_ENV: 'production',
    DATABASE_URL: databaseUrl,
    DATA_DIR: dataDir,
    GATEWAY_PORT: String(port),
    SEED_DEMO: '0',
    RATE_LIMIT: 'off',
    LOG_LEVEL: 'warn',
    ADMIN_EMAIL: ADMIN.email,
    ADMIN_PASSWORD: ADMIN.password,
    ADMIN_USERNAME: 'admin',
    ADMIN_PHONE: '9000000001',
  },
  stdio: ['ignore', 'pipe', 'pipe'],
});
let gatewayLog = '';
gateway.stdout.on('data', (d) => (gatewayLog += d));
gateway.stderr.on('data', (d) => (gatewayLog += d));
let gatewayExit = null;
gateway.on('exit', (code, signal) => (gatewayExit = signal ?? code));

async function cleanUp() {
  await killGroup(gateway.pid);
  stopCluster(DIR);
  if (!args.keep) fs.rmSync(DIR, { recursive: true, force: true });
}
onCleanup(cleanUp);

async function call(method, p, { token, json } = {}) {
  const headers = {};
  if (token) headers.authorization = `Bearer ${token}`;
  if (json !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(base + p, {
    method,
    headers,
    body: json === undefined ? undefined : JSON.stringify(json),
    signal: AbortSignal.timeout(15_000),
  });
  const text = await res.text();
  let body;
  try {
    body = JSON.parse(text);
  } catch {
    body = text;
  }
  return { status: res.status, body, text, retryAfter: res.headers.get('retry-after') };
}

for (let i = 0; i < 100; i++) {
  try {
    if ((await fetch(`${base}/healthz`)).ok) break;
  } catch {}
  await sleep(100);
}
const admin = (await call('POST', '/api/auth/login', { json: { emailOrPhone: ADMIN.email, password: ADMIN.password } })).body.token;
const tournamentForm = () => {
  const f = new FormData();
  const iso = (d) => new Date(Date.now() + d * 86_400_000).toISOString();
  const fields = {
    name: `Restart Cup ${Date.now()}`,
    game: 'BGMI',
    description: 'Fault test.',
    startDate: iso(10),
    endDate: iso(12),
    registrationOpen: iso(-1),
    registrationClose: iso(9),
    maxTeams: '1000',
    format: 'Squad',
    platform: 'Mobile',
    entryFee: '0',
    prizePool: '0',
    status: 'Registration Ongoing',
    overview: 'x',
  };
  for (const [k, v] of Object.entries(fields)) f.append(k, v);
  return f;
};
const tid = (
  await (
    await fetch(`${base}/tournaments/add`, { method: 'POST', headers: { authorization: `Bearer ${admin}` }, body: tournamentForm() })
  ).json()
).id;

const players = [];
for (let i = 0; i < 8; i++) players.push(await newPlayer());
async function newPlayer() {
  const u = `${process.pid}${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
  const user = {
    email: `p${u}@fault.example`,
    phone: `9${String(Math.floor(Math.random() * 1e9)).padStart(9, '0')}`,
    username: `p_${u}`.slice(0, 20),
    password: 'correct horse battery',
  };
  await call('POST', '/api/auth/register', { json: user });
  const login = await call('POST', '/api/auth/login', { json: { emailOrPhone: user.email, password: user.password } });
  return { ...user, token: login.body.token };
}
const pointsTeams = [];
for (const p of players) {
  const res = await call('POST', `/registrations/${tid}`, { token: p.token, json: team(`Seed ${p.username}`) });
  pointsTeams.push(res.body.rid);
}
function team(teamName) {
  const u = Math.random().toString(36).slice(2, 10);
  return { teamName, player1Username: `a${u}`, player2Username: `b${u}`, player3Username: `c${u}`, player4Username: `d${u}` };
}

// ---- load ------------------------------------------------------------------------------------------
let phase = 'before';
const figures = {}; // phase -> status -> count
const bad = []; // 500s, stacks, 503s without a message
const acked = new Set(); // registered team names answered 201
let stopped = false;
function record(what, res) {
  figures[phase] ??= {};
  figures[phase][res.status] = (figures[phase][res.status] ?? 0) + 1;
  if (res.status >= 500 && res.status !== 503) bad.push(`${phase} ${what} → ${res.status} ${res.text.slice(0, 200)}`);
  if (res.status === 503 && !(typeof res.body?.message === 'string' && res.body.message && res.retryAfter)) {
    if (!(what === 'GET /healthz' && res.body?.status === 'unavailable'))
      bad.push(`${phase} ${what} → 503 without message/Retry-After: ${res.text.slice(0, 200)}`);
  }
  if (/\bat .+:\d+:\d+|node_modules|Error: /.test(res.text)) bad.push(`${phase} ${what} → stack or error text: ${res.text.slice(0, 200)}`);
}
async function worker(kind) {
  let n = 0;
  while (!stopped) {
    n += 1;
    let what = '';
    try {
      if (kind === 'read') {
        what = n % 3 === 0 ? '/healthz' : n % 3 === 1 ? '/tournaments' : `/tournaments/${tid}/points-table/overall`;
        record(`GET ${what}`, await call('GET', what));
      } else if (kind === 'me') {
        what = 'GET /api/auth/me';
        record(what, await call('GET', '/api/auth/me', { token: players[n % players.length].token }));
      } else if (kind === 'register') {
        const player = players[n % players.length];
        const name = `R ${process.hrtime.bigint()}`;
        // One team per account per tournament: the list pairs each tournament with every player once.
        const t = registrationTournaments.shift();
        if (t === undefined) {
          await sleep(20);
          continue;
        }
        what = 'POST /registrations/{tid}';
        const res = await call('POST', `/registrations/${t}`, { token: player.token, json: team(name) });
        record(what, res);
        if (res.status === 201) acked.add(`${t}:${name}`);
      } else {
        what = 'PUT points batch';
        const rows = pointsTeams.map((teamId, i) => ({
          teamId,
          position: ((i + n) % pointsTeams.length) + 1,
          wins: (i + n) % pointsTeams.length === 0 ? 1 : 0,
          finishes: n % 4, // 8 squads: within 31 finishes a match (issue 27 item 8)
        }));
        record(
          what,
          await call('PUT', `/tournaments/${tid}/points-table/matches/${1 + (n % 7)}/${1 + (n % 6)}`, {
            token: admin,
            json: { results: rows },
          }),
        );
      }
    } catch {
      figures[phase] ??= {};
      figures[phase].network = (figures[phase].network ?? 0) + 1;
      if (gatewayExit !== null) {
        bad.push(`gateway process exited (${gatewayExit}) during ${phase}`);
        stopped = true;
      }
      await sleep(50);
    }
    await sleep(5);
  }
}
const registrationTournaments = [];
for (let i = 0; i < 150; i++) {
  const res = await fetch(`${base}/tournaments/add`, {
    method: 'POST',
    headers: { authorization: `Bearer ${admin}` },
    body: tournamentForm(),
  });
  registrationTournaments.push((await res.json()).id);
}
// Each player registers once per tournament: cycle players over tournaments.
const slotsPerTournament = players.length;
const expanded = [];
for (const t of registrationTournaments) for (let i = 0; i < slotsPerTournament; i++) expanded.push(t);
registrationTournaments.length = 0;
registrationTournaments.push(...expanded);

const workers = [worker('read'), worker('read'), worker('me'), worker('register'), worker('points')];
await sleep(1500);

/** Waits until a database-backed call answers 2xx again; returns the milliseconds it took. */
async function recovery(from) {
  for (;;) {
    try {
      const res = await call('GET', '/api/auth/me', { token: admin });
      if (res.status === 200 && (await call('GET', '/tournaments')).status === 200) return Date.now() - from;
    } catch {}
    if (Date.now() - from > 60_000 || gatewayExit !== null) return Infinity;
    await sleep(50);
  }
}

const faults = [];
const progress = () => {
  const f = faults.at(-1);
  console.log(`  ${f.fault}: recovered in ${f.recoveredMs} ms; gateway ${gatewayExit === null ? 'up' : `exited (${gatewayExit})`}`);
};
try {
  for (let round = 1; round <= ROUNDS && gatewayExit === null; round++) {
    // 1. pg_ctl restart (fast shutdown: sessions are ended by the server)
    phase = `restart-fast#${round}`;
    let t0 = Date.now();
    await pgCtl('-m', 'fast', '-w', '-l', path.join(DIR, 'server.log'), 'restart');
    faults.push({ fault: phase, recoveredMs: await recovery(t0) });
    progress();
    await sleep(1000);

    // 2. pg_ctl restart -m immediate (as a crash: no clean shutdown, crash recovery on start)
    phase = `restart-immediate#${round}`;
    t0 = Date.now();
    await pgCtl('-m', 'immediate', '-w', '-l', path.join(DIR, 'server.log'), 'restart');
    faults.push({ fault: phase, recoveredMs: await recovery(t0) });
    progress();
    await sleep(1000);

    // 3. Down for 3 s: the gateway must answer 503 meanwhile, then recover once PostgreSQL is back.
    phase = `down-3s#${round}`;
    await pgCtl('-m', 'fast', '-w', 'stop');
    await sleep(3000);
    const during = await call('GET', '/api/auth/me', { token: admin });
    const duringList = await call('GET', '/tournaments');
    if (during.status !== 503 || duringList.status !== 503)
      bad.push(`while down: /api/auth/me ${during.status}, /tournaments ${duringList.status} (want 503)`);
    t0 = Date.now();
    await pgCtl('-w', '-l', path.join(DIR, 'server.log'), '-o', startOptions, 'start');
    faults.push({ fault: phase, downAnswer: `${during.status} ${JSON.stringify(during.body)}`, recoveredMs: await recovery(t0) });
    progress();
    phase = `after#${round}`;
    await sleep(1500);
  }
} catch (err) {
  bad.push(`fault run stopped: ${err.cause?.code ?? err.message}`);
}

stopped = true;
await Promise.all(workers);

// ---- checks ----------------------------------------------------------------------------------------
let lost = 0;
let twice = 0;
const byTournament = new Map();
if (gatewayExit === null)
  for (const key of acked) {
    const [t, ...rest] = key.split(':');
    if (!byTournament.has(t))
      byTournament.set(
        t,
        (await call('GET', `/registrations/tournament/${t}`, { token: admin })).body.map((r) => r.teamName),
      );
    const n = byTournament.get(t).filter((name) => name === rest.join(':')).length;
    if (n === 0) lost += 1;
    if (n > 1) twice += 1;
  }
const alive = gatewayExit === null && (await call('GET', '/healthz').catch(() => ({ status: 0 }))).status === 200;

console.log('\nanswers by phase:');
for (const [p, counts] of Object.entries(figures))
  console.log(
    `  ${p.padEnd(22)} ${Object.entries(counts)
      .map(([s, n]) => `${s}×${n}`)
      .join(' ')}`,
  );
console.log('\nfaults:');
for (const f of faults)
  console.log(`  ${f.fault.padEnd(22)} recovered in ${f.recoveredMs} ms${f.downAnswer ? `; while down: ${f.downAnswer}` : ''}`);
const total = Object.values(figures).reduce((sum, c) => sum + Object.entries(c).reduce((s, [, n]) => s + n, 0), 0);
const fiveHundreds = Object.values(figures).reduce(
  (sum, c) =>
    sum +
    Object.entries(c)
      .filter(([s]) => /^5\d\d$/.test(s) && s !== '503')
      .reduce((s, [, n]) => s + n, 0),
  0,
);
console.log(
  `\npg-restart: ${faults.length} faults injected, ${total} requests, ${fiveHundreds} non-503 5xx, ${acked.size} registrations acknowledged, lost ${lost}, stored twice ${twice}, gateway ${alive ? 'alive' : 'DEAD'}`,
);
if (bad.length) console.log(`problems (${bad.length}):\n  ${[...new Set(bad)].slice(0, 20).join('\n  ')}`);
if (!alive)
  console.log(
    `gateway's last words:\n  ${gatewayLog
      .split('\n')
      .filter((l) => /Error|error:|Emitted/.test(l))
      .slice(0, 6)
      .join('\n  ')}`,
  );
const slow = faults.filter((f) => !(f.recoveredMs < 30_000));
await cleanUp();
process.exit(bad.length === 0 && lost === 0 && twice === 0 && alive && slow.length === 0 ? 0 : 1);
