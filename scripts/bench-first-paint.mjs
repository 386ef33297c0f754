#!/usr/bin/env node
// `npm run bench:first-paint`: what a phone on slow 4G sees, in a real browser rather than Lighthouse's
// simulation. Debian's chromium (Playwright) with DevTools throttling of Lighthouse's mobile figures
// (150 ms latency per request, 1.6 Mbit/s down, 750 kbit/s up, 4× CPU) opens the six pages of
// bench-lighthouse on the same seed, and reads, per page (median of --runs, default 3, fresh cache each):
//   - LCP: the largest contentful paint the browser reported (target: Google's "good", ≤ 2.5 s);
//   - hydrated: when React had hydrated the page's last element (the footer), i.e. when what JavaScript
//     adds works. Target ≤ 3.8 s (Lighthouse's former "good" time to interactive on mobile).
// Decision 028 fetches the scripts only after the page's load event, so LCP comes first and hydration
// after it; this measures what that costs and saves. Run `npm run build` first.
//   --runs N   --json FILE (rows for `npm run bench`)
import fs from 'node:fs';
import { parseArgs } from 'node:util';
import { chromium } from '@playwright/test';
import { Stack } from '../tests/e2e/support/stack.mjs';
import { seedSixPages } from './lib/bench-seed.mjs';
import { onCleanup, stopAllOnExit } from './lib/processes.mjs';

const { values: args } = parseArgs({ options: { runs: { type: 'string', default: '3' }, json: { type: 'string' } } });
const RUNS = Math.max(1, Number(args.runs) || 3);
const LCP_GOOD = 2500;
const HYDRATED_GOOD = 3800;
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

// In the page from its first script on: the latest LCP entry, and the first moment React's props are on
// the footer (React sets them while it hydrates an element; the footer is the last it reaches).
const PROBE = `(() => {
  window.__bench = { lcp: 0, hydrated: 0 };
  new PerformanceObserver((list) => { for (const e of list.getEntries()) window.__bench.lcp = e.startTime; })
    .observe({ type: 'largest-contentful-paint', buffered: true });
  const poll = () => {
    const footer = document.querySelector('body > footer, footer');
    if (footer && Object.keys(footer).some((k) => k.startsWith('__reactProps$'))) window.__bench.hydrated = performance.now();
    else setTimeout(poll, 10);
  };
  poll();
})();`;

async function measure(browser, url, cookie) {
  const context = await browser.newContext({
    viewport: { width: 412, height: 823 },
    deviceScaleFactor: 1.75,
    isMobile: true,
    hasTouch: true,
    extraHTTPHeaders: cookie ? { Cookie: cookie } : undefined,
  });
  try {
    const page = await context.newPage();
    await page.addInitScript(PROBE);
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: 150,
      downloadThroughput: (1.6 * 1024 * 1024) / 8,
      uploadThroughput: (750 * 1024) / 8,
    });
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
    await page.goto(url, { waitUntil: 'load', timeout: 60_000 });
    await page.waitForFunction(() => window.__bench.hydrated > 0 && window.__bench.lcp > 0, null, { timeout: 60_000 });
    return await page.evaluate(() => ({ lcp: window.__bench.lcp, hydrated: window.__bench.hydrated }));
  } finally {
    await context.close();
  }
}

async function main() {
  stopAllOnExit();
  const stack = await Stack.start({ label: 'first-paint' });
  onCleanup(() => stack.stop());
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-dev-shm-usage', '--disable-gpu'],
  });
  try {
    const { pages } = await seedSixPages(stack);
    const rows = [];
    console.log(`bench-first-paint: chromium, DevTools throttling 150 ms / 1.6 Mbit/s / 4× CPU, median of ${RUNS}`);
    for (const p of pages) {
      const runs = [];
      for (let i = 0; i < RUNS; i++) runs.push(await measure(browser, stack.info.webUrl + p.path, p.cookie));
      const lcp = Math.round(median(runs.map((r) => r.lcp)));
      const hydrated = Math.round(median(runs.map((r) => r.hydrated)));
      console.log(`  ${p.name.padEnd(32)} LCP ${String(lcp).padStart(5)} ms   hydrated ${String(hydrated).padStart(5)} ms`);
      rows.push({
        name: `${p.name} LCP (throttled chromium)`,
        value: lcp,
        unit: 'ms',
        reference: null,
        referenceValue: null,
        ratio: null,
        target: `≤ ${LCP_GOOD}`,
        pass: lcp <= LCP_GOOD,
      });
      rows.push({
        name: `${p.name} hydrated`,
        value: hydrated,
        unit: 'ms',
        reference: null,
        referenceValue: null,
        ratio: null,
        target: `≤ ${HYDRATED_GOOD}`,
        pass: hydrated <= HYDRATED_GOOD,
      });
    }
    const notes = [
      `Real chromium with DevTools throttling (150 ms latency per request, 1.6 Mbit/s down, 4× CPU), fresh cache, 412×823 at 1.75×; median of ${RUNS}. LCP from the browser's own entries; "hydrated" when React reached the footer. Scripts load after the page's load event (decision 028).`,
    ];
    if (args.json) fs.writeFileSync(args.json, JSON.stringify({ suite: 'first-paint', rows, notes }, null, 2) + '\n');
    const failed = rows.filter((r) => !r.pass);
    if (failed.length) {
      console.log(`bench-first-paint: FAIL: ${failed.map((r) => r.name).join(', ')}`);
      process.exitCode = 1;
    }
  } finally {
    await browser.close();
    await stack.stop();
  }
}

main().catch((err) => {
  console.error(`bench-first-paint: ${err.stack ?? err}`);
  process.exitCode = 1;
});
