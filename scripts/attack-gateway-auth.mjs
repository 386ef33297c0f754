#!/usr/bin/env node
// The attacks of issue 16 items 5, 8, 13 and 16 (decision 030), run against the built gateway
// (npm run build:gateway) on a temporary SQLite database (or ATTACK_DATABASE_URL, a PostgreSQL URL
// whose database the run may create a schema in). Prints what each attack achieved.
//
//   node scripts/attack-gateway-auth.mjs [lockout] [login-cost] [reset-timing] [nesting] [trickle]   (default: all)
//
// lockout       31 parallel wrong logins for one account with the right password sent 26th, on one
//               process and split over two; 200 parallel guesses from one address at 200 accounts.
// login-cost    50 right and 50 wrong logins one after another (limits on): what a login costs now.
// reset-timing  RESET_SAMPLES (500) reset requests each for a known and an unknown email, interleaved:
//               the answer's time on a quiet gateway, and that of a probe sent right after the answer;
//               medians, and how often one request is classified right by the best threshold.
// nesting       a JSON body nested 10,000 levels deep (object and array) to every JSON route.
// trickle       a request body sent one byte every TRICKLE_EVERY_MS (10,000) with the default
//               timeouts: how long until the gateway closes it (TRICKLE_LIMIT_S, 400, to give up).
//
// Env: ATTACK_PORT_BASE (4200): ports from there; ATTACK_DATABASE_URL (postgres://...); ATTACK_SERVER: another
// build's server.js (an older commit's, to compare).

import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { killGroup, spawnTracked, stopAllOnExit } from './lib/processes.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SERVER = process.env.ATTACK_SERVER ? path.resolve(process.env.ATTACK_SERVER) : path.join(ROOT, 'gateway', 'dist', 'server.js');
const ADMIN = { email: 'admin@attack.example', password: 'attack-admin-password' };
stopAllOnExit();
let nextPort = Number(process.env.ATTACK_PORT_BASE || 4200);

async function storage() {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gw-attack-'));
  const base = process.env.ATTACK_DATABASE_URL;
  if (!base) return { dataDir };
  const { default: pg } = await import('pg');
  const schema = `attack_${crypto.randomBytes(4).toString('hex')}`;
  const client = new pg.Client({ connectionString: base });
  await client.connect();
  await client.query(`create schema ${schema}`);
  await client.end();
  const url = new URL(base);
  url.searchParams.set('options', `-c search_path=${schema}`);
  return { dataDir, databaseUrl: url.toString() };
}

