import AxeBuilder from '@axe-core/playwright';
import { test as base, expect, type BrowserContext, type Page, type Response, type TestInfo } from '@playwright/test';
import { playerHtml, thumbnailSvg } from '../../fixtures/youtube-fake.mjs';
import { GatewayApi } from './api';
import { sharedStack, type StackInfo } from './stack.mjs';

export { expect };

interface ConsoleGuard {
  /** Errors matching this are expected in the current test (e.g. the browser's "Failed to load resource: … 404"). */
  allow(pattern: RegExp): void;
  /** What was logged so far (for tests that assert on it). */
  readonly errors: string[];
}

interface TestFixtures {
  consoleGuard: ConsoleGuard;
  /** Whether this project runs with JavaScript (the "js" project) or without ("no-js"). */
  javaScript: boolean;
  /**
   * The browser's requests to YouTube's own hosts answered locally (the machine may be offline): thumbnails
   * at i.ytimg.com, the youtube-nocookie player, youtube.com watch pages. The URLs asked for, in order.
   */
  youtubeHosts: string[];
}

interface WorkerFixtures {
  stack: StackInfo;
  api: GatewayApi;
}

export const test = base.extend<TestFixtures, WorkerFixtures>({
  stack: [async ({}, use) => use(sharedStack()), { scope: 'worker' }],
  api: [async ({ stack }, use) => use(new GatewayApi(stack)), { scope: 'worker' }],
  baseURL: async ({ stack }, use) => use(stack.webUrl),
  javaScript: async ({ javaScriptEnabled }, use) => use(javaScriptEnabled !== false),
  // With JavaScript, a page of ours that goto/reload opens is used once it has hydrated, which starts
  // only after its load event (decision 028). Before that every link and form works as without
  // JavaScript, so a test that acted at once would take the no-JS path in the JS project.
  page: async ({ page, javaScriptEnabled, baseURL }, use) => {
    if (javaScriptEnabled !== false) {
      const goto = page.goto.bind(page);
      const reload = page.reload.bind(page);
      page.goto = async (...args) => untilHydrated(page, await goto(...args), baseURL);
      page.reload = async (...args) => untilHydrated(page, await reload(...args), baseURL);
    }
    await use(page);
  },
  youtubeHosts: async ({ context }, use) => {
    const seen: string[] = [];
    await context.route(/^https:\/\/(i\.ytimg\.com|www\.youtube-nocookie\.com|www\.youtube\.com)\//, (route) => {
      const url = new URL(route.request().url());
      seen.push(url.href);
      if (url.hostname === 'i.ytimg.com')
        return route.fulfill({ contentType: 'image/svg+xml', body: thumbnailSvg(url.pathname.split('/')[2] ?? '') });
      const id = url.hostname === 'www.youtube.com' ? (url.searchParams.get('v') ?? '') : (url.pathname.split('/')[2] ?? '');
      return route.fulfill({ contentType: 'text/html; charset=utf-8', body: playerHtml(id) });
    });
    await use(seen);
  },

  // Auto: every test fails when its page logs an error it did not expect.
  consoleGuard: [
    async ({ page }, use, testInfo) => {
      const errors: string[] = [];
      const allowed: RegExp[] = [
        // Remix's single fetch logs (console.error) the AbortError of a data request that a newer
        // navigation cancelled while its turbo-stream body was still being decoded, then drops it: a
        // click during a revalidation, nothing lost (seen once under load; remix-run/remix#10348).
        /^console\.error: AbortError: signal is aborted without reason\b/,
      ];
      page.on('console', (msg) => {
        if (msg.type() !== 'error') return;
        const loc = msg.location();
        errors.push(`console.error: ${msg.text()}${loc.url ? ` (${loc.url}:${loc.lineNumber})` : ''}`);
      });
      page.on('pageerror', (err) => errors.push(`pageerror: ${err.message}`));
      await use({ allow: (p) => allowed.push(p), errors });
      const unexpected = errors.filter((e) => !allowed.some((p) => p.test(e)));
      if (unexpected.length) await attachLogs(testInfo);
      expect(unexpected, 'unexpected console errors in the page').toEqual([]);
    },
    { auto: true },
  ],
});

/** Waits until an HTML page of the site under test has hydrated (root.tsx marks <html>); a hydration that never comes fails the test. */
async function untilHydrated(page: Page, response: Response | null, baseURL: string | undefined): Promise<Response | null> {
  const html = response?.headers()['content-type']?.startsWith('text/html');
  if (response && html && baseURL && new URL(response.url()).origin === new URL(baseURL).origin) {
    await page.waitForSelector('html[data-hydrated]', { state: 'attached', timeout: 10_000 });
  }
  return response;
}

async function attachLogs(testInfo: TestInfo) {
  const stack = sharedStack();
  await testInfo.attach('gateway.log', { path: stack.gatewayLog }).catch(() => {});
  await testInfo.attach('web.log', { path: stack.webLog }).catch(() => {});
}

/**
 * Runs axe on the page as it is now: no violation of impact serious or critical. axe needs script in
 * the page, so without JavaScript the page's current HTML (which is exactly what the server sent,
 * also after a form POST) is served again at the same URL to a scripted context that blocks the app's
 * script files, and axe checks it there: the server-rendered page a no-JS visitor gets.
 */
export async function expectAccessible(page: Page, testInfo: TestInfo, label = new URL(page.url()).pathname) {
  let target = page;
  let context: BrowserContext | undefined;
  if (testInfo.project.use.javaScriptEnabled === false) {
    const html = await page.content();
    const url = page.url();
    context = await page.context().browser()!.newContext({ viewport: page.viewportSize(), javaScriptEnabled: true });
    await context.route('**/*', (route) => {
      const request = route.request();
      if (request.resourceType() === 'script') return route.abort();
      if (request.isNavigationRequest() && request.url() === url)
        return route.fulfill({ status: 200, contentType: 'text/html; charset=utf-8', body: html });
      return route.continue();
    });
    target = await context.newPage();
    await target.goto(url);
  }
  try {
    const results = await new AxeBuilder({ page: target }).analyze();
    const bad = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
    if (bad.length) {
      await testInfo.attach(`axe-${label.replace(/\W+/g, '-')}.json`, {
        body: JSON.stringify(bad, null, 2),
        contentType: 'application/json',
      });
    }
    expect(
      bad.map(
        (v) =>
          `${v.impact} ${v.id}: ${v.help} — ${v.nodes
            .map((n) => n.target.join(' '))
            .slice(0, 5)
            .join(' | ')}`,
      ),
      `serious/critical axe violations on ${label}`,
    ).toEqual([]);
  } finally {
    await context?.close();
  }
}

/** Phones first: at the page's width nothing makes the whole document scroll sideways (wide tables scroll in their own region). */
export async function expectNoSidewaysScroll(page: Page) {
  const { scrollWidth, viewport } = await page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    viewport: window.innerWidth,
  }));
  expect(scrollWidth, `document is ${scrollWidth}px wide in a ${viewport}px viewport`).toBeLessThanOrEqual(viewport);
}

/** The browser's own console line for a page answered with an error status (expected on 404/503 pages). */
export const FAILED_RESOURCE = (status: number) => new RegExp(`Failed to load resource: the server responded with a status of ${status}`);
