import type { Page } from '@playwright/test';
import { coverPng, playerMatches, submitPaymentReference, unique, uniqueUtr, type Player, type Registration } from './support/api';
import { expect, expectAccessible, expectNoSidewaysScroll, FAILED_RESOURCE, test } from './support/fixtures';
import { logIn, signedInPhone } from './support/ui';

// Issue 29 (decisions 065, 069, 070): a site admin approves an organiser; the organiser creates a tournament and
// invites a payments person and two lobby managers; each does its job on a phone (360 px); an announcement to
// Group B reaches Group B's players and nobody else; the activity log names every step and who took it.
// With JavaScript and without: every step is a plain form post.

const shots = process.env.SCREENSHOTS === '1';
const flash = (page: Page, text: string | RegExp) => page.getByRole('status').filter({ hasText: text });

/** A datetime-local value in India time (the app's zone), days from now. */
function istLocal(days: number): string {
  return new Date(Date.now() + days * 86_400_000 + 5.5 * 3_600_000).toISOString().slice(0, 16);
}

interface StageJson {
  id: number;
  name: string;
  groups: { id: number; name: string; slots: { slot: number; teamId: number; teamName: string }[] }[];
}

async function inviteToCrew(page: Page, tid: number, who: Player, role: 'Payments' | 'Lobby manager', scope?: string): Promise<string> {
  await page.goto(`/admin/${tid}/staff`);
  await page.getByLabel('Username or email').fill(who.username);
  await page.getByLabel('Role').selectOption({ label: role });
  if (scope) await page.getByLabel(scope).check();
  await page.getByRole('button', { name: 'Send the invitation' }).click();
  const told = flash(page, `Invited ${who.username} as ${role.toLowerCase()}`);
  await expect(told).toBeVisible();
  const link = /\/staff-invitations\/[A-Za-z0-9_-]+/.exec((await told.textContent()) ?? '')?.[0];
  expect(link, 'the invitation link in the message').toBeTruthy();
  return link!;
}

async function accept(page: Page, link: string, tid: number, tournamentName: string, role: string) {
  await page.goto(link);
  await expect(page.getByRole('heading', { level: 1, name: `Join the crew of ${tournamentName}` })).toBeVisible();
  await page.getByRole('button', { name: 'Accept the invitation' }).click();
  await expect(page).toHaveURL(`/admin/${tid}`);
  await expect(flash(page, `You joined the crew of ${tournamentName} as ${role}.`)).toBeVisible();
}

