import fs from 'node:fs';
import { expect, expectAccessible, expectNoSidewaysScroll, test } from './support/fixtures';
import { fact, logIn, longDate, noonUtcIn, shortDate, tableRows } from './support/ui';

test.describe('browsing tournaments', () => {
  test('home features a new tournament with its fee and a Register Now link to its detail', async ({ page, api, javaScript }) => {
    const starts = noonUtcIn(20);
    const closes = noonUtcIn(18);
    // Two, so the home page always has a carousel (one tournament is a still slide).
    const [t] = await Promise.all([
      api.createTournament(
        { entryFee: '275', prizePool: '₹31,000', startDate: starts, endDate: noonUtcIn(21), registrationClose: closes },
        { cover: true },
      ),
      api.createTournament(),
    ]);

    const response = await page.goto('/');
    expect(response?.status()).toBe(200);
    await expect(page).toHaveTitle(/Custom Room/);
    await expect(page.getByRole('heading', { name: 'Featured Tournaments' })).toBeVisible();
    if (javaScript) await expect(page.getByRole('button', { name: 'Next tournament' })).toBeVisible(); // hydrated: the carousel took over

    const slide = page.getByRole('article').filter({ has: page.getByRole('heading', { name: t.name, exact: true }) });
    await expect(slide).toHaveCount(1);
    await expect(fact(slide, 'Entry fee')).toHaveText('₹275');
    await expect(fact(slide, 'Prize pool')).toHaveText('₹31,000');
    await expect(fact(slide, 'Starts')).toHaveText(longDate(starts));
    await expect(fact(slide, 'Registration closes')).toHaveText(longDate(closes));
    const cover = slide.getByRole('img', { name: `${t.name} cover` });
    await expect(cover).toHaveAttribute('width', /^\d+$/);
    await expect(cover).toHaveAttribute('height', /^\d+$/);

    const register = slide.getByRole('link', { name: /^Register Now/ });
    await expect(register).toHaveAttribute('href', `/tournaments/${t.id}`);
    // Keyboard focus brings the slide into view (the carousel moves to it), then the visitor taps it.
    await register.focus();
    await expect(register).toBeInViewport();
    await register.click();
    await expect(page).toHaveURL(`/tournaments/${t.id}`);
    await expect(page.getByRole('heading', { level: 1, name: t.name })).toBeVisible();
  });

  // The first cover is the largest paint on a phone: fetched at once and first; the rest only when scrolled near.
  test('on the list the first cover is eager with fetchpriority=high, later covers are lazy', async ({ page, api }) => {
    await Promise.all([api.createTournament({}, { cover: true }), api.createTournament({}, { cover: true })]);
    await page.goto('/tournaments');
    const covers = page.locator('main img');
    expect(await covers.count()).toBeGreaterThanOrEqual(2);
    const attrs = await covers.evaluateAll((imgs) =>
      imgs.map((img) => ({
        loading: img.getAttribute('loading'),
        priority: img.getAttribute('fetchpriority'),
        sized: img.hasAttribute('width') && img.hasAttribute('height'),
      })),
    );
    expect(attrs[0]).toEqual({ loading: 'eager', priority: 'high', sized: true });
    for (const later of attrs.slice(1)) expect(later).toEqual({ loading: 'lazy', priority: null, sized: true });
  });

  test('the list shows a card with Entry Fee, Prize pool, Registration closes and Status', async ({ page, api }) => {
    const closes = noonUtcIn(15);
    const t = await api.createTournament(
      { entryFee: '320', prizePool: '₹40,000 + trophies', registrationClose: closes, startDate: noonUtcIn(16), endDate: noonUtcIn(17) },
      { cover: true },
    );

    const response = await page.goto('/tournaments');
    expect(response?.status()).toBe(200);
    await expect(page.getByRole('heading', { level: 1, name: 'Upcoming Gaming Tournaments' })).toBeVisible();
    await expect(page).toHaveTitle('Upcoming Gaming Tournaments | Custom Room');

    const card = page.getByRole('article').filter({ has: page.getByRole('heading', { name: t.name, exact: true }) });
    await expect(card).toHaveCount(1);
    await expect(fact(card, 'Entry Fee')).toHaveText('₹320');
    await expect(fact(card, 'Prize pool')).toHaveText('₹40,000 + trophies');
    await expect(fact(card, 'Registration closes')).toHaveText(shortDate(closes));
    await expect(fact(card, 'Status')).toHaveText('Registration open');
    await expect(card.getByRole('img', { name: `${t.name} cover` })).toHaveAttribute('width', /^\d+$/);

    await card.getByRole('link', { name: /^Register/ }).click();
    await expect(page).toHaveURL(`/tournaments/${t.id}`);
    await expect(page.getByRole('heading', { level: 1, name: t.name })).toBeVisible();
  });

  test('the detail page shows the tournament and links to its points table', async ({ page, api }) => {
    const starts = noonUtcIn(30);
    const t = await api.createTournament({
      startDate: starts,
      endDate: noonUtcIn(31),
      registrationClose: noonUtcIn(29),
      game: 'Free Fire',
      format: 'Squad (4 + 2 subs)',
      platform: 'Android',
      entryFee: '1200',
      prizePool: '₹1,00,000',
      maxTeams: '24',
      description: 'Clash squad finals for the east zone.',
      overview: 'Bermuda, Purgatory and Kalahari over two days.',
    });

    const response = await page.goto(`/tournaments/${t.id}`);
    expect(response?.status()).toBe(200);
    await expect(page).toHaveTitle(`${t.name} | Custom Room`);
    await expect(page.getByRole('heading', { level: 1, name: t.name })).toBeVisible();
    await expect(fact(page, 'Entry fee')).toHaveText('₹1,200');
    await expect(fact(page, 'Prize pool')).toHaveText('₹1,00,000');
    await expect(fact(page, 'Teams')).toHaveText('0 / 24 teams');
    await expect(page.getByText('Status: Registration open')).toBeVisible();
    await expect(fact(page, 'Game')).toHaveText('Free Fire');
    await expect(fact(page, 'Format')).toHaveText('Squad (4 + 2 subs)');
    await expect(fact(page, 'Platform')).toHaveText('Android');
    await expect(fact(page, 'Starts')).toContainText(shortDate(starts));
    await expect(fact(page, 'Registration closes')).toContainText(shortDate(noonUtcIn(29)));
    await expect(page.getByText('Clash squad finals for the east zone.')).toBeVisible();
    await expect(page.getByText('Bermuda, Purgatory and Kalahari over two days.')).toBeVisible();
    await expect(page.getByRole('link', { name: 'Register', exact: true })).toBeVisible();

    await page.getByRole('link', { name: 'View Points Table' }).click();
    await expect(page).toHaveURL(`/tournaments/${t.id}/points-table`);
    await expect(page.getByRole('heading', { level: 1, name: 'Points table' })).toBeVisible();
  });

  test('the points table ranks teams overall and switches between days', async ({ page, api }) => {
    const t = await api.createTournament();
    const [alpha, bravo] = await Promise.all([api.createPlayer(), api.createPlayer()]);
    const teamA = await api.registerTeam(t.id, alpha, `Alpha ${t.id}`);
    const teamB = await api.registerTeam(t.id, bravo, `Bravo ${t.id}`);
    // Two more squads in the lobby (no results): a 3rd place and 6 finishes are possible (decision 029).
    for (let i = 0; i < 2; i++) await api.registerTeam(t.id, await api.createPlayer());
    // bgis-10: 1st = 10, 2nd = 6, 3rd = 5 placement points; +1 per finish.
    await api.submitPoints(t.id, { day: 1, match: 1, team: teamA, position: 1, finishes: 3 }); // 13
    await api.submitPoints(t.id, { day: 1, match: 1, team: teamB, position: 2, finishes: 5 }); // 11
    await api.submitPoints(t.id, { day: 3, match: 1, team: teamB, position: 1, finishes: 6 }); // 16
    await api.submitPoints(t.id, { day: 3, match: 1, team: teamA, position: 3, finishes: 1 }); // 6

    const response = await page.goto(`/tournaments/${t.id}/points-table`);
    expect(response?.status()).toBe(200);
    await expect(page.getByRole('table', { name: /^Overall standings/ })).toBeVisible();
    expect(await tableRows(page)).toEqual([
      ['1', teamB.teamName, '16', '11', '1', '27'],
      ['2', teamA.teamName, '15', '4', '1', '19'],
    ]);
    const days = page.getByRole('navigation', { name: 'Points table day' });
    await expect(days.getByRole('link', { name: 'Overall' })).toHaveAttribute('aria-current', 'page');

    await days.getByRole('link', { name: 'Day 1' }).click();
    await expect(page).toHaveURL(`/tournaments/${t.id}/points-table?day=1`);
    await expect(page.getByRole('table', { name: /^Day 1 standings/ })).toBeVisible();
    await expect(days.getByRole('link', { name: 'Day 1' })).toHaveAttribute('aria-current', 'page');
    expect(await tableRows(page)).toEqual([
      ['1', teamA.teamName, '10', '3', '1', '13'],
      ['2', teamB.teamName, '6', '5', '0', '11'],
    ]);

    // Issue 27: only the days with matches are offered; day 2 by URL says it has none.
    await expect(days.getByRole('link')).toHaveText(['Overall', 'Day 1', 'Day 3']);
    await page.goto(`/tournaments/${t.id}/points-table?day=2`);
    await expect(page.getByText('No matches on Day 2 yet.')).toBeVisible();
    await expect(page.getByRole('table')).toHaveCount(0);

    await days.getByRole('link', { name: 'Day 3' }).click();
    await expect(page).toHaveURL(`/tournaments/${t.id}/points-table?day=3`);
    await expect(page.getByRole('table', { name: /^Day 3 standings/ })).toBeVisible();
    expect(await tableRows(page)).toEqual([
      ['1', teamB.teamName, '10', '6', '1', '16'],
      ['2', teamA.teamName, '5', '1', '0', '6'],
    ]);
    // Issue 20: the same table as a PNG to post, with and without JavaScript (a plain link with `download`).
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Download image' }).click()]);
    expect(download.suggestedFilename()).toBe(`points-table-${t.id}-day-3.png`);
    const png = fs.readFileSync((await download.path())!);
    expect(png.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))).toBe(true);
    expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([1080, 1350]); // IHDR width, height

    await days.getByRole('link', { name: 'Overall' }).click();
    await expect(page).toHaveURL(`/tournaments/${t.id}/points-table?day=0`);
    await expect(page.getByRole('table', { name: /^Overall standings/ })).toBeVisible();
    expect((await tableRows(page)).map((r) => r[1])).toEqual([teamB.teamName, teamA.teamName]);
    await expect(page.getByText(/ranked by wins \(chicken dinners\), then placement points, then finishes, then team name/)).toBeVisible();
  });

  // Issue 20 (decision 048, "The points page"): the Per match tab, Share on WhatsApp, and the own team marked.
  test('the points table has a Per match tab, a WhatsApp share link, and marks a signed-in member’s team', async ({
    page,
    api,
    javaScript,
    baseURL,
  }, testInfo) => {
    const t = await api.createTournament();
    const [alpha, bravo] = await Promise.all([api.createPlayer(), api.createPlayer()]);
    const teamA = await api.registerTeam(t.id, alpha, `Alpha ${t.id}`);
    const teamB = await api.registerTeam(t.id, bravo, `Bravo ${t.id}`);
    await api.registerTeam(t.id, await api.createPlayer());
    // Six matches on day 1: more columns than a 360 px screen holds.
    for (let match = 1; match <= 6; match++) {
      await api.submitPoints(t.id, { day: 1, match, team: teamA, position: match % 2 ? 1 : 2, wins: match % 2 ? 1 : 0, finishes: match });
      await api.submitPoints(t.id, { day: 1, match, team: teamB, position: match % 2 ? 2 : 1, wins: match % 2 ? 0 : 1, finishes: 1 });
    }

    await page.goto(`/tournaments/${t.id}/points-table?day=1`);
    const tabs = page.getByRole('navigation', { name: 'Table view' });
    await expect(tabs.getByRole('link', { name: 'Standings' })).toHaveAttribute('aria-current', 'page');
    const share = page.getByRole('link', { name: 'Share on WhatsApp (opens in a new tab)' });
    await expect(share).toHaveAttribute('target', '_blank');
    await expect(share).toHaveAttribute('rel', /\bnoopener\b/);
    const href = (await share.getAttribute('href'))!;
    expect(href.startsWith('https://wa.me/?text=')).toBe(true);
    expect(decodeURIComponent(href.slice('https://wa.me/?text='.length))).toBe(
      `${t.name} — Day 1 points table: ${baseURL}/tournaments/${t.id}/points-table?day=1`,
    );
    await expect(page.getByText('(your team)')).toHaveCount(0);

    await tabs.getByRole('link', { name: 'Per match' }).click();
    await expect(page).toHaveURL(`/tournaments/${t.id}/points-table?day=1&view=matches`);
    await expect(tabs.getByRole('link', { name: 'Per match' })).toHaveAttribute('aria-current', 'page');
    const table = page.getByRole('table', { name: 'Day 1 standings: per match' });
    await expect(table.locator('thead th')).toHaveText(['#Rank', 'Team', ...[1, 2, 3, 4, 5, 6].map((m) => `M${m}Match ${m}`), 'Total']);
    const cells = (team: string) => table.locator('tbody tr').filter({ hasText: team }).locator('.pt-cell > [aria-hidden="true"]');
    await expect(cells(teamA.teamName)).toHaveText(['1 · 1', '2 · 2', '1 · 3', '2 · 4', '1 · 5', '2 · 6']);
    await expect(cells(teamB.teamName)).toHaveText(['2 · 1', '1 · 1', '2 · 1', '1 · 1', '2 · 1', '1 · 1']);
    // The table scrolls inside its own region; the page never scrolls sideways.
    const region = page.getByRole('region', { name: 'Day 1 standings: per match' });
    expect(await region.evaluate((el) => el.scrollWidth > el.clientWidth)).toBe(true);
    await expectNoSidewaysScroll(page);
    await expectAccessible(page, testInfo, 'points-per-match');
    // The day links keep the view.
    await page.getByRole('navigation', { name: 'Points table day' }).getByRole('link', { name: 'Overall' }).click();
    await expect(page).toHaveURL(`/tournaments/${t.id}/points-table?day=0&view=matches`);
    await expect(page.getByRole('table', { name: 'Overall standings: per match' })).toBeVisible();

    // Bravo's captain, signed in, sees Bravo's row marked on both tabs.
    await logIn(page, bravo.email, bravo.password, {
      from: `/login?redirectTo=${encodeURIComponent(`/tournaments/${t.id}/points-table?day=1`)}`,
    });
    await expect(page).toHaveURL(`/tournaments/${t.id}/points-table?day=1`);
    for (const tab of ['Standings', 'Per match']) {
      if (tab === 'Per match') await tabs.getByRole('link', { name: 'Per match' }).click();
      await expect(tabs.getByRole('link', { name: tab })).toHaveAttribute('aria-current', 'page');
      const mine = page.locator('tbody tr[aria-current="true"]');
      await expect(mine).toHaveCount(1);
      await expect(mine.getByRole('rowheader')).toHaveText(`${teamB.teamName} You(your team)`);
      await expectNoSidewaysScroll(page);
      if (javaScript && process.env.SCREENSHOTS === '1')
        await page.screenshot({
          path: tab === 'Standings' ? testInfo.outputPath('points-standings-360.png') : 'docs/screenshots/points-per-match-360.png',
          fullPage: true,
        });
    }
    await expectAccessible(page, testInfo, 'points-per-match-mine');
  });

  test('a tournament with no points yet says so', async ({ page, api }) => {
    const t = await api.createTournament();
    await page.goto(`/tournaments/${t.id}/points-table`);
    await expect(page.getByText('No points yet. The overall table fills in after the first match.')).toBeVisible();
    // A day that does not exist shows Overall with a note, not an error page.
    expect((await page.goto(`/tournaments/${t.id}/points-table?day=9`))?.status()).toBe(200);
    await expect(page.getByRole('status').filter({ hasText: 'That day does not exist' })).toBeVisible();
    await expect(page.getByRole('navigation', { name: 'Points table day' }).getByRole('link', { name: 'Overall' })).toHaveAttribute(
      'aria-current',
      'page',
    );
    await page.getByRole('link', { name: t.name }).click();
    await expect(page).toHaveURL(`/tournaments/${t.id}`);
  });

  test('a closed tournament shows its state, not Register; an old ?register=closed link still says why', async ({ page, api }) => {
    const t = await api.createTournament({ status: 'Registration Closed' });
    await page.goto(`/tournaments/${t.id}`);
    // The badge shows the derived phase in the product's words (decision 051).
    await expect(page.getByText('Status: Registration closed')).toBeVisible();
    const registration = page.getByRole('region', { name: 'Registration' });
    await expect(registration.getByText('Registration closed', { exact: true })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Register', exact: true })).toHaveCount(0);
    await expect(page.getByRole('alert')).toHaveCount(0);

    await page.goto(`/tournaments/${t.id}?register=closed`);
    const alert = page.getByRole('alert');
    await expect(alert).toContainText('Registration is closed');
    await expect(alert).toContainText('Status: Registration closed');
  });

  // Issue 20, link previews: the og:image of the tournament and points pages is an absolute URL that answers a 1200x630 PNG.
  test('the tournament and points pages carry og:image cards that load', async ({ page, api }) => {
    const t = await api.createTournament({ entryFee: '150', prizePool: '₹20,000' });
    for (const [path, card] of [
      [`/tournaments/${t.id}`, `/tournaments/${t.id}/card.png`],
      [`/tournaments/${t.id}/points-table?day=1`, `/tournaments/${t.id}/points-card.png?day=1`],
    ]) {
      expect((await page.goto(path))?.status()).toBe(200);
      const image = await page.locator('meta[property="og:image"]').getAttribute('content');
      expect(new URL(image!).pathname + new URL(image!).search).toBe(card);
      expect(image).toMatch(/^https?:\/\//);
      await expect(page.locator('meta[name="twitter:card"]')).toHaveAttribute('content', 'summary_large_image');
      await expect(page.locator('meta[property="og:url"]')).toHaveAttribute('content', /^https?:\/\/[^/]+\/tournaments\//);
      const res = await page.request.get(image!);
      expect(res.status()).toBe(200);
      expect(res.headers()['content-type']).toBe('image/png');
      const png = await res.body();
      expect(png.length).toBeLessThan(300 * 1024);
      expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([1200, 630]); // IHDR width, height
    }
  });

  test('the about page explains the platform', async ({ page }) => {
    const response = await page.goto('/about');
    expect(response?.status()).toBe(200);
    await expect(page.getByRole('heading', { level: 1, name: 'About Custom Room' })).toBeVisible();
    await expect(page.getByText(/organises and hosts competitive gaming tournaments/)).toBeVisible();
    await expect(page).toHaveTitle('About | Custom Room');
  });
});
