import { GatewayApi } from './support/api';
import { expect, test } from './support/fixtures';

// Decision 024: anonymous public pages come from the web server's page cache with a CSP that allows their
// inline scripts by hash. A wrong hash would block Remix's inline scripts: the page would not hydrate
// and chromium would log the CSP violation (the console guard fails the test on any console error).

test.describe('page cache', () => {
  test('a public page served from the cache hydrates and navigates, and a write shows at once', async ({ page, api, javaScript }) => {
    const [t] = await Promise.all([api.createTournament(), api.createTournament()]);
    const detail = `/tournaments/${t.id}`;

    for (const path of ['/', '/tournaments', detail]) {
      await page.goto(path);
      // Reloads ask the server again (the page allows browsers to keep it 30 s); other tests' writes
      // running in parallel may move the generation in between, so a few tries.
      let csp: string | null | undefined;
      await expect
        .poll(
          async () => {
            const again = await page.reload();
            expect(again?.status(), path).toBe(200);
            csp = await again?.headerValue('content-security-policy');
            return again?.headerValue('x-page-cache');
          },
          { message: `${path} from the page cache`, timeout: 10_000 },
        )
        .toBe('hit');
      expect(csp, path).toMatch(/script-src 'self'( 'sha256-[A-Za-z0-9+/=]+')+;/);
      if (javaScript) {
        // Hydrated: Remix's router runs in the page (its inline scripts were allowed).
        await expect
          .poll(() => page.evaluate(() => typeof (window as unknown as { __remixRouter?: unknown }).__remixRouter), { message: path })
          .toBe('object');
      }
    }
    if (javaScript) {
      // A client-side navigation from the cached page: no new document is loaded.
      let documents = 0;
      page.on('request', (request) => {
        if (request.resourceType() === 'document') documents++;
      });
      await page
        .getByRole('link', { name: /points table/i })
        .first()
        .click();
      await expect(page).toHaveURL(`${detail}/points-table`);
      expect(documents).toBe(0);
    }

    const renamed = `${t.name} Finals`;
    const form = new FormData();
    for (const [k, v] of Object.entries(GatewayApi.tournamentFields({ name: renamed }))) form.append(k, v);
    await api.request('PUT', `/tournaments/admin/update/${t.id}`, { token: await api.adminToken(), form, expect: [200] });
    // A fresh context: the browser's own HTTP cache (max-age=30) is not what is under test here.
    const fresh = await page.context().browser()!.newPage();
    try {
      const res = await fresh.goto(new URL(detail, page.url()).href);
      expect(await res?.headerValue('x-page-cache')).toBe('miss');
      await expect(fresh.getByRole('heading', { level: 1, name: renamed })).toBeVisible();
    } finally {
      await fresh.close();
    }
  });
});