test.describe('an organiser and its crew', () => {
  test('approved organiser, its tournament run by a payments person and two lobby managers, an announcement to Group B, the activity log', async ({
    page,
    browser,
    api,
    stack,
    javaScript,
    baseURL,
    consoleGuard,
  }, testInfo) => {
    test.setTimeout(180_000);
    consoleGuard.allow(FAILED_RESOURCE(400)); // the application with a bad link, answered 400 with the form
    const tag = unique();
    const [owner, payer, lobbyA, lobbyB] = await Promise.all([
      api.createPlayer(),
      api.createPlayer(),
      api.createPlayer(),
      api.createPlayer(),
    ]);
    const orgName = `Crew Test Esports ${tag}`;

    // 1. A player applies to organise.
    await logIn(page, owner.email, owner.password, { from: `/login?${new URLSearchParams({ redirectTo: '/organisers/apply' })}` });
    await expect(page).toHaveURL('/organisers/apply');
    await expectAccessible(page, testInfo, 'organisers-apply');
    await expectNoSidewaysScroll(page);
    await page.getByLabel('Organisation name').fill(orgName);
    await page.getByLabel('Contact', { exact: true }).fill(owner.phone);
    await page.getByLabel('YouTube link').fill('https://example.com/not-youtube');
    await page.getByRole('button', { name: 'Send the application' }).click();
    // Bad input: told beside the field, nothing lost.
    await expect(page.getByRole('link', { name: /YouTube link must be an https link to youtube\.com/ })).toBeVisible();
    await expect(page.getByLabel('Organisation name')).toHaveValue(orgName);
    await page.getByLabel('YouTube link').fill('');
    if (shots) await page.screenshot({ path: 'docs/screenshots/organisers-apply-360.png', fullPage: true });
    await page.getByRole('button', { name: 'Send the application' }).click();
    await expect(page).toHaveURL(/\/organisers\/crew-test-esports-/);
    const slug = new URL(page.url()).pathname.split('/').pop()!;
    await expect(page.getByText('This page is not public yet')).toBeVisible();

    // 2. The site admin approves it.
    const admin = await signedInPhone(browser, baseURL!, javaScript, stack.admin, '/admin/organisers');
    await expectAccessible(admin, testInfo, 'admin-organisers');
    await expectNoSidewaysScroll(admin);
    if (shots) await admin.screenshot({ path: 'docs/screenshots/admin-organisers-360.png', fullPage: true });
    await admin.getByRole('button', { name: `Approve ${orgName}` }).click();
    await expect(flash(admin, `${orgName} is approved`)).toBeVisible();
    await admin.context().close();

    // The organiser puts its logo and links on its page.
    await page.goto('/admin/organiser');
    await expectAccessible(page, testInfo, 'admin-organiser');
    await expectNoSidewaysScroll(page);
    await page.getByLabel('About (optional)').fill('Weekly BGMI cups for college squads.');
    await page.getByLabel('Instagram link').fill('https://instagram.com/crewtest');
    await page.getByLabel('Logo (optional)').setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: await coverPng() });
    await page.getByRole('button', { name: 'Save page' }).click();
    await expect(page).toHaveURL(`/organisers/${slug}`);
    await expect(flash(page, 'Your organiser page is saved.')).toBeVisible();
    await expect(page.locator('img.org-logo')).toHaveAttribute('src', /^\/images\/[0-9a-f]+-128\.webp$/);
    await expect(page.getByRole('link', { name: /^Instagram/ })).toHaveAttribute('href', 'https://instagram.com/crewtest');

    // 3. The organiser adds a tournament (open for registration now).
    await page.goto('/admin/add-tournament');
    const tName = `Crew Cup ${tag}`;
    const fields: Record<string, string> = {
      Name: tName,
      Game: 'BGMI',
      Description: 'A cup run by a crew.',
      Overview: 'One qualifier, two lobbies.',
      'Registration opens': istLocal(-1),
      'Registration closes': istLocal(5),
      Start: istLocal(6),
      End: istLocal(7),
      'Max teams': '4',
      'Entry fee (₹)': '50',
      'Prize pool': '₹2,000',
      Format: 'Squad',
      Platform: 'Mobile',
    };
    for (const [label, value] of Object.entries(fields)) await page.getByLabel(label, { exact: true }).fill(value);
    await page.getByLabel('Status').selectOption('Registration Ongoing');
    await page.getByRole('button', { name: 'Add tournament' }).click();
    await expect(page).toHaveURL(/\/admin\/\d+$/);
    const tid = Number(new URL(page.url()).pathname.split('/').pop());
    expect((await api.getTournament(tid)).organiser).toMatchObject({ slug, name: orgName });
    await page.goto(`/tournaments/${tid}`);
    await expect(page.locator('.td-org')).toContainText(`Organised by ${orgName}`);
    await expect(page.locator('.td-org img')).toHaveAttribute('src', /-128\.webp$/);

    // Four teams register and send their UPI references (through the API: not this test's subject).
    const captains = await Promise.all(Array.from({ length: 4 }, () => api.createPlayer()));
    const teams: Registration[] = [];
    for (const c of captains) teams.push(await api.registerTeam(tid, c, `Crew Squad ${unique()}`));
    for (const c of captains) await submitPaymentReference(api, tid, c, uniqueUtr());

    // 4. The payments person is invited, accepts and verifies every payment.
    const payLink = await inviteToCrew(page, tid, payer, 'Payments');
    if (shots) await page.screenshot({ path: 'docs/screenshots/admin-crew-360.png', fullPage: true });
    await expectAccessible(page, testInfo, 'admin-crew');
    const pay = await signedInPhone(browser, baseURL!, javaScript, payer, '/notifications');
    await pay.goto(payLink);
    await expectAccessible(pay, testInfo, 'staff-invitation');
    await accept(pay, payLink, tid, tName, 'payments');
    await pay.getByRole('link', { name: 'Verify 4' }).click();
    await expect(pay).toHaveURL(`/admin/${tid}/registrations?payment=submitted`);
    await expectNoSidewaysScroll(pay);
    for (const team of teams) await pay.getByLabel(`Tick ${team.teamName}`).check();
    await pay.getByRole('button', { name: 'Verify ticked' }).click();
    await expect(flash(pay, '4 payments verified.')).toBeVisible();
    // Nothing beyond its job: the stages page is refused by the gateway.
    const refused = await pay.goto(`/admin/${tid}/stages`);
    expect(refused?.status()).toBe(403);
    await pay.context().close();

    // The organiser draws a stage of two lobbies and schedules a match (through the API, as the organiser).
    const ownerToken = (await api.login(owner.email, owner.password)).token;
    const base = `/tournaments/${tid}/stages`;
    let stage = await api.request<StageJson>('POST', base, { token: ownerToken, json: { name: 'Qualifiers', lobbySize: 2 } });
    stage = await api.request<StageJson>('POST', `${base}/${stage.id}/groups`, { token: ownerToken, json: { method: 'registration' } });
    stage = await api.request<StageJson>('POST', `${base}/${stage.id}/publish`, { token: ownerToken, json: {} });
    await api.request('POST', `${base}/${stage.id}/matches`, {
      token: ownerToken,
      json: { matches: [{ day: 1, matchNo: 1, map: 'Erangel', time: '18:00' }] },
    });
    const groupOf = (name: string) => stage.groups.find((g) => g.name === name)!;
    const captainOf = (teamId: number) => captains[teams.findIndex((t) => t.rid === teamId)]!;
    const groupA = groupOf('A');
    const groupB = groupOf('B');

    // 5. Two lobby managers, one per group.
    const linkA = await inviteToCrew(page, tid, lobbyA, 'Lobby manager', 'Qualifiers · Group A');
    const linkB = await inviteToCrew(page, tid, lobbyB, 'Lobby manager', 'Qualifiers · Group B');
    const a = await signedInPhone(browser, baseURL!, javaScript, lobbyA, '/notifications');
    await accept(a, linkA, tid, tName, 'lobby manager');
    const b = await signedInPhone(browser, baseURL!, javaScript, lobbyB, '/notifications');
    await accept(b, linkB, tid, tName, 'lobby manager');

    // 6. Each lobby manager runs its own group from "My groups" on its phone: the room, then the results.
    const rooms = { A: { id: '5100101', pw: 'alpha-pw' }, B: { id: '5100202', pw: 'bravo-pw' } } as const;
    for (const [manager, name] of [
      [a, 'A'],
      [b, 'B'],
    ] as const) {
      await manager.goto(`/admin/${tid}`);
      await manager.getByRole('link', { name: 'My groups' }).click();
      await expect(manager).toHaveURL(`/admin/${tid}/my-groups`);
      // Its group only.
      await expect(manager.getByRole('heading', { level: 2, name: /^Group / })).toHaveText([`Group ${name} · Qualifiers`]);
      await expectNoSidewaysScroll(manager);
      if (name === 'A') await expectAccessible(manager, testInfo, 'my-groups');
      await manager.getByLabel(`Room ID, group ${name}`).fill(rooms[name].id);
      await manager.getByLabel(`Password, group ${name}`).fill(rooms[name].pw);
      await manager.getByRole('button', { name: 'Save room' }).click();
      await expect(manager.getByLabel(`Room ID, group ${name}`)).toHaveValue(rooms[name].id);
      if (shots && name === 'B') await manager.screenshot({ path: 'docs/screenshots/my-groups-360.png', fullPage: true });
      await manager.getByRole('link', { name: /^Enter results: D1 M1/ }).click();
      await expect(manager.getByRole('heading', { level: 1, name: `Group ${name} · Day 1 · Match 1` })).toBeVisible();
      await expectNoSidewaysScroll(manager);
      const positions = manager.locator('input[name^="position."]');
      await expect(positions).toHaveCount(2);
      for (let i = 0; i < 2; i++) {
        await positions.nth(i).fill(String(i + 1));
        await manager
          .locator('input[name^="finishes."]')
          .nth(i)
          .fill(String(2 - i));
      }
      await manager.getByRole('button', { name: `Save group ${name}` }).click();
      await expect(flash(manager, `Group ${name} results saved`)).toBeVisible();
    }
    // The room reached its group's teams only.
    const roomsOf = async (p: Player) => (await playerMatches(api, tid, p)).map((m) => m.matchId);
    expect(await roomsOf(captainOf(groupA.slots[0]!.teamId))).toContain(rooms.A.id);
    expect(await roomsOf(captainOf(groupA.slots[0]!.teamId))).not.toContain(rooms.B.id);

    // 7. Group B's lobby manager announces a delay to Group B: the only audience it is offered.
    await b.goto(`/admin/${tid}/announcements`);
    await expectAccessible(b, testInfo, 'admin-announcements');
    await expectNoSidewaysScroll(b);
    await expect(b.getByLabel('To').locator('option')).toHaveText(['Qualifiers · Group B']);
    await b.getByLabel('Message').fill('Group B delayed 15 minutes');
    await b.getByRole('button', { name: 'Post the announcement' }).click();
    await expect(flash(b, 'Announced to Qualifiers · Group B.')).toBeVisible();
    if (shots) await b.screenshot({ path: 'docs/screenshots/admin-announcements-360.png', fullPage: true });

    // It reaches Group B's players (the gateway's worker delivers it) and nobody else.
    const announcementsOf = async (p: Player) =>
      (await api.request<{ items: { kind: string; body: string }[] }>('GET', '/notifications', { token: p.token })).items
        .filter((n) => n.kind === 'announcement')
        .map((n) => n.body);
    for (const slot of groupB.slots)
      await expect.poll(() => announcementsOf(captainOf(slot.teamId)), { timeout: 15_000 }).toEqual(['Group B delayed 15 minutes']);
    for (const slot of groupA.slots) expect(await announcementsOf(captainOf(slot.teamId))).toEqual([]);
    // Listed on Group B's page, not on Group A's nor on the tournament's.
    await page.goto(`/tournaments/${tid}/stages/${stage.id}/groups/${groupB.id}`);
    await expect(page.getByRole('region', { name: 'Announcements' })).toContainText('Group B delayed 15 minutes');
    await expectAccessible(page, testInfo, 'group-announcements');
    await page.goto(`/tournaments/${tid}/stages/${stage.id}/groups/${groupA.id}`);
    await expect(page.getByText('Group B delayed 15 minutes')).toHaveCount(0);
    await page.goto(`/tournaments/${tid}`);
    await expect(page.getByText('Group B delayed 15 minutes')).toHaveCount(0);
    // Withdrawn mid-event: Group A's lobby manager is removed and its very next request has no right left.
    await page.goto(`/admin/${tid}/staff`);
    await page.getByRole('button', { name: `Remove ${lobbyA.username}` }).click();
    await expect(flash(page, 'Removed from the crew')).toBeVisible();
    await a.goto(`/admin/${tid}/my-groups`);
    await expect(a).toHaveURL(`/login?${new URLSearchParams({ redirectTo: `/admin/${tid}/my-groups` })}`);
    await a.context().close();
    await b.context().close();

    // 8. The activity log names every step and who took it.
    await page.goto(`/admin/${tid}/activity`);
    await expectAccessible(page, testInfo, 'admin-activity');
    await expectNoSidewaysScroll(page);
    if (shots) await page.screenshot({ path: 'docs/screenshots/admin-activity-360.png', fullPage: true });
    const log = page.locator('.ops-activity');
    for (const [who, what] of [
      [owner.username, `${payer.username} as Payments`],
      [payer.username, /set payments/i],
      [owner.username, /drew the groups/i],
      [owner.username, `${lobbyA.username} as Lobby manager`],
      [lobbyA.username, `${lobbyA.username} as Lobby manager`],
      [lobbyA.username, /posted rooms: Qualifiers · Group A day 1 match 1/i],
      [lobbyB.username, /saved match results: Qualifiers · Group B · day 1 match 1/i],
      [owner.username, `${lobbyA.username} (Lobby manager)`],
      [lobbyB.username, /posted an announcement: Qualifiers · Group B · “Group B delayed 15 minutes”/i],
    ] as const) {
      await expect(log.locator('li').filter({ hasText: who }).filter({ hasText: what }).first(), `${who}: ${what}`).toBeVisible();
    }
  });
});
