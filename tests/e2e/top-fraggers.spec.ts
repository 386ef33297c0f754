// Issue 30 (decision 076): after staff confirm a lobby from the teams' reports, the points page says the
// match is provisional, and its Top fraggers view lists each player's finishes, with its PNG; at 360 px,
// with JavaScript and without (the Top fraggers tab is a plain link).
import fs from 'node:fs';
import { isoIn, toForm } from '../support/builders';
import { pngImage } from '../support/images';
import { GatewayApi, type Player } from './support/api';
import { expect, expectAccessible, expectNoSidewaysScroll, test } from './support/fixtures';

/** A tournament whose day 1 match 1 has been played: teams register, then the dates move to the past (reports open after the start). */
async function playedTournament(api: GatewayApi) {
  const t = await api.createTournament({ entryFee: '0' });
  const captains: Player[] = [await api.createPlayer(), await api.createPlayer()];
  const teams = [];
  for (const [i, c] of captains.entries()) teams.push(await api.registerTeam(t.id, c, `${i ? 'Bravo' : 'Alpha'} ${t.id}`));
  const past = GatewayApi.tournamentFields({
    name: t.name,
    entryFee: '0',
    registrationOpen: isoIn(-3),
    registrationClose: isoIn(-2),
    startDate: isoIn(-1),
    endDate: isoIn(3),
  });
  await api.request('PUT', `/tournaments/admin/update/${t.id}`, { token: await api.adminToken(), form: toForm(past), expect: [200] });
  await api.createMatch(t.id, { day: 1, matchNo: 1, map: 'Erangel', matchId: '1234567', password: 'pw', time: '00:01' });
  return { t, captains, teams };
}

test.describe('Top fraggers and provisional results', () => {
  test('a confirmed lobby is provisional on the points page; Top fraggers lists the players and links its PNG', async ({
    page,
    api,
    javaScript,
  }, testInfo) => {
    const { t, captains, teams } = await playedTournament(api);
    const igns = [
      ['Sniper', 'Ghost'],
      ['Viper', 'Blaze'],
    ];
    for (const i of teams.keys()) {
      const fields = {
        position: String(i + 1),
        player1: igns[i]![0]!,
        finishes1: String(3 - i * 2),
        player2: igns[i]![1]!,
        finishes2: '1',
      };
      const shot = await pngImage(800, 450, { r: 30 + i * 120, g: 80, b: 160 - i * 60 });
      const form = toForm({ ...fields }, [{ name: 'screenshot', data: shot, filename: 'result.png', type: 'image/png' }]);
      await api.request('POST', `/tournaments/${t.id}/reports/1/1`, { token: captains[i]!.token, form, expect: [201] });
    }
    const results = teams.map((team, i) => ({ teamId: team.rid, position: i + 1, finishes: 4 - i * 2 }));
    await api.request('POST', `/tournaments/${t.id}/reports/1/1/confirm`, {
      token: await api.adminToken(),
      json: { results },
      expect: [200],
    });

    await page.goto(`/tournaments/${t.id}/points-table`);
    const note = page.getByRole('list', { name: 'Provisional results' });
    await expect(note).toContainText(/Day 1 match 1: provisional until \d\d:\d\d — teams may dispute it/);
    await page.screenshot({ path: testInfo.outputPath('table-note-360.png'), fullPage: true });

    // Per match: the match's column says it is provisional ("*" on screen, words for screen readers).
    await page.getByRole('navigation', { name: 'Table view' }).getByRole('link', { name: 'Per match' }).click();
    await expect(page.getByRole('columnheader', { name: 'Day 1, match 1, provisional' })).toContainText('D1·M1*');
    await page.screenshot({ path: testInfo.outputPath('per-match-360.png'), fullPage: true });

    await page.getByRole('navigation', { name: 'Table view' }).getByRole('link', { name: 'Top fraggers' }).click();
    await expect(page).toHaveURL(`/tournaments/${t.id}/points-table?view=players`);
    const table = page.getByRole('table', { name: 'Top fraggers: the whole tournament' });
    await expect(table.locator('tbody tr')).toHaveCount(4);
    await expect(table.locator('tbody tr').first()).toHaveText(['1', 'Sniper', `Alpha ${t.id}`, '3', '1'].join(''));
    await expect(note).toBeVisible();
    await expectNoSidewaysScroll(page);
    await page.screenshot({ path: testInfo.outputPath(`players-360-${javaScript ? 'js' : 'no-js'}.png`), fullPage: true });
    await expectAccessible(page, testInfo, 'top-fraggers');

    // The PNG the page links to.
    const href = await page.getByRole('link', { name: 'Download image' }).getAttribute('href');
    expect(href).toBe(`/tournaments/${t.id}/points-table/players.png`);
    const png = await page.request.get(href!);
    expect(png.status()).toBe(200);
    expect(png.headers()['content-type']).toBe('image/png');
    expect(png.headers().etag).toBeTruthy();
    fs.writeFileSync(testInfo.outputPath('top-fraggers.png'), await png.body());
  });
});
