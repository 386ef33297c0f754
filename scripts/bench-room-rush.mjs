#!/usr/bin/env node
// `npm run bench:room-rush [-- --pg] [--squads 1000] [--seconds 10] [--rounds 3] [--json FILE]` (issue 32, decisions 086, 087):
// the room minute. A 1,000-squad tournament in 40 groups of 25 with 10 matches each (a day and a half), every
// captain's phone subscribed to push. For each run, the organiser saves the rooms of all 10 matches of all 40
// groups (10 PUTs: 400 room events, 10,000 notifications, each a mail and a push, which the notification
// worker, a process of its own at the lowest CPU priority as `npm start` runs it, sends to a local SMTP server
// and push service meanwhile); then every captain (one account and one session each) opens
// /tournament/{id}/matches, spread over 10 s, and 20% of them open it once more. Every answer must be 200 and
// show all of that player's own group's rooms and no other group's. Run with one web process, then with
// WEB_CONCURRENCY=2 (a second web server on the same data), each with a burst of its own (the rooms change),
// --rounds times each (default 3) after every captain's page once on that web (a process that has served pages).
// Reports p50, p95, p99, errors, wrong rooms, the messages sent during the rush and the CPU seconds of each
// process per round (PostgreSQL: all its processes together); the row's figure is the median round's p99. Target: p99 < 1,500 ms, no error, no wrong room.
//
// Setup is not timed and not the sign-up path's business: the squads and their sessions are written through
// the gateway's own repository and token service (its key in DATA_DIR), and each web cookie is signed with the
// web's session secret by Remix's own cookie session storage, exactly as /login would. The production build
// must exist (`npm run build`). SQLite by default; --pg: a throw-away PostgreSQL (or BENCH_DATABASE_URL).
// --profile DIR: one rush only, on a web process under --cpu-prof, then where its CPU went (no JSON written).
// --quiet: no notifications during the rushes (to see what they cost).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { createCookieSessionStorage } from '@remix-run/node';
import { Agent } from 'undici';
import { ADMIN, Stack } from '../tests/e2e/support/stack.mjs';
import { call, insertSquad, median, throwawayPostgres, tournamentForm } from './lib/bench-helpers.mjs';
import { printProfile, startProfiledWeb } from './lib/cpu-profile.mjs';
import { benchPushKeys, receivedAtLeast, startReceivers } from './lib/notify-receivers.mjs';
import { onCleanup, stopAllOnExit } from './lib/processes.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const TARGET_P99_MS = 1500;
const LOBBY = 25;
const MATCHES = 10;

const { values: args } = parseArgs({
  options: {
    pg: { type: 'boolean', default: false },
    database: { type: 'string' },
    squads: { type: 'string', default: '1000' },
    seconds: { type: 'string', default: '10' },
    rounds: { type: 'string', default: '3' },
    refresh: { type: 'string', default: '0.2' },
    json: { type: 'string' },
    profile: { type: 'string' },
    quiet: { type: 'boolean', default: false },
  },
});
const SQUADS = Number(args.squads);
const SECONDS = Number(args.seconds);
const REFRESH = Number(args.refresh);
const ROUNDS = Number(args.rounds);
if (args.database && !['sqlite', 'postgres'].includes(args.database)) {
  console.error('bench-room-rush: --database is sqlite or postgres');
  process.exit(2);
}
if (!Number.isInteger(ROUNDS) || ROUNDS < 1) {
  console.error('bench-room-rush: --rounds is a whole number ≥ 1');
  process.exit(2);
}
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

/** A process's /proc stat line, or '' when it is gone. */
const statOf = (pid) => {
  try {
    return fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return '';
  }
};
/** CPU ticks (user + system) in a stat line: fields 14 and 15, after "pid (comm) ". */
const ticksIn = (stat) => {
  const fields = stat.split(') ')[1]?.split(' ') ?? [];
  return (Number(fields[11]) || 0) + (Number(fields[12]) || 0);
};

