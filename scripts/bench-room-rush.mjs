#!/usr/bin/env node
// `npm run bench:room-rush [-- --pg] [--squads 1000] [--seconds 10] [--json FILE]` (issue 32, decision 086): the
// room minute. A 1,000-squad tournament in 40 groups of 25; the rooms of all 40 groups saved in one PUT (the
// gateway's notification worker then delivers the rooms-posted lines to every captain while the rush runs); then
// every captain (one account and one session each) opens /tournament/{id}/matches, spread over 10 s, and 20% of
// them open it once more. Every answer must be 200 and show that player's own group's room and no other group's.
// Run with one web process, then with WEB_CONCURRENCY=2 (a second web server on the same data). Reports p50, p95,
// p99, errors, wrong rooms and the CPU seconds of each process. Target: p99 < 1,500 ms, no error, no wrong room.
//
// Setup is not timed and not the sign-up path's business: the squads and their sessions are written through
// the gateway's own repository and token service (its key in DATA_DIR), and each web cookie is signed with the
// web's session secret by Remix's own cookie session storage, exactly as /login would. The production build
// must exist (`npm run build`). SQLite by default; --pg: a throw-away PostgreSQL (or BENCH_DATABASE_URL).
// --profile DIR: one rush only, on a web process under --cpu-prof, then where its CPU went (no JSON written).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { createCookieSessionStorage } from '@remix-run/node';
import { Agent } from 'undici';
import { ADMIN, Stack } from '../tests/e2e/support/stack.mjs';
import { call, insertSquad, median, throwawayPostgres, tournamentForm } from './lib/bench-helpers.mjs';
import { printProfile, startProfiledWeb } from './lib/cpu-profile.mjs';
import { onCleanup, stopAllOnExit } from './lib/processes.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const TARGET_P99_MS = 1500;
const LOBBY = 25;

const { values: args } = parseArgs({
  options: {
    pg: { type: 'boolean', default: false },
    database: { type: 'string' },
    squads: { type: 'string', default: '1000' },
    seconds: { type: 'string', default: '10' },
    refresh: { type: 'string', default: '0.2' },
    json: { type: 'string' },
    profile: { type: 'string' },
  },
});
const SQUADS = Number(args.squads);
const SECONDS = Number(args.seconds);
const REFRESH = Number(args.refresh);
if (!Number.isInteger(SQUADS) || SQUADS < LOBBY || !(SECONDS > 0) || !(REFRESH >= 0 && REFRESH <= 1)) {
  console.error('bench-room-rush: --squads is a whole number ≥ 25, --seconds > 0, --refresh a share from 0 to 1');
  process.exit(2);
}

const dist = (p) => pathToFileURL(path.join(ROOT, 'gateway', 'dist', p)).href;
const percentile = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)] : NaN;
};
const percentiles = (xs) => [50, 95, 99].map((p) => Math.round(percentile(xs, p))).join('/');

