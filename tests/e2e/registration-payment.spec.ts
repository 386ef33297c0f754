import type { Page } from '@playwright/test';
import { submitPaymentReference, unique, uniquePhone, uniqueUtr, type Player } from './support/api';
import { expect, expectAccessible, expectNoSidewaysScroll, FAILED_RESOURCE, test } from './support/fixtures';
import { logIn } from './support/ui';

/** Team registration → UPI payment → My Tournaments, as a player does it (spec §2, issue 7). */

function teamOf(tag = unique()) {
  return {
    teamName: `Soul ${tag}`,
    player1Username: `Mortal_${tag}`,
    player2Username: `Viper_${tag}`,
    player3Username: `Regaltos_${tag}`,
    player4Username: `Owais_${tag}`,
    substitute1Username: `Ronak_${tag}`,
  };
}
type Team = ReturnType<typeof teamOf>;

const LABELS: Record<keyof Team, string> = {
  teamName: 'Team name',
  player1Username: 'Player 1 (IGL)',
  player2Username: 'Player 2',
  player3Username: 'Player 3',
  player4Username: 'Player 4',
  substitute1Username: 'Substitute 1',
};

async function fillTeam(page: Page, team: Team) {
  for (const [field, label] of Object.entries(LABELS) as [keyof Team, string][]) {
    await page.getByLabel(label, { exact: false }).first().fill(team[field]);
  }
}

async function expectTeamKept(page: Page, team: Team) {
  for (const [field, label] of Object.entries(LABELS) as [keyof Team, string][]) {
    await expect(page.getByLabel(label, { exact: false }).first()).toHaveValue(team[field]);
  }
}

async function openAs(page: Page, player: Player, path: string) {
  await logIn(page, player.email, player.password, { from: `/login?redirectTo=${encodeURIComponent(path)}` });
  await expect(page).toHaveURL(path);
}

