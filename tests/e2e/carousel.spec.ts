import { expect, test } from './support/fixtures';

// Spec §9: autoplay every 5000 ms (700 ms transition) only with more than one tournament; ours also
// pauses on hover and focus, has a visible Pause control, and never runs under reduced motion.
test.describe('home carousel', () => {
  test.beforeAll(async ({ api }) => {
    await Promise.all([api.createTournament(), api.createTournament(), api.createTournament()]);
  });

  test('autoplays every 5 s, and stops for Pause and for hover @js', async ({ page }) => {
    await page.clock.install();
    await page.goto('/');
    const next = page.getByRole('button', { name: 'Next tournament' });
    await expect(next).toBeVisible();
    const position = page.locator('.fc-pos');
    await expect(position).toHaveText(/^1 \/ \d+$/);

    await page.clock.runFor(4000);
    await expect(position).toHaveText(/^1 \//);
    await page.clock.runFor(2000);
    await expect(position).toHaveText(/^2 \//);

    const pause = page.getByRole('button', { name: 'Pause slideshow' });
    await pause.click();
    await page.mouse.move(0, 0); // away from the slides: only the Pause button holds it
    await page.clock.runFor(12_000);
    await expect(position).toHaveText(/^2 \//);

    await page.getByRole('button', { name: 'Play slideshow' }).click();
    await page.getByRole('heading', { name: 'Featured Tournaments' }).hover();
    await page.clock.runFor(6000);
    await expect(position).toHaveText(/^3 \//);

    await page.locator('.keen-slider').hover();
    await page.clock.runFor(12_000);
    await expect(position).toHaveText(/^3 \//);
  });

  test('under reduced motion: no autoplay and no Pause control @js', async ({ page }) => {
    await page.emulateMedia({ reducedMotion: 'reduce' });
    await page.clock.install();
    await page.goto('/');
    await expect(page.getByRole('button', { name: 'Next tournament' })).toBeVisible();
    await expect(page.getByRole('button', { name: /Pause|Play/ })).toHaveCount(0);
    await page.clock.runFor(15_000);
    await expect(page.locator('.fc-pos')).toHaveText(/^1 \//);
  });

  // WCAG 2.2.2: the control that stops the motion comes before the moving slides in the tab order.
  test('Tab reaches Pause before any slide link @js', async ({ page }) => {
    await page.goto('/');
    const region = page.getByRole('region', { name: 'Featured Tournaments' });
    await expect(region.getByRole('button', { name: 'Pause slideshow' })).toBeVisible();
    // Clicking the heading puts the sequential focus starting point just before the carousel.
    await page.getByRole('heading', { name: 'Featured Tournaments' }).click();
    const reached: string[] = [];
    for (let i = 0; i < 4; i++) {
      await page.keyboard.press('Tab');
      reached.push(await page.evaluate(() => (document.activeElement?.textContent ?? '').replace(/\s+/g, ' ').trim()));
    }
    expect(reached[0]).toBe('Pause slideshow');
    expect(reached.slice(0, 3)).toEqual(['Pause slideshow', '‹Previous tournament', '›Next tournament']);
    expect(reached[3]).toMatch(/^Register Now/);
    // And in the document itself, not only by focus order tricks: no positive tabindex anywhere in it.
    const order = await region.evaluate((el) => {
      const pause = [...el.querySelectorAll('button')].find((b) => b.textContent?.includes('Pause'));
      const firstLink = el.querySelector('a[href]');
      return {
        before: !!pause && !!firstLink && !!(pause.compareDocumentPosition(firstLink) & Node.DOCUMENT_POSITION_FOLLOWING),
        tabindex: el.querySelectorAll('[tabindex]:not([tabindex="-1"])').length,
      };
    });
    expect(order).toEqual({ before: true, tabindex: 0 });
  });

  test('every slide in a scrollable row, no controls that cannot work @no-js', async ({ page }) => {
    await page.goto('/');
    const row = page.getByRole('region', { name: 'Featured Tournaments' });
    await expect(row.getByRole('link', { name: /^Register Now/ }).first()).toBeVisible();
    expect(await row.getByRole('article').count()).toBeGreaterThanOrEqual(3);
    await expect(page.getByRole('button')).toHaveCount(0);
    await expect(row).toContainText(/Swipe or scroll sideways for all \d+ tournaments\./);
  });
});