/** CPU seconds (user + system) a process and its children have used so far, from /proc. */
function cpuSeconds(pid) {
  const ticks = (p) => {
    try {
      const fields = fs.readFileSync(`/proc/${p}/stat`, 'utf8').split(') ')[1].split(' ');
      return Number(fields[11]) + Number(fields[12]); // utime, stime (fields 14, 15)
    } catch {
      return 0;
    }
  };
  const children = (p) => {
    try {
      return fs.readFileSync(`/proc/${p}/task/${p}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
    } catch {
      return [];
    }
  };
  const all = [pid, ...children(pid)];
  return all.reduce((sum, p) => sum + ticks(p), 0) / 100;
}

/** 1,000 squads and a session each, written as the gateway would; their web cookies, signed as the web would. */
async function seedCaptains(stack, databaseUrl, tid) {
  const { openDatabase } = await import(dist('db/index.js'));
  const { insertUser } = await import(dist('db/users.js'));
  const { insertRegistration } = await import(dist('db/registrations.js'));
  const { bumpGeneration } = await import(dist('db/generation.js'));
  const { createTokenService } = await import(dist('lib/tokens.js'));
  const { signSession } = await import(dist('lib/sessions.js'));
  const store = await openDatabase({ databaseUrl, dataDir: stack.info.dataDir });
  const tokens = await createTokenService({ dataDir: stack.info.dataDir, ttlSeconds: 12 * 60 * 60 });
  const captains = [];
  try {
    await store.writeTransaction(async (trx) => {
      for (let i = 1; i <= SQUADS; i++) {
        const squad = await insertSquad({ insertUser, insertRegistration }, trx, tid, i, `Rush ${String(i).padStart(4, '0')}`);
        const session = await signSession(tokens, { id: squad.userId, username: squad.username, roles: ['ROLE_USER'] });
        await session.store(trx);
        captains.push({ rid: Number(squad.rid), username: squad.username, token: session.token });
      }
      await bumpGeneration(trx, tid);
    });
  } finally {
    await store.close();
  }
  const secret = fs.readFileSync(path.join(stack.info.dataDir, 'session-secret'), 'utf8').trim();
  const storage = createCookieSessionStorage({
    cookie: { name: '__session', httpOnly: true, sameSite: 'lax', path: '/', secrets: [secret], maxAge: 12 * 60 * 60 },
  });
  for (const c of captains) {
    const session = await storage.getSession();
    session.set('token', c.token);
    session.set('username', c.username);
    c.cookie = (await storage.commitSession(session)).split(';')[0];
  }
  return captains;
}

/** The stage of 40 groups, drawn, scheduled (one match), published, every group's room saved in one PUT. */
async function stageWithRooms(gatewayUrl, admin, tid) {
  const base = `/tournaments/${tid}/stages`;
  const stage = await call(gatewayUrl, 'POST', base, { token: admin, json: { name: 'Qualifiers', lobbySize: LOBBY, advancePerGroup: 4 } });
  const drawn = await call(gatewayUrl, 'POST', `${base}/${stage.id}/groups`, { token: admin, json: { method: 'registration' } });
  const matches = await call(gatewayUrl, 'POST', `${base}/${stage.id}/matches`, {
    token: admin,
    json: { matches: [{ day: 1, matchNo: 1, map: 'Erangel', time: '18:30' }] },
  });
  await call(gatewayUrl, 'POST', `${base}/${stage.id}/publish`, { token: admin, json: {} });
  const rooms = new Map(matches.map((m) => [m.groupId, { matchId: String(7_000_000 + m.id), password: `rush-${m.groupId}-${m.id}` }]));
  await call(gatewayUrl, 'PUT', `${base}/${stage.id}/rooms`, {
    token: admin,
    json: { rooms: matches.map((m) => ({ id: m.id, ...rooms.get(m.groupId) })) },
  });
  const groupOf = new Map(drawn.groups.flatMap((g) => g.slots.map((s) => [s.teamId, g.id])));
  return { groups: drawn.groups.length, rooms, groupOf };
}

/** Every captain opens the page once, spread over SECONDS, and a share of them once more; each answer checked. */
async function rush(webUrl, tid, captains, { rooms, groupOf }) {
  const dispatcher = new Agent({ connections: null, pipelining: 0, keepAliveTimeout: 10_000 });
  const latencies = [];
  const failures = {};
  let wrong = 0;
  const open = async (captain) => {
    const started = performance.now();
    try {
      const res = await fetch(`${webUrl}/tournament/${tid}/matches`, {
        headers: { cookie: captain.cookie, 'accept-encoding': 'gzip' },
        dispatcher,
      });
      const body = await res.text();
      latencies.push(performance.now() - started);
      if (res.status !== 200) return void (failures[`HTTP ${res.status}`] = (failures[`HTTP ${res.status}`] ?? 0) + 1);
      const own = groupOf.get(captain.rid);
      let ok = body.includes(rooms.get(own).password);
      for (const [group, room] of rooms) if (group !== own && body.includes(room.password)) ok = false;
      if (!ok) wrong++;
    } catch (err) {
      latencies.push(performance.now() - started);
      const key = err.cause?.code ?? err.name;
      failures[key] = (failures[key] ?? 0) + 1;
    }
  };
  const order = [...captains].sort(() => Math.random() - 0.5);
  const again = new Set(order.slice(0, Math.round(order.length * REFRESH)));
  const started = performance.now();
  await Promise.all(
    order.map(async (captain, i) => {
      await new Promise((resolve) => setTimeout(resolve, (i / order.length) * SECONDS * 1000));
      await open(captain);
      if (again.has(captain)) await open(captain);
    }),
  );
  const wallMs = performance.now() - started;
  await dispatcher.close();
  return { requests: latencies.length, wallMs, latencies, failures, wrong };
}

async function runOn(database) {
  const pg = database === 'postgres' ? throwawayPostgres('bench-room-rush') : null;
  const stack = await Stack.start({
    label: `room-rush-${database}`,
    gatewayEnv: pg ? { DATABASE_URL: pg.url } : {},
    webEnv: { WEB_CONCURRENCY: '1', LOG_LEVEL: 'warn' },
  });
  onCleanup(() => stack.stop());
  try {
    const { token: admin } = await call(stack.info.gatewayUrl, 'POST', '/api/auth/login', {
      json: { emailOrPhone: ADMIN.email, password: ADMIN.password },
    });
    const created = await call(stack.info.gatewayUrl, 'POST', '/tournaments/add', {
      token: admin,
      form: tournamentForm(SQUADS, {
        name: `Room Rush ${database}`,
        description: 'A 1,000-squad BGMI tournament created by the room rush benchmark.',
        overview: 'Qualifiers in 40 groups of 25; the rooms of every group posted at once.',
      }),
    });
    const t = created.data ?? created;
    const setupStarted = performance.now();
    const captains = await seedCaptains(stack, pg?.url, t.id);
    const stage = await stageWithRooms(stack.info.gatewayUrl, admin, t.id);
    console.log(
      `${database}: ${SQUADS} squads in ${stage.groups} groups, rooms saved (setup ${Math.round((performance.now() - setupStarted) / 1000)} s)`,
    );
    const rows = [];
    if (args.profile) {
      const web = await startProfiledWeb(stack, path.resolve(args.profile));
      const before = { web: cpuSeconds(web.pid), gateway: cpuSeconds(stack.gatewayProc.pid) };
      const r = await rush(web.url, t.id, captains, stage);
      const cpu = { web: cpuSeconds(web.pid) - before.web, gateway: cpuSeconds(stack.gatewayProc.pid) - before.gateway };
      console.log(
        `  profiled: p50/p95/p99 ${percentiles(r.latencies)} ms; errors ${JSON.stringify(r.failures)}; wrong rooms ${r.wrong}; ` +
          `CPU web ${cpu.web.toFixed(1)} s, gateway ${cpu.gateway.toFixed(1)} s`,
      );
      printProfile(await web.stop(), r.requests);
      return rows;
    }
    const second = await stack.startExtraWeb({ WEB_CONCURRENCY: '2' });
    for (const [label, webUrl, webPid] of [
      ['1 web process', stack.info.webUrl, stack.info.webPid],
      ['WEB_CONCURRENCY=2', second.url, second.pid],
    ]) {
      const before = { web: cpuSeconds(webPid), gateway: cpuSeconds(stack.gatewayProc.pid) };
      const r = await rush(webUrl, t.id, captains, stage);
      const cpu = { web: cpuSeconds(webPid) - before.web, gateway: cpuSeconds(stack.gatewayProc.pid) - before.gateway };
      const row = {
        database,
        web: label,
        requests: r.requests,
        wallMs: Math.round(r.wallMs),
        p50: Math.round(percentile(r.latencies, 50)),
        p95: Math.round(percentile(r.latencies, 95)),
        p99: Math.round(percentile(r.latencies, 99)),
        median: Math.round(median(r.latencies)),
        failures: r.failures,
        wrongRooms: r.wrong,
        cpuSeconds: { web: Number(cpu.web.toFixed(1)), gateway: Number(cpu.gateway.toFixed(1)) },
      };
      row.pass = row.p99 < TARGET_P99_MS && Object.keys(row.failures).length === 0 && row.wrongRooms === 0;
      rows.push(row);
      console.log(
        `  ${label}: ${row.requests} pages in ${(row.wallMs / 1000).toFixed(1)} s; p50/p95/p99 ${row.p50}/${row.p95}/${row.p99} ms ` +
          `(target p99 < ${TARGET_P99_MS}); errors ${JSON.stringify(row.failures)}; wrong rooms ${row.wrongRooms}; ` +
          `CPU web ${row.cpuSeconds.web} s, gateway ${row.cpuSeconds.gateway} s ${row.pass ? 'PASS' : 'FAIL'}`,
      );
    }
    return rows;
  } finally {
    await stack.stop();
    pg?.stop(); // BENCH_DATABASE_URL's is left as it was
  }
}

stopAllOnExit();
if (args.profile) {
  await runOn(args.pg ? 'postgres' : 'sqlite');
  process.exit(0);
}
const rows = [];
for (const database of args.pg || process.env.BENCH_DATABASE_URL ? ['sqlite', 'postgres'] : ['sqlite'])
  rows.push(...(await runOn(database)));
const file = args.json ?? path.join(ROOT, 'bench', 'results', `${new Date().toISOString().slice(0, 16).replace(':', '')}-room-rush.json`);
fs.mkdirSync(path.dirname(file), { recursive: true });
fs.writeFileSync(
  file,
  JSON.stringify({ squads: SQUADS, seconds: SECONDS, refresh: REFRESH, targetP99Ms: TARGET_P99_MS, rows }, null, 2) + '\n',
);
console.log(`bench-room-rush: ${file}`);
process.exitCode = rows.every((r) => r.pass) ? 0 : 1;
