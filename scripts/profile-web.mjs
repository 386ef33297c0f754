#!/usr/bin/env node
// `node scripts/profile-web.mjs [--seconds 10] [--path /tournaments] [--out DIR]` (decision 086): where a rendered
// page's CPU goes in the web process. Starts a private gateway + web pair on the production build (run `npm run
// build` first) with the web under `--cpu-prof`, seeds 20 tournaments and a signed-in player with a team and six
// rooms, loads the page (signed in, 10 connections) with autocannon, stops the web so that it writes its profile,
// and prints the self time by area (Remix route matching, React rendering, undici, gzip, GC …) and the top
// functions. The default page is the one a thousand players open at once: /tournament/{id}/matches.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { Stack } from '../tests/e2e/support/stack.mjs';
import { seed, seedPlayer } from './lib/bench-seed.mjs';
import { freePort } from './lib/ports.mjs';
import { killGroup, onCleanup, spawnTracked, stopAllOnExit } from './lib/processes.mjs';

const { values: args } = parseArgs({
  options: {
    seconds: { type: 'string', default: '10' },
    path: { type: 'string' },
    out: { type: 'string' },
    top: { type: 'string', default: '25' },
  },
});
const SECONDS = Number(args.seconds);
const out = path.resolve(args.out ?? fs.mkdtempSync(path.join(os.tmpdir(), 'web-profile-')));
fs.mkdirSync(out, { recursive: true });

stopAllOnExit();
const stack = await Stack.start({ label: 'profile-web', webEnv: { LOG_LEVEL: 'warn' } });
onCleanup(() => stack.stop());
const tournaments = await seed(stack);
const tid = tournaments[0].id;
const { cookie } = await seedPlayer(stack, tid);
// A web process of its own under --cpu-prof (node refuses the flag in NODE_OPTIONS), on the stack's build and data.
const port = await freePort();
const webUrl = `http://127.0.0.1:${port}`;
const web = spawnTracked(process.execPath, ['--cpu-prof', `--cpu-prof-dir=${out}`, path.join('build', 'server', 'main.js')], {
  cwd: stack.buildDir,
  env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? os.homedir(), ...stack.webEnv, PORT: String(port) },
  stdio: ['ignore', 'ignore', 'inherit'],
});
for (let i = 0; ; i++) {
  const up = await fetch(`${webUrl}/healthz`).then(
    (r) => r.ok,
    () => false,
  );
  if (up) break;
  if (i > 150) throw new Error('profile-web: the profiled web process did not start');
  await new Promise((resolve) => setTimeout(resolve, 200));
}
const page = (args.path ?? '/tournament/{id}/matches').replace('{id}', String(tid));
const load = (seconds) =>
  autocannon({
    url: webUrl + page,
    connections: 10,
    duration: seconds,
    headers: { cookie, 'accept-encoding': 'gzip' },
  });
const warm = await load(2); // warm-up: JIT, caches
const result = await load(SECONDS);
await killGroup(web.pid, 20_000); // SIGTERM: it exits and writes the profile
await stack.stop();

const file = fs
  .readdirSync(out)
  .filter((f) => f.endsWith('.cpuprofile'))
  .map((f) => path.join(out, f))
  .sort((a, b) => fs.statSync(b).mtimeMs - fs.statSync(a).mtimeMs)[0];
if (!file) {
  console.error(`profile-web: no .cpuprofile in ${out}`);
  process.exit(1);
}
const report = summarise(JSON.parse(fs.readFileSync(file, 'utf8')), Number(args.top));
console.log(
  `page ${page}: ${Math.round(result.requests.average)} req/s, p99 ${result.latency.p99} ms, non-2xx ${result.non2xx}, errors ${result.errors}`,
);
console.log(`profile: ${file}`);
const served = warm.requests.total + result.requests.total;
console.log(
  `busy ${report.busyMs} ms of ${report.totalMs} ms sampled: ${(report.busyMs / served).toFixed(2)} ms of CPU per page (${served} pages)`,
);
console.log('\nby area (share of busy time):');
for (const [area, ms] of report.areas) console.log(`  ${((100 * ms) / report.busyMs).toFixed(1).padStart(5)}%  ${area}`);
console.log('\ntop functions (self time):');
for (const f of report.functions) console.log(`  ${((100 * f.ms) / report.busyMs).toFixed(1).padStart(5)}%  ${f.name}  ${f.where}`);

/** Self time per node, folded by area and by function; idle and program excluded from "busy". */
function summarise(profile, top) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const selfMs = new Map();
  const deltas = profile.timeDeltas;
  for (let i = 0; i < profile.samples.length; i++) {
    const id = profile.samples[i];
    selfMs.set(id, (selfMs.get(id) ?? 0) + (deltas[i] ?? 0) / 1000);
  }
  const areas = new Map();
  const functions = new Map();
  let totalMs = 0;
  let busyMs = 0;
  for (const [id, ms] of selfMs) {
    const { callFrame } = byId.get(id);
    totalMs += ms;
    const name = callFrame.functionName || '(anonymous)';
    if (name === '(idle)' || name === '(program)') continue;
    busyMs += ms;
    const area = areaOf(name, callFrame.url);
    areas.set(area, (areas.get(area) ?? 0) + ms);
    const where = callFrame.url ? `${shorten(callFrame.url)}:${callFrame.lineNumber + 1}` : '';
    const key = `${name} ${where}`;
    const f = functions.get(key) ?? { name, where, ms: 0 };
    f.ms += ms;
    functions.set(key, f);
  }
  return {
    totalMs: Math.round(totalMs),
    busyMs: Math.round(busyMs),
    areas: [...areas].sort((a, b) => b[1] - a[1]),
    functions: [...functions.values()].sort((a, b) => b.ms - a.ms).slice(0, top),
  };
}

function shorten(url) {
  const i = url.lastIndexOf('node_modules/');
  if (i >= 0) return url.slice(i + 'node_modules/'.length);
  return url.replace(/^file:\/\/.*?\/(build|server|app)\//, '$1/');
}

function areaOf(name, url) {
  if (name === '(garbage collector)') return 'garbage collection';
  const m = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (m) {
    const pkg = m[1];
    if (pkg === '@remix-run/router' || pkg === 'react-router' || pkg === 'react-router-dom') return `routing (${pkg})`;
    return pkg;
  }
  if (url.startsWith('node:') || !url) {
    if (/zlib|deflate|gzip/i.test(url + name)) return 'gzip (node:zlib)';
    if (url.includes('undici') || url.includes('internal/deps/undici')) return 'undici (fetch)';
    return `node ${
      url
        .replace(/^node:/, '')
        .split('/')
        .slice(0, 2)
        .join('/') || name
    }`;
  }
  if (url.includes('/build/index.js')) return 'app (Remix build)';
  if (url.includes('/build/server/')) return 'server (express wrapper)';
  return url;
}
