import type { Page } from '@playwright/test';
import { expect, expectAccessible, expectNoSidewaysScroll, test } from './support/fixtures';
import { stagedTournament, type StageJson } from './support/stages';
import { logIn } from './support/ui';

// Issue 27 items 1, 3 and 24 (decision 051): a two-stage event whose organiser never touched "Registration Ongoing"
// ends right. The Final is completed on the stage page (a form: JavaScript on and off); the public page then says
// Completed, shows the podium with the final table linked, and offers no Register button.

const flash = (page: Page, text: string) => expect(page.locator('.flash').filter({ hasText: text })).toBeVisible();
const screenshots = process.env.SCREENSHOTS === '1';

test.describe('the end of an event', () => {
  test('completing the last stage: Completed, Champions and the podium, never Register', async ({
    page,
    api,
    stack,
    javaScript,
  }, testInfo) => {
    // Qualifiers (3 groups of 4, top 2 advance) completed; "Semi-finals" is the last stage: the Final here.
    const s = await stagedTournament(api);
    const admin = await api.adminToken();
    const base = `/tournaments/${s.t.id}/stages`;
    const final = (await api.request<StageJson[]>('GET', base, { token: admin, what: 'stages' })).find((x) => x.name === 'Semi-finals')!;
    await api.request('POST', `${base}/${final.id}/groups`, { token: admin, json: { method: 'registration' }, what: 'draw final' });
    const drawn = await api.request<StageJson>('POST', `${base}/${final.id}/publish`, { token: admin, json: {}, what: 'publish final' });
    await api.request('POST', `${base}/${final.id}/matches`, {
      token: admin,
      json: { matches: [{ day: 2, matchNo: 1, map: 'Sanhok', time: '18:30' }] },
      what: 'schedule final',
    });
    // Group A's winner takes the most finishes: the champion.
    for (const [gi, g] of drawn.groups.entries()) {
      await api.request('PUT', `/tournaments/${s.t.id}/points-table/matches/2/1`, {
        token: admin,
        json: { groupId: g.id, results: g.slots.map((x, i) => ({ teamId: x.teamId, position: i + 1, finishes: (gi === 0 ? 4 : 2) - i })) },
        what: 'final results',
      });
    }
    const champion = drawn.groups[0]!.slots[0]!.teamName;

    // While the Final runs: In progress, and no Register although the registration window is open.
    await page.goto(`/tournaments/${s.t.id}`);
    await expect(page.locator('.td-sub .badge')).toHaveText('In progress');
    await expect(page.getByRole('link', { name: 'Register', exact: true })).toHaveCount(0);

    // The organiser completes the Final on its stage page.
    const stagePage = `/admin/${s.t.id}/stages/${final.id}`;
    await logIn(page, stack.admin.email, stack.admin.password, { from: `/login?redirectTo=${encodeURIComponent(stagePage)}` });
    await expect(page).toHaveURL(stagePage);
    await page.getByLabel('Complete Semi-finals: every match has results or is marked not played').check();
    await page.getByRole('button', { name: 'Complete stage' }).click();
    await flash(page, 'Stage completed');

    // The public page, as the organiser: Completed, the podium, and Manage (to the hub).
    await page.goto(`/tournaments/${s.t.id}`);
    await expect(page.locator('.td-sub .badge')).toHaveText('Completed');
    const podium = page.getByRole('region', { name: 'Final standings' });
    await expect(podium.getByText(`Champions: ${champion}`)).toBeVisible();
    await expect(podium.getByRole('list', { name: 'Podium' }).getByRole('listitem')).toHaveCount(3);
    await expect(podium.getByRole('listitem').first()).toContainText(`1st ${champion}`);
    await expect(page.getByRole('link', { name: 'Register', exact: true })).toHaveCount(0);
    await expect(page.getByRole('region', { name: 'Registration' })).toContainText('Completed: see the final points');
    await page.getByRole('link', { name: 'Manage', exact: true }).click();
    await expect(page).toHaveURL(`/admin/${s.t.id}`);
    await expect(page.getByRole('heading', { level: 1, name: s.t.name })).toBeVisible();
    await expect(page.getByText('Status you set: Registration Ongoing.')).toBeVisible();

    // And as anyone: the same, the final table one tap away, and the list's card says Completed too.
    await page.context().clearCookies();
    await page.goto(`/tournaments/${s.t.id}`);
    await expect(page.getByText(`Champions: ${champion}`)).toBeVisible();
    await expect(page.getByRole('link', { name: 'Manage', exact: true })).toHaveCount(0);
    await expectNoSidewaysScroll(page);
    await expectAccessible(page, testInfo, 'tournament page with the podium');
    if (screenshots && javaScript) await page.screenshot({ path: 'docs/screenshots/podium-360.png', fullPage: true });
    await page.getByRole('link', { name: 'Semi-finals table: the final standings' }).click();
    await expect(page).toHaveURL(`/tournaments/${s.t.id}/points-table?stage=${final.id}`);
    await expect(page.getByRole('table').getByText(champion)).toBeVisible();

    await page.goto('/tournaments?show=completed');
    const card = page.getByRole('article').filter({ has: page.getByRole('heading', { name: s.t.name }) });
    await expect(card.getByText('Completed', { exact: true })).toBeVisible();
    await expect(card.getByRole('link', { name: new RegExp(`^Register for ${s.t.name}`) })).toHaveCount(0);
  });
});
