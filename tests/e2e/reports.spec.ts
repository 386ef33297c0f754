import type { Page } from '@playwright/test';
import sharp from 'sharp';
import { GatewayApi, unique, type Player, type Registration } from './support/api';
import { expect, expectAccessible, expectNoSidewaysScroll, FAILED_RESOURCE, test } from './support/fixtures';
import { signedInPhone } from './support/ui';

// Issue 30 (decisions 071–075): four captains report a match from their phones (360 px), two of them claiming
// the same place; the staff see the conflict and the team that did not report, correct and confirm the lobby;
// a team disputes another's row, the staff uphold it; the public table and the result history show it.
// With JavaScript and without: every step is a plain form post.

const PHONE = { width: 360, height: 800 };
const shots = process.env.SCREENSHOTS === '1';
const flash = (page: Page, text: string | RegExp) => page.getByRole('status').filter({ hasText: text });

/** A result-screen-like PNG, different per seed. */
async function resultScreen(seed: number): Promise<Buffer> {
  const rows = Array.from(
    { length: 4 },
    (_, i) =>
      `<rect x="80" y="${120 + i * 90}" width="${300 + ((seed * 37 + i * 53) % 400)}" height="60" fill="rgb(${(seed * 50 + i * 40) % 255},90,140)"/>`,
  ).join('');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="1600" height="720"><rect width="1600" height="720" fill="rgb(${(seed * 70) % 255},60,40)"/><text x="80" y="80" font-size="48" fill="#fff">#${seed} WINNER WINNER</text>${rows}</svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}

/** A free tournament whose four teams register, then moved to have started an hour ago, with day 1 match 1 at 00:00. */
async function startedTournament(api: GatewayApi, captains: Player[]): Promise<{ tid: number; teams: Registration[] }> {
  const t = await api.createTournament({ entryFee: '0', maxTeams: '4' });
  const teams: Registration[] = [];
  for (const c of captains) teams.push(await api.registerTeam(t.id, c, `Report Squad ${unique()}`));
  const hour = 3_600_000;
  const iso = (ms: number) => new Date(ms).toISOString();
  const fields = GatewayApi.tournamentFields({
    name: t.name,
    entryFee: '0',
    maxTeams: '4',
    registrationOpen: iso(Date.now() - 48 * hour),
    registrationClose: iso(Date.now() - 2 * hour),
    startDate: iso(Date.now() - hour),
    endDate: iso(Date.now() + 48 * hour),
    status: 'Ongoing',
  });
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  await api.request('PUT', `/tournaments/admin/update/${t.id}`, { token: await api.adminToken(), form, what: 'start the tournament' });
  await api.createMatch(t.id, { day: 1, matchNo: 1, map: 'Erangel', matchId: '8800123', password: 'rep-pw', time: '00:00' });
  return { tid: t.id, teams };
}

async function report(page: Page, tid: number, placement: number, finishes: number[], screen: Buffer) {
  await page.goto(`/team/${tid}`);
  await page
    .getByRole('link', { name: /Report your result/ })
    .first()
    .click();
  await expect(page).toHaveURL(new RegExp(`/team/${tid}/reports/1/1`));
  await page.getByLabel('Your team’s placement').fill(String(placement));
  for (const [i, f] of finishes.entries()) await page.getByLabel(`Player ${i + 1}: finishes`).fill(String(f));
  await page.getByLabel('Screenshot of the result screen').setInputFiles({ name: 'result.png', mimeType: 'image/png', buffer: screen });
  await page.getByRole('button', { name: 'Send the report' }).click();
  await expect(flash(page, /Reported/)).toBeVisible();
}

test.describe('captains report, staff confirm, a team disputes', () => {
  test('four captains on phones, a conflict and a missing team, confirm, dispute upheld, the public table and history', async ({
    browser,
    api,
    stack,
    javaScript,
    baseURL,
    consoleGuard,
  }, testInfo) => {
    test.setTimeout(180_000);
    consoleGuard.allow(FAILED_RESOURCE(409));
    const captains = await Promise.all(Array.from({ length: 4 }, () => api.createPlayer()));
    const { tid, teams } = await startedTournament(api, captains);

    // 1. Three captains report from their phones; the second claims 1st like the first. The fourth does not report.
    const claims: [number, number[]][] = [
      [1, [3, 2, 1, 0]],
      [1, [1, 1, 0, 0]],
      [3, [0, 1, 0, 0]],
    ];
    for (const [i, [placement, finishes]] of claims.entries()) {
      const page = await signedInPhone(browser, baseURL!, javaScript, captains[i]!, `/team/${tid}`);
      if (i === 0) {
        await expectAccessible(page, testInfo, 'team-with-report-due');
        await expectNoSidewaysScroll(page);
      }
      await report(page, tid, placement, finishes, await resultScreen(i + 1));
      if (i === 0) {
        await expectAccessible(page, testInfo, 'team-report');
        await expectNoSidewaysScroll(page);
        if (shots) await page.screenshot({ path: 'docs/screenshots/team-report-360.png', fullPage: true });
      }
      await page.context().close();
    }

    // 2. The staff's lobby view: the conflict and the missing team; correct the second team, enter the fourth, confirm.
    const staff = await signedInPhone(browser, baseURL!, javaScript, stack.admin, `/admin/${tid}/reports/1/1`);
    await expectAccessible(staff, testInfo, 'lobby-view');
    await expectNoSidewaysScroll(staff);
    await expect(staff.getByText(`${teams[0]!.teamName} and ${teams[1]!.teamName} both claim 1st place.`)).toBeVisible();
    await expect(staff.getByText(teams[3]!.teamName).first()).toBeVisible();
    if (shots) await staff.screenshot({ path: 'docs/screenshots/lobby-view-360.png', fullPage: true });
    await confirmLobby(staff, teams);
    await staff.context().close();

    // 3. The fourth team disputes the third's row.
    const disputer = await signedInPhone(browser, baseURL!, javaScript, captains[3]!, `/team/${tid}/disputes?day=1&match=1`);
    await expectAccessible(disputer, testInfo, 'team-disputes');
    await disputer.getByLabel('Whose result is wrong').selectOption(String(teams[2]!.rid));
    await disputer.getByLabel('What is wrong').fill('They had 3 finishes, not 1: the kill feed in our replay shows it.');
    await disputer.getByRole('button', { name: 'Send the dispute' }).click();
    await expect(disputer.getByText('They had 3 finishes, not 1').first()).toBeVisible();
    if (shots) await disputer.screenshot({ path: 'docs/screenshots/team-disputes-360.png', fullPage: true });
    await disputer.context().close();

    // 4. The staff uphold it; the public table and the history show the change.
    const resolver = await signedInPhone(browser, baseURL!, javaScript, stack.admin, `/admin/${tid}/disputes`);
    await expectAccessible(resolver, testInfo, 'admin-disputes');
    await upholdDispute(resolver, teams);
    await resolver.context().close();

    const visitor = await browser.newContext({ baseURL, javaScriptEnabled: javaScript, viewport: PHONE });
    const table = await visitor.newPage();
    await table.goto(`/tournaments/${tid}/points-table`);
    await expect(table.locator('tr', { hasText: teams[2]!.teamName }).first()).toBeVisible();
    const history = table.locator('section', { has: table.getByRole('heading', { name: 'Result history' }) });
    await expect(history).toContainText(teams[2]!.teamName);
    await visitor.close();
  });
});

/** The lobby view's form: team 2 corrected to 2nd, team 4 entered 4th, team 3 stays 3rd; then Confirm lobby. */
async function confirmLobby(page: Page, teams: Registration[]) {
  await page.locator(`input[name="position.${teams[1]!.rid}"]`).fill('2');
  await page.locator(`input[name="position.${teams[3]!.rid}"]`).fill('4');
  await page.locator(`input[name="finishes.${teams[3]!.rid}"]`).fill('0');
  await page.getByRole('button', { name: 'Confirm lobby' }).click();
  await expect(flash(page, /Lobby confirmed: results are provisional until/)).toBeVisible();
}

/** Uphold: team 3's finishes become 3. */
async function upholdDispute(page: Page, teams: Registration[]) {
  const uphold = page.locator('fieldset', { hasText: `Uphold: correct ${teams[2]!.teamName}’s row` });
  await uphold.getByLabel('Finishes').fill('3');
  await uphold.getByRole('button', { name: 'Uphold' }).click();
  await expect(page.getByText(/upheld/i).first()).toBeVisible();
}
