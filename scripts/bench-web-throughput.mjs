#!/usr/bin/env node
// `npm run bench:web:throughput [-- --json FILE]`: req/s of the anonymous public pages beside a static
// file of the same web server (decision 024: target ≥ 0.5×), on the production build (run `npm run build`
// first). It starts a private gateway + web pair (tests/e2e/support/stack.mjs), creates 20 tournaments
// with covers, eight teams with points on one, and a signed-in player, then measures with autocannon,
// rounds interleaved so drift on a shared machine hits every target alike, and reports medians. Every
// request sends Accept-Encoding: gzip, as browsers do. The signed-in page (rendered every time, never
// cached) and the list page from a second server with the page cache off have a floor of their own
// (RENDERED_RATIO, decision 066): no bench row without a target.
//
// Env: BENCH_SECONDS (5) per run, BENCH_ROUNDS (3), BENCH_CONNECTIONS (10), BENCH_WARMUP=0 (no warm-up).
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import sharp from 'sharp';
import { ADMIN, Stack } from '../tests/e2e/support/stack.mjs';
import { api } from './lib/bench-seed.mjs';
import { onCleanup, stopAllOnExit } from './lib/processes.mjs';

const TOURNAMENTS = 20;
const TEAMS = 8;
const TARGET_RATIO = 0.5;
/**
 * A page React renders on every request (signed in, or with the page cache off) serves at least this share of
 * the static file's rate. Decision 066 set 0.02× (70-79 req/s beside 2,566). Issue 32 asks for "0.25× the
 * static file, about 400 req/s on this machine" when the static file served 1,650 req/s; the same server now
 * serves it at 4,200-5,100 (decision 086 took the route matching out of every request), so 0.25× of it would
 * ask 1,300 req/s. Decision 089 keeps the issue's 400 req/s: 0.08× of today's static file.
 */
const RENDERED_RATIO = 0.08;
const STATIC_PATH = '/favicon.svg';
const ACCEPT_ENCODING = 'gzip';

function envInt(name, fallback) {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1) {
    console.error(`bench-web-throughput: ${name} must be a whole number >= 1 (got "${raw}")`);
    process.exit(2);
  }
  return n;
}

function jsonFileArg() {
  const i = process.argv.indexOf('--json');
  if (i < 0) return undefined;
  const file = process.argv[i + 1];
  if (!file || file.startsWith('--')) {
    console.error('bench-web-throughput: --json needs a file name');
    process.exit(2);
  }
  return file;
}

/** 20 tournaments like the list page's budget case (covers, realistic texts); eight teams with a match of points on the first. */
async function seed(stack) {
  const { token } = await api(stack, 'POST', '/api/auth/login', { json: { emailOrPhone: ADMIN.email, password: ADMIN.password } });
  const cover = await sharp({ create: { width: 1600, height: 900, channels: 3, background: { r: 30, g: 70, b: 160 } } })
    .png()
    .toBuffer();
  const day = 86_400_000;
  const created = [];
  for (let i = 0; i < TOURNAMENTS; i++) {
    const game = i % 2 ? 'Free Fire' : 'BGMI';
    const start = Date.now() + (10 + i) * day;
    const fields = {
      name: `${game} ${['Pro Scrims', 'Weekend Cup', 'City Clash', 'Campus League'][i % 4]} Season ${i + 3}`,
      game,
      description:
        'Squad custom rooms on Erangel and Sanhok. Open to all Indian players aged 16 and above; emulator players are not allowed.',
      startDate: new Date(start).toISOString(),
      endDate: new Date(start + 2 * day).toISOString(),
      registrationOpen: new Date(Date.now() - day).toISOString(),
      registrationClose: new Date(start - day).toISOString(),
      maxTeams: '32',
      format: 'Squad',
      platform: 'Mobile',
      entryFee: String([0, 50, 100, 150, 250][i % 5]),
      prizePool: `₹${(5 + i) * 1000} + MVP ₹500`,
      status: 'Registration Ongoing',
      overview: 'Three matches a day, BGIS points, room ID and password 15 minutes before each match.',
    };
    const form = new FormData();
    for (const [k, v] of Object.entries(fields)) form.append(k, v);
    form.append('coverImage', new Blob([new Uint8Array(cover)], { type: 'image/png' }), `cover-${i}.png`);
    created.push(await api(stack, 'POST', '/tournaments/add', { token, form }));
  }
  const tid = created[0].id;
  let player;
  const teams = [];
  for (let i = 0; i < TEAMS; i++) {
    const account = {
      email: `bench-${i}@test.example`,
      phone: `91234567${String(10 + i)}`,
      username: `bench_player_${i}`,
      password: 'bench-player-pass',
    };
    await api(stack, 'POST', '/api/auth/register', { json: account });
    const login = await api(stack, 'POST', '/api/auth/login', { json: { emailOrPhone: account.email, password: account.password } });
    teams.push(
      await api(stack, 'POST', `/registrations/${tid}`, {
        token: login.token,
        json: {
          teamName: `Squad ${i + 1}`,
          player1Username: `p1_${i}`,
          player2Username: `p2_${i}`,
          player3Username: `p3_${i}`,
          player4Username: `p4_${i}`,
        },
      }),
    );
    player ??= account;
  }
  // After every team registered: the lobby bounds positions and finishes (decision 029).
  for (const [i, team] of teams.entries()) {
    await api(stack, 'POST', `/tournaments/${tid}/points-table`, {
      token,
      json: {
        day: 1,
        match: 1,
        teamId: team.rid,
        teamName: team.teamName,
        position: i + 1,
        wins: i === 0 ? 1 : 0,
        finishes: Math.max(0, 5 - i), // a lobby of 8 squads: at most 31 finishes a match (issue 27 item 8)
        totalPoints: 0,
      },
    });
  }
  const res = await fetch(`${stack.info.webUrl}/login`, {
    method: 'POST',
    body: new URLSearchParams({ emailOrPhone: player.email, password: player.password, redirectTo: '/' }),
    redirect: 'manual',
  });
  const cookie = res.headers.get('set-cookie')?.split(';')[0];
  if (res.status !== 302 || !cookie) throw new Error(`bench: web login answered ${res.status}`);
  return { tid, cookie };
}

