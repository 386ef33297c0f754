import type { Page } from '@playwright/test';
import {
  confirmPayment,
  playerMatches,
  playerRegistrations,
  submitPaymentReference,
  unique,
  uniqueUtr,
  type Player,
  type Registration,
} from './support/api';
import { expect, expectAccessible, expectNoSidewaysScroll, FAILED_RESOURCE, test } from './support/fixtures';
import type { StackInfo } from './support/stack.mjs';
import { logIn, tableRows } from './support/ui';

/** Issue 8, second half: an organiser sets matches, enters points, handles payments and downloads the CSV. */

async function openAsAdmin(page: Page, stack: StackInfo, path: string) {
  await logIn(page, stack.admin.email, stack.admin.password, { from: `/login?redirectTo=${encodeURIComponent(path)}` });
  await expect(page).toHaveURL(path);
}

const flash = (page: Page, text: string) => expect(page.locator('.flash').filter({ hasText: text })).toBeVisible();

async function openMatch(page: Page, day: number, match: number) {
  await page.getByLabel('Day', { exact: true }).selectOption(String(day));
  await page.getByLabel('Match', { exact: true }).selectOption(String(match));
  await page.getByRole('button', { name: 'Open' }).click();
  await expect(page).toHaveURL(new RegExp(`\\?day=${day}&match=${match}$`));
  await expect(page.getByRole('heading', { level: 2, name: `Day ${day}, match ${match}` })).toBeVisible();
}

/** One team's row of the points form: position and finishes (a win is placement 1, derived: decision 029). */
async function fillRow(page: Page, team: Registration, values: { position?: string; finishes?: string }) {
  for (const [field, label] of [
    ['position', 'Position'],
    ['finishes', 'Finishes'],
  ] as const) {
    const value = values[field];
    if (value !== undefined) await page.getByRole('textbox', { name: `${team.teamName} ${label}`, exact: true }).fill(value);
  }
}

const input = (page: Page, team: Registration, label: 'Position' | 'Finishes') =>
  page.getByRole('textbox', { name: `${team.teamName} ${label}`, exact: true });

/** Overall totals of the public points table, by team name. */
async function overallTotals(page: Page, tid: number): Promise<Record<string, number>> {
  await page.goto(`/tournaments/${tid}/points-table`);
  return Object.fromEntries((await tableRows(page)).map((r) => [r[1], Number(r[5])]));
}

