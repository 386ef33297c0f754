import type { Page } from '@playwright/test';
import { confirmPayment, submitPaymentReference, unique, uniqueUtr, type GatewayApi, type Registration } from './support/api';
import { expect, expectAccessible, expectNoSidewaysScroll, FAILED_RESOURCE, test } from './support/fixtures';
import type { StageJson } from './support/stages';
import { logIn } from './support/ui';

/**
 * Issue 31 (decision 081): the organiser uploads the bank statement, sees every payment and credit grouped,
 * verifies the matched in one action, and picks the columns of a layout the site cannot tell; the players
 * see their payments verified. With JavaScript and without.
 */

const flash = (page: Page, text: string) => expect(page.locator('.flash').filter({ hasText: text })).toBeVisible();

/** An HDFC-like export: a header block, then Date, Narration, Chq./Ref.No., Value Dt, Withdrawal Amt., Deposit Amt., Closing Balance. */
function hdfcCsv(rows: [narration: string, ref: string, deposit: string][]): Buffer {
  const lines = [
    'HDFC BANK Ltd.,,,,,,',
    'Account No :,50100012345678,,,,,',
    'Statement From :,01/11/2026,To :,30/11/2026,,,',
    ',,,,,,',
    'Date,Narration,Chq./Ref.No.,Value Dt,Withdrawal Amt.,Deposit Amt.,Closing Balance',
    ...rows.map(([narration, ref, deposit]) => `28/11/26,${narration},${ref},28/11/26,,${deposit},"1,00,000.00"`),
    ',,,,,,',
    'STATEMENT SUMMARY :-,,,,,,',
  ];
  return Buffer.from(lines.join('\n'));
}

