// A web process under `--cpu-prof` and a summary of the profile it writes (decision 086), shared by
// scripts/profile-web.mjs (one page under autocannon) and scripts/bench-room-rush.mjs --profile (the room rush).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from './ports.mjs';
import { killGroup, spawnTracked } from './processes.mjs';
import { webServerArgs } from './web-process.mjs';

/**
 * A web process of its own under --cpu-prof (node refuses the flag in NODE_OPTIONS), on the stack's build and
 * data, one process (WEB_CONCURRENCY=1). stop() ends it (SIGTERM: it writes the profile) and returns the file.
 * WEB_NODE_ARGS: more node flags for it, to try one (say --max-semi-space-size=32, which moved GC from 9.5% to
 * 7.3% of the room rush's web CPU but not the CPU a page, decision 087).
 */
export async function startProfiledWeb(stack, out) {
  fs.mkdirSync(out, { recursive: true });
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const web = spawnTracked(
    process.execPath,
    webServerArgs([...(process.env.WEB_NODE_ARGS ?? '').split(' ').filter(Boolean), '--cpu-prof', `--cpu-prof-dir=${out}`]),
    {
      cwd: stack.buildDir,
      env: {
        PATH: process.env.PATH ?? '',
        HOME: process.env.HOME ?? os.homedir(),
        ...stack.webEnv,
        WEB_CONCURRENCY: '1',
        PORT: String(port),
      },
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  );
  for (let i = 0; ; i++) {
    const up = await fetch(`${url}/healthz`).then(
      (r) => r.ok,
      () => false,
    );
    if (up) break;
    if (i > 150) throw new Error('cpu-profile: the profiled web process did not start');
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return {
    url,
    pid: web.pid,
    async stop() {
      await killGroup(web.pid, 20_000);
      const file = fs
        .readdirSync(out)
        .filter((f) => f.endsWith('.cpuprofile'))
        .map((f) => path.join(out, f))
        .sort((a, b) => fs.statSync(b).mtimeMs - fs.statSync(a).mtimeMs)[0];
      if (!file) throw new Error(`cpu-profile: no .cpuprofile in ${out}`);
      return file;
    },
  };
}

/** Prints where the busy time went: CPU per page, the share by area and the top functions by self time. */
export function printProfile(file, pages, top = 25) {
  const report = summarise(JSON.parse(fs.readFileSync(file, 'utf8')), top);
  console.log(`profile: ${file}`);
  console.log(
    `busy ${report.busyMs} ms of ${report.totalMs} ms sampled: ${(report.busyMs / pages).toFixed(2)} ms of CPU per page (${pages} pages)`,
  );
  console.log('\nby area (share of busy time):');
  for (const [area, ms] of report.areas) console.log(`  ${((100 * ms) / report.busyMs).toFixed(1).padStart(5)}%  ${area}`);
  console.log('\ntop functions (self time):');
  for (const f of report.functions) console.log(`  ${((100 * f.ms) / report.busyMs).toFixed(1).padStart(5)}%  ${f.name}  ${f.where}`);
  return report;
}

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