test.describe('organiser: matches, points, payments', () => {
  test('sets two matches, updates one, and a confirmed player gets the room details', async ({
    page,
    api,
    stack,
    consoleGuard,
  }, testInfo) => {
    consoleGuard.allow(FAILED_RESOURCE(400)); // the refused save answers 400
    const t = await api.createTournament();
    const player = await api.createPlayer();
    const team = await api.registerTeam(t.id, player);
    await confirmPayment(api, t.id, player, team.rid);

    await openAsAdmin(page, stack, `/admin/${t.id}/matches`);
    await expect(page.getByRole('heading', { level: 1, name: 'Matches' })).toBeVisible();
    await expect(page.getByText('No matches found.')).toBeVisible();
    await expectAccessible(page, testInfo);
    await expectNoSidewaysScroll(page);

    const setMatch = async (m: { day: string; match: string; map: string; room: string; password: string; time: string }) => {
      await page.getByLabel('Day', { exact: true }).selectOption(m.day);
      await page.getByLabel('Match', { exact: true }).selectOption(m.match);
      await page.getByLabel('Map').fill(m.map);
      await page.getByLabel('Room ID').fill(m.room);
      await page.getByLabel('Room password').fill(m.password);
      await page.getByLabel('Time').fill(m.time);
      await page.getByRole('button', { name: 'Save match' }).click();
    };

    await setMatch({ day: '1', match: '1', map: 'Erangel', room: '1111111', password: 'first-pw', time: '18:30' });
    await flash(page, 'Match created successfully');
    await setMatch({ day: '1', match: '2', map: 'Miramar', room: '2222222', password: 'second-pw', time: '19:15' });
    await flash(page, 'Match created successfully');
    await expect(page.locator('.ops-match')).toHaveCount(2);

    // A refusal keeps every value, the room password too.
    await page.getByRole('link', { name: 'Edit day 1 match 1' }).click();
    await expect(page).toHaveURL(`/admin/${t.id}/matches?day=1&match=1`);
    await expect(page.getByLabel('Map')).toHaveValue('Erangel');
    await expect(page.getByLabel('Room password')).toHaveValue('first-pw');
    await page.getByLabel('Map').fill('');
    await page.getByLabel('Room password').fill('changed-pw');
    await page.getByRole('button', { name: 'Save match' }).click();
    await expect(page.getByRole('alert').filter({ hasText: 'Failed to save match data' })).toBeVisible();
    await expect(page.locator('.field-error').filter({ hasText: 'Map is required.' })).toBeVisible();
    await expect(page.getByLabel('Room password')).toHaveValue('changed-pw');
    await expect(page.getByLabel('Room ID')).toHaveValue('1111111');
    await expectAccessible(page, testInfo, 'matches-refused');

    await page.getByLabel('Map').fill('Sanhok');
    await page.getByRole('button', { name: 'Save match' }).click();
    await flash(page, 'Match updated successfully');
    await expect(page.locator('.ops-match')).toHaveCount(2);

    const seen = await playerMatches(api, t.id, player);
    expect(
      seen.map((m) => ({ day: m.day, matchNo: m.matchNo, map: m.map, matchId: m.matchId, password: m.password, time: m.time.slice(0, 5) })),
    ).toEqual([
      { day: 1, matchNo: 1, map: 'Sanhok', matchId: '1111111', password: 'changed-pw', time: '18:30' },
      { day: 1, matchNo: 2, map: 'Miramar', matchId: '2222222', password: 'second-pw', time: '19:15' },
    ]);
  });

  test('enters points for three teams in two matches; a swap in one submit changes the overall table once', async ({
    page,
    api,
    stack,
    javaScript,
  }, testInfo) => {
    const t = await api.createTournament();
    const [a, b, c] = await Promise.all(
      ['Alpha', 'Bravo', 'Charlie'].map(async (name) => api.registerTeam(t.id, await api.createPlayer(), `${name} ${unique()}`)),
    );
    const idle = await api.registerTeam(t.id, await api.createPlayer(), `Idle ${unique()}`);

    await openAsAdmin(page, stack, `/admin/add-points/${t.id}`);
    await expect(page.getByRole('heading', { level: 1, name: 'Points entry' })).toBeVisible();
    await expectAccessible(page, testInfo, 'points-pick');

    await openMatch(page, 1, 1);
    await expect(page.getByRole('row')).toHaveCount(5); // header + four teams
    await expectAccessible(page, testInfo, 'points-form');
    await expectNoSidewaysScroll(page);
    // No wins box: the win goes to the team placed 1st, and the form shows it there.
    await expect(page.getByRole('textbox', { name: /Wins/ })).toHaveCount(0);
    await expect(page.getByText('The win (chicken dinner) goes to the team placed 1st.')).toBeVisible();
    await expect(page.getByText('Pos = finishing position, 1 to 4 (0 = not placed). Fin = finishes, 0 to 12.')).toBeVisible();
    await fillRow(page, a, { position: '1', finishes: '5' });
    await fillRow(page, b, { position: '2', finishes: '3' });
    await fillRow(page, c, { position: '3' });
    await page.getByRole('button', { name: 'Save day 1, match 1' }).click();
    await flash(page, 'Points table submitted successfully!');
    const pts = (team: Registration) => page.getByRole('row', { name: new RegExp(team.teamName) }).locator('.ops-pts');
    const win = (team: Registration) => page.getByRole('row', { name: new RegExp(team.teamName) }).locator('.ops-win');
    await expect(win(a)).toHaveText('Win');
    for (const team of [b, c, idle]) await expect(win(team)).toHaveText('');
    await expect(pts(a)).toHaveText('15'); // bgis-10: 10 + 5 finishes
    await expect(pts(b)).toHaveText('9');
    await expect(pts(c)).toHaveText('5');
    await expect(pts(idle)).toHaveText('—'); // left at 0/0/0: not played, not saved
    await expect(page.getByRole('link', { name: 'View the public points table' })).toHaveAttribute(
      'href',
      `/tournaments/${t.id}/points-table`,
    );

    await openMatch(page, 1, 2);
    await fillRow(page, a, { position: '3', finishes: '1' });
    await fillRow(page, b, { position: '1', finishes: '4' });
    await fillRow(page, c, { position: '2', finishes: '2' });
    await page.getByRole('button', { name: 'Save day 1, match 2' }).click();
    await flash(page, 'Points table submitted successfully!');

    const before = await overallTotals(page, t.id);
    expect(before).toEqual({ [a.teamName]: 21, [b.teamName]: 23, [c.teamName]: 13 });

    // Revisit match 2: what was entered is shown; swap Alpha's and Charlie's placements in one submit.
    await page.goto(`/admin/add-points/${t.id}?day=1&match=2`);
    await expect(input(page, a, 'Position')).toHaveValue('3');
    await expect(input(page, c, 'Position')).toHaveValue('2');
    await fillRow(page, a, { position: '2' });
    await fillRow(page, c, { position: '3' });
    await page.getByRole('button', { name: 'Save day 1, match 2' }).click();
    await flash(page, 'Points table submitted successfully!');
    await expect(pts(a)).toHaveText('7');
    await expect(pts(c)).toHaveText('7');

    // Sending the same form again changes nothing.
    await page.getByRole('button', { name: 'Save day 1, match 2' }).click();
    await flash(page, 'Points table submitted successfully!');
    const after = await overallTotals(page, t.id);
    expect(after).toEqual({ [a.teamName]: 22, [b.teamName]: 23, [c.teamName]: 12 });
    // The swap is one correction in the public result history (issue 20); the first entries are not corrections.
    const history = page.getByRole('region', { name: 'Result history' });
    await expect(history.locator('.rh-list > li')).toHaveCount(1);
    await expect(history.locator('.rh-list > li > p')).toHaveText(/^Day 1 · Match 2 · by \S+, .+, one correction of 2 teams:$/);
    await expect(history.locator('.rh-list ul > li')).toHaveText([
      `${a.teamName}: 3rd, 0 wins, 1 finish → 2nd, 0 wins, 1 finish`,
      `${c.teamName}: 2nd, 0 wins, 2 finishes → 3rd, 0 wins, 2 finishes`,
    ]);
    await expectNoSidewaysScroll(page);
    await expectAccessible(page, testInfo, 'result-history');
    if (javaScript && process.env.SCREENSHOTS === '1')
      await page.getByRole('region', { name: 'Result history' }).screenshot({ path: 'docs/screenshots/result-history-360.png' });
  });

  test('refuses a shared placement naming both teams, with every value kept', async ({ page, api, stack, consoleGuard }, testInfo) => {
    consoleGuard.allow(FAILED_RESOURCE(409));
    const t = await api.createTournament();
    const [a, b] = await Promise.all(
      ['Delta', 'Echo'].map(async (name) => api.registerTeam(t.id, await api.createPlayer(), `${name} ${unique()}`)),
    );
    // Three more squads: a lobby of five, where 4th and 5th places exist (decision 029).
    for (let i = 0; i < 3; i++) await api.registerTeam(t.id, await api.createPlayer());

    await openAsAdmin(page, stack, `/admin/add-points/${t.id}?day=2&match=1`);
    await fillRow(page, a, { position: '4', finishes: '6' });
    await fillRow(page, b, { position: '5', finishes: '2' });
    await page.getByRole('button', { name: 'Save day 2, match 1' }).click();
    await flash(page, 'Points table submitted successfully!');
    const saved = await api.request('GET', `/tournaments/${t.id}/points-table/overall`);

    await fillRow(page, b, { position: '4', finishes: '2' });
    await page.getByRole('button', { name: 'Save day 2, match 1' }).click();

    const summary = page.getByRole('alert').filter({ hasText: 'Two teams cannot share a placement' });
    await expect(summary).toContainText(a.teamName);
    await expect(summary).toContainText(b.teamName);
    for (const [team, other] of [
      [a, b],
      [b, a],
    ]) {
      await expect(
        page.locator('.ops-row-error').filter({ hasText: `${team.teamName}: Placement 4 is also given to ${other.teamName}` }),
      ).toBeVisible();
      await expect(input(page, team, 'Position')).toHaveAttribute('aria-invalid', 'true');
    }
    await expect(input(page, a, 'Position')).toHaveValue('4');
    await expect(input(page, a, 'Finishes')).toHaveValue('6');
    await expect(input(page, b, 'Finishes')).toHaveValue('2');
    // The earlier success message does not stay beside the refusal (with JavaScript too).
    await expect(page.locator('.flash')).toHaveCount(0);
    await expectAccessible(page, testInfo, 'points-refused');

    expect(await api.request('GET', `/tournaments/${t.id}/points-table/overall`)).toEqual(saved);
  });

  test('verifies one payment, rejects another by ticking it, and each player sees it', async ({ page, api, stack }, testInfo) => {
    const t = await api.createTournament({ maxTeams: '16' });
    const [p1, p2] = await Promise.all([api.createPlayer(), api.createPlayer()]);
    const r1 = await api.registerTeam(t.id, p1, `Foxtrot ${unique()}`);
    const r2 = await api.registerTeam(t.id, p2, `Golf ${unique()}`);
    await submitPaymentReference(api, t.id, p1, uniqueUtr());
    await submitPaymentReference(api, t.id, p2, uniqueUtr());

    await openAsAdmin(page, stack, '/admin/tournament-list');
    const card = page.locator('.ops-card').filter({ has: page.getByRole('heading', { name: t.name }) });
    await expect(card.locator('dd').first()).toHaveText('2/16');
    await expect(card.getByRole('link', { name: `2 payments of ${t.name} to verify` })).toBeVisible();
    await expectAccessible(page, testInfo, 'tournament-list');
    await card.getByRole('link', { name: `Registrations of ${t.name}` }).click();
    await expect(page).toHaveURL(`/admin/${t.id}/registrations`);
    await expect(page.getByRole('heading', { level: 2, name: r1.teamName })).toBeVisible();
    await expectAccessible(page, testInfo, 'registrations');
    await expectNoSidewaysScroll(page);

    await page.getByRole('link', { name: 'Submitted (2)' }).click();
    await expect(page).toHaveURL(`/admin/${t.id}/registrations?payment=submitted`);
    await page.getByRole('button', { name: `Verify payment of ${r1.teamName}` }).click();
    await flash(page, `Payment of ${r1.teamName} marked verified.`);
    await expect(page).toHaveURL(`/admin/${t.id}/registrations?payment=submitted`); // the filter is kept
    await expect(page.getByRole('heading', { level: 2, name: r1.teamName })).toHaveCount(0);

    await page.getByLabel(`Tick ${r2.teamName}`).check();
    await page.getByRole('button', { name: 'Reject ticked' }).click();
    await flash(page, `Payment marked rejected: ${r2.teamName}.`);
    await page.getByRole('link', { name: 'All (2)' }).click();
    await expect(page.locator('.ops-card').filter({ hasText: r1.teamName }).locator('.badge')).toHaveText('Verified');
    await expect(page.locator('.ops-card').filter({ hasText: r2.teamName }).locator('.badge')).toHaveText('Rejected');

    expect((await playerRegistrations(api, p1)).find((r) => r.rid === r1.rid)?.paymentStatus).toBe('verified');
    expect((await playerRegistrations(api, p2)).find((r) => r.rid === r2.rid)?.paymentStatus).toBe('rejected');

    for (const [player, reg, label] of [
      [p1, r1, 'Verified'],
      [p2, r2, 'Rejected'],
    ] as [Player, Registration, string][]) {
      await page.context().clearCookies();
      await logIn(page, player.email, player.password, { from: `/login?redirectTo=${encodeURIComponent(`/payment?rid=${reg.rid}`)}` });
      await expect(page.getByRole('status').filter({ hasText: 'Payment status:' })).toContainText(label);
    }
  });

  test('a verify of a UTR the team changed after the page showed it is refused, for one team and for ticked ones, and the new UTR is shown', async ({
    page,
    api,
    stack,
    consoleGuard,
  }, testInfo) => {
    consoleGuard.allow(FAILED_RESOURCE(409));
    const changed = 'This team changed its UPI reference; check it again.';
    const t = await api.createTournament();
    const [p1, p2] = await Promise.all([api.createPlayer(), api.createPlayer()]);
    const r1 = await api.registerTeam(t.id, p1, `Juliet ${unique()}`);
    const r2 = await api.registerTeam(t.id, p2, `Kilo ${unique()}`);
    const [seen1, seen2] = [uniqueUtr(), uniqueUtr()];
    await submitPaymentReference(api, t.id, p1, seen1);
    await submitPaymentReference(api, t.id, p2, seen2);

    await openAsAdmin(page, stack, `/admin/${t.id}/registrations`);
    const card = (reg: Registration) =>
      page.locator('.ops-card').filter({ has: page.getByRole('heading', { level: 2, name: reg.teamName }) });
    await expect(card(r1)).toContainText(seen1);

    // The player sends another UTR while the organiser looks at the first one.
    const new1 = uniqueUtr();
    await submitPaymentReference(api, t.id, p1, new1);
    await page.getByRole('button', { name: `Verify payment of ${r1.teamName}` }).click();
    await expect(page.getByRole('alert')).toContainText(changed);
    await expect(card(r1).locator('.field-error')).toHaveText(`⚠ ${changed}`);
    await expect(page.getByRole('button', { name: `Verify payment of ${r1.teamName}` })).toHaveAccessibleDescription(
      /This team changed its UPI reference; check it again\./,
    );
    await expect(card(r1)).toContainText(new1); // the page now shows what the team sent
    await expect(card(r1).locator('.badge')).toHaveText('Submitted');
    await expectAccessible(page, testInfo, 'registrations-changed-utr');
    await expectNoSidewaysScroll(page);
    expect((await playerRegistrations(api, p1)).find((r) => r.rid === r1.rid)).toMatchObject({
      paymentStatus: 'submitted',
      paymentReference: new1,
    });

    // Checked again: Verify now goes through.
    await page.getByRole('button', { name: `Verify payment of ${r1.teamName}` }).click();
    await flash(page, `Payment of ${r1.teamName} marked verified.`);

    // Ticked teams: one changed UTR refuses them all.
    const new2 = uniqueUtr();
    await page.getByLabel(`Tick ${r2.teamName}`).check();
    await submitPaymentReference(api, t.id, p2, new2);
    await page.getByRole('button', { name: 'Verify ticked' }).click();
    await expect(page.getByRole('alert')).toContainText(`${r2.teamName} changed its UPI reference; check it again. Nothing was changed.`);
    await expect(card(r2).locator('.field-error')).toHaveText(`⚠ ${changed}`);
    await expect(card(r2)).toContainText(new2);
    expect((await playerRegistrations(api, p2)).find((r) => r.rid === r2.rid)).toMatchObject({
      paymentStatus: 'submitted',
      paymentReference: new2,
    });
    await page.getByLabel(`Tick ${r2.teamName}`).check();
    await page.getByRole('button', { name: 'Verify ticked' }).click();
    await flash(page, `Payment marked verified: ${r2.teamName}.`);
    expect((await playerRegistrations(api, p2)).find((r) => r.rid === r2.rid)?.paymentStatus).toBe('verified');
  });

  test('downloads the registrations CSV with a formula-looking team name kept as text', async ({ page, api, stack }) => {
    const t = await api.createTournament();
    const evil = `=HYPERLINK("http://e.x","${unique()}")`;
    const reg = await api.registerTeam(t.id, await api.createPlayer(), evil);
    await api.registerTeam(t.id, await api.createPlayer(), `Hotel, "India" ${unique()}`);

    await openAsAdmin(page, stack, `/admin/${t.id}/registrations`);
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Download CSV' }).click()]);
    expect(download.suggestedFilename()).toBe(`tournament-${t.id}-registrations.csv`);
    const text = (
      await download.createReadStream().then(async (stream) => {
        const chunks: Buffer[] = [];
        for await (const chunk of stream) chunks.push(chunk as Buffer);
        return Buffer.concat(chunks).toString('utf8');
      })
    ).replace(/^\uFEFF/, '');
    const lines = text.split('\r\n');
    expect(lines[0]).toMatch(/^rid,teamName,player1Username,/);
    expect(lines).toHaveLength(4); // header, two teams, the final line break
    expect(lines[1]).toContain(`${reg.rid},"'${evil.replace(/"/g, '""')}",`);
    expect(lines[2]).toMatch(/,"Hotel, ""India"" \w+",/);

    const res = await page.request.get(`/admin/${t.id}/registrations.csv`);
    expect(res.headers()['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers()['content-disposition']).toMatch(/^attachment;/);
  });

  test('sends anonymous visitors and players to /login from every organiser screen', async ({ page, api }) => {
    const t = await api.createTournament();
    const player = await api.createPlayer();
    const paths = [
      '/admin/tournament-list',
      `/admin/${t.id}/matches`,
      `/admin/add-points/${t.id}?day=1&match=1`,
      `/admin/${t.id}/registrations`,
      `/admin/${t.id}/registrations.csv`,
    ];
    for (const path of paths) {
      await page.goto(path);
      await expect(page, `anonymous ${path}`).toHaveURL(`/login?redirectTo=${encodeURIComponent(path)}`);
    }
    for (const path of paths) {
      await page.context().clearCookies();
      await logIn(page, player.email, player.password, { from: '/login' });
      await expect(page).not.toHaveURL(/\/login/);
      await page.goto(path);
      await expect(page, `player ${path}`).toHaveURL(`/login?redirectTo=${encodeURIComponent(path)}`);
    }
  });
});
