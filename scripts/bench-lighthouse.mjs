#!/usr/bin/env node
// `npm run bench:lighthouse`: Lighthouse (mobile preset: Moto G Power screen, slow 4G and 4× CPU,
// simulated throttling) on ten pages of the production build (run `npm run build` first; this script
// builds nothing), driving Debian's /usr/bin/chromium through chrome-launcher. Like bench-web it starts a
// private gateway + web pair (SQLite in a temp DATA_DIR, SEED_DEMO=0) and seeds through the API: 20
// tournaments with poster-like covers (~30 KB as 800 px WebP: a flat-colour cover is too small for
// Chromium to count as the largest contentful paint), a points table of 16 teams with two matches, and a
// signed-in player whose team is registered and has six matches with room details. The two player pages
// get the player's session cookie (Lighthouse's extraHeaders; every request is same-origin).
//
// Each page runs --runs times (default 3) and the median of every figure is reported: the scores and
// LCP/FCP/CLS come from the simulation and barely move with the machine, but TBT is measured CPU time
// (scaled by the 4× slowdown), so a busy machine raises it.
//
//   --runs N        runs per page (default 3)
//   --quick         four pages only (the home, a tournament, the room page, a 1,000-squad stage): npm run bench -- --short
//   --json FILE     write {"suite":"lighthouse","rows":[…],"notes":[…]} for `npm run bench`
//   --reports DIR   keep every run's HTML report there
//   --port N        web on N, gateway on N+1 (default: free ports)
// Exits 1 when a page's median score is under 100 in any category.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { Stack } from '../tests/e2e/support/stack.mjs';
import { seedNewPages, seedSixPages } from './lib/bench-seed.mjs';
import { onCleanup, stopAllOnExit } from './lib/processes.mjs';

const CHROMIUM = process.env.CHROME_PATH || '/usr/bin/chromium';
const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'];
// Lighthouse's own "good" thresholds on mobile (the green range of each metric).
const METRICS = [
  { id: 'largest-contentful-paint', label: 'LCP', unit: 'ms', good: 2500 },
  { id: 'total-blocking-time', label: 'TBT', unit: 'ms', good: 200 },
  { id: 'cumulative-layout-shift', label: 'CLS', unit: '', good: 0.1 },
  { id: 'first-contentful-paint', label: 'FCP', unit: 'ms', good: 1800 },
];
const BUSY_INDEX = 1500;
// The machine's own network is closed: anything Chromium would fetch in the background only stalls it.
const CHROME_FLAGS = [
  '--headless=new',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

const { values: args } = parseArgs({
  options: {
    runs: { type: 'string', default: '3' },
    json: { type: 'string' },
    reports: { type: 'string' },
    port: { type: 'string' },
    quick: { type: 'boolean', default: false },
  },
});
const RUNS = Math.max(1, Number(args.runs) || 3);

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

function table(rows) {
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => String(r[i]).length)));
  return rows.map((r) => r.map((c, i) => String(c).padEnd(widths[i])).join('  ')).join('\n');
}

/** What one Lighthouse run says: the four scores ×100, the metrics, and every weighted audit that was not perfect. */
function readRun(lhr) {
  const scores = Object.fromEntries(CATEGORIES.map((c) => [c, Math.round((lhr.categories[c]?.score ?? 0) * 100)]));
  const metrics = Object.fromEntries(METRICS.map((m) => [m.id, lhr.audits[m.id]?.numericValue ?? NaN]));
  const flagged = [];
  for (const c of CATEGORIES) {
    for (const ref of lhr.categories[c]?.auditRefs ?? []) {
      const a = lhr.audits[ref.id];
      if (ref.weight > 0 && a && a.score !== null && a.score < 1) flagged.push(`${c}: ${a.id} (${a.displayValue ?? a.score})`);
    }
  }
  // Opportunities do not count in the score but say where the time goes.
  for (const id of ['render-blocking-resources', 'unused-javascript', 'prioritize-lcp-image', 'lcp-lazy-loaded']) {
    const a = lhr.audits[id];
    if (a && a.score !== null && a.score < 1) flagged.push(`hint: ${id} (${a.displayValue ?? a.score})`);
  }
  const lcpElement = lhr.audits['largest-contentful-paint-element']?.details?.items?.[0]?.items?.[0]?.node?.snippet ?? null;
  return { scores, metrics, flagged, lcpElement, warnings: lhr.runWarnings ?? [], benchmarkIndex: lhr.environment?.benchmarkIndex };
}

