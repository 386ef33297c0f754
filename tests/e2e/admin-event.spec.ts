import type { Page } from '@playwright/test';
import { submitPaymentReference, uniqueUtr, type Registration } from './support/api';
import { expect, expectAccessible, expectNoSidewaysScroll, FAILED_RESOURCE, test } from './support/fixtures';
import type { StackInfo } from './support/stack.mjs';
import { stagedTournament } from './support/stages';
import { logIn } from './support/ui';

/** Issue 27, the organiser's part (decision 055): old pages in a staged tournament, the payee, select all. */

async function openAsAdmin(page: Page, stack: StackInfo, path: string) {
  await logIn(page, stack.admin.email, stack.admin.password, { from: `/login?redirectTo=${encodeURIComponent(path)}` });
  await expect(page).toHaveURL(path);
}

const flash = (page: Page, text: string) => expect(page.locator('.flash').filter({ hasText: text })).toBeVisible();

test.describe('organiser: a whole event', () => {
  test('item 5: the old matches and points pages name each group and never write to one the organiser did not choose', async ({
    page,
    api,
    stack,
    consoleGuard,
  }, testInfo) => {
    consoleGuard.allow(FAILED_RESOURCE(400)); // the refused save answers 400
    const { t, stage, matches, rooms } = await stagedTournament(api, { complete: false });
    const groupA = stage.groups.find((g) => g.name === 'A')!;
    const roomA = matches.find((m) => m.groupId === groupA.id && m.day === 1 && m.matchNo === 1)!;

    await openAsAdmin(page, stack, `/admin/${t.id}/matches`);
    await expect(page.getByText('This tournament plays in groups: each group has its own room, set on its stage page.')).toBeVisible();
    const rows = page.locator('.ops-match-head strong');
    await expect(rows.filter({ hasText: 'Day 1 · Match 1' })).toHaveText([
      'Day 1 · Match 1 · Qualifiers · Group A',
      'Day 1 · Match 1 · Qualifiers · Group B',
      'Day 1 · Match 1 · Qualifiers · Group C',
    ]);
    await expect(page.getByRole('link', { name: /^Edit/ })).toHaveCount(0);
    await expect(page.getByRole('link', { name: 'Set on the stage page day 1 match 1 group B' })).toHaveAttribute(
      'href',
      `/admin/${t.id}/stages/${stage.id}?rooms=1-1#rooms`,
    );
    await expect(page.getByLabel('Room ID')).toHaveAttribute('inputmode', 'numeric');
    await expectAccessible(page, testInfo, 'matches-staged');
    await expectNoSidewaysScroll(page);

    // The form cannot change a group's room: it says where to go instead, keeping what was typed.
    await page.getByLabel('Day', { exact: true }).selectOption('1');
    await page.getByLabel('Match', { exact: true }).selectOption('1');
    await page.getByLabel('Map').fill('Sanhok');
    await page.getByLabel('Room ID').fill('999111');
    await page.getByLabel('Time').fill('20:00');
    await page.getByRole('button', { name: 'Save match' }).click();
    await expect(page.getByRole('combobox', { name: 'Match' })).toHaveAccessibleDescription(
      /Day 1 match 1 is played in the groups of Qualifiers: set each group's room on the stage page\./,
    );
    await expect(page.getByLabel('Room ID')).toHaveValue('999111');
    const after = await api.request<{ id: number; matchId: string | null; map: string }[]>('GET', `/matches/tournament/${t.id}`, {
      token: await api.adminToken(),
    });
    expect(after.find((m) => m.id === roomA.id)).toMatchObject({ matchId: rooms.get(roomA.id)!.matchId, map: 'Erangel' });

    // Points entry: one link per group, no form of every team.
    await page.goto(`/admin/add-points/${t.id}?day=1&match=1`);
    await expect(page.getByText('Day 1 match 1 is played in groups')).toBeVisible();
    await expect(page.getByRole('table')).toHaveCount(0);
    await page.getByRole('link', { name: 'Enter results: Qualifiers · Group B' }).click();
    await expect(page).toHaveURL(new RegExp(`/admin/${t.id}/stages/${stage.id}/results\\?day=1&match=1&group=\\d+$`));
    await expect(page.getByRole('heading', { level: 1 })).toContainText('Group B');
  });

  test('item 10: the payee is set on the tournament form, warned about while it is the placeholder, and paid by players', async ({
    page,
    api,
    stack,
    javaScript,
    consoleGuard,
  }, testInfo) => {
    consoleGuard.allow(FAILED_RESOURCE(400));
    const t = await api.createTournament({ entryFee: '50' });
    await openAsAdmin(page, stack, '/admin/tournament-list');
    const card = page.locator('.ops-card').filter({ has: page.getByRole('heading', { level: 2, name: t.name }) });
    await expect(card.getByText('Players pay the placeholder UPI ID customroom@upi.')).toBeVisible();
    await card.getByRole('link', { name: `Set the payee of ${t.name}` }).click();
    await expect(page).toHaveURL(`/admin/update-tournament/${t.id}`);
    await expect(page.locator('#payee-warning')).toContainText('Players would pay customroom@upi');

    // A UPI ID that is not handle@provider is refused beside its field, keeping what was typed.
    await page.getByLabel('UPI ID').fill('cup-organiser');
    await page.getByLabel('Payee name').fill('Cup Organiser');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await expect(page.getByLabel('UPI ID')).toHaveAccessibleDescription(/UPI ID must look like handle@provider/);
    await expect(page.getByLabel('UPI ID')).toHaveValue('cup-organiser');
    await expect(page.getByLabel('Payee name')).toHaveValue('Cup Organiser');
    await expectAccessible(page, testInfo, 'payee-refused');
    await expectNoSidewaysScroll(page);
    if (javaScript && process.env.SCREENSHOTS === '1')
      await page.locator('fieldset.payee').screenshot({ path: 'docs/screenshots/payee-field-360.png' });

    await page.getByLabel('UPI ID').fill('cup.organiser@okaxis');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await flash(page, 'Tournament updated successfully!');
    expect(await api.getTournament(t.id)).toMatchObject({ payeeUpiId: 'cup.organiser@okaxis', payeeName: 'Cup Organiser' });
    await page.goto('/admin/tournament-list');
    await expect(card).toBeVisible();
    await expect(card.getByText('Players pay the placeholder UPI ID')).toHaveCount(0);

    // A player pays the tournament's own payee.
    const player = await api.createPlayer();
    const team = await api.registerTeam(t.id, player);
    await page.context().clearCookies();
    await logIn(page, player.email, player.password, { from: `/login?redirectTo=${encodeURIComponent(`/payment?rid=${team.rid}`)}` });
    await expect(page).toHaveURL(`/payment?rid=${team.rid}`);
    await expect(page.locator('dd.mono', { hasText: 'cup.organiser@okaxis' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Pay with UPI app' })).toHaveAttribute(
      'href',
      /^upi:\/\/pay\?pa=cup.organiser%40okaxis&pn=Cup%20Organiser&am=50.00/,
    );
  });

  test('item 11: select all shown (with the filter), compact rows, and one short message', async ({
    page,
    api,
    stack,
    javaScript,
  }, testInfo) => {
    const t = await api.createTournament({ entryFee: '50', maxTeams: '30' });
    const teams: Registration[] = [];
    for (let i = 0; i < 6; i++) {
      const player = await api.createPlayer();
      const team = await api.registerTeam(t.id, player);
      // Five pay; the sixth does not, and stays out of the "Submitted" filter.
      if (i < 5) await submitPaymentReference(api, t.id, player, uniqueUtr());
      teams.push(team);
    }

    await openAsAdmin(page, stack, `/admin/${t.id}/registrations?payment=submitted`);
    await page.getByRole('link', { name: 'Compact rows' }).click();
    await expect(page).toHaveURL(`/admin/${t.id}/registrations?payment=submitted&rows=compact`);
    await page.getByRole('link', { name: 'Select all shown (5)' }).click();
    await expect(page).toHaveURL(`/admin/${t.id}/registrations?payment=submitted&rows=compact&select=all`);
    await expect(page.getByText('5 teams ticked.')).toBeVisible();
    for (const team of teams.slice(0, 5)) await expect(page.getByLabel(`Tick ${team.teamName}`)).toBeChecked();
    await expect(page.getByLabel(`Tick ${teams[5]!.teamName}`)).toHaveCount(0); // not shown under the filter
    // Compact: a row is a few lines, not a card of players and contacts.
    const heights = await page.locator('.ops-teams > li').evaluateAll((els) => els.map((e) => e.getBoundingClientRect().height));
    expect(Math.max(...heights)).toBeLessThan(260);
    await expectAccessible(page, testInfo, 'payments-select-all');
    await expectNoSidewaysScroll(page);
    if (javaScript && process.env.SCREENSHOTS === '1')
      await page.screenshot({ path: 'docs/screenshots/payments-select-all-360.png', fullPage: true });

    await page.getByRole('button', { name: 'Verify ticked' }).click();
    await flash(page, '5 payments verified.');
    await expect(page).toHaveURL(`/admin/${t.id}/registrations?payment=submitted&rows=compact`);
    await expect(page.getByText('No teams with payment submitted.')).toBeVisible();
    const statuses = await api.request<{ rid: number; paymentStatus: string }[]>('GET', `/registrations/tournament/${t.id}`, {
      token: await api.adminToken(),
    });
    const byRid = (a: number, b: number) => a - b;
    expect(
      statuses
        .filter((r) => r.paymentStatus === 'verified')
        .map((r) => r.rid)
        .sort(byRid),
    ).toEqual(
      teams
        .slice(0, 5)
        .map((r) => r.rid)
        .sort(byRid),
    );
  });
});
