import type { Page } from '@playwright/test';
import { teamFields } from '../support/builders';
import { confirmPayment, GatewayApi, unique, uniqueUtr, type Player } from './support/api';
import { expect, expectAccessible, expectNoSidewaysScroll, FAILED_RESOURCE, test } from './support/fixtures';
import { logIn } from './support/ui';

// Issue 19, the slot's life on the web (decision 047), JavaScript on and off: waitlist → promotion → payment →
// confirmed → room; withdrawal; check-in. Set up through the gateway API; the player's steps through the pages.

const screenshots = process.env.SCREENSHOTS === '1';

function teamOf(tag = unique()) {
  return {
    'Team name': `Wait ${tag}`,
    'Player 1 (IGL)': `Wa1_${tag}`,
    'Player 2': `Wa2_${tag}`,
    'Player 3': `Wa3_${tag}`,
    'Player 4': `Wa4_${tag}`,
  };
}

async function openAs(page: Page, player: Player, path: string) {
  await logIn(page, player.email, player.password, { from: `/login?redirectTo=${encodeURIComponent(path)}` });
  await expect(page).toHaveURL(path);
}

const state = (page: Page) => page.locator('.place').first();

test.describe("a slot's life", () => {
  test('a full tournament: join the waitlist, promoted when a team withdraws, pay, confirmed, room details', async ({
    page,
    api,
    javaScript,
  }, testInfo) => {
    const t = await api.createTournament({ maxTeams: '2', entryFee: '100' });
    const first = await api.createPlayer();
    await api.registerTeam(t.id, first);
    await api.registerTeam(t.id, await api.createPlayer());
    const player = await api.createPlayer();

    await openAs(page, player, `/register/${t.id}`);
    await expect(page.getByRole('alert')).toContainText('Registration is full: every slot is taken.');
    const team = teamOf();
    for (const [label, value] of Object.entries(team)) await page.getByLabel(label, { exact: false }).first().fill(value);
    await expectNoSidewaysScroll(page);
    if (screenshots && javaScript) await page.screenshot({ path: 'docs/screenshots/waitlist-form-360.png', fullPage: true });
    await page.getByRole('button', { name: 'Join the waitlist' }).click();
    await expect(page).toHaveURL(`/team/${t.id}`);
    await expect(page.getByText(`${team['Team name']} is on the waitlist at #1.`, { exact: false })).toBeVisible();
    await expect(state(page)).toHaveText('waitlist #1');
    await expectAccessible(page, testInfo, 'team on the waitlist');

    // A placed team withdraws: the waitlisted one is promoted at once, with its own time to pay.
    await api.request('POST', `/registrations/${t.id}/withdraw`, { token: first.token, json: {}, expect: [200] });
    await page.reload();
    await expect(state(page)).toHaveText('pending payment');

    await page.goto('/my-tournaments');
    await expect(page.locator('.my-card').filter({ hasText: t.name }).locator('.place')).toHaveText('pending payment');
    await page
      .locator('.my-card')
      .filter({ hasText: t.name })
      .getByRole('link', { name: /View Details/ })
      .click();
    await page.getByRole('link', { name: 'Pay' }).click();
    await page.getByLabel('UPI reference (UTR)').fill(uniqueUtr());
    await page.getByRole('button', { name: 'Send reference' }).click();
    await expect(state(page)).toHaveText('payment submitted');

    // The organiser sees it first in the list, verifies it; the room is posted.
    await page.context().clearCookies();
    await logIn(page, api.stack.admin.email, api.stack.admin.password);
    await expect(page).not.toHaveURL(/\/login/);
    await page.goto(`/admin/${t.id}/registrations`);
    await expect(page.locator('.ops-card').first()).toContainText(team['Team name']);
    await expect(page.locator('.ops-card').first().locator('.place')).toHaveText('payment submitted');
    await expect(page.locator('.ops-card').filter({ hasText: 'withdrawn' })).toHaveCount(1);
    await expectNoSidewaysScroll(page);
    if (screenshots && javaScript) await page.screenshot({ path: 'docs/screenshots/registrations-states-360.png', fullPage: true });
    await page
      .locator('.ops-card')
      .first()
      .getByRole('button', { name: /^Verify/ })
      .click();
    await expect(page.locator('.ops-card').filter({ hasText: team['Team name'] }).locator('.place')).toHaveText('confirmed');
    const room = `R${unique()}`.slice(0, 12);
    await api.createMatch(t.id, { day: 1, matchNo: 1, map: 'Erangel', matchId: room, password: 'pw-slot', time: '18:30' });

    await page.context().clearCookies();
    await openAs(page, player, `/team/${t.id}`);
    await expect(state(page)).toHaveText('confirmed');
    await page.goto(`/tournament/${t.id}/matches`);
    await expect(page.getByText(room, { exact: true })).toBeVisible();
  });

  test('the captain withdraws after a confirmation page; a paid team is told to contact the organiser', async ({
    page,
    api,
    javaScript,
  }, testInfo) => {
    const t = await api.createTournament({ entryFee: '0' });
    const player = await api.createPlayer();
    const reg = await api.registerTeam(t.id, player);

    await openAs(page, player, `/team/${t.id}`);
    await expect(state(page)).toHaveText('confirmed');
    await page.getByRole('link', { name: 'Withdraw team' }).click();
    await expect(page).toHaveURL(`/team/${t.id}/withdraw`);
    await expect(page.getByRole('heading', { name: `Withdraw ${reg.teamName}?` })).toBeVisible();
    await expectNoSidewaysScroll(page);
    await expectAccessible(page, testInfo, 'withdraw confirmation');
    if (screenshots && javaScript) await page.screenshot({ path: 'docs/screenshots/withdraw-360.png', fullPage: true });
    await page.getByRole('button', { name: 'Withdraw team' }).click();
    await expect(page).toHaveURL(`/team/${t.id}`);
    await expect(page.getByText(`${reg.teamName} has withdrawn.`)).toBeVisible();
    await expect(state(page)).toHaveText('withdrawn');
    await expect(page.getByRole('link', { name: 'Register again' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Withdraw team' })).toHaveCount(0);

    // A paid team: the refund note before and after.
    const paid = await api.createTournament({ entryFee: '100' });
    const payer = await api.createPlayer();
    const r = await api.registerTeam(paid.id, payer);
    await confirmPayment(api, paid.id, payer, r.rid);
    await page.context().clearCookies();
    await openAs(page, payer, `/team/${paid.id}/withdraw`);
    await expect(page.getByRole('note')).toContainText(
      'You paid the entry fee: ask the organiser for a refund. Once they record it, your team page shows it.',
    );
    await page.getByRole('button', { name: 'Withdraw team' }).click();
    await expect(
      page.getByText(
        `${r.teamName} has withdrawn. You paid the entry fee: ask the organiser for a refund. Once they record it, your team page shows it.`,
      ),
    ).toBeVisible();
  });

  test('a waitlisted team leaves the waitlist after registration has closed (decision 043)', async ({
    page,
    api,
    javaScript,
  }, testInfo) => {
    const fields = GatewayApi.tournamentFields({ maxTeams: '2', entryFee: '0' });
    const form = (values: Record<string, string>) => {
      const f = new FormData();
      for (const [k, v] of Object.entries(values)) f.append(k, v);
      return f;
    };
    const admin = await api.adminToken();
    const t = await api.request<{ id: number; name: string }>('POST', '/tournaments/add', { token: admin, form: form(fields) });
    await api.registerTeam(t.id, await api.createPlayer());
    await api.registerTeam(t.id, await api.createPlayer());
    const player = await api.createPlayer();
    const waiting = await api.request<{ teamName: string }>('POST', `/registrations/${t.id}`, {
      token: player.token,
      json: { ...teamFields(), waitlist: true },
      expect: [201],
    });
    await api.request('PUT', `/tournaments/admin/update/${t.id}`, {
      token: admin,
      form: form({ ...fields, status: 'Registration Closed' }),
      expect: [200],
    });

    await openAs(page, player, `/team/${t.id}`);
    await expect(state(page)).toHaveText('waitlist #1');
    await page.getByRole('link', { name: 'Leave the waitlist' }).click();
    await expect(page).toHaveURL(`/team/${t.id}/withdraw`);
    await expect(page.getByRole('heading', { name: `${waiting.teamName}: leave the waitlist?` })).toBeVisible();
    await expectNoSidewaysScroll(page);
    await expectAccessible(page, testInfo, 'leave the waitlist');
    if (screenshots && javaScript) await page.screenshot({ path: 'docs/screenshots/leave-waitlist-360.png', fullPage: true });
    await page.getByRole('button', { name: 'Leave the waitlist' }).click();
    await expect(page).toHaveURL(`/team/${t.id}`);
    await expect(page.getByText(`${waiting.teamName} has left the waitlist.`)).toBeVisible();
    await expect(state(page)).toHaveText('withdrawn');
    await expect(page.getByRole('link', { name: 'Leave the waitlist' })).toHaveCount(0);
  });

  test('check-in: one tap while the window is open; the organiser sees who checked in', async ({
    page,
    api,
    javaScript,
    consoleGuard,
  }, testInfo) => {
    consoleGuard.allow(FAILED_RESOURCE(409));
    const t = await api.createTournament({ entryFee: '0' });
    const player = await api.createPlayer();
    const reg = await api.registerTeam(t.id, player);
    const late = await api.createPlayer();
    await api.registerTeam(t.id, late);
    const now = Date.now();
    const stage = await api.request<{ id: number }>('POST', `/tournaments/${t.id}/stages`, {
      token: await api.adminToken(),
      json: {
        name: 'Qualifiers',
        lobbySize: 25,
        checkInOpensAt: new Date(now - 60_000).toISOString(),
        checkInClosesAt: new Date(now + 3_600_000).toISOString(),
      },
      expect: [200, 201],
    });

    await openAs(page, player, `/team/${t.id}`);
    await expect(page.getByText('Check-in for Qualifiers is open until')).toBeVisible();
    await expectNoSidewaysScroll(page);
    await expectAccessible(page, testInfo, 'team page with check-in');
    if (screenshots && javaScript) await page.screenshot({ path: 'docs/screenshots/check-in-360.png', fullPage: true });
    await page.getByRole('button', { name: 'Check in for Qualifiers' }).click();
    await expect(page).toHaveURL(`/team/${t.id}`);
    await expect(page.getByText('Checked in. See you in the lobby.')).toBeVisible();
    // The gateway's checkIns (decision 043) say it: the state reads "checked in" and nothing is left to tap.
    await expect(page.getByText('checked in', { exact: true })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Check in for Qualifiers' })).toHaveCount(0);
    await page.goto(`/tournament/${t.id}/matches`);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Check in for Qualifiers' })).toHaveCount(0);

    await page.context().clearCookies();
    await logIn(page, api.stack.admin.email, api.stack.admin.password);
    await expect(page).not.toHaveURL(/\/login/);
    await page.goto(`/admin/${t.id}/stages/${stage.id}`);
    const panel = page.getByRole('region', { name: 'Check-in: 1 of 2' });
    await expect(panel).toContainText('Not checked in yet:');
    await expect(panel).not.toContainText(reg.teamName);
    await expectNoSidewaysScroll(page);
    if (screenshots && javaScript) await panel.screenshot({ path: 'docs/screenshots/check-in-admin-360.png' });
  });
});
