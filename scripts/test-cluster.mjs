#!/usr/bin/env node
// The cluster test (`npm run test:cluster`, a step of `npm test`): against `npm run cluster` (nginx,
// two webs, two gateways, PostgreSQL; SEED_DEMO=0), run the Playwright smoke (playwright.cluster.config.ts)
// and a registration rush (RUSH_PLAYERS players, default 300, for RUSH_SLOTS, default 100) at the same
// time, and SIGKILL gateway-1 and web-2 in the middle of the rush, restarting each at once. Then assert:
//   - the smoke passes (a test whose form post died with the killed process may pass on its one retry: reported as flaky);
//   - registrations: exactly RUSH_SLOTS stored, no user or team name twice, every accepted player's team stored,
//     no team stored for a player told "full"; players whose post was cut off post again (as a player would)
//     and are answered consistently with what is stored;
//   - sessions: every rush player still loads /my-tournaments signed in after the kills;
//   - 5xx: every 5xx of nginx's front log was in flight on a killed process at its kill (web: upstream
//     the killed web, started before the SIGKILL; gateway: the web's 503 for a gateway call that nginx's
//     gateway log shows in flight on the killed gateway), and there are no more of them than such requests.
//     No 5xx after the restarts, no connection errors at all.
// Prints "cluster-test: N passed, N failed, N skipped" and, with --json FILE, writes those counts.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { startCluster, ROOT } from './cluster.mjs';
import { freePortRun } from './lib/ports.mjs';
import { onCleanup, spawnTracked, stopAllOnExit } from './lib/processes.mjs';
import {
  createTournament,
  get,
  makePlayers,
  post,
  registrationsInDatabase,
  rush,
  signUpAndLogIn,
  stillSignedIn,
  summarise,
} from './lib/rush.mjs';

const { values: args } = parseArgs({ options: { json: { type: 'string' }, port: { type: 'string' } } });
const PLAYERS = Number(process.env.RUSH_PLAYERS || 300);
const SLOTS = Number(process.env.RUSH_SLOTS || 100);
const started = Date.now();
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const log = (msg) => console.log(`cluster-test: ${msg}`);

const results = [];
function check(name, ok, detail = '') {
  results.push({ name, ok });
  console.log(`${ok ? 'PASS' : 'FAIL'}  ${name}${detail ? ` (${detail})` : ''}`);
}

function readLog(file) {
  if (!fs.existsSync(file)) return [];
  return fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l));
}

function runSmoke(cluster) {
  const stackFile = path.join(cluster.dir, 'stack.json');
  fs.writeFileSync(stackFile, JSON.stringify({ webUrl: cluster.url, gatewayUrl: cluster.gatewayUrl, admin: cluster.admin, pids: [] }));
  const jsonOut = path.join(cluster.dir, 'smoke.json');
  const child = spawnTracked('npx', ['playwright', 'test', '-c', 'playwright.cluster.config.ts', '--reporter=list,json'], {
    cwd: ROOT,
    stdio: ['ignore', 'inherit', 'inherit'],
    env: { ...process.env, E2E_STACK_FILE: stackFile, PLAYWRIGHT_JSON_OUTPUT_NAME: jsonOut },
  });
  return new Promise((resolve) =>
    child.on('exit', (code) => {
      const stats = fs.existsSync(jsonOut) ? JSON.parse(fs.readFileSync(jsonOut, 'utf8')).stats : null;
      resolve({ code, stats, ended: Date.now() / 1000 });
    }),
  );
}

