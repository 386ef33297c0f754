// What the gateway benchmarks share (bench-gateway, bench-stages, bench-notify): the gateway's
// environment, the tournament they fill, a child process with its output forwarded and kept, waiting
// for its /healthz, a JSON call to the API, one PostgreSQL statement or schema.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { killGroup, spawnTracked, startCluster, stopCluster } from './processes.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/**
 * The gateway's environment for a benchmark: its own port, data dir and (PostgreSQL) database URL, no
 * demo data, no rate limits, LOG_LEVEL info (the production default: measured as operators run it),
 * a known admin; `extra` adds or overrides variables.
 */
export function gatewayEnv({ port, dataDir, admin, databaseUrl }, extra = {}) {
  const env = { ...process.env };
  delete env.DATABASE_URL;
  return Object.assign(env, {
    GATEWAY_HOST: '127.0.0.1',
    GATEWAY_PORT: String(port),
    DATA_DIR: dataDir,
    SEED_DEMO: '0',
    RATE_LIMIT: 'off',
    LOG_LEVEL: 'info',
    ADMIN_EMAIL: admin.email,
    ADMIN_PASSWORD: admin.password,
    ADMIN_USERNAME: 'benchadmin',
    ADMIN_PHONE: '9000000009',
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    ...extra,
  });
}

/** A free BGMI tournament of `maxTeams` squads as the admin form sends it, registration open, start in 10 days. */
export function tournamentForm(maxTeams, fields) {
  const day = 86_400_000;
  const form = new FormData();
  const all = {
    game: 'BGMI',
    startDate: new Date(Date.now() + 10 * day).toISOString(),
    endDate: new Date(Date.now() + 12 * day).toISOString(),
    registrationOpen: new Date(Date.now() - day).toISOString(),
    registrationClose: new Date(Date.now() + 9 * day).toISOString(),
    maxTeams: String(maxTeams),
    format: 'Squad',
    platform: 'Mobile',
    entryFee: '0',
    prizePool: '₹5,00,000',
    status: 'Registration Ongoing',
    ...fields,
  };
  for (const [k, v] of Object.entries(all)) form.append(k, v);
  return form;
}

export async function pgQuery(databaseUrl, text) {
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

/** A node child with its output kept in child.output; also printed with its name unless `quiet` (a request log at info). */
/**
 * A schema of its own in the PostgreSQL database at pgUrl (created now; the URL's search_path names it),
 * and drop() to remove it after. Without pgUrl: SQLite, nothing to drop.
 */
export async function pgSchema(pgUrl, prefix) {
  if (!pgUrl) return { databaseUrl: undefined, drop: async () => {} };
  const schema = `${prefix}_${crypto.randomBytes(4).toString('hex')}`;
  await pgQuery(pgUrl, `create schema ${schema}`);
  const url = new URL(pgUrl);
  url.searchParams.set('options', `-c search_path=${schema}`);
  const drop = () =>
    pgQuery(pgUrl, `drop schema if exists ${schema} cascade`).catch((err) => console.error(`drop schema ${schema}: ${err.message}`));
  return { databaseUrl: url.toString(), drop };
}

export function startChild(name, args, env, { quiet = false } = {}) {
  const child = spawnTracked(process.execPath, args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  child.output = '';
  const forward = (chunk) => {
    child.output += chunk;
    if (quiet) return;
    for (const l of String(chunk).split('\n')) if (l.trim()) process.stderr.write(`[${name}] ${l}\n`);
  };
  child.stdout.on('data', forward);
  child.stderr.on('data', forward);
  return child;
}

export async function stopChild(child) {
  await killGroup(child.pid, 10_000);
}

export async function waitForHealth(baseUrl, child) {
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

export async function call(baseUrl, method, urlPath, { token, json, form } = {}) {
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

/**
 * Squad i of a bench tournament, through the built gateway's own repositories (`repos`: insertUser and
 * insertRegistration from gateway/dist), with an account that cannot log in (only the team matters)
 * unless a real `passwordHash` is given.
 */
export async function insertSquad(
  { insertUser, insertRegistration },
  trx,
  tid,
  i,
  teamName = `Squad ${String(i).padStart(4, '0')}`,
  passwordHash = 'x',
) {
  const tag = `s${i}`;
  const now = new Date().toISOString();
  const account = { email: `squad${i}@bench.example`, phone: `+9197${String(i).padStart(8, '0')}`, username: `squad_${i}` };
  const userId = await insertUser(trx, { ...account, passwordHash, roles: ['ROLE_USER'] }, now);
  const players = {
    player1Username: `${tag}_one`,
    player2Username: `${tag}_two`,
    player3Username: `${tag}_three`,
    player4Username: `${tag}_four`,
  };
  const team = { teamName, ...players, substitute1Username: '', substitute2Username: '' };
  const row = await insertRegistration(trx, tid, userId, team, { place: 'placed', payBy: null, now });
  return { userId, rid: row.id, username: account.username, teamName, igns: Object.values(players) };
}

export const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
};

/**
 * A PostgreSQL database of the benchmark's own: a schema of its own in BENCH_DATABASE_URL (several suites of
 * `npm run bench` share that database, and each one's admin account would meet the last one's), else a
 * throw-away cluster in a temporary directory. stop() drops the schema or removes the cluster.
 */
export async function throwawayPostgres(prefix) {
  if (process.env.BENCH_DATABASE_URL) {
    const own = await pgSchema(process.env.BENCH_DATABASE_URL, prefix.replace(/[^a-z0-9]+/gi, '_').toLowerCase());
    return { url: own.databaseUrl, stop: () => own.drop() };
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `${prefix}-pg-`));
  fs.chmodSync(dir, 0o755);
  const cluster = path.join(dir, 'cluster');
  return {
    url: startCluster(cluster),
    async stop() {
      stopCluster(cluster);
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
