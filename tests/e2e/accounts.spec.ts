import { ApiError, readResetLink, unique, uniquePhone } from './support/api';
import { expect, FAILED_RESOURCE, test } from './support/fixtures';
import { expectSignedIn, expectSignedOut, logIn } from './support/ui';

test.describe('accounts', () => {
  test('create an account, log in, see the dashboard, log out', async ({ page, api }) => {
    const u = unique();
    const account = { email: `new-${u}@test.example`, phone: uniquePhone(), username: `new_${u}`, password: `secret-${u}-pass` };

    await page.goto('/register');
    await expect(page.getByRole('heading', { level: 1, name: 'Create an account' })).toBeVisible();
    await page.getByLabel('Email').fill(account.email);
    await page.getByLabel('Mobile number').fill(account.phone);
    await page.getByLabel('Username').fill(account.username);
    await page.getByLabel('Password', { exact: true }).fill(account.password);
    await page.getByRole('button', { name: 'Create account' }).click();

    // Signed in at once (issue 19); with nowhere to go back to, home.
    await expect(page).toHaveURL('/');
    await expect(page.getByRole('status').filter({ hasText: `Account created. You are logged in as ${account.username}.` })).toBeVisible();
    await expectSignedIn(page, account.username);

    await page.getByRole('link', { name: `Your profile (${account.username})` }).click();
    await expect(page).toHaveURL('/profile');
    const dashboard = page.getByRole('navigation', { name: 'Your account' });
    await expect(dashboard.getByRole('link', { name: 'Profile' })).toBeVisible();
    await expect(dashboard.getByRole('link', { name: 'My Tournaments' })).toBeVisible();
    await expect(page.getByRole('heading', { level: 1, name: 'Your profile' })).toBeVisible();
    await expect(page.getByText(`Username: ${account.username}`)).toBeVisible();
    await expect(page.getByRole('heading', { name: 'No Profile Found' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Create Profile' })).toBeVisible();

    // A GET of /logout only offers the button: links and images elsewhere cannot log anyone out.
    await page.goto('/logout');
    await expect(page.getByRole('heading', { level: 1, name: 'Log out' })).toBeVisible();
    await expectSignedIn(page, account.username);
    await page.goto('/profile');

    const logoutPost = page.waitForRequest((r) => new URL(r.url()).pathname.startsWith('/logout') && r.method() === 'POST');
    await dashboard.getByRole('button', { name: 'Logout' }).click();
    await logoutPost;
    await expect(page).toHaveURL('/login');
    await expect(page.getByRole('status').filter({ hasText: 'You have logged out.' })).toBeVisible();
    await expectSignedOut(page);

    await page.goto('/profile');
    await expect(page).toHaveURL('/login?redirectTo=%2Fprofile');
    await expect(page.getByRole('heading', { level: 1, name: 'Log in' })).toBeVisible();

    // The account really exists at the gateway and logs in by phone too.
    await expect(api.login(account.phone, account.password)).resolves.toMatchObject({ username: account.username });
  });

  test('a wrong password shows the error by the form, keeps the email and empties the password', async ({ page, api, consoleGuard }) => {
    consoleGuard.allow(FAILED_RESOURCE(401)); // the refused login answers 401 (the browser logs it)
    const player = await api.createPlayer();
    await logIn(page, player.email, 'not-the-password');

    await expect(page).toHaveURL(/\/login/);
    const summary = page.getByRole('alert');
    await expect(summary).toContainText('Invalid email/phone or password.');
    await expect(page.getByLabel('Email or phone')).toHaveValue(player.email);
    await expect(page.getByLabel('Password', { exact: true })).toHaveValue('');
    await expectSignedOut(page);

    // And then the right one works from the same form.
    await page.getByLabel('Password', { exact: true }).fill(player.password);
    await page.getByRole('button', { name: 'Log in' }).click();
    await expect(page).toHaveURL('/');
    await expectSignedIn(page, player.username);
  });

  test('an account that already exists gets a field error next to the field', async ({ page, api, consoleGuard, javaScript }) => {
    consoleGuard.allow(FAILED_RESOURCE(409));
    const existing = await api.createPlayer();
    const u = unique();

    await page.goto('/register');
    await page.getByLabel('Email').fill(existing.email);
    await page.getByLabel('Mobile number').fill(uniquePhone());
    await page.getByLabel('Username').fill(`other_${u}`);
    await page.getByLabel('Password', { exact: true }).fill(`secret-${u}-pass`);
    await page.getByRole('button', { name: 'Create account' }).click();

    const email = page.getByLabel('Email');
    await expect(email).toHaveAttribute('aria-invalid', 'true');
    await expect(email).toHaveAccessibleDescription(/An account with this email already exists\./);
    await expect(page.getByRole('alert')).toContainText('An account with this email already exists.');
    await expect(email).toHaveValue(existing.email);
    await expect(page.getByLabel('Username')).toHaveValue(`other_${u}`);
    // The server never sends a password back (with JavaScript the browser simply keeps what was typed).
    if (!javaScript) await expect(page.getByLabel('Password', { exact: true })).toHaveValue('');
    await expect(page.getByLabel('Username')).not.toHaveAttribute('aria-invalid');
    // Nothing was created.
    await expect(api.login(`other_${u}@nowhere.example`, `secret-${u}-pass`)).rejects.toBeInstanceOf(ApiError);
  });

  test('after logging in the visitor goes back to where they were sent from', async ({ page, api, browser, baseURL, javaScript }) => {
    const player = await api.createPlayer();

    // Another site as redirectTo is ignored: the login lands on the home page.
    const other = await browser.newContext({ baseURL, javaScriptEnabled: javaScript, viewport: { width: 360, height: 800 } });
    const otherPage = await other.newPage();
    await logIn(otherPage, player.email, player.password, {
      from: `/login?redirectTo=${encodeURIComponent('https://evil.example/steal')}`,
    });
    await expect(otherPage).toHaveURL('/');
    await other.close();

    await page.goto('/profile');
    await expect(page).toHaveURL('/login?redirectTo=%2Fprofile');
    await logIn(page, player.email, player.password);
    await expect(page).toHaveURL('/profile');
    await expect(page.getByRole('heading', { level: 1, name: 'Your profile' })).toBeVisible();
    await expect(page.getByText(`Username: ${player.username}`)).toBeVisible();
    await expectSignedIn(page, player.username);
  });

  test('a password reset by the mailed link sets a new password', async ({ page, api, stack }) => {
    const player = await api.createPlayer();
    const newPassword = `fresh-${unique()}-pass`;

    await page.goto('/login');
    await page.getByRole('link', { name: 'Forgot Password?' }).click();
    await expect(page).toHaveURL('/forgot-password');
    await page.getByLabel('Email').fill(player.email);
    await page.getByRole('button', { name: 'Send reset link' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Check your email' })).toBeVisible();
    await expect(page.getByRole('status').filter({ hasText: 'If an account exists' })).toContainText(
      'If an account exists for that email, we have sent a link to reset the password.',
    );

    const link = await readResetLink(stack.gatewayLog, player.email);
    expect(new URL(link).origin).toBe(stack.webUrl);
    await page.goto(link);
    await expect(page.getByRole('heading', { level: 1, name: 'Choose a new password' })).toBeVisible();
    await page.getByLabel('New password', { exact: true }).fill(newPassword);
    await page.getByLabel('Confirm new password').fill(newPassword);
    await page.getByRole('button', { name: 'Set new password' }).click();

    await expect(page).toHaveURL('/login');
    await expect(page.getByRole('status').filter({ hasText: 'Your password has been reset. Please log in.' })).toBeVisible();
    await logIn(page, player.email, newPassword);
    await expect(page).toHaveURL('/');
    await expectSignedIn(page, player.username);
    await expect(api.login(player.email, player.password)).rejects.toMatchObject({ status: 401 });
  });

  test('a used or unknown reset link asks for a new one', async ({ page, consoleGuard }) => {
    consoleGuard.allow(FAILED_RESOURCE(400));
    await page.goto('/reset-password?token=this-is-not-a-real-token');
    const password = `fresh-${unique()}-pass`;
    await page.getByLabel('New password', { exact: true }).fill(password);
    await page.getByLabel('Confirm new password').fill(password);
    await page.getByRole('button', { name: 'Set new password' }).click();
    await expect(page.getByRole('alert')).toContainText('This reset link is invalid or has expired.');
    await page.getByRole('link', { name: 'Request a new link' }).click();
    await expect(page).toHaveURL('/forgot-password');
  });

  test('a login form posted from another site is refused', async ({ request, api }) => {
    const player = await api.createPlayer();
    const form = { emailOrPhone: player.email, password: player.password, redirectTo: '' };
    const crossSite = await request.post('/login', {
      form,
      headers: { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' },
      maxRedirects: 0,
    });
    // Refused, and no session. (Remix's own CSRF check runs before the action and answers an empty 500, so the
    // action's friendlier 403 "This form was sent from another site" is never reached: reported to the web helpers.)
    expect(crossSite.status()).toBeGreaterThanOrEqual(400);
    expect(crossSite.headers()['set-cookie']).toBeUndefined();
    expect(crossSite.headers()['location']).toBeUndefined();
    // The same post from the site itself logs in.
    const sameSite = await request.post('/login', { form, headers: { 'sec-fetch-site': 'same-origin' }, maxRedirects: 0 });
    expect(sameSite.status()).toBe(302);
    expect(sameSite.headers()['set-cookie']).toContain('__session=');
  });

  test('logout ends the token at the gateway; "Log out everywhere" ends every other login too', async ({
    page,
    api,
    browser,
    baseURL,
    javaScript,
  }) => {
    const player = await api.createPlayer(); // player.token: a login of its own (like another phone)
    await logIn(page, player.email, player.password, { from: '/login?redirectTo=%2Fprofile' });
    await expect(page).toHaveURL('/profile');
    const firstCookie = (await page.context().cookies()).find((c) => c.name === '__session')!;

    // Log out here: a copy of this browser's cookie no longer opens the profile.
    await page.getByRole('navigation', { name: 'Your account' }).getByRole('button', { name: 'Logout' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'You have logged out.' })).toBeVisible();
    const replay = await browser.newContext({ baseURL, javaScriptEnabled: javaScript });
    await replay.addCookies([{ ...firstCookie }]);
    const replayPage = await replay.newPage();
    await replayPage.goto('/profile');
    await expect(replayPage).toHaveURL('/login?redirectTo=%2Fprofile');
    await replay.close();
    await expect(api.request('GET', '/api/auth/me', { token: player.token, expect: [200] })).resolves.toBeTruthy();

    // Two browsers logged in; "Log out everywhere" in one ends the other and the API login as well.
    const other = await browser.newContext({ baseURL, javaScriptEnabled: javaScript });
    const otherPage = await other.newPage();
    await logIn(otherPage, player.email, player.password, { from: '/login?redirectTo=%2Fprofile' });
    await expect(otherPage).toHaveURL('/profile');
    await logIn(page, player.email, player.password, { from: '/login?redirectTo=%2Fprofile' });
    await expect(page).toHaveURL('/profile');
    await page.getByRole('button', { name: 'Log out everywhere' }).click();
    await expect(page).toHaveURL('/login');
    await expect(page.getByRole('status').filter({ hasText: 'You have logged out on every device.' })).toBeVisible();

    await otherPage.goto('/profile');
    await expect(otherPage).toHaveURL('/login?redirectTo=%2Fprofile');
    await other.close();
    await expect(api.request('GET', '/api/auth/me', { token: player.token, expect: [401] })).resolves.toBeTruthy();
  });

  test("with this browser's login ended elsewhere, a wrong password shows its error and no page shows the old name (decision 031)", async ({
    page,
    api,
    consoleGuard,
  }) => {
    consoleGuard.allow(FAILED_RESOURCE(401)); // the refused login answers 401 (the browser logs it)
    const player = await api.createPlayer();
    // A login form open in one tab, signed in from another tab of the same browser.
    await page.goto('/login');
    const tab = await page.context().newPage();
    await logIn(tab, player.email, player.password);
    await expect(tab).toHaveURL('/');
    await expectSignedIn(tab, player.username);
    // "Log out everywhere" on another device ends this browser's login at the gateway.
    await api.request('POST', '/api/auth/logout-all', { token: player.token, json: {}, expect: [200] });

    await page.getByLabel('Email or phone').fill(player.email);
    await page.getByLabel('Password', { exact: true }).fill('not-the-password');
    await page.getByRole('button', { name: 'Log in' }).click();
    await expect(page.getByRole('alert')).toContainText('Invalid email/phone or password.');
    await expect(page).toHaveURL(/\/login/);
    await expect(page.getByLabel('Email or phone')).toHaveValue(player.email);
    await expectSignedOut(page);
    await tab.goto('/');
    await expectSignedOut(tab);
    await expect(tab.getByText(`Your profile (${player.username})`)).toHaveCount(0);
  });
});
