import { GatewayApi } from './support/api';
import { expect, FAILED_RESOURCE, test } from './support/fixtures';
import { sharedStack, Stack } from './support/stack.mjs';

test.describe('gateway down', () => {
  // Its own gateway + web pair: stopping the shared gateway would break every other test.
  let stack: Stack;
  test.beforeEach(async ({}, testInfo) => {
    testInfo.setTimeout(90_000);
    stack = await Stack.start({ label: 'down', logDir: testInfo.outputPath('stack'), buildDir: sharedStack().buildDir });
  });
  test.afterEach(async ({ page }) => {
    // The page first: still open, it may fetch route manifests from the stopped server (a console error).
    await page.close();
    await stack?.stop();
  });

  test('pages answer 503 with a clear message and "Try again", and work again once it is back', async ({ page, consoleGuard }) => {
    consoleGuard.allow(FAILED_RESOURCE(503));
    const api = new GatewayApi(stack.info);
    const t = await api.createTournament({ name: `Downtime Cup ${Date.now()}` });
    const list = `${stack.info.webUrl}/tournaments`;

    expect((await page.goto(list))?.status()).toBe(200);
    const card = page.getByRole('article').filter({ has: page.getByRole('heading', { name: t.name }) });
    await expect(card).toBeVisible();

    await stack.stopGateway();
    const down = await page.reload();
    expect(down?.status()).toBe(503);
    expect(down?.headers()['cache-control']).toContain('no-store');
    await expect(page.getByRole('heading', { level: 1, name: 'Upcoming Gaming Tournaments' })).toBeVisible();
    await expect(page.getByRole('alert')).toContainText('We could not load tournaments right now.');
    await expect(card).toHaveCount(0);
    const body = await page.locator('body').innerText();
    expect(body).not.toMatch(/\bat \S+ \(|ECONNREFUSED|TypeError|Error:/); // no stack trace or internals

    // A page whose loader cannot go without the gateway: the 503 error page, still with the site around it.
    const detail = await page.goto(`${stack.info.webUrl}/tournaments/${t.id}`);
    expect(detail?.status()).toBe(503);
    await expect(page.getByRole('heading', { level: 1, name: 'Server unavailable' })).toBeVisible();
    await expect(page).toHaveTitle('Server unavailable | Custom Room'); // not "Tournament not found"
    await expect(page.getByRole('alert')).toContainText('We could not reach the tournament server. Please try again in a moment.');
    await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();
    expect(await page.locator('body').innerText()).not.toMatch(/\bat \S+ \(|ECONNREFUSED|TypeError|Error:/);

    // The home page keeps its frame and says so.
    expect((await page.goto(`${stack.info.webUrl}/`))?.status()).toBe(503);
    await expect(page.getByRole('heading', { name: 'Featured Tournaments' })).toBeVisible();
    await expect(page.getByRole('alert')).toContainText('We could not load tournaments right now.');

    // A form keeps what was typed (never the password) and says the server could not be reached.
    await page.goto(`${stack.info.webUrl}/login`);
    await page.getByLabel('Email or phone').fill('someone@test.example');
    await page.getByLabel('Password', { exact: true }).fill('whatever-password');
    await page.getByRole('button', { name: 'Log in' }).click();
    await expect(page.getByRole('alert')).toContainText('We could not reach the server. Your details are kept — please try again.');
    await expect(page.getByLabel('Email or phone')).toHaveValue('someone@test.example');
    await expect(page.getByLabel('Password', { exact: true })).toHaveValue('');

    // Back on the list, the gateway returns (same port, same data) and "Try again" works.
    await page.goto(list);
    await expect(page.getByRole('alert')).toContainText('We could not load tournaments right now.');
    await stack.startGateway();
    await page.getByRole('link', { name: 'Try again' }).click();
    await expect(card).toBeVisible();
    await expect(page.getByRole('alert')).toHaveCount(0);
    await expect(page).toHaveURL(list);

    // And the detail page's own "Try again" too.
    await stack.stopGateway();
    await page.goto(`${stack.info.webUrl}/tournaments/${t.id}`);
    await expect(page.getByRole('heading', { level: 1, name: 'Server unavailable' })).toBeVisible();
    await stack.startGateway();
    await page.getByRole('link', { name: 'Try again' }).click();
    await expect(page.getByRole('heading', { level: 1, name: t.name })).toBeVisible();
  });
});