/** A GET whose body is counted as sent (compressed), not decoded. */
function rawGet(url, headers) {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers }, (res) => {
        let bytes = 0;
        res.on('data', (chunk) => (bytes += chunk.length));
        res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, bytes }));
        res.on('error', reject);
      })
      .on('error', reject);
  });
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
};

/** The medians as a table: the static file first (the reference), then each page against it. */
function printTable(staticTarget, reference, rows, shape, { connections, seconds, rounds }) {
  console.log('');
  console.log(
    `Node ${process.version}, ${os.cpus().length} CPUs; ${connections} connections, ${seconds} s x ${rounds} round(s), Accept-Encoding: ${ACCEPT_ENCODING}, medians:`,
  );
  const header = ['target', 'req/s', 'p99 ms', 'bytes', 'cache', `vs ${STATIC_PATH}`, 'per round', 'result'];
  const table = [
    [
      staticTarget.name,
      String(Math.round(reference.rps)),
      String(reference.p99),
      String(shape.get(staticTarget.name).bytes),
      '-',
      '1.00×',
      '-',
      reference.bad ? `${reference.bad} failed` : '',
    ],
    ...rows.map((r) => [
      r.name,
      String(r.value),
      String(r.p99Ms),
      String(r.bytes),
      r.pageCache,
      `${r.ratio.toFixed(2)}×`,
      r.roundRatios.join(' '),
      r.pass ? 'PASS' : 'FAIL',
    ]),
  ];
  const widths = header.map((h, i) => Math.max(h.length, ...table.map((r) => r[i].length)));
  const line = (cells) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
  console.log(line(header));
  for (const r of table) console.log(line(r));
}

