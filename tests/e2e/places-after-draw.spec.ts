import type { Page } from '@playwright/test';
import { teamFields } from '../support/builders';
import { type Player, type Registration } from './support/api';
import { expect, expectAccessible, expectNoSidewaysScroll, FAILED_RESOURCE, test } from './support/fixtures';
import type { StageJson } from './support/stages';
import { logIn } from './support/ui';

// Issue 27, item 2 (decision 052), JavaScript on and off: the stage is published → a drawn team withdraws →
// its slot shows empty → the organiser fills it from the waitlist on the stage page → the team sees its
// group and slot. Set up through the gateway API; the organiser's and the player's steps through the pages.

const screenshots = process.env.SCREENSHOTS === '1';

async function openAs(page: Page, who: { email: string; password: string }, path: string) {
  await logIn(page, who.email, who.password, { from: `/login?redirectTo=${encodeURIComponent(path)}` });
  await expect(page).toHaveURL(path);
}

test('after the draw a withdrawal leaves an empty slot, and the organiser seats the waitlisted team in it', async ({
  page,
  api,
  javaScript,
}, testInfo) => {
  const admin = await api.adminToken();
  const t = await api.createTournament({ maxTeams: '4', entryFee: '0' });
  const players: Player[] = [];
  const teams: Registration[] = [];
  for (let i = 0; i < 4; i++) {
    players.push(await api.createPlayer());
    teams.push(await api.registerTeam(t.id, players[i]!));
  }
  const waiting = await api.createPlayer();
  const waitTeam = teamFields();
  await api.request('POST', `/registrations/${t.id}`, {
    token: waiting.token,
    json: { ...waitTeam, waitlist: true },
    what: 'join waitlist',
  });

  const base = `/tournaments/${t.id}/stages`;
  const created = await api.request<StageJson>('POST', base, { token: admin, json: { name: 'Qualifiers', lobbySize: 2 }, what: 'stage' });
  await api.request('POST', `${base}/${created.id}/groups`, { token: admin, json: { method: 'registration' }, what: 'draw' });
  const stage = await api.request<StageJson>('POST', `${base}/${created.id}/publish`, { token: admin, json: {}, what: 'publish' });
  const groupA = stage.groups.find((g) => g.name === 'A')!;
  const leaving = groupA.slots[0]!;
  const leaver = players[teams.findIndex((r) => r.rid === leaving.teamId)]!;

  // A drawn team withdraws after publishing: nobody is promoted, its slot is empty.
  await api.request('POST', `/registrations/${t.id}/withdraw`, { token: leaver.token, json: {}, what: 'withdraw' });

  const stagePage = `/admin/${t.id}/stages/${stage.id}`;
  await openAs(page, api.stack.admin, stagePage);
  const slots = page.locator('table.st-slots');
  await expect(slots.locator('tr').filter({ hasText: 'Empty' }).locator('td.num')).toHaveText(String(leaving.slot));
  await expect(slots).not.toContainText(leaving.teamName);
  const fill = page.locator('#fill-slot');
  await expect(fill.getByLabel('Empty slot')).toHaveValue(`${groupA.id}:${leaving.slot}`);
  await fill.getByLabel('Team').selectOption({ label: `${waitTeam.teamName} (waitlist #1)` });
  await expectNoSidewaysScroll(page);
  await expectAccessible(page, testInfo, 'stage page with an empty slot');
  if (screenshots && javaScript) await fill.screenshot({ path: 'docs/screenshots/fill-empty-slot-360.png' });
  await fill.getByRole('button', { name: 'Seat the team' }).click();

  await expect(page.getByText(`${waitTeam.teamName} is in Group A, slot ${leaving.slot}`)).toBeVisible();
  await expect(slots.locator('tr').filter({ hasText: waitTeam.teamName }).locator('td.num')).toHaveText(String(leaving.slot));
  await expect(page.locator('#fill-slot')).toContainText('Every slot has a team.');

  // The seated team finds its group and slot on its team page (a free tournament: confirmed at once).
  await page.context().clearCookies();
  await openAs(page, waiting, `/team/${t.id}`);
  await expect(page.locator('.placement')).toHaveText(`Qualifiers · Group A · Slot ${leaving.slot}`);
  await expect(page.locator('.place').first()).toHaveText('confirmed');
  await expectNoSidewaysScroll(page);
});

test('once the groups are published, the register page says so; a form opened before is refused and keeps its input', async ({
  page,
  api,
  consoleGuard,
}) => {
  consoleGuard.allow(FAILED_RESOURCE(409)); // the refusal is the page's answer
  const admin = await api.adminToken();
  const t = await api.createTournament({ maxTeams: '4', entryFee: '0' });
  for (let i = 0; i < 2; i++) await api.registerTeam(t.id, await api.createPlayer());
  const base = `/tournaments/${t.id}/stages`;
  const stage = await api.request<StageJson>('POST', base, { token: admin, json: { name: 'Qualifiers', lobbySize: 2 }, what: 'stage' });
  await api.request('POST', `${base}/${stage.id}/groups`, { token: admin, json: { method: 'registration' }, what: 'draw' });

  // A player opens the form while registration is open (drawn, not yet published) and fills it in.
  const late = await api.createPlayer();
  await openAs(page, late, `/register/${t.id}`);
  const team = teamFields();
  await page.getByLabel('Team name').fill(team.teamName);
  await page.getByRole('textbox', { name: 'Player 1 (IGL)', exact: true }).fill(team.player1Username);
  await page.getByRole('textbox', { name: 'Player 2', exact: true }).fill(team.player2Username);
  await page.getByRole('textbox', { name: 'Player 3', exact: true }).fill(team.player3Username);
  await page.getByRole('textbox', { name: 'Player 4', exact: true }).fill(team.player4Username);
  // Meanwhile the organiser publishes the groups: the post is refused, and nothing typed is lost.
  await api.request('POST', `${base}/${stage.id}/publish`, { token: admin, json: {}, what: 'publish' });
  await page.getByRole('button', { name: /Register/ }).click();
  await expect(page.getByRole('alert').first()).toContainText('Registration has closed: the groups are published.');
  await expect(page.getByLabel('Team name')).toHaveValue(team.teamName);

  // Opened afresh, the page says registration is closed and the tournament is in progress (decision 051).
  await page.goto(`/register/${t.id}`);
  await expect(page.getByText('Registration is closed. Status: In progress.')).toBeVisible();
  await expect(page.getByLabel('Team name')).toHaveCount(0);
});
