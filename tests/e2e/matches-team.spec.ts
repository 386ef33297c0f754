import type { Page } from '@playwright/test';
import { confirmPayment, submitPaymentReference, unique, uniqueUtr, type GatewayApi, type Player } from './support/api';
import { expect, expectAccessible, expectNoSidewaysScroll, FAILED_RESOURCE, test } from './support/fixtures';
import { logIn } from './support/ui';

/** A tournament with a confirmed squad (payment verified) and two matches on two days, rooms set by the admin. */
async function scheduledTournament(api: GatewayApi, options: { confirmed?: boolean } = {}) {
  const t = await api.createTournament();
  const player = await api.createPlayer();
  const team = await api.registerTeam(t.id, player);
  if (options.confirmed !== false) await confirmPayment(api, t.id, player, team.rid);
  const u = unique();
  const rooms = [
    { day: 1, matchNo: 1, map: 'Erangel', matchId: `R1${u}`, password: `pw1-${u}`, time: '18:30:00' },
    { day: 2, matchNo: 1, map: 'Miramar', matchId: `R2${u}`, password: `pw2-${u}`, time: '20:15' },
  ];
  for (const room of rooms) await api.createMatch(t.id, room);
  return { t, player, team, rooms };
}

async function logInAs(page: Page, player: Player) {
  await logIn(page, player.email, player.password);
  await expect(page).not.toHaveURL(/\/login/);
}

/** The text of the wa.me link of a match card. */
async function whatsAppText(page: Page, matchHeading: string, day: string) {
  const card = page.getByRole('region', { name: day }).getByRole('article', { name: matchHeading });
  const href = await card.getByRole('link', { name: /Share on WhatsApp/ }).getAttribute('href');
  expect(href).toMatch(/^https:\/\/wa\.me\/\?text=/);
  return new URL(href!).searchParams.get('text');
}

