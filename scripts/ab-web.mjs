#!/usr/bin/env node
// `node scripts/ab-web.mjs DIR[@NAME=VALUE,...] DIR2[@...] [--path /tournaments] [--seconds 5] [--rounds 3] [--modes anon,signed]`
// (decision 090): the same rendered page from web servers of different builds (or flags) side by side, rounds
// alternating, so that a shared machine's drift hits every build alike. Each DIR is a snapshot of the production
// build (`node -e "import('./tests/e2e/support/stack.mjs').then((m) => console.log(m.snapshotBuild()))"` after
// `npm run build`); after `@`, environment for that web server, where NODE_ARGS are node's flags (space-separated).
// One gateway (the first build's), 20 tournaments and a signed-in player; every web server with the page cache off and
// the flags every launcher gives it (scripts/lib/web-process.mjs) before NODE_ARGS.
// Prints req/s and the web process's CPU per page (all its threads, from /proc) and the gateway's, medians.
// PERF=N records `perf record -g` of each web server in round N (perf-I-MODE.data in the working directory).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { Stack } from '../tests/e2e/support/stack.mjs';
import { seed, seedPlayer } from './lib/bench-seed.mjs';
import { freePort } from './lib/ports.mjs';
import { killGroup, onCleanup, stopAllOnExit, trackGroup } from './lib/processes.mjs';
import { webServerArgs } from './lib/web-process.mjs';

const { values: args, positionals: specs } = parseArgs({
  allowPositionals: true,
  options: {
    path: { type: 'string', default: '/tournaments' },
    seconds: { type: 'string', default: '5' },
    rounds: { type: 'string', default: '3' },
    modes: { type: 'string', default: 'anon,signed' },
  },
});
if (specs.length === 0) {
  console.error('ab-web: name at least one build directory');
  process.exit(2);
}
const SECONDS = Number(args.seconds);
const ROUNDS = Number(args.rounds);
const modes = args.modes.split(',');
const envOf = (spec) =>
  Object.fromEntries(
    (spec.split('@')[1] ?? '')
      .split(',')
      .filter(Boolean)
      .map((kv) => [kv.slice(0, kv.indexOf('=')), kv.slice(kv.indexOf('=') + 1)]),
  );
/** User and system CPU of a process (all threads) in clock ticks (100 a second). */
const ticks = (pid) => {
  const f = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return Number(f[11]) + Number(f[12]);
};
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

stopAllOnExit();
const stack = await Stack.start({ label: 'ab-web', buildDir: specs[0].split('@')[0], webEnv: { LOG_LEVEL: 'warn' } });
onCleanup(() => stack.stop());
const tournaments = await seed(stack);
const { cookie } = await seedPlayer(stack, tournaments[0].id);
const page = args.path.replace('{id}', String(tournaments[0].id));

const webs = [];
for (const spec of specs) {
  const env = envOf(spec);
  const port = await freePort();
  const nodeArgs = (env.NODE_ARGS ?? '').split(' ').filter(Boolean);
  const proc = spawn(process.execPath, webServerArgs(nodeArgs), {
    cwd: spec.split('@')[0],
    env: { PATH: process.env.PATH, HOME: process.env.HOME, ...stack.webEnv, PORT: String(port), PAGE_CACHE_ENTRIES: '0', ...env },
    stdio: 'ignore',
    detached: true,
  });
  trackGroup(proc.pid, proc);
  webs.push({ spec, url: `http://127.0.0.1:${port}`, pid: proc.pid, rows: [] });
}
for (const web of webs) {
  for (let i = 0; ; i++) {
    try {
      if ((await fetch(`${web.url}/healthz`)).ok) break;
    } catch {
      if (i > 200) throw new Error(`ab-web: ${web.spec} did not start`);
    }
    await new Promise((resolve) => setTimeout(resolve, 150));
  }
}
const load = (web, mode, seconds) =>
  autocannon({
    url: web.url + page,
    connections: 10,
    duration: seconds,
    headers: { ...(mode === 'signed' ? { cookie } : {}), 'accept-encoding': 'gzip' },
  });
for (const web of webs) for (const mode of modes) await load(web, mode, 2); // warm-up
const gateway = stack.gatewayProc.pid;
for (let round = 0; round < ROUNDS; round++) {
  for (const [i, web] of webs.entries()) {
    for (const mode of modes) {
      const [w0, g0] = [ticks(web.pid), ticks(gateway)];
      const perf =
        process.env.PERF !== undefined && Number(process.env.PERF) === round
          ? spawn(
              'perf',
              ['record', '-F', '499', '-g', '-o', `perf-${i}-${mode}.data`, '-p', String(web.pid), '--', 'sleep', String(SECONDS - 1)],
              {
                stdio: 'ignore',
              },
            )
          : null;
      const result = await load(web, mode, SECONDS);
      if (perf && perf.exitCode === null) await new Promise((resolve) => perf.on('exit', resolve));
      const n = result.requests.total;
      const row = {
        mode,
        rps: Math.round(result.requests.average),
        web: (10 * (ticks(web.pid) - w0)) / n,
        gateway: (10 * (ticks(gateway) - g0)) / n,
        bad: result.non2xx + result.errors,
      };
      web.rows.push(row);
      console.log(
        `round ${round + 1} ${web.spec} ${mode}: ${row.rps} req/s, web ${row.web.toFixed(2)} ms a page, gateway ${row.gateway.toFixed(2)} ms${row.bad ? `, ${row.bad} failed` : ''}`,
      );
    }
  }
}
console.log('\nmedians:');
for (const web of webs)
  for (const mode of modes) {
    const rows = web.rows.filter((r) => r.mode === mode);
    console.log(
      `${web.spec} ${mode}: ${median(rows.map((r) => r.rps))} req/s, web ${median(rows.map((r) => r.web)).toFixed(2)} ms a page, gateway ${median(rows.map((r) => r.gateway)).toFixed(2)} ms`,
    );
  }
for (const web of webs) await killGroup(web.pid);
await stack.stop();
process.exit(0);
