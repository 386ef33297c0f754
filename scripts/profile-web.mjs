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
import { startProfiledWeb, printProfile } from './lib/cpu-profile.mjs';
import { onCleanup, stopAllOnExit } from './lib/processes.mjs';

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
const web = await startProfiledWeb(stack, out);
const webUrl = web.url;
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
const file = await web.stop(); // SIGTERM: it exits and writes the profile
await stack.stop();
console.log(
  `page ${page}: ${Math.round(result.requests.average)} req/s, p99 ${result.latency.p99} ms, non-2xx ${result.non2xx}, errors ${result.errors}`,
);
printProfile(file, warm.requests.total + result.requests.total, Number(args.top));
