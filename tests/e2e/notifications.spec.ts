import { unique } from './support/api';
import { expect, expectAccessible, expectNoSidewaysScroll, test } from './support/fixtures';
import { logIn } from './support/ui';

// Issue 19 (decision 044): the notifications list with JavaScript on and off. The gateway's own worker
// delivers the room notice (a second or so after the room is saved); the page reads it like any other.

test.describe('notifications', () => {
  test('a room posted for the team shows in the nav count and the list; marking as read is a form post', async ({
    page,
    api,
    javaScript,
  }, testInfo) => {
    const player = await api.createPlayer();
    const t = await api.createTournament({ entryFee: '0', maxTeams: '20' });
    await api.registerTeam(t.id, player);
    const room = { day: 1, matchNo: 1, map: 'Erangel', matchId: '7310042', password: 'pw-notify-9', time: '18:30' };
    await api.createMatch(t.id, room);
    // The worker runs every second in the gateway: wait for the line, not for a fixed time.
    await expect
      .poll(async () => (await api.request<{ unread: number }>('GET', '/notifications/unread-count', { token: player.token })).unread, {
        timeout: 15_000,
      })
      .toBeGreaterThan(0);

    await logIn(page, player.email, player.password);
    const bell = page.getByRole('link', { name: /^Notifications, 1 unread$/ });
    await expect(bell).toBeVisible();
    await bell.click();
    await expect(page).toHaveURL('/notifications');
    await expect(page.getByRole('heading', { level: 1, name: 'Notifications' })).toBeVisible();
    const item = page.getByRole('article', { name: /Room details are up/ });
    await expect(item).toContainText(`${t.name}: the room for day 1 match 1 is up.`);
    await expect(item.getByRole('link', { name: 'Open' })).toHaveAttribute('href', `/tournament/${t.id}/matches`);
    // Never the room itself.
    const html = await page.content();
    expect(html).not.toContain(room.matchId);
    expect(html).not.toContain(room.password);
    // The push button needs JavaScript and a browser with push: never in the page without them.
    if (!javaScript) await expect(page.getByRole('button', { name: 'Notify me on this phone' })).toHaveCount(0);
    await expectNoSidewaysScroll(page);
    await expectAccessible(page, testInfo, 'notifications');
    if (javaScript && process.env.SCREENSHOTS === '1')
      await page.screenshot({ path: 'docs/screenshots/notifications-360.png', fullPage: true });

    await item.getByRole('button', { name: 'Mark as read' }).click();
    await expect(page).toHaveURL('/notifications');
    await expect(page.getByText('All read.')).toBeVisible();
    await expect(page.getByRole('link', { name: 'Notifications', exact: true })).toBeVisible();
    await expect(page.getByRole('article', { name: /Room details are up/ }).getByRole('button', { name: 'Mark as read' })).toHaveCount(0);
  });
  test('a push that could not be delivered shows on the organiser’s failed notifications page', async ({ page, api, stack }, testInfo) => {
    const player = await api.createPlayer();
    const t = await api.createTournament({ entryFee: '0', maxTeams: '20' });
    await api.registerTeam(t.id, player);
    // A phone whose keys no browser made: the gateway cannot encrypt a push for it and gives up at once,
    // before sending anything (the address is a real push service's, decision 044, never reached).
    const endpoint = `https://fcm.googleapis.com/fcm/send/e2e-${unique()}`;
    await api.request('POST', '/push/subscribe', {
      token: player.token,
      json: { endpoint, keys: { p256dh: 'B'.repeat(87), auth: 'a'.repeat(22) } },
      expect: [201],
    });
    await api.createMatch(t.id, { day: 1, matchNo: 1, map: 'Erangel', matchId: '7310043', password: 'pw-fail-1', time: '18:30' });
    // The worker's round, not a fixed wait.
    const admin = await api.adminToken();
    await expect
      .poll(async () => (await api.request<unknown[]>('GET', `/tournaments/${t.id}/notifications/failed`, { token: admin })).length, {
        timeout: 15_000,
      })
      .toBe(1);

    await logIn(page, stack.admin.email, stack.admin.password, { from: '/login?redirectTo=%2Fadmin%2Ftournament-list' });
    await expect(page).toHaveURL('/admin/tournament-list');
    const card = page.locator('.ops-card').filter({ has: page.getByRole('heading', { name: t.name }) });
    await card.getByRole('link', { name: `Failed notifications (1) of ${t.name}` }).click();
    await expect(page).toHaveURL(`/admin/${t.id}/notifications`);
    await expect(page.getByRole('heading', { level: 1, name: 'Failed notifications' })).toBeVisible();
    const item = page.getByRole('article', { name: new RegExp(`^${player.username}\\W+Room details are up$`) });
    await expect(item).toContainText('Phone notification');
    await expect(item).toContainText('The phone’s subscription was not valid, so nothing could be sent to it.');
    await expect(item.locator('dt', { hasText: 'Attempts' }).locator('+ dd')).toHaveText('1');
    await expect(page.getByText('Every notification was delivered.')).toHaveCount(0);
    await expectNoSidewaysScroll(page);
    await expectAccessible(page, testInfo, 'failed-notifications');
    if (process.env.SCREENSHOTS === '1') await page.screenshot({ path: 'docs/screenshots/failed-notifications-360.png', fullPage: true });
  });
});