async function startGateway(store, env = {}) {
  const port = nextPort++;
  const child = spawnTracked(process.execPath, [SERVER], {
    env: {
      PATH: process.env.PATH,
      NODE_ENV: 'production',
      DATA_DIR: store.dataDir,
      ...(store.databaseUrl ? { DATABASE_URL: store.databaseUrl } : {}),
      GATEWAY_PORT: String(port),
      SEED_DEMO: '0',
      LOG_LEVEL: 'warn',
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      ...env,
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 300; i++) {
    if (child.exitCode !== null) throw new Error(`gateway exited: ${stderr}`);
    try {
      if ((await fetch(`${url}/healthz`)).ok) break;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    url,
    port,
    stop: () => killGroup(child.pid, 10_000),
  };
}

const post = (url, path, body, ip, extra = {}) =>
  fetch(url + path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': ip, ...extra },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
const tally = (statuses) =>
  Object.entries(statuses.reduce((m, s) => ((m[s] = (m[s] ?? 0) + 1), m), {}))
    .map(([s, n]) => `${n} x ${s}`)
    .join(', ');
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
let ipCounter = 0;
const anotherIp = () => `198.18.${Math.floor(++ipCounter / 250)}.${(ipCounter % 250) + 1}`;

async function register(url, ip = anotherIp()) {
  const u = crypto.randomBytes(4).toString('hex');
  const account = {
    email: `atk${u}@attack.example`,
    phone: `9${String(crypto.randomInt(0, 1e9)).padStart(9, '0')}`,
    username: `atk_${u}`,
    password: 'the right password',
  };
  const res = await post(url, '/api/auth/register', account, ip);
  if (res.status !== 201) throw new Error(`register: ${res.status} ${await res.text()}`);
  return account;
}

async function lockout() {
  console.log('\n## lockout (item 5)');
  for (const processes of [1, 2]) {
    const store = await storage();
    const first = await startGateway(store, { RATE_LIMIT: 'on' });
    const gateways = processes === 2 ? [first, await startGateway(store, { RATE_LIMIT: 'on' })] : [first];
    try {
      const victim = await register(first.url);
      // 31 attempts from 31 addresses at once; the 26th has the right password.
      const attempts = Array.from({ length: 31 }, (_, i) => (i === 25 ? victim.password : `guess ${i}`));
      const statuses = await Promise.all(
        attempts.map((password, i) =>
          post(gateways[i % gateways.length].url, '/api/auth/login', { emailOrPhone: victim.email, password }, anotherIp()).then(
            (r) => r.status,
          ),
        ),
      );
      console.log(`${processes} process(es), one account (limit 10): ${tally(statuses)}; the right password (26th): ${statuses[25]}`);

      // 200 guesses at 200 accounts from one address at once (limit 100).
      const ip = anotherIp();
      const guesses = await Promise.all(
        Array.from({ length: 200 }, (_, i) =>
          post(
            gateways[i % gateways.length].url,
            '/api/auth/login',
            { emailOrPhone: `nobody${i}-${crypto.randomBytes(3).toString('hex')}@attack.example`, password: 'password123' },
            ip,
          ).then((r) => r.status),
        ),
      );
      console.log(`${processes} process(es), one address (limit 100): ${tally(guesses)}`);
    } finally {
      await Promise.all(gateways.map((g) => g.stop()));
    }
  }
}

/** The best single threshold an attacker could pick (either direction), applied to one request: the share classified right. */
function classificationRate(known, unknown) {
  const all = [...known.map((t) => [t, 1]), ...unknown.map((t) => [t, 0])].sort((a, b) => a[0] - b[0]);
  let best = 0.5;
  let knownBelow = 0;
  let unknownBelow = 0;
  for (const [, isKnown] of all) {
    if (isKnown) knownBelow++;
    else unknownBelow++;
    const slowerIsKnown = (unknownBelow + (known.length - knownBelow)) / all.length;
    best = Math.max(best, slowerIsKnown, 1 - slowerIsKnown);
  }
  return best;
}

async function resetTiming() {
  console.log('\n## password reset timing (item 8)');
  const samples = Number(process.env.RESET_SAMPLES || 500);
  const store = await storage();
  const gw = await startGateway(store, { RATE_LIMIT: 'off', LOG_LEVEL: 'error' });
  try {
    const known = await register(gw.url);
    const ask = (email) => post(gw.url, '/api/auth/password-reset/request', { email }, '192.0.2.1');
    for (let i = 0; i < 50; i++) await (await ask(i % 2 ? known.email : `warm${i}@attack.example`)).arrayBuffer();
    // Spaced: 20 ms between requests, so each is timed on a quiet gateway (its own answer).
    // Probe: a GET /healthz (one database read) sent the moment a reset is answered: it waits behind
    // whatever work the gateway does after that answer.
    for (const mode of ['spaced', 'probe']) {
      const times = { known: [], unknown: [] };
      for (let i = 0; i < samples * 2; i++) {
        const which = i % 2 ? 'known' : 'unknown';
        const email = which === 'known' ? known.email : `nobody${i}@attack.example`;
        if (mode === 'spaced') await new Promise((r) => setTimeout(r, 20));
        let started = process.hrtime.bigint();
        const res = await ask(email);
        await res.arrayBuffer();
        if (res.status !== 202) throw new Error(`reset: ${res.status}`);
        if (mode === 'probe') {
          started = process.hrtime.bigint();
          await (await fetch(`${gw.url}/healthz`)).arrayBuffer();
        }
        times[which].push(Number(process.hrtime.bigint() - started) / 1e6);
        if (mode === 'probe') await new Promise((r) => setTimeout(r, 20)); // the work after the answer is over
      }
      const [k, u] = [median(times.known), median(times.unknown)];
      console.log(
        `${mode === 'spaced' ? 'the answer' : 'a probe right after the answer'}, ${samples} each: median known ${k.toFixed(3)} ms, unknown ${u.toFixed(3)} ms ` +
          `(difference ${(k - u).toFixed(3)} ms); one request classified right ${(classificationRate(times.known, times.unknown) * 100).toFixed(1)}% of the time by the best threshold`,
      );
    }
  } finally {
    await gw.stop();
  }
}

async function loginCost() {
  console.log('\n## cost of a login with the limits on (item 5)');
  const store = await storage();
  const gw = await startGateway(store, { RATE_LIMIT: 'on', RATE_LIMIT_LOGIN_MAX: '100000' });
  try {
    const account = await register(gw.url);
    const times = { right: [], wrong: [] };
    for (let i = 0; i < 120; i++) {
      const which = i % 2 ? 'right' : 'wrong';
      const started = process.hrtime.bigint();
      // Each from its own address, so the wrong ones never reach a limit (the account's is 10: a new account every 9).
      const res = await post(
        gw.url,
        '/api/auth/login',
        { emailOrPhone: account.email, password: which === 'right' ? account.password : 'a wrong password' },
        anotherIp(),
      );
      await res.arrayBuffer();
      if (i >= 20) times[which].push(Number(process.hrtime.bigint() - started) / 1e6);
      if (res.status !== (which === 'right' ? 200 : 401)) throw new Error(`login: ${res.status}`);
      if (which === 'wrong' && i % 18 === 16) Object.assign(account, await register(gw.url));
    }
    const p95 = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length * 0.95)];
    console.log(
      `50 each: right password median ${median(times.right).toFixed(1)} ms (p95 ${p95(times.right).toFixed(1)}), wrong median ${median(times.wrong).toFixed(1)} ms (p95 ${p95(times.wrong).toFixed(1)})`,
    );
  } finally {
    await gw.stop();
  }
}

async function nesting() {
  console.log('\n## deep JSON nesting (item 13)');
  const store = await storage();
  const gw = await startGateway(store, { RATE_LIMIT: 'off' });
  try {
    const login = await post(gw.url, '/api/auth/login', { emailOrPhone: ADMIN.email, password: ADMIN.password }, '192.0.2.2');
    const token = (await login.json()).token;
    const spec = await (await fetch(`${gw.url}/openapi.json`)).json();
    const depth = 10_000;
    const bodies = { object: '{"a":'.repeat(depth) + '1' + '}'.repeat(depth), array: '['.repeat(depth) + ']'.repeat(depth) };
    const seen = {};
    let routes = 0;
    for (const [route, methods] of Object.entries(spec.paths)) {
      for (const method of Object.keys(methods)) {
        if (!['post', 'put', 'patch', 'delete'].includes(method)) continue;
        routes++;
        const url = gw.url + route.replace(/\{[^}]+\}/g, '1');
        for (const [kind, body] of Object.entries(bodies)) {
          const res = await fetch(url, {
            method: method.toUpperCase(),
            headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
            body,
          });
          const key = `${kind} ${res.status}`;
          seen[key] = (seen[key] ?? 0) + 1;
        }
      }
    }
    console.log(
      `${routes} routes with a body, ${depth} levels deep (${bodies.object.length} bytes): ${Object.entries(seen)
        .map(([k, n]) => `${n} x ${k}`)
        .join(', ')}`,
    );
  } finally {
    await gw.stop();
  }
}

async function trickle() {
  console.log('\n## slow request body (item 16)');
  const every = Number(process.env.TRICKLE_EVERY_MS || 10_000);
  const limit = Number(process.env.TRICKLE_LIMIT_S || 400);
  const store = await storage();
  const gw = await startGateway(store, { RATE_LIMIT: 'off' });
  try {
    const started = Date.now();
    const outcome = await new Promise((resolve) => {
      const socket = net.connect(gw.port, '127.0.0.1');
      let answer = '';
      let timer;
      const end = (how) => {
        clearInterval(timer);
        socket.destroy();
        resolve(`${how} after ${((Date.now() - started) / 1000).toFixed(1)} s${answer ? `, answer: ${answer.split('\r\n')[0]}` : ''}`);
      };
      socket.on('data', (d) => (answer += d));
      socket.on('close', () => end('closed by the gateway'));
      socket.on('error', () => {});
      socket.write('POST /api/auth/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{');
      timer = setInterval(() => {
        if ((Date.now() - started) / 1000 > limit) return end('still open (gave up)');
        socket.write(' ');
      }, every);
    });
    console.log(`1 byte every ${every / 1000} s: ${outcome}`);
  } finally {
    await gw.stop();
  }
}

const attacks = { lockout, 'login-cost': loginCost, 'reset-timing': resetTiming, nesting, trickle };
const chosen = process.argv.slice(2).length ? process.argv.slice(2) : Object.keys(attacks);
for (const name of chosen) {
  if (!attacks[name]) {
    console.error(`attack-gateway-auth: unknown attack "${name}" (${Object.keys(attacks).join(', ')})`);
    process.exit(2);
  }
}
for (const name of chosen) await attacks[name]();