test.describe('bank statement matching', () => {
  test('upload, the groups, verify the matched in one action; the players see it', async ({
    page,
    api,
    stack,
    javaScript,
    consoleGuard,
  }, testInfo) => {
    consoleGuard.allow(FAILED_RESOURCE(400)); // the upload without a file answers 400
    const t = await api.createTournament({ entryFee: '50' });
    const players = await Promise.all([api.createPlayer(), api.createPlayer(), api.createPlayer()]);
    const teams: Registration[] = [];
    for (const p of players) teams.push(await api.registerTeam(t.id, p));
    const [utrA, utrB] = [uniqueUtr(), uniqueUtr()];
    await submitPaymentReference(api, t.id, players[0]!, utrA);
    await submitPaymentReference(api, t.id, players[1]!, utrB);
    const unknown = uniqueUtr();
    const csv = hdfcCsv([
      [`UPI-ALPHA-alpha@okaxis-${utrA}-PAYMENT`, utrA, '50.00'],
      [`UPI-BRAVO-bravo@ybl-${utrB}`, utrB, '40.00'], // ₹40: the amount differs
      [`UPI-CHARLIE-charlie@oksbi-CR-${teams[2]!.rid} ${teams[2]!.teamName}`, '', '50.00'], // its payment note only
      [`UPI-STRANGER-someone@ibl-${unknown}`, unknown, '50.00'],
    ]);

    await logIn(page, stack.admin.email, stack.admin.password, {
      from: `/login?redirectTo=${encodeURIComponent(`/admin/${t.id}/registrations`)}`,
    });
    await page.getByRole('link', { name: 'Match a bank statement' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Bank statements' })).toBeVisible();
    await expect(page.getByText('No statement uploaded yet.')).toBeVisible();

    // No file: told beside the field.
    await page.getByRole('button', { name: 'Upload and match' }).click();
    await expect(page.locator('#statement-error')).toContainText('Choose the statement file (CSV or XLSX).');

    await page.getByLabel('Statement file').setInputFiles({ name: 'hdfc-november.csv', mimeType: 'text/csv', buffer: csv });
    await page.getByRole('button', { name: 'Upload and match' }).click();
    await flash(page, 'Read 4 credits from hdfc-november.csv.');
    await expect(page.getByRole('heading', { level: 1, name: 'hdfc-november.csv' })).toBeVisible();
    await expect(page.getByRole('heading', { level: 2, name: 'Matched (2)' })).toBeVisible();
    const matched = page.getByRole('list', { name: 'Matched payments' });
    await expect(matched.getByText(`${teams[0]!.teamName} · ₹50`)).toBeVisible();
    await expect(matched.getByText(`${teams[2]!.teamName} · ₹50`)).toBeVisible();
    await expect(page.getByRole('list', { name: 'Amount differs' }).getByText(`${teams[1]!.teamName} · ₹40`)).toBeVisible();
    await expect(page.getByRole('list', { name: 'Credits without a team' }).getByText(unknown)).toBeVisible();
    await expectAccessible(page, testInfo, 'statement-preview');
    await expectNoSidewaysScroll(page);
    if (javaScript && process.env.SCREENSHOTS === '1')
      await page.screenshot({ path: 'docs/screenshots/statement-preview-360.png', fullPage: true });

    await page.getByRole('button', { name: 'Verify the 2 matched' }).click();
    await flash(page, 'Verified 2 teams.');
    await expect(page.getByRole('heading', { level: 2, name: 'Matched (0)' })).toBeVisible();
    await expect(page.getByRole('heading', { level: 2, name: 'Already verified (2)' })).toBeVisible();

    // The same file again changes nothing.
    await page.getByRole('link', { name: 'Bank statements' }).click();
    await page.getByLabel('Statement file').setInputFiles({ name: 'again.csv', mimeType: 'text/csv', buffer: csv });
    await page.getByRole('button', { name: 'Upload and match' }).click();
    await flash(page, 'hdfc-november.csv was uploaded before; nothing changed.');
    await page.getByRole('link', { name: 'Bank statements' }).click();
    await expect(page.getByRole('list', { name: 'Uploaded statements, newest first' }).getByRole('listitem')).toHaveCount(1);
    await expectAccessible(page, testInfo, 'statements');
    if (javaScript && process.env.SCREENSHOTS === '1')
      await page.screenshot({ path: 'docs/screenshots/statements-360.png', fullPage: true });

    // The players see their payments.
    for (const [i, confirmed] of [
      [0, true],
      [1, false], // ₹40 on the statement: still to be checked by hand
      [2, true],
    ] as const) {
      await page.context().clearCookies();
      await logIn(page, players[i]!.email, players[i]!.password, { from: `/login?redirectTo=${encodeURIComponent(`/team/${t.id}`)}` });
      await expect(page.getByRole('heading', { level: 1, name: 'Your team' })).toBeVisible();
      await expect(page.getByText('State: confirmed')).toHaveCount(confirmed ? 1 : 0);
    }
  });

  test('a layout it cannot read: pick the columns once, remembered for the next file', async ({
    page,
    api,
    stack,
    consoleGuard,
  }, testInfo) => {
    consoleGuard.allow(FAILED_RESOURCE(400)); // the columns without an amount answer 400
    const t = await api.createTournament({ entryFee: '50' });
    const player = await api.createPlayer();
    const team = await api.registerTeam(t.id, player);
    const utr = uniqueUtr();
    await submitPaymentReference(api, t.id, player, utr);
    // A layout of this run only (the stack's organiser remembers layouts across tests).
    const header = `Kab;Sandarbh;Rashi;Tippani ${unique()}`;
    const odd = Buffer.from([header, `28-11-2026;${utr};50;shukriya`, `28-11-2026;${uniqueUtr()};50;`].join('\n'));

    await logIn(page, stack.admin.email, stack.admin.password, {
      from: `/login?redirectTo=${encodeURIComponent(`/admin/${t.id}/statements`)}`,
    });
    await page.getByLabel('Statement file').setInputFiles({ name: 'odd.csv', mimeType: 'text/csv', buffer: odd });
    await page.getByRole('button', { name: 'Upload and match' }).click();
    await flash(page, 'Uploaded odd.csv. Pick its columns.');
    await expect(page.getByRole('heading', { level: 2, name: 'Which column is which?' })).toBeVisible();
    await expect(page.getByRole('region', { name: "The statement's first rows" }).getByText(utr)).toBeVisible();
    await expectAccessible(page, testInfo, 'statement-columns');
    await expectNoSidewaysScroll(page);
    if (testInfo.project.name === 'js' && process.env.SCREENSHOTS === '1')
      await page.screenshot({ path: 'docs/screenshots/statement-columns-360.png', fullPage: true });

    // Without an amount column it cannot be read: told beside the field, the other choices kept.
    await page.getByLabel('UTR / reference').selectOption({ label: 'Sandarbh' });
    await page.getByRole('button', { name: 'Read with these columns' }).click();
    await expect(page.locator('#column-amount-error')).toContainText('Pick the amount (or credit) column.');
    await expect(page.getByLabel('UTR / reference')).toHaveValue('1');

    await page.getByLabel('Amount', { exact: true }).selectOption({ label: 'Rashi' });
    await page.getByLabel('Date').selectOption({ label: 'Kab' });
    await page.getByRole('button', { name: 'Read with these columns' }).click();
    await flash(page, 'Read 2 credits with your columns; they are remembered for this layout.');
    await expect(page.getByRole('list', { name: 'Matched payments' }).getByText(`${team.teamName} · ₹50`)).toBeVisible();

    // The next statement of that layout is read at once.
    await page.getByRole('link', { name: 'Bank statements' }).click();
    const next = Buffer.from([header, `29-11-2026;${uniqueUtr()};50;`].join('\n'));
    await page.getByLabel('Statement file').setInputFiles({ name: 'odd-december.csv', mimeType: 'text/csv', buffer: next });
    await page.getByRole('button', { name: 'Upload and match' }).click();
    await flash(page, 'Read 1 credit from odd-december.csv.');
  });

  test('a paid team that withdrew is refunded: the UTR recorded, the team sees it', async ({
    page,
    api,
    stack,
    consoleGuard,
  }, testInfo) => {
    consoleGuard.allow(FAILED_RESOURCE(400)); // the refused UTR answers 400
    const t = await api.createTournament({ entryFee: '50' });
    const player = await api.createPlayer();
    const team = await api.registerTeam(t.id, player);
    await confirmPayment(api, t.id, player, team.rid);
    await api.request('POST', `/registrations/${t.id}/withdraw`, { token: player.token, expect: [200], what: 'withdraw' });

    await logIn(page, stack.admin.email, stack.admin.password, { from: `/login?redirectTo=${encodeURIComponent(`/admin/${t.id}`)}` });
    await page.getByRole('link', { name: 'Refunds' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Refunds' })).toBeVisible();
    const card = page.getByRole('list', { name: 'Teams to refund' }).getByRole('listitem');
    await expect(card.getByRole('heading', { name: team.teamName })).toBeVisible();
    await expect(card.getByText('ask the team for its UPI ID')).toBeVisible();

    const utrField = page.getByLabel(`UTR of the refund to ${team.teamName}`);
    await utrField.fill('1234');
    await page.getByRole('button', { name: 'Record the refund' }).click();
    await expect(page.locator(`#upiReference-${team.rid}-error`)).toContainText('A UTR has 12 digits; this has 4.');
    await expect(utrField).toHaveValue('1234');
    await expectAccessible(page, testInfo, 'refunds');
    await expectNoSidewaysScroll(page);
    if (testInfo.project.name === 'js' && process.env.SCREENSHOTS === '1')
      await page.screenshot({ path: 'docs/screenshots/refunds-360.png', fullPage: true });

    const refundUtr = uniqueUtr();
    await utrField.fill(refundUtr);
    await page.getByRole('button', { name: 'Record the refund' }).click();
    await flash(page, `${team.teamName}: refund of ₹50 recorded (UTR ${refundUtr}). The team is told.`);
    await expect(page.getByRole('heading', { level: 2, name: 'Refunded (1)' })).toBeVisible();
    await expect(page.getByText('No team is waiting for a refund.')).toBeVisible();

    // The money page sums it up, and its CSV has the team's line.
    await page.goto(`/admin/${t.id}`);
    await page.getByRole('link', { name: 'Money' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Money' })).toBeVisible();
    const refunded = page.locator('.ops-stats div').filter({ hasText: 'Refunded' });
    await expect(refunded.locator('dd')).toHaveText('₹50');
    await expect(page.getByRole('list', { name: "Each team's money" }).getByText(`Refunded ₹50 (UTR ${refundUtr})`)).toBeVisible();
    await expectAccessible(page, testInfo, 'money');
    await expectNoSidewaysScroll(page);
    if (testInfo.project.name === 'js' && process.env.SCREENSHOTS === '1')
      await page.screenshot({ path: 'docs/screenshots/money-360.png', fullPage: true });
    const csv = await page.request.get(`/admin/${t.id}/money.csv`);
    expect(csv.headers()['content-type']).toBe('text/csv; charset=utf-8');
    expect(await csv.text()).toContain(`,withdrawn,verified,`);
    expect(await csv.text()).toContain(`,50.00,${refundUtr},,,,,,\r\n`);

    await page.context().clearCookies();
    await logIn(page, player.email, player.password, { from: `/login?redirectTo=${encodeURIComponent(`/team/${t.id}`)}` });
    await expect(page.getByText(new RegExp(`^Refunded ₹50 on \\d{1,2} [A-Z][a-z]{2} \\d{4} \\(UTR ${refundUtr}\\)\\.$`))).toBeVisible();
  });

  test('the prize table: set by rank and special prizes, refused rows kept, shown on the tournament page', async ({
    page,
    api,
    stack,
    consoleGuard,
  }, testInfo) => {
    consoleGuard.allow(FAILED_RESOURCE(400)); // the refused amount answers 400
    const t = await api.createTournament();
    await logIn(page, stack.admin.email, stack.admin.password, { from: `/login?redirectTo=${encodeURIComponent(`/admin/${t.id}`)}` });
    await page.getByRole('link', { name: 'Prizes' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Prizes' })).toBeVisible();
    await page.getByLabel('1st place (₹)').fill('5,000');
    await page.getByLabel('2nd place (₹)').fill('0');
    await page.getByLabel('3rd place (₹)').fill('1500');
    await page.getByLabel('Special prize 1: name').fill('Top fragger');
    await page.getByLabel('Special prize 1: amount (₹)').fill('500');
    await page.getByRole('button', { name: 'Save the prizes' }).click();
    await expect(page.locator('#rank-2-error')).toContainText('The amount must be more than ₹0.');
    await expect(page.getByLabel('3rd place (₹)')).toHaveValue('1500');
    await expectAccessible(page, testInfo, 'prizes');
    await expectNoSidewaysScroll(page);
    if (testInfo.project.name === 'js' && process.env.SCREENSHOTS === '1')
      await page.screenshot({ path: 'docs/screenshots/prizes-360.png', fullPage: true });

    await page.getByLabel('2nd place (₹)').fill('3000');
    await page.getByRole('button', { name: 'Save the prizes' }).click();
    await flash(page, 'Prizes saved. The tournament page lists them.');
    await expect(page.getByLabel('1st place (₹)')).toHaveValue('5000');

    await page.goto(`/tournaments/${t.id}`);
    const prizes = page.locator('.td-prizes li');
    await expect(prizes).toHaveText(['1st ₹5,000', '2nd ₹3,000', '3rd ₹1,500', 'Top fragger ₹500']);
    await expectNoSidewaysScroll(page);
    if (testInfo.project.name === 'js' && process.env.SCREENSHOTS === '1')
      await page
        .locator('dl.td-facts')
        .filter({ has: page.locator('.td-prizes') })
        .screenshot({ path: 'docs/screenshots/tournament-prizes-360.png' });
  });

  test('a prize payout: the winner gives its UPI ID and PAN, the organiser records the UTR and TDS, the team sees it', async ({
    page,
    api,
    stack,
    javaScript,
    consoleGuard,
  }, testInfo) => {
    consoleGuard.allow(FAILED_RESOURCE(400)); // the refused UPI ID and TDS answer 400
    const { t, players, teams } = await finalPlayed(api);
    const [champion, runnerUp] = [players[1]!, players[0]!]; // team 1 finished 1st, team 0 2nd

    // The champion's captain is asked on the team page; a bad UPI ID and a missing PAN are named, the values kept.
    await logIn(page, champion.email, champion.password, { from: `/login?redirectTo=${encodeURIComponent(`/team/${t.id}`)}` });
    const prize = page.locator('.team-prize');
    await expect(prize.getByText('Your team won ₹5,500: 1st place ₹5,000, Top fragger ₹500.')).toBeVisible();
    await page.getByLabel('UPI ID to be paid').fill('champion at okaxis');
    await page.getByRole('button', { name: 'Save the UPI ID' }).click();
    await expect(page.locator('#upiId-error')).toContainText('handle@provider');
    await expect(page.getByLabel('UPI ID to be paid')).toHaveValue('champion at okaxis');
    await page.getByLabel('UPI ID to be paid').fill('champion@okaxis');
    await page.getByRole('button', { name: 'Save the UPI ID' }).click();
    await expect(page.locator('#pan-error')).toContainText('Enter the PAN');
    await expectAccessible(page, testInfo, 'team-prize');
    await expectNoSidewaysScroll(page);
    if (javaScript && process.env.SCREENSHOTS === '1')
      await page.screenshot({ path: 'docs/screenshots/team-prize-360.png', fullPage: true });
    await page.getByLabel('PAN of the person paid').fill('abcde1234f');
    await page.getByRole('button', { name: 'Save the UPI ID' }).click();
    await flash(page, 'Saved: the organiser will pay your prize ₹5,500 to champion@okaxis.');
    await expect(prize.getByText(/The organiser will pay it to champion@okaxis \(PAN given\)/)).toBeVisible();

    // The organiser: the winners, where to pay; the runner-up has not said yet.
    await page.context().clearCookies();
    await logIn(page, stack.admin.email, stack.admin.password, { from: `/login?redirectTo=${encodeURIComponent(`/admin/${t.id}`)}` });
    await page.getByRole('link', { name: 'Prize payouts' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Prize payouts' })).toBeVisible();
    const toPay = page.getByRole('list', { name: 'Prizes to pay' });
    const championCard = toPay.getByRole('listitem').filter({ hasText: teams[1]!.teamName });
    await expect(championCard.getByText('champion@okaxis')).toBeVisible();
    await expect(championCard.getByText('ABCDE1234F')).toBeVisible();
    await expect(toPay.getByRole('listitem').filter({ hasText: teams[0]!.teamName }).getByText('has not given the UPI ID')).toBeVisible();
    await page.getByRole('button', { name: 'Ask them again' }).click();
    await flash(page, 'Asked 1 winning team for the UPI ID to be paid.');

    const tds = page.getByLabel('TDS withheld (₹)');
    await page.getByLabel(`UTR of the payout to ${teams[1]!.teamName}`).fill(uniqueUtr());
    await tds.fill('9000');
    await page.getByRole('button', { name: 'Record the payout' }).click();
    await expect(page.locator(`#tds-${teams[1]!.rid}-error`)).toContainText('The TDS cannot be more than the prize, ₹5,500.');
    await expectAccessible(page, testInfo, 'payouts');
    await expectNoSidewaysScroll(page);
    if (javaScript && process.env.SCREENSHOTS === '1') await page.screenshot({ path: 'docs/screenshots/payouts-360.png', fullPage: true });
    const utr = uniqueUtr();
    await page.getByLabel(`UTR of the payout to ${teams[1]!.teamName}`).fill(utr);
    await tds.fill('1650');
    await page.getByRole('button', { name: 'Record the payout' }).click();
    await flash(page, `${teams[1]!.teamName}: prize of ₹5,500 recorded (UTR ${utr}). The team is told.`);
    await expect(page.getByRole('heading', { level: 2, name: 'Paid (1)' })).toBeVisible();

    // The money page sums the prizes paid, and the CSV has the TDS and the PAN.
    await page.getByRole('link', { name: 'Money' }).click();
    await expect(page.locator('.ops-stats div').filter({ hasText: 'Prizes paid' }).locator('dd')).toHaveText(
      '₹5,500 (₹1,650 TDS withheld)',
    );
    const csv = await (await page.request.get(`/admin/${t.id}/money.csv`)).text();
    expect(csv).toContain(`,5500.00,1650.00,3850.00,${utr},champion@okaxis,ABCDE1234F\r\n`);

    // The team sees it; the runner-up was asked.
    await page.context().clearCookies();
    await logIn(page, champion.email, champion.password, { from: `/login?redirectTo=${encodeURIComponent(`/team/${t.id}`)}` });
    await expect(
      prize.getByText(new RegExp(`^Prize ₹5,500 paid on \\d{1,2} [A-Z][a-z]{2} \\d{4}: ₹3,850 sent after ₹1,650 TDS \\(UTR ${utr}\\)\\.$`)),
    ).toBeVisible();
    await page.context().clearCookies();
    await logIn(page, runnerUp.email, runnerUp.password, { from: `/login?redirectTo=${encodeURIComponent('/notifications')}` });
    await expect(page.getByText('won a prize in').first()).toBeVisible();
  });
});

/**
 * A free tournament of four teams with a prize table (1st ₹5,000, 2nd ₹3,000, Top fragger ₹500, the PAN asked)
 * and one stage, "Final", played and completed: team 1 finished 1st, team 0 2nd; team 1 is named top fragger.
 */
async function finalPlayed(api: GatewayApi) {
  const admin = await api.adminToken();
  const t = await api.createTournament({ entryFee: '0', maxTeams: '16' });
  const players = await Promise.all(Array.from({ length: 4 }, () => api.createPlayer()));
  const teams: Registration[] = [];
  for (const p of players) teams.push(await api.registerTeam(t.id, p, `Squad ${unique()}`));
  const prizes = {
    ranks: [
      { rank: 1, amount: 5000 },
      { rank: 2, amount: 3000 },
    ],
    specials: [{ label: 'Top fragger', amount: 500 }],
    askPan: true,
  };
  await api.request('PUT', `/tournaments/${t.id}/prizes`, { token: admin, json: prizes, what: 'prizes' });
  const base = `/tournaments/${t.id}/stages`;
  const stage = await api.request<StageJson>('POST', base, { token: admin, json: { name: 'Final', lobbySize: 4 }, what: 'create stage' });
  const drawn = await api.request<StageJson>('POST', `${base}/${stage.id}/groups`, {
    token: admin,
    json: { method: 'registration' },
    what: 'draw',
  });
  await api.request('POST', `${base}/${stage.id}/matches`, {
    token: admin,
    json: { matches: [{ day: 1, matchNo: 1, map: 'Erangel', time: '18:00' }] },
    what: 'schedule',
  });
  await api.request('POST', `${base}/${stage.id}/publish`, { token: admin, json: {}, what: 'publish' });
  const order = [teams[1]!, teams[0]!, teams[2]!, teams[3]!];
  const results = order.map((team, i) => ({ teamId: team.rid, position: i + 1, finishes: 4 - i, wins: i === 0 ? 1 : 0 }));
  await api.request('PUT', `/tournaments/${t.id}/points-table/matches/1/1`, {
    token: admin,
    json: { groupId: drawn.groups[0]!.id, results },
    what: 'results',
  });
  await api.request('POST', `${base}/${stage.id}/complete`, { token: admin, json: {}, what: 'complete' });
  await api.request('PUT', `/tournaments/${t.id}/payouts/awards`, {
    token: admin,
    json: { awards: [{ label: 'Top fragger', registrationId: teams[1]!.rid }] },
    what: 'awards',
  });
  return { t, players, teams };
}
