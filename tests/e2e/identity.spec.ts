import type { Page } from '@playwright/test';
import { unique } from './support/api';
import { expect, expectAccessible, expectNoSidewaysScroll, FAILED_RESOURCE, test } from './support/fixtures';
import type { StackInfo } from './support/stack.mjs';
import { logIn } from './support/ui';

/** Decision 046: character IDs on the team form and team page; the organiser sees them and the captain's contact. Runs with JavaScript on and off. */

async function openAs(page: Page, who: { email: string; password: string }, path: string) {
  await logIn(page, who.email, who.password, { from: `/login?redirectTo=${encodeURIComponent(path)}` });
  await expect(page).toHaveURL(path);
}
const openAsAdmin = (page: Page, stack: StackInfo, path: string) => openAs(page, stack.admin, path);

/** A fresh 10-digit BGMI character ID. */
const characterId = () => `5${String(Math.floor(Math.random() * 1e9)).padStart(9, '0')}`;

test.describe('character IDs and the captain’s contact', () => {
  test('a captain enters the squad’s character IDs, fixes a refused one, and sees them on the team page', async ({
    page,
    api,
    consoleGuard,
  }, testInfo) => {
    consoleGuard.allow(FAILED_RESOURCE(400));
    consoleGuard.allow(FAILED_RESOURCE(409));
    const t = await api.createTournament({ requireCharacterIds: 'on' });
    const rivalId = characterId();
    const rival = await api.createPlayer();
    await api.request('POST', `/registrations/${t.id}`, {
      token: rival.token,
      json: {
        teamName: `Rival ${unique()}`,
        player1Username: `r1_${unique()}`,
        player2Username: `r2_${unique()}`,
        player3Username: `r3_${unique()}`,
        player4Username: `r4_${unique()}`,
        player1CharacterId: rivalId,
        player2CharacterId: characterId(),
        player3CharacterId: characterId(),
        player4CharacterId: characterId(),
      },
    });

    const player = await api.createPlayer();
    await openAs(page, player, `/register/${t.id}`);
    await expect(page.getByText('This tournament needs each player’s character ID too.')).toBeVisible();
    const u = unique();
    const ids = [characterId(), characterId(), characterId(), characterId()];
    await page.getByLabel('Team name').fill(`Soul ${u}`);
    for (const [i, n] of [1, 2, 3, 4].entries()) {
      await page.getByLabel(`Player ${n}`).first().fill(`P${n}_${u}`);
      await page.getByLabel(new RegExp(`^Player ${n}( \\(IGL\\))?: BGMI character ID`)).fill(ids[i]!);
    }
    // Player 2 typed a letter, player 3 pasted the rival's ID with spaces.
    await page.getByLabel(/^Player 2: BGMI character ID/).fill('51234x6789');
    await page.getByLabel(/^Player 3: BGMI character ID/).fill(`${rivalId.slice(0, 5)} ${rivalId.slice(5)}`);
    await page.getByRole('button', { name: 'Register team' }).click();
    await expect(page.locator('#player2CharacterId-error')).toHaveText(/Player 2 character ID has digits only\./);
    await expect(page.locator('#player2CharacterId')).toHaveAttribute('aria-invalid', 'true');
    await expect(page.locator('#player2CharacterId')).toHaveAttribute('inputmode', 'numeric');
    await expect(page.locator('#player2CharacterId')).toHaveValue('51234x6789');
    await expectAccessible(page, testInfo);
    await expectNoSidewaysScroll(page);

    await page.getByLabel(/^Player 2: BGMI character ID/).fill(ids[1]!);
    await page.getByRole('button', { name: 'Register team' }).click();
    await expect(page.locator('#player3CharacterId-error')).toHaveText(
      `⚠ Player 3 character ID ${rivalId} is already playing for another team in this tournament.`,
    );
    await expect(page.locator('#player3CharacterId')).toHaveAttribute('aria-describedby', /player3CharacterId-error/);
    await expect(page.getByLabel(/^Player 1 \(IGL\): BGMI character ID/)).toHaveValue(ids[0]!);

    await page.getByLabel(/^Player 3: BGMI character ID/).fill(ids[2]!);
    await page.getByRole('button', { name: 'Register team' }).click();
    await expect(page).toHaveURL(/\/payment\?rid=\d+/);

    await page.goto(`/team/${t.id}`);
    for (const id of ids) await expect(page.getByText(`BGMI character ID ${id}`)).toBeVisible();
    await expectAccessible(page, testInfo);

    // The edit form keeps them, and a substitute named without an ID is refused here.
    await page.goto(`/tournaments/${t.id}/update-team`);
    await expect(page.getByLabel(/^Player 4: BGMI character ID/)).toHaveValue(ids[3]!);
    await page.getByLabel('Substitute 1').first().fill(`S1_${u}`);
    await page.getByRole('button', { name: 'Save team' }).click();
    await expect(page.locator('#substitute1CharacterId-error')).toHaveText(/Substitute 1 character ID is required for this tournament\./);
  });

  test('the organiser sees the IDs, the captain’s phone and email, and a WhatsApp link naming the tournament', async ({
    page,
    api,
    stack,
  }, testInfo) => {
    const t = await api.createTournament();
    const captain = await api.createPlayer();
    const id = characterId();
    const team = await api.request<{ teamName: string }>('POST', `/registrations/${t.id}`, {
      token: captain.token,
      json: {
        teamName: `Blaze ${unique()}`,
        player1Username: `b1_${unique()}`,
        player2Username: `b2_${unique()}`,
        player3Username: `b3_${unique()}`,
        player4Username: `b4_${unique()}`,
        player1CharacterId: id,
      },
    });
    await openAsAdmin(page, stack, `/admin/${t.id}/registrations`);
    const card = page.locator('.ops-card', { hasText: team.teamName });
    await expect(card.getByText(`(BGMI character ID ${id})`, { exact: false })).toBeVisible();
    const phone = `+91${captain.phone.slice(-10)}`;
    await expect(card.getByRole('link', { name: phone })).toHaveAttribute('href', `tel:${phone}`);
    await expect(card.getByRole('link', { name: captain.email })).toHaveAttribute('href', `mailto:${captain.email}`);
    const whatsApp = card.getByRole('link', { name: `WhatsApp the captain of ${team.teamName}` });
    const href = await whatsApp.getAttribute('href');
    expect(href).toMatch(new RegExp(`^https://wa\\.me/91${captain.phone.slice(-10)}\\?text=`));
    expect(decodeURIComponent(new URL(href!).searchParams.get('text') ?? '')).toContain(t.name);
    // Measured once the page's stylesheets are in: after the login's redirect the checks above can pass on the
    // parsed HTML before /admin's stylesheet links have loaded (a CI run under load measured the bare link, 19 px).
    await page.waitForLoadState('load');
    const box = await whatsApp.boundingBox();
    expect(box!.height).toBeGreaterThanOrEqual(44);
    await expectAccessible(page, testInfo);
    await expectNoSidewaysScroll(page);
  });

  test('the organiser requires character IDs with a checkbox of the tournament form', async ({ page, api, stack }) => {
    const t = await api.createTournament();
    await openAsAdmin(page, stack, `/admin/update-tournament/${t.id}`);
    const box = page.getByRole('checkbox', { name: /Require character IDs/ });
    await expect(box).not.toBeChecked();
    await box.check();
    await page.getByRole('button', { name: 'Save changes' }).click();
    await expect(page).toHaveURL('/admin/manage-tournaments');
    expect((await api.getTournament(t.id)).requireCharacterIds).toBe(true);
    await page.goto(`/admin/update-tournament/${t.id}`);
    await expect(page.getByRole('checkbox', { name: /Require character IDs/ })).toBeChecked();
  });
});
