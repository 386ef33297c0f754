import type { Page } from '@playwright/test';
import { submitPaymentReference, unique, uniquePhone, uniqueUtr } from './support/api';
import { expect, expectAccessible, expectNoSidewaysScroll, test } from './support/fixtures';
import { stagedTournament } from './support/stages';
import { expectSignedIn, logIn } from './support/ui';

/** Issue 19, "The player's shortest path": a new player from a tournament's Register button to a sent UTR, and the lists. */

/** Screenshots for docs/screenshots (issue 19), taken once: by the JavaScript run when SCREENSHOTS=1. */
const screenshots = process.env.SCREENSHOTS === '1';

const IGNS = ['Mortal', 'Viper', 'Regaltos', 'Owais'];

async function fillTeam(page: Page, teamName: string, tag: string) {
  await page.getByLabel('Team name').fill(teamName);
  for (const [i, ign] of IGNS.entries())
    await page
      .getByLabel(`Player ${i + 1}`, { exact: false })
      .first()
      .fill(`${ign}_${tag}`);
}

test.describe("the player's shortest path", () => {
  test('Register → log-in page naming the tournament → sign up, logged in, back → team → UTR → status first; the tournament page shows the team', async ({
    page,
    api,
    javaScript,
  }, testInfo) => {
    const t = await api.createTournament({ entryFee: '199' });
    const u = unique();
    const account = {
      email: `path-${u}@test.example`,
      phone: uniquePhone(),
      username: `path_${u}`.slice(0, 20),
      password: `secret-${u}-pass`,
    };

    await page.goto(`/tournaments/${t.id}`);
    await page.getByRole('link', { name: 'Register', exact: true }).click();
    await expect(page).toHaveURL(`/login?redirectTo=${encodeURIComponent(`/register/${t.id}`)}`);
    await expect(page.getByText(`Log in to register for ${t.name}.`)).toBeVisible();
    if (screenshots && javaScript) await page.screenshot({ path: 'docs/screenshots/login-to-register-360.png', fullPage: true });
    await page.getByRole('link', { name: 'Create an account' }).click();
    await expect(page.getByText(`Create an account to register for ${t.name}.`)).toBeVisible();
    await page.getByLabel('Email').fill(account.email);
    await page.getByLabel('Mobile number').fill(account.phone);
    await page.getByLabel('Username').fill(account.username);
    await page.getByLabel('Password', { exact: true }).fill(account.password);
    await page.getByRole('button', { name: 'Create account' }).click();

    // Signed in at once, and straight back to the team form.
    await expect(page).toHaveURL(`/register/${t.id}`);
    await expect(page.getByRole('status').filter({ hasText: `Account created. You are logged in as ${account.username}.` })).toBeVisible();
    await expectSignedIn(page, account.username);
    const teamName = `Path ${u}`.slice(0, 24);
    await fillTeam(page, teamName, u.slice(-6));
    await page.getByRole('button', { name: 'Register team' }).click();
    await expect(page).toHaveURL(/\/payment\?rid=\d+$/);

    // Before a UTR: the QR comes first.
    await expect(page.getByRole('heading', { name: 'Pay again or pay another amount' })).toHaveCount(0);
    await page.getByLabel('UPI reference (UTR)').fill(uniqueUtr());
    await page.getByRole('button', { name: 'Send reference' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'UPI reference received.' })).toBeVisible();

    // After: the status first, then the reference, then paying again with the QR and the UPI link.
    const status = page.locator('.pay-status');
    const again = page.getByRole('region', { name: 'Pay again or pay another amount' });
    await expect(status).toContainText('Submitted');
    await expect(again.getByRole('img', { name: /UPI QR code: pay ₹199/ })).toBeVisible();
    await expect(again.getByRole('link', { name: 'Pay with UPI app' })).toHaveAttribute('href', /^upi:\/\/pay\?/);
    const y = async (selector: string) => (await page.locator(selector).first().boundingBox())!.y;
    expect(await y('.pay-status')).toBeLessThan(await y('.pay-reference'));
    expect(await y('.pay-reference')).toBeLessThan(await y('.pay-again'));
    await expectAccessible(page, testInfo, 'payment after a UTR');
    if (screenshots && javaScript) await page.screenshot({ path: 'docs/screenshots/payment-after-utr-360.png', fullPage: true });
    await expectNoSidewaysScroll(page);

    // The tournament page: the team's state and its links instead of Register.
    await page.goto(`/tournaments/${t.id}`);
    const registration = page.getByRole('region', { name: 'Registration' });
    await expect(registration).toContainText(`Your team ${teamName}: payment submitted`);
    await expect(page.getByRole('link', { name: 'Register', exact: true })).toHaveCount(0);
    await expect(registration.getByRole('link', { name: 'Your team' })).toHaveAttribute('href', `/team/${t.id}`);
    await expectAccessible(page, testInfo, 'tournament page of a registered team');
    if (screenshots && javaScript) await page.screenshot({ path: 'docs/screenshots/tournament-your-team-360.png' });
    await registration.getByRole('link', { name: 'Room details' }).click();
    await expect(page).toHaveURL(`/tournament/${t.id}/matches`);

    // "My Tournaments" is in the menu (behind the hamburger on a phone).
    const nav = page.getByRole('navigation', { name: 'Main' });
    await nav.getByLabel('Menu').click();
    await nav.locator('.nav-links').getByRole('link', { name: 'My Tournaments' }).click();
    await expect(page).toHaveURL('/my-tournaments');
    await expect(page.getByRole('heading', { level: 2, name: t.name })).toBeVisible();
  });

  test('a confirmed team of a free tournament reads "confirmed"; a visitor gets no Register once a stage is published', async ({
    page,
    api,
  }) => {
    const s = await stagedTournament(api, { complete: false });
    // Issue 27: the registration window is open, but the Qualifiers are published: registration is over.
    await page.goto(`/tournaments/${s.t.id}`);
    await expect(page.getByRole('region', { name: 'Registration' })).toContainText('Registration closed: matches under way');
    await expect(page.getByRole('link', { name: 'Register', exact: true })).toHaveCount(0);
    await logIn(page, s.player.email, s.player.password, { from: `/login?redirectTo=${encodeURIComponent(`/tournaments/${s.t.id}`)}` });
    await expect(page).toHaveURL(`/tournaments/${s.t.id}`);
    await expect(page.getByRole('region', { name: 'Registration' })).toContainText(`Your team ${s.team.teamName}: confirmed`);
    await expect(page.getByRole('heading', { name: 'Your group and slot' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Register', exact: true })).toHaveCount(0);
  });

  test('the list puts open tournaments first, cards of the others show their state, and the status filter works', async ({
    page,
    api,
    javaScript,
  }, testInfo) => {
    const u = unique();
    const [open, done] = await Promise.all([
      api.createTournament({ name: `Open ${u}` }),
      api.createTournament({ name: `Done ${u}`, status: 'Completed' }),
    ]);
    await page.goto('/tournaments');
    const names = await page.locator('.tc h2').allTextContents();
    expect(names.indexOf(open.name)).toBeGreaterThanOrEqual(0);
    expect(names.indexOf(open.name)).toBeLessThan(names.indexOf(done.name));

    const card = page.getByRole('article').filter({ has: page.getByRole('heading', { name: done.name, exact: true }) });
    await expect(card.getByText('Completed: see the final points')).toBeVisible();
    await expect(card.getByRole('link', { name: /^Register/ })).toHaveCount(0);
    await expect(card.getByRole('link', { name: /^View details/ })).toHaveAttribute('href', `/tournaments/${done.id}`);

    const filters = page.getByRole('navigation', { name: 'Show tournaments' });
    await expect(filters.getByRole('link', { name: 'All' })).toHaveAttribute('aria-current', 'page');
    await filters.getByRole('link', { name: 'Completed' }).click();
    await expect(page).toHaveURL('/tournaments?show=completed');
    await expect(filters.getByRole('link', { name: 'Completed' })).toHaveAttribute('aria-current', 'page');
    await expect(page.getByRole('heading', { name: done.name, exact: true })).toBeVisible();
    await expect(page.getByRole('heading', { name: open.name, exact: true })).toHaveCount(0);
    await expect(page.getByText('Registration Ongoing')).toHaveCount(0);
    await expectAccessible(page, testInfo, 'tournaments filtered');
    if (screenshots && javaScript) await page.screenshot({ path: 'docs/screenshots/tournaments-completed-360.png' });
    await expectNoSidewaysScroll(page);

    await filters.getByRole('link', { name: 'Open' }).click();
    await expect(page).toHaveURL('/tournaments?show=open');
    await expect(page.getByRole('heading', { name: open.name, exact: true })).toBeVisible();
    await expect(page.getByRole('heading', { name: done.name, exact: true })).toHaveCount(0);
    for (const status of await page.locator('.tc .badge').allTextContents()) expect(status).toBe('Registration open');

    // A completed tournament's page: its state where Register was.
    await page.goto(`/tournaments/${done.id}`);
    await expect(page.getByRole('region', { name: 'Registration' }).getByText('Completed: see the final points')).toBeVisible();
    await expect(page.getByRole('link', { name: 'Register', exact: true })).toHaveCount(0);
    if (screenshots && javaScript) await page.screenshot({ path: 'docs/screenshots/tournament-completed-360.png' });
  });

  test('the home carousel starts with a tournament open for registration', async ({ page, api }) => {
    // The soonest start of all (the gateway's first), but completed: it goes after the open ones.
    const done = await api.createTournament({
      status: 'Completed',
      startDate: '2020-01-02T06:30:00.000Z',
      endDate: '2020-01-03T06:30:00.000Z',
      registrationOpen: '2019-12-01T06:30:00.000Z',
      registrationClose: '2020-01-01T06:30:00.000Z',
    });
    await api.createTournament();
    await page.goto('/');
    const first = page.locator('.slide').first();
    const href = await first.getByRole('link', { name: /^Register Now/ }).getAttribute('href');
    expect(href).not.toBe(`/tournaments/${done.id}`);
    const t = await api.getTournament(Number(href!.split('/').pop()));
    expect(t.status).toBe('Registration Ongoing');
  });
});

test.describe("the organiser's tap targets", () => {
  /**
   * Every control of the organiser's pages is at least 44 × 44 CSS px at 360 px wide: buttons, selects,
   * fields, checkboxes (with their label), and links that stand alone (not a link inside a sentence).
   */
  async function smallTargets(page: Page): Promise<string[]> {
    return page.evaluate(() => {
      const MIN = 44;
      const small: string[] = [];
      const describe = (el: Element) =>
        `${el.tagName.toLowerCase()}${el.className && typeof el.className === 'string' ? '.' + el.className.split(' ').join('.') : ''} "${(el.textContent || el.getAttribute('aria-label') || el.getAttribute('name') || '').trim().slice(0, 30)}"`;
      const inSentence = (a: Element) => {
        const block = a.parentElement?.closest('p, li, dd, td, div, span');
        if (!block) return false;
        const own = (a.textContent ?? '').trim().length;
        return (block.textContent ?? '').trim().length > own + 3 && block.tagName !== 'TD' && !block.matches('li:only-child');
      };
      for (const el of document.querySelectorAll(
        'main a[href], main button, main select, main textarea, main input:not([type=hidden]), main summary',
      )) {
        const box = el.getBoundingClientRect();
        if (box.width === 0 && box.height === 0) continue; // not shown
        if (el.tagName === 'A' && !el.classList.contains('button') && inSentence(el)) continue;
        let { width, height } = box;
        const input = el as HTMLInputElement;
        if (el.tagName === 'INPUT' && (input.type === 'checkbox' || input.type === 'radio')) {
          const label = input.closest('label') ?? (input.id ? document.querySelector(`label[for="${input.id}"]`) : null);
          if (label) {
            const l = label.getBoundingClientRect();
            width = Math.max(width, l.width);
            height = Math.max(height, l.height);
          }
        }
        if (width < MIN - 0.5 || height < MIN - 0.5) small.push(`${describe(el)} ${Math.round(width)}×${Math.round(height)}`);
      }
      return small;
    });
  }

  test('are at least 44 × 44 px on every organiser page', async ({ page, api, stack, javaScript }) => {
    const s = await stagedTournament(api, { complete: false });
    const paid = await api.createTournament({ entryFee: '100' });
    const payer = await api.createPlayer();
    await api.registerTeam(paid.id, payer);
    // A payment to verify: the tournament list links to it.
    await submitPaymentReference(api, paid.id, payer, uniqueUtr());
    const pages = [
      '/admin/manage-tournament',
      '/admin/manage-tournaments',
      '/admin/tournament-list',
      `/admin/${paid.id}`,
      '/admin/add-tournament',
      `/admin/update-tournament/${paid.id}`,
      `/admin/${paid.id}/registrations`,
      `/admin/${s.t.id}/matches`,
      `/admin/${s.t.id}/matches?day=1&match=1`,
      `/admin/delete-tournament/${paid.id}`,
      `/admin/add-points/${s.t.id}`,
      `/admin/${s.t.id}/stages`,
      `/admin/${s.t.id}/stages/${s.stage.id}`,
      `/admin/${s.t.id}/stages/${s.stage.id}/results?day=1&match=1&group=${s.own.id}`,
    ];
    await logIn(page, stack.admin.email, stack.admin.password, { from: `/login?redirectTo=${encodeURIComponent(pages[0]!)}` });
    await expect(page).toHaveURL(pages[0]!);
    const found: Record<string, string[]> = {};
    for (const path of pages) {
      expect((await page.goto(path))?.status(), path).toBe(200);
      const small = await smallTargets(page);
      if (screenshots && javaScript && path.includes('/results?'))
        await page.screenshot({ path: 'docs/screenshots/admin-results-ticks-360.png', fullPage: true });
      if (small.length) found[path] = small;
    }
    expect(found).toEqual({});
  });
});