async function main() {
  const seconds = envInt('BENCH_SECONDS', 5);
  const rounds = envInt('BENCH_ROUNDS', 3);
  const connections = envInt('BENCH_CONNECTIONS', 10);
  const jsonFile = jsonFileArg();
  const { default: autocannon } = await import('autocannon');

  stopAllOnExit();
  const stack = await Stack.start({ label: 'bench-web-throughput' });
  onCleanup(() => stack.stop());
  try {
    const { tid, cookie } = await seed(stack);
    const web = stack.info.webUrl;
    const staticTarget = { name: `GET ${STATIC_PATH} (static file)`, path: STATIC_PATH };
    const pages = [
      { name: 'GET / (anonymous)', path: '/' },
      { name: `GET /tournaments (anonymous, ${TOURNAMENTS} tournaments)`, path: '/tournaments' },
      { name: 'GET /tournaments/{id} (anonymous)', path: `/tournaments/${tid}` },
      { name: `GET /tournaments/{id}/points-table (anonymous, ${TEAMS} teams)`, path: `/tournaments/${tid}/points-table` },
      { name: 'GET /about (anonymous)', path: '/about' },
    ];
    const signedIn = {
      name: `GET /tournaments (signed in, ${TOURNAMENTS} tournaments; never cached)`,
      path: '/tournaments',
      cookie,
      rendered: true,
    };
    // The same page from a second web server of the same build with the page cache off: what every anonymous visitor cost before.
    const uncachedWeb = await stack.startExtraWeb({ PAGE_CACHE_ENTRIES: '0' });
    const uncached = {
      name: `GET /tournaments (anonymous, ${TOURNAMENTS} tournaments; page cache off)`,
      path: '/tournaments',
      base: uncachedWeb.url,
      rendered: true,
    };
    const rendered = [signedIn, uncached];
    const targets = [staticTarget, ...pages, ...rendered];

    // What each answer looks like: status, size on the wire, page cache outcome on a second request.
    const shape = new Map();
    for (const t of targets) {
      const headers = { 'accept-encoding': ACCEPT_ENCODING, ...(t.cookie ? { cookie: t.cookie } : {}) };
      await rawGet((t.base ?? web) + t.path, headers);
      const res = await rawGet((t.base ?? web) + t.path, headers);
      if (res.status !== 200) throw new Error(`bench: ${t.path} answered ${res.status}`);
      shape.set(t.name, {
        bytes: res.bytes,
        encoding: res.headers['content-encoding'] ?? 'identity',
        cache: res.headers['x-page-cache'] ?? 'none',
      });
    }

    const run = (t, duration) =>
      autocannon({
        url: (t.base ?? web) + t.path,
        connections,
        duration,
        headers: { 'accept-encoding': ACCEPT_ENCODING, ...(t.cookie ? { cookie: t.cookie } : {}) },
      });
    // BENCH_WARMUP=0 (npm run bench -- --short): no warm-up runs.
    if (process.env.BENCH_WARMUP !== '0') {
      console.log('Warming up (1 s each)...');
      for (const t of targets) await run(t, 1);
    }

    const runs = new Map(targets.map((t) => [t.name, []]));
    for (let round = 1; round <= rounds; round++) {
      for (const t of targets) {
        process.stdout.write(`Round ${round}/${rounds}: ${t.name} for ${seconds} s... `);
        const result = await run(t, seconds);
        const bad = result.non2xx + result.errors + result.timeouts;
        runs.get(t.name).push({ rps: result.requests.average, p99: result.latency.p99, bad });
        console.log(
          `${Math.round(result.requests.average).toLocaleString('en-IN')} req/s, p99 ${result.latency.p99} ms${bad ? `, ${bad} failed` : ''}`,
        );
      }
    }
    await new Promise((r) => setTimeout(r, 1000));

    const summary = new Map(
      targets.map((t) => {
        const r = runs.get(t.name);
        return [
          t.name,
          {
            rps: median(r.map((x) => x.rps)),
            p99: median(r.map((x) => x.p99)),
            bad: r.reduce((n, x) => n + x.bad, 0),
            perRound: r.map((x) => x.rps),
          },
        ];
      }),
    );
    const reference = summary.get(staticTarget.name);
    const rows = [...pages, ...rendered].map((t) => {
      const floor = t.rendered ? RENDERED_RATIO : TARGET_RATIO;
      const s = summary.get(t.name);
      const ratio = s.rps / reference.rps;
      // Per-round ratios too: each page against the static file of the same round.
      const roundRatios = s.perRound.map((rps, i) => rps / reference.perRound[i]);
      return {
        name: t.name,
        value: Math.round(s.rps),
        unit: 'req/s',
        reference: `static file ${STATIC_PATH}, same server`,
        referenceValue: Math.round(reference.rps),
        ratio: Number(ratio.toFixed(2)),
        target: `≥ ${floor}×`,
        pass: ratio >= floor && s.bad === 0,
        p99Ms: s.p99,
        failed: s.bad,
        roundRatios: roundRatios.map((r) => Number(r.toFixed(2))),
        bytes: shape.get(t.name).bytes,
        pageCache: shape.get(t.name).cache,
      };
    });

    printTable(staticTarget, reference, rows, shape, { connections, seconds, rounds });

    const notes = [
      `Node ${process.version}, ${os.cpus().length} CPUs (load generator, gateway and web server share them); ${connections} connections, ${seconds} s x ${rounds} rounds interleaved, medians; ratio = median page req/s / median static req/s of the same run.`,
      `Reference: ${STATIC_PATH} (${shape.get(staticTarget.name).bytes} bytes) from the same web server. Every request sends Accept-Encoding: ${ACCEPT_ENCODING}.`,
      'Anonymous pages come from the page cache of the web server (decision 024): each request still waits for a read of the gateway /generation that started after it arrived (shared by all requests waiting).',
      `The signed-in row is rendered by Remix on every request (never cached); the "page cache off" row is the same build on a second server with PAGE_CACHE_ENTRIES=0 (the state before decision 024). Both are rendered by React on every request: their floor (≥ ${RENDERED_RATIO}×) is issue 32’s 400 req/s on this machine (decision 089).`,
    ];
    if (jsonFile) {
      fs.writeFileSync(jsonFile, `${JSON.stringify({ suite: 'web', rows, notes }, null, 2)}\n`);
      console.log(`\nWrote ${jsonFile}`);
    }
    process.exitCode = rows.every((r) => r.pass) ? 0 : 1;
  } finally {
    await stack.stop();
  }
}

main().catch((err) => {
  console.error(`bench-web-throughput: ${err.stack ?? err}`);
  process.exit(1);
});