/** CPU seconds (user + system) a process and its children have used so far, from /proc. */
function cpuSeconds(pid) {
  const children = (p) => {
    try {
      return fs.readFileSync(`/proc/${p}/task/${p}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
    } catch {
      return [];
    }
  };
  const all = [pid, ...children(pid)];
  return all.reduce((sum, p) => sum + ticksIn(statOf(p)), 0) / 100;
}

/**
 * CPU seconds every PostgreSQL process on this machine has used so far (the server's backends serve the
 * gateway's and the worker's queries; a throw-away cluster or BENCH_DATABASE_URL's server alike).
 */
function postgresCpuSeconds() {
  const stats = fs
    .readdirSync('/proc')
    .filter((e) => /^\d+$/.test(e))
    .map(statOf);
  return stats.filter((stat) => stat.includes('(postgres)')).reduce((sum, stat) => sum + ticksIn(stat), 0) / 100;
}

/** 1,000 squads, a session and a phone each, written as the gateway would; their web cookies, signed as the web would. */
async function seedCaptains(stack, databaseUrl, tid, pushUrl) {
  const { openDatabase } = await import(dist('db/index.js'));
  const { insertUser } = await import(dist('db/users.js'));
  const { insertRegistration } = await import(dist('db/registrations.js'));
  const { bumpGeneration } = await import(dist('db/generation.js'));
  const { createTokenService } = await import(dist('lib/tokens.js'));
  const { signSession } = await import(dist('lib/sessions.js'));
  const store = await openDatabase({ databaseUrl, dataDir: stack.info.dataDir });
  const tokens = await createTokenService({ dataDir: stack.info.dataDir, ttlSeconds: 12 * 60 * 60 });
  const captains = [];
  const keys = benchPushKeys();
  try {
    await store.writeTransaction(async (trx) => {
      for (let i = 1; i <= SQUADS; i++) {
        const squad = await insertSquad({ insertUser, insertRegistration }, trx, tid, i, `Rush ${String(i).padStart(4, '0')}`);
        const session = await signSession(tokens, { id: squad.userId, username: squad.username, roles: ['ROLE_USER'] });
        await session.store(trx);
        await trx
          .insertInto('push_subscriptions')
          .values({
            user_id: squad.userId,
            endpoint: `${pushUrl}/push/${i}`,
            p256dh: keys.p256dh,
            auth: keys.auth(),
            created_at: new Date().toISOString(),
          })
          .execute();
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

/** The stage of 40 groups, drawn, published (its 1,000 notices sent before anything is timed), 10 matches scheduled. */
async function stageOf(gatewayUrl, admin, tid, receivers) {
  const base = `/tournaments/${tid}/stages`;
  const stage = await call(gatewayUrl, 'POST', base, { token: admin, json: { name: 'Qualifiers', lobbySize: LOBBY, advancePerGroup: 4 } });
  const drawn = await call(gatewayUrl, 'POST', `${base}/${stage.id}/groups`, { token: admin, json: { method: 'registration' } });
  const matches = await call(gatewayUrl, 'POST', `${base}/${stage.id}/matches`, {
    token: admin,
    // Six matches a day at most.
    json: {
      matches: Array.from({ length: MATCHES }, (_, i) => ({
        day: 1 + Math.floor(i / 6),
        matchNo: 1 + (i % 6),
        map: 'Erangel',
        time: '18:30',
      })),
    },
  });
  await call(gatewayUrl, 'POST', `${base}/${stage.id}/publish`, { token: admin, json: {} });
  if (receivers) await receivedAtLeast(receivers, 2 * SQUADS); // the publish's notices: a mail and a push per squad
  const groupOf = new Map(drawn.groups.flatMap((g) => g.slots.map((s) => [s.teamId, g.id])));
  return { id: stage.id, groups: drawn.groups.length, matches, groupOf };
}

/**
 * The organiser saves every group's rooms, a PUT per match number as the lobbies are set up: 400 room events,
 * 10,000 notifications. round makes each run's rooms new (a changed room is told again).
 */
async function saveRooms(gatewayUrl, admin, tid, stage, round) {
  const password = (m) => `rush${round}-${m.groupId}-${m.id}`;
  for (let no = 1; no <= MATCHES; no++) {
    const day = 1 + Math.floor((no - 1) / 6);
    const matchNo = 1 + ((no - 1) % 6);
    const rooms = stage.matches
      .filter((m) => m.day === day && m.matchNo === matchNo)
      .map((m) => ({ id: m.id, matchId: String(7_000_000 + round * 10_000 + m.id), password: password(m) }));
    await call(gatewayUrl, 'PUT', `/tournaments/${tid}/stages/${stage.id}/rooms`, { token: admin, json: { rooms } });
  }
}

/**
 * Before the first round on a web server: every captain's page once, 10 at a time, as players look at their
 * schedule before the rooms go up. The room minute meets a web process that has been serving pages for hours:
 * measured cold, the first round's pages cost a fifth more CPU than the third's while the JIT catches up.
 */
async function warmUp(webUrl, tid, captains) {
  const queue = [...captains];
  await Promise.all(
    Array.from({ length: 10 }, async () => {
      for (let c = queue.shift(); c; c = queue.shift()) {
        const res = await fetch(`${webUrl}/tournament/${tid}/matches`, { headers: { cookie: c.cookie, 'accept-encoding': 'gzip' } });
        await res.arrayBuffer();
      }
    }),
  );
}

/** Every captain opens the page once, spread over SECONDS, and a share of them once more; each answer checked. */
async function rush(webUrl, tid, captains, { groupOf }) {
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
      // The page must carry the passwords of its own group's 10 matches (each in its card and its WhatsApp
      // link) and no other group's: "rush{round}-{groupId}-{matchId}".
      const own = groupOf.get(captain.rid);
      const seen = new Map();
      for (const [, group, match] of body.matchAll(/rush\d+-(\d+)-(\d+)/g)) seen.set(`${group}-${match}`, Number(group));
      if (seen.size !== MATCHES || [...seen.values()].some((g) => g !== own)) wrong++;
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
  const pg = database === 'postgres' ? await throwawayPostgres('bench-room-rush') : null;
  const receivers = await startReceivers();
  onCleanup(() => receivers.close());
  const stack = await Stack.start({
    label: `room-rush-${database}`,
    // The notification worker runs as its own process (below), as `npm start` and the image run it.
    gatewayEnv: { ...(pg ? { DATABASE_URL: pg.url } : {}), NOTIFY_WORKER: 'off', SMTP_URL: receivers.smtpUrl, PUSH_ALLOW_HTTP: 'on' },
    webEnv: { WEB_CONCURRENCY: '1', LOG_LEVEL: 'warn' },
    // --profile: the gateway under --cpu-prof too; it writes its profile when the stack stops it.
    gatewayNodeArgs: args.profile ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(args.profile, 'gateway')}`] : [],
  });
  onCleanup(() => stack.stop());
  try {
    // After the gateway: it migrated the database and wrote DATA_DIR's VAPID keys, which the worker reads.
    const worker = stack.startWorker();
    const gatewayUrl = stack.info.gatewayUrl;
    const { token: admin } = await call(gatewayUrl, 'POST', '/api/auth/login', {
      json: { emailOrPhone: ADMIN.email, password: ADMIN.password },
    });
    const created = await call(gatewayUrl, 'POST', '/tournaments/add', {
      token: admin,
      form: tournamentForm(SQUADS, {
        name: `Room Rush ${database}`,
        description: 'A 1,000-squad BGMI tournament created by the room rush benchmark.',
        overview: 'Qualifiers in 40 groups of 25; the rooms of every group posted at once.',
      }),
    });
    const t = created.data ?? created;
    const setupStarted = performance.now();
    const captains = await seedCaptains(stack, pg?.url, t.id, receivers.pushUrl);
    const stage = await stageOf(gatewayUrl, admin, t.id, receivers);
    console.log(
      `${database}: ${SQUADS} squads in ${stage.groups} groups, ${MATCHES} matches each (setup ${Math.round((performance.now() - setupStarted) / 1000)} s)`,
    );
    const pids = (webPid) => ({ web: webPid, gateway: stack.gatewayProc.pid, worker: worker.pid });
    /** One run: the rooms saved (round: new values), the rush, the messages sent during it, the CPU of each process. */
    const measured = async (webUrl, webPid, round) => {
      const cpuNow = () => ({
        ...Object.fromEntries(Object.entries(pids(webPid)).map(([k, pid]) => [k, cpuSeconds(pid)])),
        ...(pg ? { postgres: postgresCpuSeconds() } : {}),
      });
      let before = cpuNow();
      const base = await receivers.count();
      let start = base;
      await saveRooms(gatewayUrl, admin, t.id, stage, round);
      if (args.quiet) {
        // --quiet: the burst is over before the rush starts, and neither is counted.
        await receivedAtLeast(receivers, 2 * SQUADS * MATCHES, base);
        [before, start] = [cpuNow(), await receivers.count()];
      }
      const r = await rush(webUrl, t.id, captains, stage);
      const cpu = Object.fromEntries(Object.entries(cpuNow()).map(([k, s]) => [k, Number((s - before[k]).toFixed(1))]));
      const got = await receivers.count();
      r.messages = got.mails + got.pushes - start.mails - start.pushes;
      r.cpu = cpu;
      // The burst's end before the next run: each run has one burst of its own.
      await receivedAtLeast(receivers, 2 * SQUADS * MATCHES, base);
      return r;
    };
    const rows = [];
    if (args.profile) {
      const web = await startProfiledWeb(stack, path.resolve(args.profile));
      await warmUp(web.url, t.id, captains);
      const r = await measured(web.url, web.pid, 1);
      console.log(
        `  profiled: p50/p95/p99 ${percentiles(r.latencies)} ms; errors ${JSON.stringify(r.failures)}; wrong rooms ${r.wrong}; ` +
          `messages sent meanwhile ${r.messages}; CPU ${JSON.stringify(r.cpu)} s`,
      );
      console.log('\n--- the web process ---');
      printProfile(await web.stop(), r.requests);
      await stack.stopGateway(); // SIGTERM: it writes its profile
      const dir = path.resolve(args.profile, 'gateway');
      const file = fs.readdirSync(dir).find((f) => f.endsWith('.cpuprofile'));
      console.log('\n--- the gateway (its whole life: setup too) ---');
      if (file) printProfile(path.join(dir, file), r.requests);
      return rows;
    }
    const second = await stack.startExtraWeb({ WEB_CONCURRENCY: '2' });
    let round = 0;
    for (const [label, webUrl, webPid] of [
      ['1 web process', stack.info.webUrl, stack.info.webPid],
      ['WEB_CONCURRENCY=2', second.url, second.pid],
    ]) {
      await warmUp(webUrl, t.id, captains);
      const runs = [];
      for (let i = 0; i < ROUNDS; i++) {
        const r = await measured(webUrl, webPid, ++round);
        runs.push(r);
        console.log(
          `  ${label}, round ${i + 1}/${ROUNDS}: ${r.requests} pages in ${(r.wallMs / 1000).toFixed(1)} s; p50/p95/p99 ${percentiles(r.latencies)} ms; ` +
            `errors ${JSON.stringify(r.failures)}; wrong rooms ${r.wrong}; messages sent meanwhile ${r.messages}; CPU ${JSON.stringify(r.cpu)} s`,
        );
      }
      const p99s = runs.map((r) => Math.round(percentile(r.latencies, 99)));
      const failures = runs.reduce((all, r) => {
        for (const [k, n] of Object.entries(r.failures)) all[k] = (all[k] ?? 0) + n;
        return all;
      }, {});
      const wrongRooms = runs.reduce((n, r) => n + r.wrong, 0);
      const value = Math.round(median(p99s));
      const row = {
        name: `${database}, ${label}: p99 of ${SQUADS} captains (+${Math.round(REFRESH * 100)}% refreshing) in ${SECONDS} s${args.quiet ? '' : `, ${SQUADS * MATCHES} notifications meanwhile`} (median of ${ROUNDS}: ${p99s.join(' / ')} ms)`,
        value,
        unit: 'ms',
        reference: null,
        referenceValue: null,
        ratio: null,
        target: `< ${TARGET_P99_MS.toLocaleString('en-US')} ms, no error, no wrong room`,
        pass: value < TARGET_P99_MS && Object.keys(failures).length === 0 && wrongRooms === 0,
        database,
        web: label,
        rounds: runs.map((r) => ({
          requests: r.requests,
          wallMs: Math.round(r.wallMs),
          p50: Math.round(percentile(r.latencies, 50)),
          p95: Math.round(percentile(r.latencies, 95)),
          p99: Math.round(percentile(r.latencies, 99)),
          failures: r.failures,
          wrongRooms: r.wrong,
          messagesDuringRush: r.messages,
          cpuSeconds: r.cpu,
        })),
        failures,
        wrongRooms,
      };
      rows.push(row);
      console.log(
        `  ${label}: p99 median ${value} ms (target < ${TARGET_P99_MS}); errors ${JSON.stringify(failures)}; wrong rooms ${wrongRooms} ${row.pass ? 'PASS' : 'FAIL'}`,
      );
    }
    return rows;
  } finally {
    await stack.stop();
    await receivers.close();
    await pg?.stop(); // BENCH_DATABASE_URL: its schema dropped, the database left
  }
}

