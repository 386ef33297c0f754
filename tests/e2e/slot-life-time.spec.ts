import type { Browser, Page, TestInfo } from '@playwright/test';
import { teamFields } from '../support/builders';
import { unique, type GatewayApi, type Player, type Registration } from './support/api';
import { expect, test } from './support/fixtures';
import { logIn } from './support/ui';

// Issue 19 (decisions 043, 047) in real time: a payment deadline a few seconds ahead really passes, and a
// check-in window really closes; the gateway's lazy release (on the reads that show a place) and its
// notification worker do the rest. Every other slot-life test moves a FakeClock (tests/gateway) instead.

const state = (page: Page) => page.locator('.place').first();

async function openAs(page: Page, player: Player, path: string) {
  await logIn(page, player.email, player.password, { from: `/login?redirectTo=${encodeURIComponent(path)}` });
  await expect(page).toHaveURL(path);
}

/** A second person at the same time: a browser context of its own, with the project's settings. */
async function secondPage(browser: Browser, testInfo: TestInfo, baseURL: string | undefined): Promise<Page> {
  const { viewport, javaScriptEnabled, locale, timezoneId, userAgent } = testInfo.project.use;
  const context = await browser.newContext({ viewport, javaScriptEnabled, locale, timezoneId, userAgent, baseURL });
  return context.newPage();
}

