import { expect, expectAccessible, test } from './support/fixtures';

test.describe('the menu at 360 px', () => {
  test('opens on its summary, a link in it works, and it is closed on the new page', async ({ page }, testInfo) => {
    await page.goto('/about');
    const nav = page.getByRole('navigation', { name: 'Main' });
    const tournaments = nav.getByRole('link', { name: 'Tournaments' });
    await expect(tournaments).toBeHidden();

    await nav.getByLabel('Menu').click();
    await expect(tournaments).toBeVisible();
    await expect(nav.getByRole('link', { name: 'Home' })).toBeVisible();
    await expectAccessible(page, testInfo, 'menu open');

    await tournaments.click();
    await expect(page).toHaveURL('/tournaments');
    await expect(page.getByRole('heading', { level: 1, name: 'Upcoming Gaming Tournaments' })).toBeVisible();
    await expect(tournaments).toBeHidden();
    await expect(nav.locator('details')).not.toHaveAttribute('open');

    // It opens and closes again on the new page.
    await nav.getByLabel('Menu').click();
    await expect(tournaments).toBeVisible();
    await nav.getByLabel('Menu').click();
    await expect(tournaments).toBeHidden();
  });
});