const admin = { email: 'cluster-admin@test.example', password: 'cluster-admin-password-123' };
process.env.ADMIN_EMAIL = admin.email;
process.env.ADMIN_PASSWORD = admin.password;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'custom-room-cluster-test-'));
const port = args.port ? Number(args.port) : await freePortRun(6); // nginx, gateway balancer, 2 gateways, 2 webs
log(`starting the cluster on 127.0.0.1:${port} (${dir})…`);
stopAllOnExit();
const cluster = await startCluster({ port, dir, seedDemo: false, log });
onCleanup(() => cluster.stop());
let exitCode = 1;
try {
  const kills = {};
  const tournament = await createTournament(cluster.gatewayUrl, admin, { slots: SLOTS, name: `Cluster Rush ${Date.now() % 100000}` });
  const players = makePlayers(PLAYERS);
  let t0 = Date.now();
  await signUpAndLogIn(cluster.url, players, { concurrency: 4 });
  log(`${PLAYERS} players signed up and logged in through nginx in ${((Date.now() - t0) / 1000).toFixed(1)} s`);

  // The smoke starts; once its browsers are busy, the rush, and the kills in the middle of it.
  const smoke = runSmoke(cluster);
  await sleep(Number(process.env.CLUSTER_KILL_DELAY_MS || 6000));
  t0 = Date.now();
  const rushing = rush(cluster.url, tournament.id, players);
  const chaos = (async () => {
    await sleep(250);
    kills.gateway = Date.now() / 1000;
    await cluster.kill('gateway-1');
    kills.gatewayDead = Date.now() / 1000; // the exit as this (busy) process saw it: the latest the death can be
    log(`SIGKILL gateway-1 at rush +${Date.now() - t0} ms`);
    const gatewayBack = cluster.restart('gateway-1');
    await sleep(250);
    kills.web = Date.now() / 1000;
    await cluster.kill('web-2');
    kills.webDead = Date.now() / 1000;
    log(`SIGKILL web-2 at rush +${Date.now() - t0} ms`);
    await Promise.all([gatewayBack, cluster.restart('web-2')]);
    kills.restarted = Date.now() / 1000;
    log(`gateway-1 and web-2 healthy again at rush +${Date.now() - t0} ms`);
  })();
  const [{ wallMs, results: answers }] = await Promise.all([rushing, chaos]);
  const summary = summarise(answers);
  log(
    `rush: ${summary.accepted} accepted, ${summary.full} full, ${summary.errors} other (${JSON.stringify(summary.errorKinds)}); p50/p99 accepted ${Math.round(summary.acceptedP50 ?? 0)}/${Math.round(summary.acceptedP99 ?? 0)} ms; wall ${Math.round(wallMs)} ms`,
  );
  const { code: smokeCode, stats, ended } = await smoke;
  // Informational: the kills are meant to land while the smoke's browsers are busy.
  log(`the smoke ended ${(ended - kills.web).toFixed(1)} s after web-2 was killed`);

  // Players whose post was cut off try again, as a player pressing Register once more would.
  const cutOff = answers.filter((a) => a.kind === 'error');
  const retried = await Promise.all(
    cutOff.map((a) =>
      post(`${cluster.url}/register/${tournament.id}`, { form: a.player.team, cookie: a.player.cookie, address: a.player.address }),
    ),
  );

  // What is stored.
  const db = await registrationsInDatabase({ databaseUrl: cluster.databaseUrl }, tournament.id);
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: cluster.databaseUrl });
  await client.connect();
  const stored = new Set(
    (
      await client.query('select u.email from registrations r join users u on u.id = r.user_id where r.tournament_id = $1', [tournament.id])
    ).rows.map((r) => r.email),
  );
  await client.end();

  check(
    'smoke: Playwright passed',
    smokeCode === 0 && !!stats && stats.unexpected === 0,
    stats ? `${stats.expected} passed, ${stats.flaky} flaky, ${stats.unexpected} failed` : 'no report',
  );
  check(`registrations: exactly ${SLOTS} stored`, db.rows === SLOTS, `${db.rows}`);
  check(
    'registrations: no user twice, no team name twice, 4 IGNs each',
    db.users === db.rows && db.teams === db.rows && db.igns === 4 * db.rows,
    `${db.users} users, ${db.teams} names, ${db.igns} IGNs`,
  );
  const accepted = answers.filter((a) => a.kind === 'accepted');
  check(
    'registrations: every accepted team stored (none lost)',
    accepted.every((a) => stored.has(a.player.email)),
    `${accepted.length} accepted`,
  );
  const full = answers.filter((a) => a.kind === 'full');
  check(
    'registrations: no team stored for a player told "full"',
    full.every((a) => !stored.has(a.player.email)),
    `${full.length} full`,
  );
  const consistent = retried.every((r, i) => {
    const has = stored.has(cutOff[i].player.email);
    return has
      ? r.status === 302 && /^\/payment\?rid=\d+$/.test(r.headers.location ?? '')
      : r.status === 409 && /Registration is full/.test(r.text ?? '');
  });
  check(
    'registrations: a cut-off player posting again sees what is stored (their team, or "full")',
    consistent,
    `${cutOff.length} cut off, ${cutOff.filter((a) => stored.has(a.player.email)).length} of them stored`,
  );
  check(
    'rush: no connection errors',
    answers.every((a) => a.status !== 0),
    '',
  );
  check(
    'rush: every answer accepted, full, or a 5xx',
    answers.every((a) => a.kind !== 'error' || a.status >= 500),
    '',
  );

  const signedOut = await stillSignedIn(cluster.url, players);
  check('sessions: every rush player still signed in after the kills', signedOut.length === 0, `${PLAYERS - signedOut.length}/${PLAYERS}`);

  // 5xx accounting from nginx's two access logs.
  await sleep(300); // nginx writes its log lines as requests end
  const front = readLog(path.join(cluster.dir, 'web-access.log'));
  const back = readLog(path.join(cluster.dir, 'gateway-access.log'));
  const killedGateway = `127.0.0.1:${cluster.ports.gatewayPorts[0]}`;
  const killedWeb = `127.0.0.1:${cluster.ports.webPorts[1]}`;
  // Sent to the process before it died, answered after the SIGKILL was sent. The death lies between
  // the signal and the exit event this process saw (on a loaded machine 100 ms and more apart); 50 ms
  // of slack beyond: nginx may write to a kept-alive connection of the dead process before it has read
  // the kernel's reset. A POST refused at connect time is not a 5xx: nginx sends it to the other instance.
  const inFlightAt = (e, sent, dead) => e.time - e.rt <= dead + 0.05 && e.time >= sent - 0.005;
  const front5xx = front.filter((e) => e.status >= 500);
  const back5xx = back.filter((e) => e.status >= 500);
  const webCut = front5xx.filter((e) => e.upstream.split(', ').at(-1) === killedWeb && inFlightAt(e, kills.web, kills.webDead));
  const gatewayCut = back5xx.filter(
    (e) => e.upstream.split(', ').at(-1) === killedGateway && inFlightAt(e, kills.gateway, kills.gatewayDead),
  );
  const frontOther = front5xx.length - webCut.length;
  check(
    '5xx (gateway side): each one a request in flight on gateway-1 when it was killed',
    gatewayCut.length === back5xx.length,
    `${back5xx.length} 5xx at the gateway balancer, ${gatewayCut.length} in flight on the killed gateway`,
  );
  check(
    '5xx (front): at most the requests in flight on web-2 at its kill plus the web answers to cut-off gateway calls',
    webCut.length + frontOther === front5xx.length && frontOther <= gatewayCut.length && front5xx.every((e) => e.status !== 500),
    `${front5xx.length} 5xx in front: ${webCut.length} in flight on the killed web, ${frontOther} 503 from a live web ≤ ${gatewayCut.length} cut-off gateway calls`,
  );
  const late = [...front5xx, ...back5xx].filter((e) => e.time > kills.restarted + 3);
  check('5xx: none later than 3 s after the restarts', late.length === 0, `${late.length}`);
  const page = await get(`${cluster.url}/tournaments`);
  check('the cluster still serves pages', page.status === 200, `${page.status}`);

  const passed = results.filter((r) => r.ok).length + (stats ? stats.expected + stats.flaky : 0);
  const failed = results.filter((r) => !r.ok).length + (stats ? stats.unexpected : 1);
  const skipped = stats ? stats.skipped : 0;
  log(
    `${front.length} requests through the front, ${back.length} through the gateway balancer; ${front5xx.length} + ${back5xx.length} 5xx`,
  );
  log(`done in ${((Date.now() - started) / 1000).toFixed(0)} s`);
  console.log(`cluster-test: ${passed} passed, ${failed} failed, ${skipped} skipped`);
  if (args.json) fs.writeFileSync(args.json, JSON.stringify({ passed, failed, skipped, summary, seconds: (Date.now() - started) / 1000 }));
  exitCode = failed ? 1 : 0;
} catch (err) {
  console.error(`cluster-test: ${err.stack ?? err.message}`);
  if (args.json) fs.writeFileSync(args.json, JSON.stringify({ passed: 0, failed: 1, skipped: 0 }));
} finally {
  await cluster.stop();
  if (exitCode === 0) fs.rmSync(dir, { recursive: true, force: true });
  else log(`logs kept in ${dir}`);
}
process.exit(exitCode);