test.describe('matches and room details', () => {
  test('a confirmed player sees both matches by day with room ID, password and a WhatsApp text for the squad', async ({
    page,
    api,
    javaScript,
  }) => {
    const { t, player, rooms } = await scheduledTournament(api);
    await logInAs(page, player);
    await page.goto(`/tournament/${t.id}/matches`);

    await expect(page.getByRole('heading', { level: 1, name: 'Matches' })).toBeVisible();
    await expect(page.getByRole('link', { name: t.name })).toBeVisible();
    await expect(page.getByRole('navigation', { name: 'Your account' })).toBeVisible();
    const day1 = page.getByRole('region', { name: 'Day 1' });
    const day2 = page.getByRole('region', { name: 'Day 2' });
    await expect(day1.getByRole('article', { name: 'Match 1' })).toContainText('Erangel');
    await expect(day1.getByRole('article', { name: 'Match 1' })).toContainText('18:30 IST');
    await expect(day2.getByRole('article', { name: 'Match 1' })).toContainText('Miramar');
    await expect(day2.getByRole('article', { name: 'Match 1' })).toContainText('20:15 IST');
    await expect(page.getByText('18:30:00')).toHaveCount(0);
    for (const room of rooms) {
      await expect(page.getByText(room.matchId, { exact: true })).toBeVisible();
      await expect(page.getByText(room.password, { exact: true })).toBeVisible();
    }
    await expect(page.getByText('only for registered teams')).toHaveCount(0);

    expect(await whatsAppText(page, 'Match 1', 'Day 1')).toBe(
      `${t.name}\nDay 1 · Match 1 · Erangel · 18:30 IST\nRoom ID: ${rooms[0]!.matchId}\nPassword: ${rooms[0]!.password}`,
    );
    expect(await whatsAppText(page, 'Match 1', 'Day 2')).toContain(`Room ID: ${rooms[1]!.matchId}\nPassword: ${rooms[1]!.password}`);
    const share = day1.getByRole('link', { name: /Share on WhatsApp/ });
    await expect(share).toHaveAttribute('target', '_blank');
    await expect(share).toHaveAttribute('rel', 'noopener noreferrer');

    // Copy buttons only when JavaScript runs: two per match (room ID, password).
    await expect(page.getByRole('button', { name: /^Copy / })).toHaveCount(javaScript ? 4 : 0);
    await expectNoSidewaysScroll(page);

    // Issue 20: the team's matches as a calendar file (decision 050), a plain link with or without JavaScript.
    const add = page.getByRole('link', { name: 'Add to calendar' });
    await expect(add).toHaveAttribute('href', `/tournament/${t.id}/matches.ics`);
    if (javaScript && process.env.SCREENSHOTS === '1') await page.screenshot({ path: 'docs/screenshots/matches-calendar-360.png' });
    const [download] = await Promise.all([page.waitForEvent('download'), add.click()]);
    expect(download.suggestedFilename()).toMatch(/-matches\.ics$/);
    const file = await page.request.get(`/tournament/${t.id}/matches.ics`);
    expect(file.headers()['content-type']).toBe('text/calendar; charset=utf-8');
    const ics = await file.text();
    expect(ics.match(/BEGIN:VEVENT/g)).toHaveLength(2);
    for (const room of rooms) {
      expect(ics).not.toContain(room.matchId);
      expect(ics).not.toContain(room.password);
    }
  });

  test('@js Copy puts the room ID on the clipboard and says "Copied"', async ({ page, api, context }) => {
    const { t, player, rooms } = await scheduledTournament(api);
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await logInAs(page, player);
    await page.goto(`/tournament/${t.id}/matches`);
    const card = page.getByRole('region', { name: 'Day 2' }).getByRole('article', { name: 'Match 1' });
    await card.getByRole('button', { name: 'Copy Room ID of match 1' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Copied Room ID of match 1.' })).toBeAttached();
    await expect(card.getByRole('button', { name: /^Copied Room ID/ })).toBeVisible();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(rooms[1]!.matchId);
  });

  test('a registered team that has not paid, or whose payment is not yet verified, sees the schedule, why there are no room details, and the way to pay', async ({
    page,
    api,
  }, testInfo) => {
    const { t, player, team, rooms } = await scheduledTournament(api, { confirmed: false });
    await logInAs(page, player);
    await page.goto(`/tournament/${t.id}/matches`);
    const notice = page.getByText('Room details appear once your payment is verified.');
    await expect(notice).toBeVisible();
    await expect(page.getByRole('region', { name: 'Day 1' }).getByRole('article', { name: 'Match 1' })).toContainText('Erangel');
    const pay = page.getByRole('link', { name: 'Pay the entry fee' });
    await expect(pay).toHaveAttribute('href', `/payment?rid=${team.rid}`);
    for (const room of rooms) expect(await page.content()).not.toContain(room.password);
    await expect(page.getByRole('link', { name: /Share on WhatsApp/ })).toHaveCount(0);
    await expectNoSidewaysScroll(page);
    await expectAccessible(page, testInfo, 'matches-awaiting-payment');

    // UTR sent: still no room until the organiser has checked it.
    const utr = uniqueUtr();
    await submitPaymentReference(api, t.id, player, utr);
    await page.reload();
    await expect(notice).toBeVisible();
    await expect(page.getByText('The organiser is checking your UPI reference.')).toBeVisible();
    await page.getByRole('link', { name: 'See your payment' }).click();
    await expect(page).toHaveURL(`/payment?rid=${team.rid}`);

    // Verified: the room details are there.
    await api.request('PUT', `/registrations/admin/${team.rid}/payment`, {
      token: await api.adminToken(),
      json: { paymentStatus: 'verified', expectedUpiReference: utr },
      expect: [200],
    });
    await page.goto(`/tournament/${t.id}/matches`);
    await expect(page.getByText(rooms[0]!.matchId, { exact: true })).toBeVisible();
    await expect(notice).toHaveCount(0);
  });

  test('a logged-in player without a team sees the schedule but never the room ID or password', async ({ page, api }) => {
    const { t, rooms } = await scheduledTournament(api);
    const outsider = await api.createPlayer();
    await logInAs(page, outsider);
    const res = await page.goto(`/tournament/${t.id}/matches`);
    expect(res?.headers()['cache-control']).toBe('private, no-store');

    await expect(page.getByRole('region', { name: 'Day 1' }).getByRole('article', { name: 'Match 1' })).toContainText('Erangel');
    await expect(page.getByRole('region', { name: 'Day 2' }).getByRole('article', { name: 'Match 1' })).toContainText('Miramar');
    await expect(page.getByText('Room IDs and passwords are only for registered teams.')).toBeVisible();
    await expect(page.getByRole('link', { name: 'Register your team' })).toHaveAttribute('href', `/tournaments/${t.id}`);
    await expect(page.getByRole('link', { name: /Share on WhatsApp/ })).toHaveCount(0);
    const html = await page.content();
    for (const room of rooms) {
      expect(html).not.toContain(room.matchId);
      expect(html).not.toContain(room.password);
    }
  });

  test('an anonymous visitor is asked to log in to view matches and comes back after logging in', async ({ page, api }) => {
    const { t, player, rooms } = await scheduledTournament(api);
    await page.goto(`/tournament/${t.id}/matches`);
    await expect(page).toHaveURL(`/login?redirectTo=${encodeURIComponent(`/tournament/${t.id}/matches`)}`);
    await expect(page.getByText('Please log in to view matches.')).toBeVisible();
    await expect(page.getByRole('alert')).toHaveCount(0); // a notice, not an error

    await logIn(page, player.email, player.password);
    await expect(page).toHaveURL(`/tournament/${t.id}/matches`);
    await expect(page.getByText(rooms[0]!.matchId, { exact: true })).toBeVisible();

    // The team pages name their own reason.
    await page.getByRole('button', { name: 'Logout' }).click();
    await expect(page).toHaveURL('/login');
    await page.goto(`/team/${t.id}`);
    await expect(page.getByText('You must be logged in to view team details.')).toBeVisible();
    await page.goto(`/tournaments/${t.id}/update-team`);
    await expect(page.getByText('You must be logged in to update the team.')).toBeVisible();
  });

  test('an unknown tournament says "Tournament not found."', async ({ page, api, consoleGuard }) => {
    consoleGuard.allow(FAILED_RESOURCE(404));
    const player = await api.createPlayer();
    await logInAs(page, player);
    const res = await page.goto('/tournament/987654321/matches');
    expect(res?.status()).toBe(404);
    await expect(page.getByRole('alert')).toHaveText('Tournament not found.');
  });
});

test.describe('team', () => {
  test('the team page shows the squad; Edit Team changes the name and player 2', async ({ page, api }) => {
    const t = await api.createTournament();
    const player = await api.createPlayer();
    const team = await api.registerTeam(t.id, player);
    await logInAs(page, player);

    const res = await page.goto(`/team/${t.id}`);
    expect(res?.headers()['cache-control']).toBe('private, no-store');
    await expect(page.getByRole('heading', { level: 1, name: 'Your team' })).toBeVisible();
    await expect(page.getByRole('heading', { level: 2, name: team.teamName })).toBeVisible();
    await expect(page.getByRole('link', { name: t.name })).toBeVisible();
    const substitute = page.locator('dt', { hasText: 'Substitute 1' }).locator('xpath=following-sibling::dd[1]');
    await expect(substitute).toContainText('—');

    await page.getByRole('link', { name: 'Edit Team' }).click();
    await expect(page).toHaveURL(`/tournaments/${t.id}/update-team`);
    await expect(page.getByLabel('Team name')).toHaveValue(team.teamName);
    const newName = `Renamed ${unique()}`;
    const newIgn = `p2_${unique()}`;
    await page.getByLabel('Team name').fill(newName);
    await page.getByLabel('Player 2').first().fill(newIgn);
    await page.getByRole('button', { name: 'Save team' }).click();

    await expect(page).toHaveURL(`/team/${t.id}`);
    await expect(page.getByRole('status').filter({ hasText: 'Team updated successfully!' })).toBeVisible();
    await expect(page.getByRole('heading', { level: 2, name: newName })).toBeVisible();
    await expect(page.locator('dt', { hasText: 'Player 2' }).locator('xpath=following-sibling::dd[1]')).toHaveText(newIgn);

    // The flash is shown once.
    await page.reload();
    await expect(page.getByRole('heading', { level: 2, name: newName })).toBeVisible();
    await expect(page.getByText('Team updated successfully!')).toHaveCount(0);
  });

  test("another team's name is refused beside the field with every input kept", async ({ page, api, consoleGuard }) => {
    consoleGuard.allow(FAILED_RESOURCE(409));
    const t = await api.createTournament();
    const player = await api.createPlayer();
    await api.registerTeam(t.id, player);
    const rival = await api.registerTeam(t.id, await api.createPlayer());
    await logInAs(page, player);

    await page.goto(`/tournaments/${t.id}/update-team`);
    const newIgn = `p2_${unique()}`;
    await page.getByLabel('Team name').fill(rival.teamName.toUpperCase());
    await page.getByLabel('Player 2').first().fill(newIgn);
    await page.getByRole('button', { name: 'Save team' }).click();

    await expect(page.getByRole('alert')).toContainText('A team with this name is already registered.');
    await expect(page.getByLabel('Team name')).toHaveAccessibleDescription(/A team with this name is already registered\./);
    await expect(page.getByLabel('Team name')).toHaveValue(rival.teamName.toUpperCase());
    await expect(page.getByLabel('Player 2').first()).toHaveValue(newIgn);
    await expect(page).toHaveURL(`/tournaments/${t.id}/update-team`);
  });

  test('a player without a team gets a 404 saying so, with the way to the tournament', async ({ page, api, consoleGuard }) => {
    consoleGuard.allow(FAILED_RESOURCE(404));
    const t = await api.createTournament();
    await logInAs(page, await api.createPlayer());
    const res = await page.goto(`/team/${t.id}`);
    expect(res?.status()).toBe(404);
    await expect(page.getByText('You have not registered a team for this tournament.')).toBeVisible();
    await expect(page.getByRole('link', { name: 'Go to the tournament' })).toHaveAttribute('href', `/tournaments/${t.id}`);
  });
});

test('matches, team and update-team pages are accessible at 360 px', async ({ page, api }, testInfo) => {
  const { t, player } = await scheduledTournament(api);
  await logInAs(page, player);
  expect(page.viewportSize()?.width).toBe(360);
  for (const path of [`/tournament/${t.id}/matches`, `/team/${t.id}`, `/tournaments/${t.id}/update-team`]) {
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expectNoSidewaysScroll(page);
    await expectAccessible(page, testInfo);
  }
});
