#!/usr/bin/env node
// `npm run bench:screenshots`: the duplicate-screenshot check (decision 072) on a larger test set than the
// test's: 10 matches on 5 maps, 4 teams each (40 result screens), every screen with its 10 variants, every
// variant paired with the other teams of its match and with its team's other match on the map; and the CPU
// time of readScreenshot on 10 full-size (2400×1080) screens. Runs tests/gateway/screenshot-hash.test.ts
// with that set, so the same thresholds must hold, and prints its summary: hit rate, false positives
// (overall and two teams of one match), distances per kind of pair, the margin around the threshold, the
// coarse hash's part and the CPU per readScreenshot.
//
//   npm run bench:screenshots -- [--matches 10] [--teams 4] [--reads 10]
import { spawnSync } from 'node:child_process';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: {
    matches: { type: 'string', default: '10' },
    teams: { type: 'string', default: '4' },
    reads: { type: 'string', default: '10' },
  },
});
const result = spawnSync('npx', ['vitest', 'run', '--project', 'gateway', 'tests/gateway/screenshot-hash.test.ts'], {
  stdio: 'inherit',
  env: {
    ...process.env,
    SCREENSHOT_SET_MATCHES: values.matches,
    SCREENSHOT_SET_TEAMS: values.teams,
    SCREENSHOT_SET_THIN: '1',
    SCREENSHOT_SET_READS: values.reads,
  },
});
process.exit(result.status ?? 1);
