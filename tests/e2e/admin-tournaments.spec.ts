import type { Page } from '@playwright/test';
import { coverPng, unique, type GatewayApi } from './support/api';
import { expect, expectAccessible, expectNoSidewaysScroll, FAILED_RESOURCE, test } from './support/fixtures';
import type { StackInfo } from './support/stack.mjs';
import { expectSignedIn, logIn } from './support/ui';

/** Organisers' tournament screens (issue 8, first half): access, add, edit, delete, with and without JavaScript at 360 px. */

/** What the admin types, by label (dates in India time: the app's APP_TIME_ZONE). */
function tournamentInput(tag = unique()) {
  return {
    Name: `Admin Cup ${tag}`,
    Game: 'BGMI',
    Description: `Squad custom rooms (${tag}).`,
    Overview: 'Erangel, Miramar and Sanhok over three days.',
    'Registration opens': '2031-03-01T10:00',
    'Registration closes': '2031-03-04T21:30',
    Start: '2031-03-05T18:30',
    End: '2031-03-07T23:00',
    'Max teams': '20',
    'Entry fee (₹)': '150',
    'Prize pool': '₹25,000',
    Format: 'Squad',
    Platform: 'Mobile',
  };
}
type Input = ReturnType<typeof tournamentInput>;

async function fillTournament(page: Page, input: Partial<Input>) {
  for (const [label, value] of Object.entries(input)) await page.getByLabel(label, { exact: true }).fill(value);
}

async function expectKept(page: Page, input: Partial<Input>) {
  for (const [label, value] of Object.entries(input)) await expect(page.getByLabel(label, { exact: true })).toHaveValue(value);
}

async function logInAsAdmin(page: Page, stack: StackInfo, path: string) {
  await logIn(page, stack.admin.email, stack.admin.password, { from: `/login?${new URLSearchParams({ redirectTo: path })}` });
  await expect(page).toHaveURL(path);
}

const flash = (page: Page, text: string) => page.getByRole('status').filter({ hasText: text });

