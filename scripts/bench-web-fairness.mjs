#!/usr/bin/env node
// `node scripts/bench-web-fairness.mjs [--build DIR] [--rounds 5] [--floods 300,800] [--json FILE]`
// (decision 031, issue 16 item 11): how long a real player's /my-tournaments waits while one client
// floods the web server with requests carrying a bogus `__session` cookie. The production build (run
// `npm run build` first; `--build DIR` runs another build, e.g. a worktree of an older commit, for a
// before/after) with 20 tournaments and a signed-in player with a team. Per round: N requests from
// 127.0.0.2 sent at once, then the player's page from 127.0.0.1; the player's time from sending to the
// last byte. Two floods: the same page (/tournaments) and N different URLs (/tournaments?n=i, each one a
// render: no page cache can absorb them). Medians over the rounds; the machine's load is printed beside.
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { Stack } from '../tests/e2e/support/stack.mjs';
import { seed, seedPlayer } from './lib/bench-seed.mjs';
import { onCleanup, stopAllOnExit } from './lib/processes.mjs';

const { values: args } = parseArgs({
  options: {
    build: { type: 'string' },
    rounds: { type: 'string', default: '5' },
    floods: { type: 'string', default: '300,800' },
    json: { type: 'string' },
  },
});
const ROUNDS = Number(args.rounds);
const FLOODS = args.floods.split(',').map(Number);
if (!Number.isInteger(ROUNDS) || ROUNDS < 1 || !FLOODS.every((n) => Number.isInteger(n) && n > 0)) {
  console.error('bench-web-fairness: --rounds and --floods take whole numbers (e.g. --rounds 5 --floods 300,800)');
  process.exit(2);
}

/** One GET on a connection of its own from localAddress: its status, time to the last byte, and of that the time to connect. */
function timedGet(localAddress, url, cookie) {
  const started = performance.now();
  let connectMs = NaN;
  return new Promise((resolve) => {
    const done = (status) => resolve({ status, ms: performance.now() - started, connectMs });
    const req = http.get(url, { localAddress, agent: false, headers: { cookie, 'accept-encoding': 'gzip' } }, (res) => {
      res.on('data', () => {});
      res.on('end', () => done(res.statusCode));
      res.on('error', () => done(0));
    });
    req.on('socket', (socket) => socket.once('connect', () => (connectMs = performance.now() - started)));
    req.on('error', () => done(0));
  });
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
};

async function main() {
  const buildDir = args.build ? path.resolve(args.build) : undefined;
  stopAllOnExit();
  const stack = await Stack.start({ label: 'bench-web-fairness', ...(buildDir ? { buildDir } : {}) });
  onCleanup(() => stack.stop());
  try {
    const tournaments = await seed(stack);
    const { cookie } = await seedPlayer(stack, tournaments[0].id);
    const web = stack.info.webUrl;
    const alone = [];
    for (let i = 0; i < 5; i++) alone.push((await timedGet('127.0.0.1', `${web}/my-tournaments`, cookie)).ms);

    const rows = [];
    for (const n of FLOODS) {
      for (const variant of ['same page', 'different URLs']) {
        const player = [];
        const connect = [];
        const floodMs = [];
        let failed = 0;
        for (let round = 0; round < ROUNDS; round++) {
          const started = performance.now();
          const flood = Array.from({ length: n }, (_, i) =>
            timedGet('127.0.0.2', `${web}/tournaments${variant === 'same page' ? '' : `?n=${round}-${i}`}`, '__session=bogus'),
          );
          const mine = await timedGet('127.0.0.1', `${web}/my-tournaments`, cookie);
          const answers = await Promise.all(flood);
          floodMs.push(performance.now() - started);
          failed += answers.filter((a) => a.status !== 200).length + (mine.status === 200 ? 0 : 1);
          player.push(mine.ms);
          connect.push(mine.connectMs);
        }
        const row = {
          flood: n,
          variant,
          playerMedianMs: Math.round(median(player)),
          playerMs: player.map(Math.round),
          // Of the player's time, how long its TCP connection took to be established (the flood's
          // connections arrive first; a dropped SYN is retried after 1, 3, 7 … s).
          connectMs: connect.map(Math.round),
          floodMedianMs: Math.round(median(floodMs)),
          failed,
          load: os.loadavg()[0].toFixed(1),
        };
        rows.push(row);
        console.log(
          `${n} × ${variant}: player /my-tournaments median ${row.playerMedianMs} ms (${row.playerMs.join(', ')}; connected after ${row.connectMs.join(', ')}); flood done in ${row.floodMedianMs} ms; ${failed} failed; load ${row.load}`,
        );
      }
    }
    console.log(
      `player /my-tournaments alone: median ${Math.round(median(alone))} ms; Node ${process.version}, ${os.cpus().length} CPUs shared by load generator, gateway and web server`,
    );
    if (args.json)
      fs.writeFileSync(
        args.json,
        `${JSON.stringify({ build: buildDir ?? 'this checkout', aloneMs: Math.round(median(alone)), rows }, null, 2)}\n`,
      );
  } finally {
    await stack.stop();
  }
}

main().catch((err) => {
  console.error(`bench-web-fairness: ${err.stack ?? err}`);
  process.exit(1);
});
