#!/usr/bin/env node
// `node scripts/bench-web-signed-in.mjs --before DIR [--rounds 5] [--seconds 5]` (decision 031): req/s of a
// signed-in page (/tournaments, 20 tournaments, rendered on every request) on this checkout's production
// build against another build (DIR: e.g. a worktree of an older commit, built), each on a gateway + web
// pair of its own, rounds interleaved so the machine's drift hits both alike; 10 connections, medians.
// What one more gateway call per signed-in page (GET /api/auth/me) costs.
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { Stack } from '../tests/e2e/support/stack.mjs';
import { seed, seedPlayer } from './lib/bench-seed.mjs';
import { onCleanup, stopAllOnExit } from './lib/processes.mjs';

const { values: args } = parseArgs({
  options: { before: { type: 'string' }, rounds: { type: 'string', default: '5' }, seconds: { type: 'string', default: '5' } },
});
const ROUNDS = Number(args.rounds);
const SECONDS = Number(args.seconds);
if (!args.before || !Number.isInteger(ROUNDS) || ROUNDS < 1 || !Number.isInteger(SECONDS) || SECONDS < 1) {
  console.error('bench-web-signed-in: --before DIR (a built checkout) is required; --rounds and --seconds take whole numbers');
  process.exit(2);
}
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

stopAllOnExit();
const stacks = {
  before: await Stack.start({ label: 'bench-signed-in-before', buildDir: path.resolve(args.before) }),
  after: await Stack.start({ label: 'bench-signed-in-after' }),
};
onCleanup(() => Promise.all(Object.values(stacks).map((s) => s.stop())));
try {
  const targets = {};
  for (const [name, stack] of Object.entries(stacks)) {
    const tournaments = await seed(stack);
    const { cookie } = await seedPlayer(stack, tournaments[0].id);
    targets[name] = { url: `${stack.info.webUrl}/tournaments`, cookie };
  }
  const run = (t, duration) =>
    autocannon({ url: t.url, connections: 10, duration, headers: { cookie: t.cookie, 'accept-encoding': 'gzip' } });
  for (const t of Object.values(targets)) await run(t, 2);
  const results = { before: [], after: [] };
  for (let round = 0; round < ROUNDS; round++) {
    for (const name of round % 2 ? ['after', 'before'] : ['before', 'after']) {
      const r = await run(targets[name], SECONDS);
      results[name].push(r.requests.average);
      console.log(
        `round ${round + 1} ${name}: ${Math.round(r.requests.average)} req/s, p50 ${r.latency.p50} ms, ${r.non2xx + r.errors} failed`,
      );
    }
  }
  console.log(
    `signed-in /tournaments, median of ${ROUNDS}: before ${Math.round(median(results.before))} req/s, after ${Math.round(median(results.after))} req/s (load ${os.loadavg()[0].toFixed(1)}, ${os.cpus().length} CPUs)`,
  );
} finally {
  await Promise.all(Object.values(stacks).map((s) => s.stop()));
}
