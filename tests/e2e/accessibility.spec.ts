import type { GatewayApi } from './support/api';
import { expect, expectAccessible, expectNoSidewaysScroll, FAILED_RESOURCE, test } from './support/fixtures';
import { stagedTournament } from './support/stages';
import { logIn } from './support/ui';

/**
 * axe on every page of the app: no violation of impact serious or critical; and at 360 px no page
 * scrolls sideways. One test per page, each with its own data.
 */

async function scoredTournament(api: GatewayApi) {
  const t = await api.createTournament({}, { cover: true });
  const [a, b] = await Promise.all([api.createPlayer(), api.createPlayer()]);
  const teamA = await api.registerTeam(t.id, a);
  const teamB = await api.registerTeam(t.id, b);
  await api.submitPoints(t.id, { day: 1, match: 1, team: teamA, position: 1, finishes: 4 });
  await api.submitPoints(t.id, { day: 1, match: 1, team: teamB, position: 2, finishes: 2 });
  return t;
}

const pages: { label: string; path: (api: GatewayApi) => Promise<string>; status?: number; ready: string | RegExp }[] = [
  {
    label: 'home',
    path: async (api) => (await Promise.all([api.createTournament({}, { cover: true }), api.createTournament({}, { cover: true })]), '/'),
    ready: 'Featured Tournaments',
  },
  {
    label: 'tournament list',
    path: async (api) => (await api.createTournament({}, { cover: true }), '/tournaments'),
    ready: 'Upcoming Gaming Tournaments',
  },
  {
    label: 'tournament detail',
    path: async (api) => `/tournaments/${(await api.createTournament({}, { cover: true })).id}`,
    ready: /^E2E Cup/,
  },
  {
    label: 'closed tournament, Register chosen',
    path: async (api) => `/tournaments/${(await api.createTournament({ status: 'Registration Closed' })).id}?register=closed`,
    ready: /^E2E Cup/,
  },
  { label: 'points table', path: async (api) => `/tournaments/${(await scoredTournament(api)).id}/points-table`, ready: 'Points table' },
  {
    label: 'points table, one day',
    path: async (api) => `/tournaments/${(await scoredTournament(api)).id}/points-table?day=1`,
    ready: 'Points table',
  },
  {
    label: 'points table, empty day',
    path: async (api) => `/tournaments/${(await api.createTournament()).id}/points-table?day=4`,
    ready: 'Points table',
  },
  { label: 'stages', path: async (api) => `/tournaments/${(await stagedTournament(api)).t.id}/stages`, ready: 'Stages and groups' },
  {
    label: 'stage group',
    path: async (api) => {
      const s = await stagedTournament(api);
      return `/tournaments/${s.t.id}/stages/${s.stage.id}/groups/${s.own.id}`;
    },
    ready: /^Qualifiers · Group/,
  },
  {
    label: 'stage points table',
    path: async (api) => `/tournaments/${(await stagedTournament(api)).t.id}/points-table`,
    ready: 'Points table',
  },
  { label: 'about', path: async () => '/about', ready: 'About Custom Room' },
  { label: 'register', path: async () => '/register', ready: 'Create an account' },
  { label: 'login', path: async () => '/login', ready: 'Log in' },
  { label: 'forgot password', path: async () => '/forgot-password', ready: 'Forgot your password?' },
  { label: 'reset password', path: async () => '/reset-password?token=some-token-from-a-mail', ready: 'Choose a new password' },
  { label: 'page not found', path: async () => '/no-such-page', status: 404, ready: 'Page not found' },
  { label: 'unknown tournament', path: async () => '/tournaments/987654321', status: 404, ready: 'Page not found' },
];

test.describe('accessibility', () => {
  for (const { label, path, status = 200, ready } of pages) {
    test(`${label} has no serious or critical axe violations`, async ({ page, api, consoleGuard }, testInfo) => {
      consoleGuard.allow(FAILED_RESOURCE(status));
      const url = await path(api);
      const response = await page.goto(url);
      expect(response?.status(), url).toBe(status);
      await expect(page.getByRole('heading', { name: ready }).first()).toBeVisible();
      await expectAccessible(page, testInfo, label);
      await expectNoSidewaysScroll(page);
    });
  }

  test('the profile dashboard has no serious or critical axe violations', async ({ page, api }, testInfo) => {
    const player = await api.createPlayer();
    await logIn(page, player.email, player.password, { from: '/login?redirectTo=%2Fprofile' });
    await expect(page).toHaveURL('/profile');
    await expect(page.getByRole('heading', { level: 1, name: 'Your profile' })).toBeVisible();
    await expectAccessible(page, testInfo, 'profile');
  });

  test('a form showing its errors has no serious or critical axe violations', async ({ page, consoleGuard }, testInfo) => {
    consoleGuard.allow(FAILED_RESOURCE(400));
    await page.goto('/register');
    await page.getByRole('button', { name: 'Create account' }).click();
    await expect(page.getByRole('alert')).toBeVisible();
    await expectAccessible(page, testInfo, 'register with errors');
  });
});
