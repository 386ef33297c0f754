import { unique, uniquePhone, type Registration } from '../e2e/support/api';
import { expect, test } from '../e2e/support/fixtures';
import { expectSignedIn, logIn, tableRows } from '../e2e/support/ui';

/**
 * The main flows through nginx → two webs → nginx → two gateways → PostgreSQL (scripts/test-cluster.mjs
 * starts the cluster and kills instances while these run). Data comes from the gateway API as in
 * tests/e2e; what a player or organiser does goes through the browser.
 */

test('home and tournaments list a new tournament', async ({ page, api }) => {
  const t = await api.createTournament({}, { cover: true });
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await page.goto('/tournaments');
  await expect(page.getByRole('link', { name: new RegExp(t.name) }).first()).toBeVisible();
  await page.goto(`/tournaments/${t.id}`);
  await expect(page.getByRole('heading', { level: 1, name: t.name })).toBeVisible();
});

test('sign up (which logs in), register a team, see the payment page', async ({ page, api }) => {
  const t = await api.createTournament();
  const u = unique();
  const account = { email: `cl-${u}@test.example`, phone: uniquePhone(), username: `cl_${u}`, password: `secret-${u}-pass` };
  await page.goto(`/register?redirectTo=${encodeURIComponent(`/register/${t.id}`)}`);
  await page.getByLabel('Email').fill(account.email);
  await page.getByLabel('Mobile number').fill(account.phone);
  await page.getByLabel('Username').fill(account.username);
  await page.getByLabel('Password', { exact: true }).fill(account.password);
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(page).toHaveURL(`/register/${t.id}`);
  await expectSignedIn(page, account.username);

  const team = { teamName: `Cluster ${u}`, p1: `One_${u}`, p2: `Two_${u}`, p3: `Three_${u}`, p4: `Four_${u}` };
  await page.getByLabel('Team name').fill(team.teamName);
  await page.getByLabel('Player 1 (IGL)').first().fill(team.p1);
  await page.getByLabel('Player 2').first().fill(team.p2);
  await page.getByLabel('Player 3').first().fill(team.p3);
  await page.getByLabel('Player 4').first().fill(team.p4);
  await page.getByRole('button', { name: 'Register team' }).click();
  await expect(page).toHaveURL(/\/payment\?rid=\d+$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Pay the entry fee' })).toBeVisible();
  await expect(page.getByRole('img', { name: /UPI QR code: pay ₹150/ })).toBeVisible();

  // Every page after this one may be served by either web process: the session cookie is good on both.
  for (let i = 0; i < 4; i++) {
    await page.goto('/my-tournaments');
    await expect(page.getByText(team.teamName)).toBeVisible();
  }
});

test('the admin enters points and the points table shows them', async ({ page, api, stack }) => {
  const t = await api.createTournament();
  const teams: Registration[] = [];
  for (const name of ['Alpha', 'Bravo']) teams.push(await api.registerTeam(t.id, await api.createPlayer(), `${name} ${unique()}`));
  const [a, b] = teams;

  const path = `/admin/add-points/${t.id}`;
  await logIn(page, stack.admin.email, stack.admin.password, { from: `/login?redirectTo=${encodeURIComponent(path)}` });
  await expect(page).toHaveURL(path);
  await page.getByLabel('Day', { exact: true }).selectOption('1');
  await page.getByLabel('Match', { exact: true }).selectOption('1');
  await page.getByRole('button', { name: 'Open' }).click();
  await expect(page.getByRole('heading', { level: 2, name: 'Day 1, match 1' })).toBeVisible();
  const field = (team: Registration, label: string) => page.getByRole('textbox', { name: `${team.teamName} ${label}`, exact: true });
  await field(a, 'Position').fill('1'); // the win is derived from the position (decision 029)
  await field(a, 'Finishes').fill('4'); // at most 4 × (2 − 1) in a lobby of two squads
  await field(b, 'Position').fill('2');
  await field(b, 'Finishes').fill('3');
  await page.getByRole('button', { name: 'Save day 1, match 1' }).click();
  await expect(page.locator('.flash').filter({ hasText: 'Points table submitted successfully!' })).toBeVisible();

  await page.goto(`/tournaments/${t.id}/points-table`);
  const rows = await tableRows(page);
  const total = (name: string) => rows.find((r) => r.some((c) => c.includes(name)))?.at(-1);
  expect(total(a.teamName)).toBe('14'); // bgis-10: 10 for first place + 4 finishes
  expect(total(b.teamName)).toBe('9'); // 6 + 3
});
