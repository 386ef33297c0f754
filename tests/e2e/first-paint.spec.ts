import { expect, test } from './support/fixtures';

// Decision 028: the page's own content first, React and Remix after it. The browser must not fetch a
// single script before the page's load event (the eager cover in), then it hydrates as before: the
// held-back preloads get their href back and a client-side navigation works. Run on a page served by
// Remix (signed out, the first request may be a cache miss) and on the same page from the page cache.

interface Timing {
  load: number;
  cover: { start: number; end: number } | null;
  scripts: { name: string; start: number }[];
}

test.describe('first paint', () => {
  test('no script is fetched before the page has loaded; then it hydrates and navigates on the client @js', async ({ page, api }) => {
    const t = await api.createTournament({}, { cover: true });
    const detail = `/tournaments/${t.id}`;
    for (const attempt of ['first', 'again']) {
      const response = await page.goto(detail);
      const heldBack = [...(await response!.text()).matchAll(/<link rel="x-held-modulepreload" data-href="([^"]+)"/g)].map(
        (m) => new URL(m[1]!, page.url()).href,
      );
      await expect
        .poll(() => page.evaluate(() => typeof (window as unknown as { __remixRouter?: unknown }).__remixRouter), { message: attempt })
        .toBe('object');
      const timing: Timing = await page.evaluate(() => {
        const nav = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming;
        const resources = performance.getEntriesByType('resource') as PerformanceResourceTiming[];
        const cover = resources.find((r) => r.name.includes('/images/'));
        return {
          load: nav.loadEventStart,
          cover: cover ? { start: cover.startTime, end: cover.responseEnd } : null,
          scripts: resources.filter((r) => /\/build\/.*\.js$/.test(r.name)).map((r) => ({ name: r.name, start: r.startTime })),
        };
      });
      expect(timing.load, attempt).toBeGreaterThan(0);
      expect(timing.cover, `${attempt}: the cover was fetched`).not.toBeNull();
      expect(timing.scripts.length, `${attempt}: the app's modules were fetched`).toBeGreaterThan(3);
      for (const s of timing.scripts) {
        expect(s.start, `${attempt}: ${s.name} started after the load event`).toBeGreaterThanOrEqual(timing.load);
        expect(s.start, `${attempt}: ${s.name} started after the cover arrived`).toBeGreaterThanOrEqual(timing.cover!.end);
      }
      // Every preload the server held back was handed its href back and fetched (Remix removes the
      // tags themselves once hydrated, as it always has).
      expect(heldBack.length, attempt).toBeGreaterThan(3);
      expect(timing.scripts.map((s) => s.name)).toEqual(expect.arrayContaining(heldBack));
    }

    // Hydrated for real: a link is followed on the client, without a new document.
    let documents = 0;
    page.on('request', (request) => {
      if (request.resourceType() === 'document') documents++;
    });
    await page.getByRole('link', { name: 'View Points Table' }).click();
    await expect(page).toHaveURL(`${detail}/points-table`);
    await expect(page.getByRole('heading', { level: 1, name: 'Points table' })).toBeVisible();
    expect(documents).toBe(0);
  });

  test('a page load logs no console warning or error: nothing held back looks broken to the browser', async ({ page, api, javaScript }) => {
    // Decision 036: held-back preloads used to be modulepreload links without href, one Chromium warning each.
    const t = await api.createTournament({}, { cover: true });
    const logged: string[] = [];
    page.on('console', (msg) => {
      if (msg.type() === 'warning' || msg.type() === 'error') logged.push(`${msg.type()}: ${msg.text()}`);
    });
    for (const path of ['/', '/tournaments', `/tournaments/${t.id}`, `/tournaments/${t.id}/points-table`, '/about', '/login']) {
      await page.goto(path);
      await page.waitForLoadState('load');
      // With JavaScript: until the boot has handed every preload back and the app has hydrated.
      if (javaScript) {
        await page.waitForFunction(() => typeof (window as unknown as { __remixRouter?: unknown }).__remixRouter === 'object');
        expect(await page.locator('link[rel=x-held-modulepreload]').count()).toBe(0);
      }
    }
    expect(logged).toEqual([]);
  });
});