test.describe('admin tournaments', () => {
  test('an admin adds a tournament with a real cover image, it shows publicly, and edits it', async ({ page, stack, api }, testInfo) => {
    await logInAsAdmin(page, stack, '/admin/add-tournament');
    await expect(page).toHaveTitle('Add tournament | Custom Room');
    await expect(page.getByRole('navigation', { name: 'Organiser' }).getByRole('link', { name: 'Teams and payments' })).toHaveAttribute(
      'href',
      '/admin/tournament-list',
    );
    await expectAccessible(page, testInfo, 'add-tournament');
    await expectNoSidewaysScroll(page);

    const input = tournamentInput();
    await fillTournament(page, input);
    await page.getByLabel('Status').selectOption('Registration Ongoing');
    // Each points system shows its placement points.
    await expect(page.getByRole('radio', { name: /^bmps-15 1st 15, 2nd 12, 3rd 10/ })).toBeVisible();
    await page.getByRole('radio', { name: /^bmps-15/ }).check();
    await page.getByLabel('Cover image (optional)').setInputFiles({ name: 'cover.png', mimeType: 'image/png', buffer: await coverPng() });
    await page.getByRole('button', { name: 'Add tournament' }).click();

    // Issue 27 item 24: the organiser lands on the new tournament's hub.
    await expect(page).toHaveURL(/\/admin\/\d+$/);
    await expect(flash(page, 'Tournament added successfully!')).toBeVisible();
    await expect(page.getByRole('heading', { level: 1, name: input.Name })).toBeVisible();
    const id = Number(new URL(page.url()).pathname.split('/').pop());

    // Stored by the gateway in UTC under the spec's fields, the cover re-encoded.
    const stored = await api.getTournament(id);
    expect(stored).toMatchObject({
      name: input.Name,
      game: 'BGMI',
      registrationOpen: '2031-03-01T04:30:00.000Z',
      registrationClose: '2031-03-04T16:00:00.000Z',
      startDate: '2031-03-05T13:00:00.000Z',
      endDate: '2031-03-07T17:30:00.000Z',
      maxTeams: 20,
      entryFee: 150,
      prizePool: '₹25,000',
      status: 'Registration Ongoing',
      pointsSystem: 'bmps-15',
      coverImageWidth: 1200,
    });
    expect(stored.coverImageUrl).toMatch(/^\/images\/[0-9a-f]+\.webp$/);

    // Public.
    await page.goto(`/tournaments/${id}`);
    await expect(page.getByRole('heading', { level: 1, name: input.Name })).toBeVisible();
    await expect(page.getByRole('img', { name: `${input.Name} cover` })).toBeVisible();

    // Edit: prefilled (dates back in India time), the current cover shown.
    await page.goto('/admin/manage-tournaments');
    await page.getByRole('link', { name: `Edit ${input.Name}` }).click();
    await expect(page).toHaveURL(`/admin/update-tournament/${id}`);
    await expectKept(page, input);
    await expect(page.getByLabel('Status')).toHaveValue('Registration Ongoing');
    await expect(page.getByRole('radio', { name: /^bmps-15/ })).toBeChecked();
    await expect(page.getByRole('img', { name: 'Current cover image' })).toBeVisible();
    await expectAccessible(page, testInfo, 'update-tournament');
    await expectNoSidewaysScroll(page);

    const renamed = `${input.Name} Finals`;
    await fillTournament(page, { Name: renamed, 'Entry fee (₹)': '200' });
    await page.getByRole('button', { name: 'Save changes' }).click();
    await expect(page).toHaveURL('/admin/manage-tournaments');
    await expect(flash(page, 'Tournament updated successfully!')).toBeVisible();
    await expect(page.getByRole('link', { name: `Edit ${renamed}` })).toBeVisible();
    const updated = await api.getTournament(id);
    expect(updated).toMatchObject({
      name: renamed,
      entryFee: 200,
      startDate: '2031-03-05T13:00:00.000Z',
      coverImageUrl: stored.coverImageUrl,
    });
  });

  test('a text file as cover gets "Please upload only image files." and every other value is kept', async ({
    page,
    stack,
    javaScript,
    consoleGuard,
  }, testInfo) => {
    consoleGuard.allow(FAILED_RESOURCE(415));
    await logInAsAdmin(page, stack, '/admin/add-tournament');
    const input = tournamentInput();
    await fillTournament(page, input);
    await page.getByLabel('Status').selectOption('Upcoming');
    await page
      .getByLabel('Cover image (optional)')
      .setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('not a picture') });
    if (!javaScript) await page.getByRole('button', { name: 'Add tournament' }).click();

    await expect(page.locator('#coverImage-error')).toHaveText(/Please upload only image files\./);
    await expectKept(page, input);
    await expect(page.getByLabel('Status')).toHaveValue('Upcoming');
    // Nothing chosen any more: with JavaScript the refused file is dropped; without, the browser cannot refill a file input.
    await expect(page.getByLabel('Cover image (optional)')).toHaveValue('');
    if (!javaScript) {
      await expect(page.getByRole('alert').filter({ hasText: 'Error adding tournament' })).toBeVisible();
      await expect(page.getByText(/You had chosen notes\.txt.*choose the image again/)).toBeVisible();
      await expectAccessible(page, testInfo, 'add-tournament-refused');
    }
    await expect(page).toHaveURL('/admin/add-tournament');
  });

  test('an oversized cover gets its own message, and nothing is added', async ({ page, stack, api, javaScript, consoleGuard }) => {
    consoleGuard.allow(FAILED_RESOURCE(413));
    await logInAsAdmin(page, stack, '/admin/add-tournament');
    const input = tournamentInput();
    await fillTournament(page, input);
    await page.getByLabel('Status').selectOption('Upcoming');
    const huge = Buffer.concat([await coverPng(), Buffer.alloc(5 * 1024 * 1024 + 1)]);
    await page.getByLabel('Cover image (optional)').setInputFiles({ name: 'huge.png', mimeType: 'image/png', buffer: huge });
    if (!javaScript) await page.getByRole('button', { name: 'Add tournament' }).click();

    await expect(page.locator('#coverImage-error')).toHaveText(/The cover image is larger than 5 MB\./);
    await expectKept(page, input);
    const all = await api.request<{ name: string }[]>('GET', '/tournaments', { expect: [200] });
    expect(all.map((t) => t.name)).not.toContain(input.Name);
  });

  test('a missing field is refused by the server with its message, the values kept', async ({ page, stack, consoleGuard }) => {
    consoleGuard.allow(FAILED_RESOURCE(400));
    await logInAsAdmin(page, stack, '/admin/add-tournament');
    const { Name: _skipped, ...rest } = tournamentInput();
    await fillTournament(page, rest);
    await page.getByLabel('Status').selectOption('Upcoming');
    await page.getByRole('button', { name: 'Add tournament' }).click();
    await expect(page.locator('#name-error')).toHaveText(/Name is required\./);
    await expect(page.getByRole('alert').filter({ hasText: 'Error adding tournament' })).toBeVisible();
    await expectKept(page, rest);
  });

  test('an admin deletes a tournament after confirming; it is gone from /tournaments', async ({
    page,
    stack,
    api,
    javaScript,
  }, testInfo) => {
    const t = await api.createTournament({ name: `Delete Me ${unique()}` });
    const kept = await api.createTournament({ name: `Keep Me ${unique()}` });
    await logInAsAdmin(page, stack, '/admin/manage-tournaments');
    await expect(page).toHaveTitle('Manage tournaments | Custom Room');
    await expectAccessible(page, testInfo, 'manage-tournaments');
    await expectNoSidewaysScroll(page);

    const dialog = page.getByRole('dialog', { name: `Delete ${kept.name}?` });
    if (javaScript) {
      // Cancel keeps it.
      await page.getByRole('link', { name: `Delete ${kept.name}` }).click();
      await expect(dialog).toBeVisible();
      await dialog.getByRole('button', { name: 'Cancel' }).click();
      await expect(dialog).toBeHidden();
    } else {
      await page.getByRole('link', { name: `Delete ${kept.name}` }).click();
      await expect(page.getByRole('heading', { level: 1, name: `Delete ${kept.name}?` })).toBeVisible();
      await page.getByRole('link', { name: 'Cancel' }).click();
    }
    await expect(page).toHaveURL('/admin/manage-tournaments');
    await expect(page.getByRole('link', { name: `Edit ${kept.name}` })).toBeVisible();

    await page.getByRole('link', { name: `Delete ${t.name}` }).click();
    if (javaScript) {
      const confirm = page.getByRole('dialog', { name: `Delete ${t.name}?` });
      await expect(confirm).toBeVisible();
      await expect(page).toHaveURL('/admin/manage-tournaments');
      await expectAccessible(page, testInfo, 'delete-dialog');
      await confirm.getByRole('button', { name: 'Delete' }).click();
    } else {
      await expect(page).toHaveURL(`/admin/delete-tournament/${t.id}?returnTo=%2Fadmin%2Fmanage-tournaments`);
      await expect(page.getByRole('heading', { level: 1, name: `Delete ${t.name}?` })).toBeVisible();
      await expectAccessible(page, testInfo, 'delete-tournament');
      await page.getByRole('button', { name: 'Delete tournament' }).click();
    }
    await expect(page).toHaveURL('/admin/manage-tournaments');
    await expect(flash(page, 'Tournament deleted successfully!')).toBeVisible();
    await expect(page.getByRole('link', { name: `Edit ${t.name}` })).toHaveCount(0);
    await expect(page.getByRole('link', { name: `Edit ${kept.name}` })).toBeVisible();

    await page.goto('/tournaments');
    await expect(page.getByRole('heading', { name: 'Upcoming Gaming Tournaments' })).toBeVisible();
    await expect(page.getByRole('heading', { name: kept.name })).toBeVisible();
    await expect(page.getByRole('heading', { name: t.name })).toHaveCount(0);
  });

  test('the layout child /admin/manage-tournament lists the same and a delete returns there', async ({ page, stack, api, javaScript }) => {
    const t = await api.createTournament({ name: `Child List ${unique()}` });
    await logIn(page, stack.admin.email, stack.admin.password, { from: '/login?redirectTo=%2Fadmin' });
    await expect(page).toHaveURL('/admin/manage-tournament');
    await expect(page.getByRole('navigation', { name: 'Organiser' }).getByRole('link', { name: 'Tournaments', exact: true })).toHaveClass(
      /active/,
    );
    await page.getByRole('link', { name: `Delete ${t.name}` }).click();
    if (javaScript) await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
    else await page.getByRole('button', { name: 'Delete tournament' }).click();
    await expect(page).toHaveURL('/admin/manage-tournament');
    await expect(flash(page, 'Tournament deleted successfully!')).toBeVisible();
  });
});

