import { expect, FAILED_RESOURCE, test } from './support/fixtures';

test.describe('not found', () => {
  test('an unknown tournament answers 404 "Tournament not found."', async ({ page, consoleGuard }) => {
    consoleGuard.allow(FAILED_RESOURCE(404));
    const response = await page.goto('/tournaments/987654321');
    expect(response?.status()).toBe(404);
    await expect(page.getByRole('alert')).toHaveText('Tournament not found.');
    await expect(page.getByRole('link', { name: 'Go to the home page' })).toBeVisible();
    // Its points table too, and an id that is not a number.
    expect((await page.goto('/tournaments/987654321/points-table'))?.status()).toBe(404);
    await expect(page.getByRole('alert')).toHaveText('Tournament not found.');
    expect((await page.goto('/tournaments/not-a-number'))?.status()).toBe(404);
    await expect(page.getByRole('alert')).toHaveText('Tournament not found.');
  });

  test('an unknown page answers 404 with the site around it', async ({ page, consoleGuard }) => {
    consoleGuard.allow(FAILED_RESOURCE(404));
    const response = await page.goto('/no-such-page-here');
    expect(response?.status()).toBe(404);
    await expect(page.getByRole('heading', { level: 1, name: 'Page not found' })).toBeVisible();
    await expect(page.getByRole('alert')).toContainText('We could not find that page');
    await expect(page).toHaveTitle(/not found/i);
    await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();
    await page.getByRole('link', { name: 'Go to the home page' }).click();
    await expect(page).toHaveURL('/');
    await expect(page.getByRole('heading', { name: 'Featured Tournaments' })).toBeVisible();
  });
});
