import type { Page } from '@playwright/test';
import type { GatewayApi, Player } from './support/api';
import { expect, expectAccessible, expectNoSidewaysScroll, FAILED_RESOURCE, test } from './support/fixtures';
import { fact, logIn } from './support/ui';

/** The profile create and edit forms (spec §2, §3, §5, §8), with and without JavaScript, at phone width. */

const BAD_URL_MESSAGE = 'Profile picture URL must be a web address starting with http:// or https://.';

async function playerWithProfile(api: GatewayApi, profile: Record<string, string>): Promise<Player> {
  const player = await api.createPlayer();
  await api.request('POST', '/api/profile/create', { token: player.token, json: profile, expect: [201], what: 'create profile' });
  return player;
}

async function logInTo(page: Page, player: Player, path: string) {
  await logIn(page, player.email, player.password, { from: `/login?${new URLSearchParams({ redirectTo: path })}` });
  await expect(page).toHaveURL(path);
}

test.describe('profile forms', () => {
  test('a new player goes from "No Profile Found" to a created profile', async ({ page, api, baseURL }) => {
    const player = await api.createPlayer();
    const pictureUrl = `${baseURL}/favicon.svg`;
    await logInTo(page, player, '/profile');
    await expect(page.getByRole('heading', { name: 'No Profile Found' })).toBeVisible();

    await page.getByRole('link', { name: 'Create Profile' }).click();
    await expect(page).toHaveURL('/profile/create');
    await expect(page).toHaveTitle('Create your profile | Custom Room');
    await expect(page.getByRole('heading', { level: 1, name: 'Create your profile' })).toBeVisible();
    await page.getByLabel('Full name').fill('Asha Rao');
    await page.getByLabel('Bio (optional)').fill('IGL for Team Soul.');
    await page.getByLabel('Gender (optional)').selectOption('Female');
    await page.getByLabel('Date of birth (optional)').fill('2001-03-05');
    await page.getByLabel('Location (optional)').fill('Pune, Maharashtra');
    await page.getByLabel('Profile picture URL (optional)').fill(pictureUrl);
    await page.getByRole('button', { name: 'Create profile' }).click();

    await expect(page).toHaveURL('/profile');
    await expect(page.getByRole('status').filter({ hasText: 'Profile created.' })).toBeVisible();
    await expect(page.getByRole('heading', { level: 2, name: 'Asha Rao' })).toBeVisible();
    await expect(page.getByText('IGL for Team Soul.')).toBeVisible();
    await expect(fact(page, 'Gender')).toHaveText('Female');
    await expect(fact(page, 'Date of birth')).toHaveText('5 Mar 2001');
    await expect(fact(page, 'Location')).toHaveText('Pune, Maharashtra');
    await expect(page.getByRole('img', { name: 'Asha Rao' })).toHaveAttribute('src', pictureUrl);

    // Stored at the gateway under the spec's field names.
    await expect(api.request('GET', '/api/profile/get', { token: player.token, expect: [200] })).resolves.toEqual({
      fullName: 'Asha Rao',
      bio: 'IGL for Team Soul.',
      gender: 'Female',
      dateOfBirth: '2001-03-05',
      location: 'Pune, Maharashtra',
      profilePictureUrl: pictureUrl,
    });

    // One profile per player: the create page now leads to the edit page.
    await page.goto('/profile/create');
    await expect(page).toHaveURL('/profile/edit');
  });

  test('Edit Profile is prefilled and a change shows on /profile', async ({ page, api }) => {
    const player = await playerWithProfile(api, {
      fullName: 'Vikram Singh',
      bio: 'Fragger',
      gender: 'Male',
      dateOfBirth: '1999-12-31',
      location: 'Delhi',
      profilePictureUrl: '',
    });
    await logInTo(page, player, '/profile');

    await page.getByRole('link', { name: 'Edit Profile' }).click();
    await expect(page).toHaveURL('/profile/edit');
    await expect(page).toHaveTitle('Edit your profile | Custom Room');
    await expect(page.getByLabel('Full name')).toHaveValue('Vikram Singh');
    await expect(page.getByLabel('Bio (optional)')).toHaveValue('Fragger');
    await expect(page.getByLabel('Gender (optional)')).toHaveValue('Male');
    await expect(page.getByLabel('Date of birth (optional)')).toHaveValue('1999-12-31');
    await expect(page.getByLabel('Location (optional)')).toHaveValue('Delhi');
    await expect(page.getByLabel('Profile picture URL (optional)')).toHaveValue('');

    await page.getByLabel('Full name').fill('Vikram "Viper" Singh');
    await page.getByLabel('Gender (optional)').selectOption({ label: 'Prefer not to say' });
    await page.getByLabel('Location (optional)').fill('Jaipur');
    await page.getByRole('button', { name: 'Save changes' }).click();

    await expect(page).toHaveURL('/profile');
    await expect(page.getByRole('status').filter({ hasText: 'Profile updated.' })).toBeVisible();
    await expect(page.getByRole('heading', { level: 2, name: 'Vikram "Viper" Singh' })).toBeVisible();
    await expect(fact(page, 'Location')).toHaveText('Jaipur');
    await expect(fact(page, 'Gender')).toHaveText('Not given');
    await expect(fact(page, 'Date of birth')).toHaveText('31 Dec 1999');
  });

  test('an empty name and a javascript: picture URL get their messages beside the fields, every other input kept', async ({
    page,
    api,
    consoleGuard,
  }, testInfo) => {
    consoleGuard.allow(FAILED_RESOURCE(400)); // the refused post answers 400
    const player = await api.createPlayer();
    await logInTo(page, player, '/profile/create');

    await page.getByLabel('Full name').fill('   ');
    await page.getByLabel('Bio (optional)').fill('Support player.\nSmokes and revives.');
    await page.getByLabel('Gender (optional)').selectOption('Other');
    await page.getByLabel('Date of birth (optional)').fill('2004-07-21');
    await page.getByLabel('Location (optional)').fill('Guwahati');
    await page.getByLabel('Profile picture URL (optional)').fill('javascript:alert(1)');
    await page.getByRole('button', { name: 'Create profile' }).click();

    await expect(page).toHaveURL('/profile/create');
    const summary = page.getByRole('alert').filter({ hasText: 'There is a problem' });
    await expect(summary).toContainText('Full name is required.');
    await expect(summary).toContainText(BAD_URL_MESSAGE);
    await expect(page.getByLabel('Full name')).toHaveAttribute('aria-invalid', 'true');
    await expect(page.getByLabel('Full name')).toHaveAccessibleDescription(/Full name is required\./);
    await expect(page.getByLabel('Profile picture URL (optional)')).toHaveAccessibleDescription(
      new RegExp(BAD_URL_MESSAGE.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')),
    );
    await expect(page.getByLabel('Bio (optional)')).toHaveValue('Support player.\nSmokes and revives.');
    await expect(page.getByLabel('Gender (optional)')).toHaveValue('Other');
    await expect(page.getByLabel('Date of birth (optional)')).toHaveValue('2004-07-21');
    await expect(page.getByLabel('Location (optional)')).toHaveValue('Guwahati');
    await expect(page.getByLabel('Profile picture URL (optional)')).toHaveValue('javascript:alert(1)');
    await expect(page.getByLabel('Bio (optional)')).not.toHaveAttribute('aria-invalid');
    await expectAccessible(page, testInfo, 'create profile with errors');
    await expectNoSidewaysScroll(page);

    // Nothing was stored; corrected, the same form goes through.
    await expect(api.request('GET', '/api/profile/get', { token: player.token, expect: [404] })).resolves.toBeTruthy();
    await page.getByLabel('Full name').fill('Meera Das');
    await page.getByLabel('Profile picture URL (optional)').fill('');
    await page.getByRole('button', { name: 'Create profile' }).click();
    await expect(page).toHaveURL('/profile');
    await expect(page.getByRole('heading', { level: 2, name: 'Meera Das' })).toBeVisible();
    await expect(fact(page, 'Location')).toHaveText('Guwahati');
  });

  test('the edit form refuses an empty name and keeps the other changes', async ({ page, api, consoleGuard }) => {
    consoleGuard.allow(FAILED_RESOURCE(400));
    const player = await playerWithProfile(api, {
      fullName: 'Kabir',
      bio: '',
      gender: '',
      dateOfBirth: '',
      location: 'Goa',
      profilePictureUrl: '',
    });
    await logInTo(page, player, '/profile/edit');

    await page.getByLabel('Full name').fill('');
    await page.getByLabel('Location (optional)').fill('Panaji');
    await page.getByRole('button', { name: 'Save changes' }).click();

    await expect(page.getByLabel('Full name')).toHaveAccessibleDescription(/Full name is required\./);
    await expect(page.getByLabel('Full name')).toHaveValue('');
    await expect(page.getByLabel('Location (optional)')).toHaveValue('Panaji');
    await expect(api.request('GET', '/api/profile/get', { token: player.token, expect: [200] })).resolves.toMatchObject({
      fullName: 'Kabir',
      location: 'Goa',
    });
  });

  test('create and edit have no serious or critical axe violations at 360 px', async ({ page, api }, testInfo) => {
    expect(page.viewportSize()?.width).toBe(360);
    const player = await api.createPlayer();
    await logInTo(page, player, '/profile/create');
    await expect(page.getByRole('heading', { level: 1, name: 'Create your profile' })).toBeVisible();
    await expectAccessible(page, testInfo, 'create profile');
    await expectNoSidewaysScroll(page);
    // Personal pages: never kept by shared caches or shown again from the cache after logout.
    const fresh = await page.request.get('/profile/create', { maxRedirects: 0 });
    expect(fresh.status()).toBe(200);
    expect(fresh.headers()['cache-control']).toBe('private, no-store');

    await api.request('POST', '/api/profile/create', { token: player.token, json: { fullName: 'Riya' }, expect: [201] });
    const response = await page.goto('/profile/edit');
    expect(response?.headers()['cache-control']).toBe('private, no-store');
    await expect(page.getByRole('heading', { level: 1, name: 'Edit your profile' })).toBeVisible();
    await expectAccessible(page, testInfo, 'edit profile');
    await expectNoSidewaysScroll(page);
  });

  test('anonymous visitors are sent to log in and come back to the form', async ({ page, api }) => {
    await page.goto('/profile/edit');
    await expect(page).toHaveURL('/login?redirectTo=%2Fprofile%2Fedit');
    const player = await api.createPlayer();
    await logIn(page, player.email, player.password);
    // No profile yet: the edit page sends the player on to create one.
    await expect(page).toHaveURL('/profile/create');
  });
});