test.describe('admin access', () => {
  async function adminPaths(api: GatewayApi) {
    const t = await api.createTournament();
    return [
      '/admin',
      '/admin/add-tournament',
      `/admin/update-tournament/${t.id}`,
      '/admin/manage-tournaments',
      '/admin/manage-tournament',
      `/admin/delete-tournament/${t.id}`,
    ];
  }

  test('an anonymous visitor is sent to login from every admin page, told it is for organisers', async ({ page, api }) => {
    for (const path of await adminPaths(api)) {
      await page.goto(path);
      await expect(page, path).toHaveURL(`/login?${new URLSearchParams({ redirectTo: path })}`);
      await expect(
        page.getByRole('status').filter({ hasText: 'That page is for organisers. Log in with an organiser account to continue.' }),
      ).toBeVisible();
    }
  });

  test('a player is sent to login from every admin page, stays signed in, and can switch to an organiser account', async ({
    page,
    api,
    stack,
  }, testInfo) => {
    const player = await api.createPlayer();
    await logIn(page, player.email, player.password);
    await expectSignedIn(page, player.username);
    for (const path of await adminPaths(api)) {
      await page.goto(path);
      await expect(page, path).toHaveURL(`/login?${new URLSearchParams({ redirectTo: path })}`);
      await expect(
        page.getByRole('status').filter({ hasText: `You are signed in as ${player.username}, but that page is for organisers.` }),
      ).toBeVisible();
      await expectSignedIn(page, player.username);
    }
    await expectAccessible(page, testInfo, 'login-organiser-notice');
    // No admin link for players.
    await page.getByRole('navigation', { name: 'Main' }).getByLabel('Menu').click();
    await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Admin', exact: true })).toHaveCount(0);

    // Logging in here with the organiser account goes on to the page (no loop back to login).
    await logIn(page, stack.admin.email, stack.admin.password);
    await expect(page).toHaveURL(/\/admin\/delete-tournament\/\d+$/);
    await expect(page.getByRole('heading', { level: 1, name: /^Delete .*\?$/ })).toBeVisible();
    await expectSignedIn(page, stack.admin.username);
  });

  test('an admin sees the Admin link in the main navigation, which opens the organiser pages', async ({ page, stack }) => {
    await logInAsAdmin(page, stack, '/tournaments');
    const nav = page.getByRole('navigation', { name: 'Main' });
    await nav.getByLabel('Menu').click();
    await nav.getByRole('link', { name: 'Admin', exact: true }).click();
    await expect(page).toHaveURL('/admin/manage-tournament');
    await expect(page.getByRole('heading', { level: 1, name: 'Manage tournaments' })).toBeVisible();
  });
});
