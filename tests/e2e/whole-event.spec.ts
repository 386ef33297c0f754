import type { Page } from '@playwright/test';
import { teamFields } from '../support/builders';
import { submitPaymentReference, uniqueUtr, unique, type Player, type Registration } from './support/api';
import { expect, expectAccessible, expectNoSidewaysScroll, FAILED_RESOURCE, test } from './support/fixtures';
import type { StackInfo } from './support/stack.mjs';
import { logIn } from './support/ui';

/**
 * Issue 27, "Done means": a whole paid event, run by the organiser through the web pages, with no message, status
 * or page that contradicts what happened. The walk was a 100-squad cup (4 groups of 25 → a Final of 16); here at
 * a smaller scale: 12 paid squads and one on the waitlist, Qualifiers in 3 groups of 4 (top 2 advance) → a Final
 * of 6. Players' registrations and UTRs come through the API; everything the organiser does is a page.
 */

const flash = (page: Page, text: string) => expect(page.locator('.flash').filter({ hasText: text })).toBeVisible();
const panel = (page: Page, id: string) => page.locator(`section#${id}`);
const screenshots = process.env.SCREENSHOTS === '1';

async function asAdmin(page: Page, stack: StackInfo, path: string) {
  await logIn(page, stack.admin.email, stack.admin.password, { from: `/login?redirectTo=${encodeURIComponent(path)}` });
  await expect(page).toHaveURL(path);
}

async function asPlayer(page: Page, player: Player, path: string) {
  await page.context().clearCookies();
  await logIn(page, player.email, player.password, { from: `/login?redirectTo=${encodeURIComponent(path)}` });
  await expect(page).toHaveURL(path);
}

/** One group's results on the results page, placements in slot order (slot 1 wins) and finishes 3, 2, 1, 0 … */
async function enterResults(page: Page, stageUrl: string, day: number, match: number, group: string, teams: number) {
  await page.goto(stageUrl);
  const picker = panel(page, 'results');
  await picker.getByLabel('Day').selectOption(String(day));
  await picker.getByLabel('Match').selectOption(String(match));
  await picker.getByLabel('Group').selectOption({ label: `Group ${group}` });
  await picker.getByRole('button', { name: 'Enter results' }).click();
  await expect(page.getByRole('heading', { level: 1, name: `Group ${group} · Day ${day} · Match ${match}` })).toBeVisible();
  const positions = page.locator('input[name^="position."]');
  const finishes = page.locator('input[name^="finishes."]');
  await expect(positions).toHaveCount(teams);
  for (let i = 0; i < teams; i++) {
    await positions.nth(i).fill(String(i + 1));
    await finishes.nth(i).fill(String(Math.max(0, 3 - i)));
  }
  await page.getByRole('button', { name: `Save group ${group}` }).click();
  await flash(page, `Group ${group} results saved`);
}

/** The shown group's teams in slot order. */
async function slotTeams(page: Page): Promise<string[]> {
  const rows = await panel(page, 'groups').locator('table.st-slots tbody tr').all();
  const out: string[] = [];
  for (const row of rows) out.push(((await row.locator('td').nth(1).innerText()) ?? '').trim());
  return out;
}