/** One Lighthouse run; a failed trace (NO_NAVSTART, NO_FCP … under heavy machine load) is tried again, twice at most. */
async function runLighthouse(port, url, cookie) {
  for (let attempt = 1; ; attempt++) {
    const result = await lighthouse(url, {
      port,
      output: args.reports ? 'html' : 'json',
      logLevel: 'error',
      onlyCategories: CATEGORIES,
      extraHeaders: cookie ? { Cookie: cookie } : undefined,
    });
    const error = !result
      ? 'no result'
      : result.lhr.runtimeError
        ? `${result.lhr.runtimeError.code} ${result.lhr.runtimeError.message}`
        : null;
    if (!error) return result;
    if (attempt === 3) throw new Error(`Lighthouse on ${url}: ${error}`);
    console.log(`  (Lighthouse on ${url} failed: ${error.split('\n')[0]}; again)`);
  }
}

async function main() {
  if (!fs.existsSync(CHROMIUM)) throw new Error(`no Chromium at ${CHROMIUM} (set CHROME_PATH)`);
  const port = args.port ? Number(args.port) : undefined;
  console.log('bench-lighthouse: starting a private gateway + web pair on the production build…');
  stopAllOnExit();
  const stack = await Stack.start({ label: 'lighthouse', webPort: port });
  onCleanup(() => stack.stop());
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'lighthouse-chrome-'));
  let chrome;
  onCleanup(() => chrome?.kill());
  let failed = false;
  try {
    const t0 = Date.now();
    const six = await seedSixPages(stack);
    const { tournaments } = six;
    // Issue 32: the stage and a group page of a 1,000-squad tournament, /notifications, the per-match points view.
    const all = [...six.pages, ...(await seedNewPages(stack, six))];
    // --quick (npm run bench -- --short): one page of each kind, the home, a tournament, the room page signed in, a big stage.
    const QUICK = ['/', '/tournaments/{id}', '/tournament/{id}/matches', '/tournaments/{id}/stages (1,000 squads)'];
    const pages = args.quick ? all.filter((p) => QUICK.includes(p.name)) : all;
    console.log(`bench-lighthouse: seeded ${tournaments.length} tournaments, a player and a points table in ${Date.now() - t0} ms`);

    chrome = await chromeLauncher.launch({
      chromePath: CHROMIUM,
      chromeFlags: CHROME_FLAGS,
      userDataDir: profile,
      logLevel: 'silent',
      handleSIGINT: false,
    });
    if (args.reports) fs.mkdirSync(args.reports, { recursive: true });
    let lighthouseVersion = '';
    let chromeVersion = '';
    const benchmarkIndexes = [];
    const results = [];
    for (const page of pages) {
      const runs = [];
      for (let i = 0; i < RUNS; i++) {
        const result = await runLighthouse(chrome.port, stack.info.webUrl + page.path, page.cookie);
        const { lhr } = result;
        if (lhr.finalDisplayedUrl !== stack.info.webUrl + page.path)
          throw new Error(`${page.path} ended at ${lhr.finalDisplayedUrl} (signed out?)`);
        lighthouseVersion = lhr.lighthouseVersion;
        chromeVersion = lhr.environment?.hostUserAgent?.match(/Chrome\/[\d.]+/)?.[0] ?? '';
        if (args.reports) {
          const file = path.join(args.reports, `${page.name.replace(/[^a-z0-9]+/gi, '_').replace(/^_|_$/g, '') || 'home'}-${i + 1}.html`);
          fs.writeFileSync(file, result.report);
        }
        const run = readRun(lhr);
        if (run.benchmarkIndex) benchmarkIndexes.push(run.benchmarkIndex);
        runs.push(run);
        process.stdout.write(
          `  ${page.name} run ${i + 1}: ${CATEGORIES.map((c) => run.scores[c]).join('/')}, LCP ${Math.round(run.metrics['largest-contentful-paint'])} ms\n`,
        );
      }
      results.push({
        page,
        scores: Object.fromEntries(CATEGORIES.map((c) => [c, median(runs.map((r) => r.scores[c]))])),
        metrics: Object.fromEntries(METRICS.map((m) => [m.id, median(runs.map((r) => r.metrics[m.id]))])),
        flagged: [...new Set(runs.flatMap((r) => r.flagged))],
        lcpElement: runs.at(-1).lcpElement,
        warnings: [...new Set(runs.flatMap((r) => r.warnings))],
      });
    }

    const header = ['page', 'perf', 'a11y', 'best', 'seo', ...METRICS.map((m) => `${m.label}${m.unit ? ` ${m.unit}` : ''}`)];
    const fmt = (m, v) => (m.unit ? String(Math.round(v)) : v.toFixed(3));
    const lines = [header];
    for (const r of results)
      lines.push([r.page.name, ...CATEGORIES.map((c) => r.scores[c]), ...METRICS.map((m) => fmt(m, r.metrics[m.id]))]);
    console.log(`\nLighthouse ${lighthouseVersion}, ${chromeVersion}, mobile (simulated slow 4G, 4× CPU), median of ${RUNS} runs\n`);
    console.log(table(lines));
    for (const r of results) {
      const notes = [...r.flagged, ...r.warnings.map((w) => `warning: ${w}`)];
      if (notes.length) console.log(`\n${r.page.name}:\n  ${notes.join('\n  ')}`);
      if (r.lcpElement) console.log(`  LCP element: ${r.lcpElement.slice(0, 160)}`);
    }

    // A quiet desktop of this kind scores 2000-3000; under other jobs' load it falls, and measured CPU time (TBT) rises.
    const busy = benchmarkIndexes.length > 0 && median(benchmarkIndexes) < BUSY_INDEX;
    if (busy)
      console.log(
        `\nbench-lighthouse: WARNING: median benchmarkIndex ${Math.round(median(benchmarkIndexes))} < ${BUSY_INDEX}: the machine is busy, TBT is inflated.`,
      );
    const rows = [];
    for (const r of results) {
      for (const c of CATEGORIES) {
        const pass = r.scores[c] >= 100;
        if (!pass) failed = true;
        rows.push({
          name: `${r.page.name} ${c}`,
          value: r.scores[c],
          unit: 'score',
          reference: null,
          referenceValue: null,
          ratio: null,
          target: '100',
          pass,
        });
      }
      for (const m of METRICS) {
        const value = m.unit ? Math.round(r.metrics[m.id]) : Number(r.metrics[m.id].toFixed(4));
        rows.push({
          name: `${r.page.name} ${m.label}`,
          value,
          unit: m.unit,
          reference: null,
          referenceValue: null,
          ratio: null,
          target: `≤ ${m.good}`,
          pass: value <= m.good,
        });
      }
    }
    const notes = [
      `Lighthouse ${lighthouseVersion} mobile preset (simulated throttling: 150 ms RTT, 1.6 Mbit/s, 4× CPU) on ${chromeVersion} headless; median of ${RUNS} runs per page.`,
      'Scores, LCP, FCP and CLS come from the simulation and move little with machine load; TBT is measured main-thread time and rises on a busy machine.',
      `Median Lighthouse benchmarkIndex of this machine: ${benchmarkIndexes.length ? Math.round(median(benchmarkIndexes)) : 'n/a'}.`,
      ...(busy
        ? [
            `The machine was busy (benchmarkIndex under ${BUSY_INDEX}): TBT, and the performance scores with it, are inflated; run again on a quiet machine.`,
          ]
        : []),
      'Seed: 20 tournaments with ~30 KB poster covers, a 16-team points table, a signed-in player with a registered team and room details (the two player pages); a 1,000-squad tournament with a published stage of 40 groups (its stage and group pages).',
    ];
    if (args.json) {
      fs.writeFileSync(args.json, JSON.stringify({ suite: 'lighthouse', rows, notes }, null, 2) + '\n');
      console.log(`\nbench-lighthouse: wrote ${args.json}`);
    }
    console.log(`\nbench-lighthouse: ${failed ? 'FAIL: a page scored under 100' : 'PASS: 100 in every category on every page'}`);
  } finally {
    await chrome?.kill();
    fs.rmSync(profile, { recursive: true, force: true });
    await stack.stop();
  }
  process.exitCode = failed ? 1 : 0;
}

main().catch((err) => {
  console.error(`bench-lighthouse: ${err.stack ?? err.message}`);
  process.exitCode = 1;
});