test.describe('team registration and payment', () => {
  test('a new account registers a team, pays by UPI, sends the UTR and finds it in My Tournaments', async ({
    page,
    api,
    consoleGuard,
  }, testInfo) => {
    consoleGuard.allow(FAILED_RESOURCE(400)); // the refused UTR answers 400 (the browser logs it)
    const t = await api.createTournament({ entryFee: '150', maxTeams: '25' });
    const u = unique();
    const account = { email: `squad-${u}@test.example`, phone: uniquePhone(), username: `squad_${u}`, password: `secret-${u}-pass` };

    // Anonymous: Register goes to /login, which comes back here after signing up.
    await page.goto(`/register/${t.id}`);
    await expect(page).toHaveURL(`/login?redirectTo=${encodeURIComponent(`/register/${t.id}`)}`);
    await page.getByRole('link', { name: 'Create an account' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Create an account' })).toBeVisible();
    await page.getByLabel('Email').fill(account.email);
    await page.getByLabel('Mobile number').fill(account.phone);
    await page.getByLabel('Username').fill(account.username);
    await page.getByLabel('Password', { exact: true }).fill(account.password);
    await page.getByRole('button', { name: 'Create account' }).click();
    // Signing up logs the player in and comes straight back (issue 19).
    await expect(page).toHaveURL(`/register/${t.id}`);

    await expect(page.getByRole('heading', { level: 1, name: 'Register your team' })).toBeVisible();
    await expect(page.getByText(t.name)).toBeVisible();
    await expect(page.getByText('25 of 25 slots left')).toBeVisible();
    await expect(page.getByText('₹150')).toBeVisible();
    await expectAccessible(page, testInfo);
    await expectNoSidewaysScroll(page);

    const team = teamOf(u);
    await fillTeam(page, team);
    await page.getByRole('button', { name: 'Register team' }).click();

    await expect(page).toHaveURL(/\/payment\?rid=\d+$/);
    const rid = Number(new URL(page.url()).searchParams.get('rid'));
    await expect(page.getByRole('status').filter({ hasText: `${team.teamName} is registered.` })).toBeVisible();
    await expect(page.getByRole('heading', { level: 1, name: 'Pay the entry fee' })).toBeVisible();
    await expect(page.locator('.pay-amount')).toHaveText(/₹150/);

    const qr = page.getByRole('img', { name: /UPI QR code: pay ₹150/ });
    await expect(qr).toBeVisible();
    await expect(qr).toHaveAttribute('width', '250');
    await expect(qr).toHaveAttribute('src', /^data:image\/svg\+xml;base64,/);
    expect(await qr.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(250);

    const href = await page.getByRole('link', { name: 'Pay with UPI app' }).getAttribute('href');
    expect(href).toMatch(/^upi:\/\/pay\?/);
    const upi = new URLSearchParams(href!.slice('upi://pay?'.length));
    expect(upi.get('am')).toBe('150.00');
    expect(upi.get('cu')).toBe('INR');
    expect(upi.get('pa')).toMatch(/@/);
    expect(upi.get('tn')).toBe(`CR-${rid} ${team.teamName}`);
    await expect(page.getByRole('status').filter({ hasText: 'Payment status: Pending' })).toBeVisible();
    await expectAccessible(page, testInfo);
    await expectNoSidewaysScroll(page);

    // A bad UTR is refused beside the field, and kept.
    await page.getByLabel('UPI reference (UTR)').fill('12 34');
    await page.getByRole('button', { name: 'Send reference' }).click();
    await expect(page.locator('#upiReference-error')).toContainText('A UTR has 12 digits; this has 4.');
    await expect(page.getByLabel('UPI reference (UTR)')).toHaveValue('12 34');

    // Written as the app shows it, in groups: stored as the 12 digits.
    const [first, second] = [uniqueUtr(), uniqueUtr()];
    await page.getByLabel('UPI reference (UTR)').fill(`${first.slice(0, 4)} ${first.slice(4, 8)} ${first.slice(8)}`);
    await page.getByRole('button', { name: 'Send reference' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Payment status: Submitted' })).toBeVisible();
    await expect(page.getByText(`UPI reference: ${first}`)).toBeVisible();

    // A typo can be corrected until the organiser verifies it.
    await page.getByLabel('UPI reference (UTR)').fill(second);
    await page.getByRole('button', { name: 'Update reference' }).click();
    await expect(page.getByText(`UPI reference: ${second}`)).toBeVisible();

    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: /Your profile/ })
      .click();
    await page.getByRole('navigation', { name: 'Your account' }).getByRole('link', { name: 'My Tournaments' }).click();
    await expect(page).toHaveURL('/my-tournaments');
    const card = page.getByRole('article').filter({ hasText: t.name });
    await expect(card).toContainText(team.teamName);
    await expect(card).toContainText('BGMI');
    await expect(card).toContainText('Submitted');
    await expectAccessible(page, testInfo);
    await card.getByRole('link', { name: /View Details/ }).click();

    await expect(page).toHaveURL(`/my-tournaments/${t.id}/info`);
    const actions = page.getByRole('navigation', { name: 'This tournament' });
    await expect(actions.getByRole('link', { name: 'View Team' })).toHaveAttribute('href', `/team/${t.id}`);
    await expect(actions.getByRole('link', { name: 'Points Table' })).toHaveAttribute('href', `/tournaments/${t.id}/points-table`);
    await expect(actions.getByRole('link', { name: 'Matches' })).toHaveAttribute('href', `/tournament/${t.id}/matches`);
    await expectAccessible(page, testInfo);
    await actions.getByRole('link', { name: 'Pay' }).click();
    await expect(page).toHaveURL(`/payment?rid=${rid}`);

    // The gateway holds exactly one registration, with the corrected reference.
    const mine = await api.request<{ rid: number; paymentStatus: string; paymentReference: string }[]>('GET', '/registrations/user', {
      token: (await api.login(account.email, account.password)).token,
    });
    expect(mine.map((r) => [r.rid, r.paymentStatus, r.paymentReference])).toEqual([[rid, 'submitted', second]]);
  });

  test('the UTR must be the 12 digits of a payment no other team sent: each refusal beside the field, with where to find it, and the typing kept', async ({
    page,
    api,
    consoleGuard,
  }, testInfo) => {
    consoleGuard.allow(FAILED_RESOURCE(400));
    consoleGuard.allow(FAILED_RESOURCE(409));
    const t = await api.createTournament({ entryFee: '100' });
    const [player, rival] = [await api.createPlayer(), await api.createPlayer()];
    const reg = await api.registerTeam(t.id, player);
    await api.registerTeam(t.id, rival);
    const taken = uniqueUtr();
    await submitPaymentReference(api, t.id, rival, taken);
    const where =
      'In your UPI app, open the payment: the UTR is the 12-digit "UPI Ref. No." (Paytm, BHIM), "UTR" (PhonePe) or "UPI transaction ID" (Google Pay).';

    await openAs(page, player, `/payment?rid=${reg.rid}`);
    const field = page.getByLabel('UPI reference (UTR)');
    for (const [typed, message] of [
      ['12345678901', 'A UTR has 12 digits; this has 11.'],
      ['000000000000', 'A UTR is never one digit repeated.'],
      ['T2603051830ABC', 'A UTR has only digits.'],
      [`${taken.slice(0, 6)}-${taken.slice(6)}`, 'This UTR is already on another registration.'],
    ]) {
      await field.fill(typed);
      await page.getByRole('button', { name: 'Send reference' }).click();
      await expect(page.locator('#upiReference-error')).toContainText(message);
      if (!message.startsWith('This UTR')) await expect(page.locator('#upiReference-error')).toContainText(where);
      await expect(field).toHaveAccessibleDescription(new RegExp(message.replace(/[.]/g, '\\.')));
      await expect(field).toHaveValue(typed);
      await expect(page.getByRole('status').filter({ hasText: 'Payment status: Pending' })).toBeVisible();
    }
    const text = await page.content();
    expect(text).not.toContain(taken); // the other team's UTR appears only in what this player typed
    await expectAccessible(page, testInfo, 'payment-utr-refused');
    await expectNoSidewaysScroll(page);

    const mine = uniqueUtr();
    await field.fill(`${mine.slice(0, 4)}-${mine.slice(4, 8)}-${mine.slice(8)}`);
    await page.getByRole('button', { name: 'Send reference' }).click();
    await expect(page.getByText(`UPI reference: ${mine}`)).toBeVisible();
  });

  test('a double submit never makes two registrations: back and submit again lands on the same payment page', async ({ page, api }) => {
    const t = await api.createTournament();
    const player = await api.createPlayer();
    await openAs(page, player, `/register/${t.id}`);
    const team = teamOf();
    await fillTeam(page, team);
    await page.getByRole('button', { name: 'Register team' }).click();
    await expect(page).toHaveURL(/\/payment\?rid=\d+$/);
    const first = page.url();

    // The same form posted again (a second click, or a page restored by Back and submitted): same place, no new team.
    const again = await page.request.post(`/register/${t.id}`, { form: team, maxRedirects: 0 });
    expect(again.status()).toBe(302);
    expect(again.headers()['location']).toBe(new URL(first).pathname + new URL(first).search);

    // Back on the registration page: links to the team and its payment instead of the form.
    await page.goto(`/register/${t.id}`);
    await expect(page.getByText(`You have already registered ${team.teamName}`)).toBeVisible();
    await expect(page.getByRole('button', { name: 'Register team' })).toHaveCount(0);
    await page.getByRole('link', { name: 'Payment' }).click();
    await expect(page).toHaveURL(first);

    const mine = await api.request<{ rid: number }[]>('GET', '/registrations/user', { token: player.token });
    expect(mine).toHaveLength(1);
    expect(first).toContain(`rid=${mine[0]!.rid}`);
    expect((await api.getTournament(t.id)).registeredTeams).toBe(1);
  });

  test('payment: no rid, an unknown rid and another player’s rid reveal nothing', async ({ page, api, consoleGuard }) => {
    consoleGuard.allow(FAILED_RESOURCE(400));
    consoleGuard.allow(FAILED_RESOURCE(404));
    const t = await api.createTournament();
    const owner = await api.createPlayer();
    const theirs = await api.registerTeam(t.id, owner, `Secret ${unique()}`);
    const other = await api.createPlayer();

    await openAs(page, other, '/payment');
    await expect(page.getByRole('alert')).toHaveText('No registration ID provided — please register first.');

    for (const rid of [String(theirs.rid), '999999999', 'abc']) {
      const res = await page.goto(`/payment?rid=${rid}`);
      expect(res?.status()).toBe(404);
      await expect(page.getByRole('alert')).toHaveText('Registration not found!');
      expect(await page.content()).not.toContain(theirs.teamName);
    }
  });

  test('My Tournaments before any registration says so and links to the tournaments', async ({ page, api }, testInfo) => {
    const player = await api.createPlayer();
    await openAs(page, player, '/my-tournaments');
    await expect(page.getByText('You have not registered for any tournaments.')).toBeVisible();
    await expectAccessible(page, testInfo);
    await page.getByRole('link', { name: 'Browse tournaments' }).click();
    await expect(page).toHaveURL('/tournaments');
  });

  test('a free tournament says so and shows no QR', async ({ page, api }) => {
    const t = await api.createTournament({ entryFee: '0' });
    const player = await api.createPlayer();
    const reg = await api.registerTeam(t.id, player);
    await openAs(page, player, `/payment?rid=${reg.rid}`);
    await expect(page.getByText('This tournament is free: no payment needed.')).toBeVisible();
    await expect(page.getByRole('img', { name: /UPI QR code/ })).toHaveCount(0);
    await expect(page.getByRole('link', { name: 'Pay with UPI app' })).toHaveCount(0);
  });
});

test.describe('registration refused', () => {
  test('a closed tournament shows "Registration is closed" with its status instead of the form', async ({ page, api }) => {
    const t = await api.createTournament({ status: 'Upcoming' });
    const player = await api.createPlayer();
    await openAs(page, player, `/register/${t.id}`);
    await expect(page.getByRole('alert')).toContainText('Registration is closed. Status: Upcoming.');
    await expect(page.getByRole('button', { name: 'Register team' })).toHaveCount(0);
  });

  test('a full tournament refuses: on load, and when the last slot goes while the form is open (input kept)', async ({
    page,
    api,
    consoleGuard,
  }) => {
    consoleGuard.allow(FAILED_RESOURCE(409));
    const full = await api.createTournament({ maxTeams: '2' });
    await api.registerTeam(full.id, await api.createPlayer());
    await api.registerTeam(full.id, await api.createPlayer());
    const player = await api.createPlayer();
    await openAs(page, player, `/register/${full.id}`);
    await expect(page.getByText('0 of 2 slots left')).toBeVisible();
    await expect(page.getByRole('alert')).toContainText('Registration is full');
    await expect(page.getByRole('button', { name: 'Register team' })).toHaveCount(0);

    const t = await api.createTournament({ maxTeams: '2' });
    await api.registerTeam(t.id, await api.createPlayer());
    await page.goto(`/register/${t.id}`);
    await expect(page.getByText('1 of 2 slots left')).toBeVisible();
    const team = teamOf();
    await fillTeam(page, team);
    await api.registerTeam(t.id, await api.createPlayer()); // someone else takes the last slot meanwhile
    await page.getByRole('button', { name: 'Register team' }).click();
    await expect(page.getByRole('alert')).toContainText('Registration is full.');
    await expectTeamKept(page, team);
    expect((await api.getTournament(t.id)).registeredTeams).toBe(2);
  });

  test('a duplicate team name and an IGN already playing elsewhere are refused beside their fields, every input kept', async ({
    page,
    api,
    consoleGuard,
  }, testInfo) => {
    consoleGuard.allow(FAILED_RESOURCE(409));
    consoleGuard.allow(FAILED_RESOURCE(400));
    const t = await api.createTournament();
    const rival = await api.registerTeam(t.id, await api.createPlayer(), `Rival ${unique()}`);
    const player = await api.createPlayer();
    await openAs(page, player, `/register/${t.id}`);

    const team = { ...teamOf(), teamName: rival.teamName.toUpperCase() };
    await fillTeam(page, team);
    await page.getByRole('button', { name: 'Register team' }).click();
    await expect(page.locator('#teamName-error')).toHaveText(/A team with this name is already registered\./);
    await expect(page.locator('#teamName')).toHaveAttribute('aria-invalid', 'true');
    await expectTeamKept(page, team);
    await expectAccessible(page, testInfo);

    // Missing required players: the form's own check, same rules as the gateway, inputs kept.
    await page.getByLabel('Player 4').first().fill('');
    await page.getByLabel('Team name').fill(`Fresh ${unique()}`);
    await page.getByRole('button', { name: 'Register team' }).click();
    await expect(page.locator('#player4Username-error')).toHaveText(/Player 4 IGN is required\./);
    await expect(page.getByLabel('Player 1 (IGL)').first()).toHaveValue(team.player1Username);

    const mine = await api.request<unknown[]>('GET', '/registrations/user', { token: player.token });
    expect(mine).toHaveLength(0);
  });
});
