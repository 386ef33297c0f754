// Issue 27 item 21 (decision 057): the points page offers only the days with matches or results, says a day
// without matches has none instead of ranking every team at 0, and its filters leave the table in view at 360 px.
import { expect, expectAccessible, expectNoSidewaysScroll, test } from './support/fixtures';
import { stagedTournament } from './support/stages';
import { tableRows } from './support/ui';

/** The table's top edge at 360 px on a stage's page (crumb, title, stage and group links, days, tabs): 554 px before issue 27, 378 after. */
const TABLE_TOP_MAX = 400;

test.describe('points table days', () => {
  test('only the days with matches are offered; a day without matches says so', async ({ page, api }, testInfo) => {
    const t = await api.createTournament();
    const [alpha, bravo] = await Promise.all([api.createPlayer(), api.createPlayer()]);
    const teamA = await api.registerTeam(t.id, alpha, `Alpha ${t.id}`);
    const teamB = await api.registerTeam(t.id, bravo, `Bravo ${t.id}`);
    // Day 1 played, day 2 scheduled (no results yet); nothing on days 3 to 7.
    await api.submitPoints(t.id, { day: 1, match: 1, team: teamA, position: 1, finishes: 3 });
    await api.submitPoints(t.id, { day: 1, match: 1, team: teamB, position: 2, finishes: 1 });
    await api.createMatch(t.id, { day: 2, matchNo: 1, map: 'Erangel', matchId: '1234567', password: 'pw', time: '18:30' });

    await page.goto(`/tournaments/${t.id}/points-table`);
    const days = page.getByRole('navigation', { name: 'Points table day' });
    await expect(days.getByRole('link')).toHaveText(['Overall', 'Day 1', 'Day 2']);

    await days.getByRole('link', { name: 'Day 1' }).click();
    await expect(page).toHaveURL(`/tournaments/${t.id}/points-table?day=1`);
    expect((await tableRows(page)).map((r) => r[1])).toEqual([teamA.teamName, teamB.teamName]);

    await days.getByRole('link', { name: 'Day 2' }).click();
    await expect(page).toHaveURL(`/tournaments/${t.id}/points-table?day=2`);
    await expect(page.getByText('No points yet for Day 2.')).toBeVisible();

    // Day 3 by URL (an old link): no table of teams at 0, a plain answer.
    expect((await page.goto(`/tournaments/${t.id}/points-table?day=3`))?.status()).toBe(200);
    await expect(page.getByText('No matches on Day 3 yet.')).toBeVisible();
    await expect(page.getByRole('table')).toHaveCount(0);
    await expect(days.getByRole('link')).toHaveText(['Overall', 'Day 1', 'Day 2']);
    await expect(days.locator('[aria-current="page"]')).toHaveCount(0);
    await expectAccessible(page, testInfo, 'points-day-without-matches');
  });

  test('a stage table at 360 px: its days only, and the table starts near the top', async ({ page, api, javaScript }, testInfo) => {
    const { t, own } = await stagedTournament(api, { complete: false });

    await page.goto(`/tournaments/${t.id}/points-table`);
    const table = page.getByRole('table', { name: /^Qualifiers: Overall standings/ });
    await expect(table).toBeVisible();
    const top = (await table.boundingBox())!.y;
    testInfo.annotations.push({ type: 'table top at 360 px', description: `${Math.round(top)} px` });
    const days = page.getByRole('navigation', { name: 'Points table day' });
    await expect(days.getByRole('link')).toHaveText(['Overall', 'Day 1']);
    expect(top).toBeLessThan(TABLE_TOP_MAX);
    await expectNoSidewaysScroll(page);
    if (javaScript && process.env.SCREENSHOTS === '1') await page.screenshot({ path: 'docs/screenshots/points-days-360.png' });

    // The filters still work: a group, then its day 1, then the per-match tab (links, with and without JavaScript).
    await page.getByRole('link', { name: `Group ${own.name}` }).click();
    await expect(page).toHaveURL(new RegExp(`/tournaments/${t.id}/points-table\\?stage=\\d+&group=${own.id}$`));
    await expect(page.getByRole('table', { name: new RegExp(`^Qualifiers · Group ${own.name}: Overall standings`) })).toBeVisible();
    await days.getByRole('link', { name: 'Day 1' }).click();
    await expect(page.getByRole('table', { name: new RegExp(`^Qualifiers · Group ${own.name}: Day 1 standings`) })).toBeVisible();
    await page.getByRole('navigation', { name: 'Table view' }).getByRole('link', { name: 'Per match' }).click();
    await expect(page.getByRole('table', { name: new RegExp(`Group ${own.name}: Day 1 standings: per match`) })).toBeVisible();
    await expectAccessible(page, testInfo, 'points-stage-days');
  });
});