test.describe('a whole event, start to finish', () => {
  test('12 paid squads and a waitlist → Qualifiers (3 groups of 4) → a Final of 6 → Champions', async ({
    page,
    api,
    stack,
    consoleGuard,
    javaScript,
  }, testInfo) => {
    test.setTimeout(300_000);
    consoleGuard.allow(FAILED_RESOURCE(409));
    const u = unique();
    const t = await api.createTournament({
      name: `Monsoon Cup ${u}`,
      entryFee: '50',
      maxTeams: '12',
      payeeUpiId: 'cupdesk@okaxis',
      payeeName: 'Cup Desk',
    });
    const players: Player[] = [];
    const teams: Registration[] = [];
    for (let i = 0; i < 13; i++) {
      const p = await api.createPlayer();
      players.push(p);
      const teamName = `Squad ${String(i + 1).padStart(2, '0')} ${u}`;
      if (i < 12) {
        teams.push(await api.registerTeam(t.id, p, teamName));
        await submitPaymentReference(api, t.id, p, uniqueUtr());
      } else {
        // The thirteenth finds it full and joins the waitlist.
        const json = { ...teamFields({ teamName }), waitlist: true };
        teams.push(await api.request<Registration>('POST', `/registrations/${t.id}`, { token: p.token, json, what: 'join waitlist' }));
      }
    }
    const waitlisted = { player: players[12]!, team: teams[12]! };

    // Payments: the twelve submitted UTRs verified in one action.
    await asAdmin(page, stack, `/admin/${t.id}/registrations?payment=submitted`);
    await page.getByRole('link', { name: 'Compact rows' }).click();
    await expect(page).toHaveURL(`/admin/${t.id}/registrations?payment=submitted&rows=compact`);
    await page.getByRole('link', { name: 'Select all shown (12)' }).click();
    await expect(page.getByText('12 teams ticked.')).toBeVisible();
    await page.getByRole('button', { name: 'Verify ticked' }).click();
    await flash(page, '12 payments verified.');

    // Two stages: Qualifiers (lobbies of 4, top 2 of each advance) and a Final of 6.
    await page.goto(`/admin/${t.id}/stages`);
    await page.getByLabel('Name').fill('Qualifiers');
    await page.getByLabel('Lobby size').fill('4');
    await page.getByLabel('Advance per group').fill('2');
    await page.getByRole('button', { name: 'Add stage' }).click();
    await flash(page, 'Stage “Qualifiers” added');
    const qualifiersUrl = new URL(page.url()).pathname;
    await page.goto(`/admin/${t.id}/stages`);
    await page.getByLabel('Name').fill('Final');
    await page.getByLabel('Lobby size').fill('6');
    await page.getByRole('button', { name: 'Add stage' }).click();
    await flash(page, 'Stage “Final” added');
    const finalUrl = new URL(page.url()).pathname;

    // Qualifiers: draw in registration order, publish.
    await page.goto(qualifiersUrl);
    await expect(page.getByRole('heading', { name: 'Entrants: 12' })).toBeVisible();
    await panel(page, 'draw').getByLabel('Registration order').check();
    await panel(page, 'draw').getByRole('button', { name: 'Generate groups' }).click();
    await flash(page, 'Groups generated');
    await expect(page.getByRole('heading', { name: 'Groups: 3' })).toBeVisible();
    await page.getByRole('button', { name: 'Publish stage' }).click();
    await flash(page, 'Stage published');

    // Published: registration and the waitlist are closed; the public page says In progress, with no Register.
    const late = await api.createPlayer();
    await expect(api.registerTeam(t.id, late)).rejects.toThrow(/Registration has closed/);
    await page.goto(`/tournaments/${t.id}`);
    await expect(page.locator('.td-sub .badge')).toHaveText('In progress');
    await expect(page.getByRole('link', { name: 'Register', exact: true })).toHaveCount(0);

    // One match for every group, its rooms, and each group's results.
    await page.goto(qualifiersUrl);
    await page.locator('[id="map.0"]').fill('Erangel');
    await page.locator('[id="time.0"]').fill('18:00');
    await page.getByRole('button', { name: 'Schedule for every group' }).click();
    await flash(page, 'Matches scheduled for every group');
    const rooms = panel(page, 'rooms').locator('input[name^="room."]');
    const passwords = panel(page, 'rooms').locator('input[name^="pw."]');
    await expect(rooms).toHaveCount(3);
    for (let i = 0; i < 3; i++) {
      await rooms.nth(i).fill(`81000${i}`);
      await passwords.nth(i).fill(`q-${i}`);
    }
    await page.getByRole('button', { name: 'Save rooms' }).click();
    await flash(page, 'Rooms saved (3)');
    for (const group of ['A', 'B', 'C']) await enterResults(page, qualifiersUrl, 1, 1, group, 4);
    await page.goto(qualifiersUrl);
    await expect(page.getByText('3 of 3 group-matches have results').first()).toBeVisible();
    await page.getByLabel('Complete Qualifiers: every match has results or is marked not played').check();
    await page.getByRole('button', { name: 'Complete stage' }).click();
    await flash(page, 'Stage completed');

    // The Final: the six qualifiers, one lobby, drawn, published, played, completed.
    await page.goto(finalUrl);
    await expect(page.getByRole('heading', { name: 'Entrants: 6' })).toBeVisible();
    await panel(page, 'draw').getByLabel('Registration order').check();
    await panel(page, 'draw').getByRole('button', { name: 'Generate groups' }).click();
    await flash(page, 'Groups generated');
    const finalists = await slotTeams(page);
    expect(finalists).toHaveLength(6);
    await page.getByRole('button', { name: 'Publish stage' }).click();
    await flash(page, 'Stage published');
    await page.locator('[id="day.0"]').selectOption('2');
    await page.locator('[id="map.0"]').fill('Miramar');
    await page.locator('[id="time.0"]').fill('19:00');
    await page.getByRole('button', { name: 'Schedule for every group' }).click();
    await flash(page, 'Matches scheduled for every group');
    await panel(page, 'rooms').locator('input[name^="room."]').first().fill('820001');
    await panel(page, 'rooms').locator('input[name^="pw."]').first().fill('final-pw');
    await page.getByRole('button', { name: 'Save rooms' }).click();
    await flash(page, 'Rooms saved (1)');
    await enterResults(page, finalUrl, 2, 1, 'A', 6);
    await page.goto(finalUrl);
    await page.getByLabel('Complete Final: every match has results or is marked not played').check();
    await page.getByRole('button', { name: 'Complete stage' }).click();
    await flash(page, 'Stage completed');

    const champion = finalists[0]!;
    const third = finalists[2]!;
    const byName = (name: string) => teams.findIndex((x) => x.teamName === name);
    const eliminated = teams.slice(0, 12).find((x) => !finalists.includes(x.teamName))!;

    // The public page: Completed, the podium, the final table one tap away; never Register.
    await page.context().clearCookies();
    await page.goto(`/tournaments/${t.id}`);
    await expect(page.locator('.td-sub .badge')).toHaveText('Completed');
    const podium = page.getByRole('region', { name: 'Final standings' });
    await expect(podium.getByText(`Champions: ${champion}`)).toBeVisible();
    await expect(podium.getByRole('list', { name: 'Podium' }).getByRole('listitem')).toHaveCount(3);
    await expect(page.getByRole('link', { name: 'Register', exact: true })).toHaveCount(0);
    await expectNoSidewaysScroll(page);
    await expectAccessible(page, testInfo, 'whole event: the tournament page at the end');
    if (screenshots && !javaScript) await page.screenshot({ path: 'docs/screenshots/whole-event-tournament-360.png', fullPage: true });
    await page.getByRole('link', { name: 'Final table: the final standings' }).click();
    await expect(page.getByRole('table').first()).toContainText(champion);
    if (screenshots && !javaScript) await page.screenshot({ path: 'docs/screenshots/whole-event-final-table-360.png', fullPage: true });

    // What each team was told: the champion, the third, a team out in the Qualifiers.
    await asPlayer(page, players[byName(champion)]!, '/notifications');
    const list = page.locator('main');
    await expect(list).toContainText(`Champions of ${t.name}`);
    await expect(list).toContainText(`qualified from Qualifiers of ${t.name} for Final`);
    await expect(list).not.toContainText('did not qualify');
    await expectAccessible(page, testInfo, 'whole event: the champion’s notifications');
    if (screenshots && !javaScript) await page.screenshot({ path: 'docs/screenshots/whole-event-champion-360.png', fullPage: true });
    await asPlayer(page, players[byName(third)]!, '/notifications');
    await expect(page.locator('main')).toContainText(`You finished 3rd of 6 in ${t.name}`);
    await expect(page.locator('main')).not.toContainText('did not qualify');
    await asPlayer(page, players[byName(eliminated.teamName)]!, '/notifications');
    await expect(page.locator('main')).toContainText(`did not qualify from Qualifiers of ${t.name}`);

    // The waitlisted team was never asked to pay, and is not asked now that the event is over.
    await asPlayer(page, waitlisted.player, `/payment?rid=${waitlisted.team.rid}`);
    await expect(page.getByRole('link', { name: /Pay with UPI app/ })).toHaveCount(0);
    await expect(page.locator('img.pay-qr')).toHaveCount(0);
    await page.goto('/notifications');
    await expect(page.locator('main')).not.toContainText('You have a place');
  });
});