stopAllOnExit();
if (args.profile) {
  await runOn(args.database ?? (args.pg ? 'postgres' : 'sqlite'));
  process.exit(0);
}
const rows = [];
// --database: that one only (npm run bench runs each as a suite of its own); else SQLite, and PostgreSQL with --pg.
const databases = args.database ? [args.database] : args.pg || process.env.BENCH_DATABASE_URL ? ['sqlite', 'postgres'] : ['sqlite'];
for (const database of databases) rows.push(...(await runOn(database)));
const file = args.json ?? path.join(ROOT, 'bench', 'results', `${new Date().toISOString().slice(0, 16).replace(':', '')}-room-rush.json`);
fs.mkdirSync(path.dirname(file), { recursive: true });
fs.writeFileSync(
  file,
  JSON.stringify(
    {
      suite: 'room-rush',
      squads: SQUADS,
      matches: MATCHES,
      seconds: SECONDS,
      refresh: REFRESH,
      rounds: ROUNDS,
      quiet: args.quiet,
      targetP99Ms: TARGET_P99_MS,
      rows,
      notes: [
        `${SQUADS} squads in groups of ${LOBBY}, ${MATCHES} matches each; each round saves every room (new values) and rushes; the worker is a process of its own at the lowest priority; each web server served every captain's page once first.`,
      ],
    },
    null,
    2,
  ) + '\n',
);
console.log(`bench-room-rush: ${file}`);
process.exitCode = rows.every((r) => r.pass) ? 0 : 1;