/** "21:00" of an instant in the app's time zone (Asia/Kolkata), as the pages write a pay-by time. */
function hourMinute(iso: string): string {
  return new Intl.DateTimeFormat('en-GB', { timeZone: 'Asia/Kolkata', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(
    new Date(iso),
  );
}

/** The team page's words for a placed, unpaid team with this pay-by ("5 Mar, " before the time on another day). */
const pendingPayment = (payBy: string) => new RegExp(`^pending payment \\(pay by (\\d{1,2} \\w{3}, )?${hourMinute(payBy)}\\)$`);

/** Reloads until the place reads `words`: the real clock has to pass a time first. */
async function untilPlaceReads(page: Page, words: string | RegExp, timeout = 15_000) {
  await expect(async () => {
    await page.reload();
    await expect(state(page)).toHaveText(words, { timeout: 500 });
  }).toPass({ timeout, intervals: [500, 1_000] });
}

/** Waits until the worker has delivered something to the player's site list (it runs every second). */
async function untilNotified(api: GatewayApi, player: Player) {
  await expect
    .poll(async () => (await api.request<{ unread: number }>('GET', '/notifications/unread-count', { token: player.token })).unread, {
      timeout: 15_000,
    })
    .toBeGreaterThan(0);
}

function myTeam(api: GatewayApi, tid: number, player: Player) {
  return api.request<Registration>('GET', `/registrations/${tid}`, { token: player.token, expect: [200] });
}

test.describe("a slot's life in real time", () => {
  test('a payment deadline passes: the unpaid team is released, the waitlisted one promoted, both told', async ({
    page,
    api,
    browser,
    baseURL,
  }, testInfo) => {
    const a = await api.createPlayer();
    const b = await api.createPlayer();
    // Both log in first, so the seconds before the deadline go to the steps that need it.
    const pageA = await secondPage(browser, testInfo, baseURL);
    await Promise.all([openAs(pageA, a, '/my-tournaments'), openAs(page, b, '/my-tournaments')]);

    const deadline = new Date(Date.now() + 8_000).toISOString();
    const t = await api.createTournament({ maxTeams: '2', entryFee: '100', paymentDeadlineAt: deadline });
    const regA = await api.registerTeam(t.id, a);
    await api.registerTeam(t.id, await api.createPlayer());
    const teamB = `Late ${unique()}`;

    await Promise.all([
      (async () => {
        // A has until the fixed time, however near (decision 043).
        await pageA.goto(`/team/${t.id}`);
        await expect(state(pageA)).toHaveText(pendingPayment(deadline));
      })(),
      (async () => {
        await page.goto(`/register/${t.id}`);
        await expect(page.getByRole('alert')).toContainText('Registration is full');
        await page.getByLabel('Team name').fill(teamB);
        for (const [i, label] of ['Player 1 (IGL)', 'Player 2', 'Player 3', 'Player 4'].entries())
          await page.getByLabel(label, { exact: false }).first().fill(`Lt${i}_${unique()}`);
        await page.getByRole('button', { name: 'Join the waitlist' }).click();
        await expect(page).toHaveURL(`/team/${t.id}`);
        await expect(state(page)).toHaveText('waitlist #1');
      })(),
    ]);
    expect(Date.now(), 'the setup took longer than the deadline gives it').toBeLessThan(Date.parse(deadline));

    // The deadline really passes: A's own page (a read that settles the place) finds it released.
    await untilPlaceReads(pageA, 'released (payment not verified in time)');
    expect(Date.now()).toBeGreaterThanOrEqual(Date.parse(deadline));
    // B took the freed place with its own time to pay (an hour: promoted after the fixed time).
    const promoted = await myTeam(api, t.id, b);
    expect(promoted.place).toBe('placed');
    expect(Date.parse(promoted.payBy!)).toBeGreaterThan(Date.parse(deadline) + 3_000_000);
    await page.reload();
    await expect(state(page)).toHaveText(pendingPayment(promoted.payBy!));

    // Both are told, once the worker has run.
    await Promise.all([untilNotified(api, a), untilNotified(api, b)]);
    await pageA.goto('/notifications');
    await expect(pageA.getByRole('article', { name: /Place released/ })).toContainText(
      `${regA.teamName}: your place in ${t.name} was released (payment not verified in time).`,
    );
    await pageA.context().close();
    await page.goto('/notifications');
    await expect(page.getByRole('article', { name: /You have a place/ })).toContainText(`${teamB} is off the waitlist of ${t.name}.`);

    // The organiser's list keeps A, as released.
    await page.context().clearCookies();
    await logIn(page, api.stack.admin.email, api.stack.admin.password);
    await expect(page).not.toHaveURL(/\/login/);
    await page.goto(`/admin/${t.id}/registrations`);
    await expect(page.locator('.ops-card').filter({ hasText: regA.teamName }).locator('.place')).toHaveText(
      'released (payment not verified in time)',
    );
    await expect(page.locator('.ops-card').filter({ hasText: teamB }).locator('.place')).toHaveText(pendingPayment(promoted.payBy!));
  });

  test('a check-in window closes: the organiser settles the no-show (replace with JavaScript, leave without)', async ({
    page,
    api,
    javaScript,
  }) => {
    const t = await api.createTournament({ maxTeams: '2', entryFee: '0' });
    const present = await api.createPlayer();
    const absent = await api.createPlayer();
    const waiting = await api.createPlayer();
    await api.registerTeam(t.id, present);
    const noShow = await api.registerTeam(t.id, absent);
    const waiter = await api.request<Registration>('POST', `/registrations/${t.id}`, {
      token: waiting.token,
      json: { ...teamFields({ teamName: `Bench ${unique()}` }), waitlist: true },
      expect: [201],
    });
    expect(waiter.place).toBe('waitlist');
    await openAs(page, present, '/my-tournaments');

    const now = Date.now();
    const closesAt = now + 6_000;
    const stage = await api.request<{ id: number }>('POST', `/tournaments/${t.id}/stages`, {
      token: await api.adminToken(),
      json: {
        name: 'Qualifiers',
        lobbySize: 25,
        checkInOpensAt: new Date(now - 60_000).toISOString(),
        checkInClosesAt: new Date(closesAt).toISOString(),
      },
      expect: [200, 201],
    });
    await page.goto(`/team/${t.id}`);
    await page.getByRole('button', { name: 'Check in for Qualifiers' }).click();
    await expect(page.getByText('Checked in. See you in the lobby.')).toBeVisible();
    expect(Date.now(), 'the check-in came after the window').toBeLessThan(closesAt);

    await page.context().clearCookies();
    const here = `/admin/${t.id}/stages/${stage.id}`;
    await logIn(page, api.stack.admin.email, api.stack.admin.password, { from: `/login?redirectTo=${encodeURIComponent(here)}` });
    await expect(page).toHaveURL(here);
    // The window really closes: the panel then lists the no-show and offers the decision.
    const panel = page.getByRole('region', { name: /^Check-in: / });
    await expect(async () => {
      await page.reload();
      await expect(panel.getByRole('heading', { name: 'No-shows (1)' })).toBeVisible({ timeout: 500 });
    }).toPass({ timeout: 15_000, intervals: [500, 1_000] });
    expect(Date.now()).toBeGreaterThanOrEqual(closesAt);
    await expect(panel.getByRole('listitem')).toHaveText([noShow.teamName]);
    const action = javaScript ? 'replace' : 'leave';
    await panel.getByRole('radio', { name: javaScript ? /Replace them from the waitlist/ : /Leave their slots empty/ }).check();
    await panel.getByRole('button', { name: 'Settle the no-shows' }).click();
    await expect(panel.getByRole('status')).toHaveText(
      javaScript ? 'Replaced: the no-shows were released and waitlisted teams took their places.' : 'Left: their slots stay empty.',
    );
    await expect(panel.getByRole('button', { name: 'Settle the no-shows' })).toHaveCount(0);

    // The no-show's own page: released with "replace", still placed but a no-show with "leave" (decision 043).
    await page.context().clearCookies();
    await openAs(page, absent, `/team/${t.id}`);
    await expect(state(page)).toHaveText(action === 'replace' ? 'released (no-show)' : 'no-show');
    // The waitlisted team: promoted into the freed place with "replace"; still waiting with "leave".
    const bench = await myTeam(api, t.id, waiting);
    if (action === 'replace') expect(bench).toMatchObject({ place: 'placed', confirmed: true });
    else expect(bench).toMatchObject({ place: 'waitlist', waitlistPosition: 1 });
  });
});
