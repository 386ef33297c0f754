import fs from 'node:fs';
import type { Page } from '@playwright/test';
import type { Player } from './support/api';
import { expect, expectAccessible, expectNoSidewaysScroll, test } from './support/fixtures';
import { stagedTournament } from './support/stages';
import { logIn } from './support/ui';

// Issue 18, players and visitors: a team's group, slot, own room (never another group's) and result; the public stage pages.

async function logInAs(page: Page, player: Player) {
  await logIn(page, player.email, player.password);
  await expect(page).not.toHaveURL(/\/login/);
}

/** Screenshots for docs/screenshots (issue 18), taken once: by the JavaScript run when SCREENSHOTS=1. */
const screenshots = process.env.SCREENSHOTS === '1';

test.describe('stages for players and visitors', () => {
  test("a player sees their group and slot, their own group's rooms first with the next match marked, no other group's room, and the result", async ({
    page,
    api,
    javaScript,
  }, testInfo) => {
    const s = await stagedTournament(api);
    const label = `Qualifiers · Group ${s.own.name} · Slot ${s.own.slots.find((x) => x.teamId === s.team.rid)!.slot}`;
    const outcome = `Qualified for Semi-finals (2nd in Group ${s.own.name})`;
    await logInAs(page, s.player);

    await page.goto(`/tournament/${s.t.id}/matches`);
    const own = page.getByRole('region', { name: 'Your matches' });
    await expect(own.getByText(label).first()).toBeVisible();
    await expect(own.getByText(outcome)).toBeVisible();
    const first = own.getByRole('article', { name: 'Day 1 · Match 1' });
    await expect(first).toContainText('Next match');
    await expect(first).toContainText(label);
    await expect(own.getByRole('article', { name: 'Day 1 · Match 2' })).not.toContainText('Next match');
    for (const m of s.matches) {
      const room = s.rooms.get(m.id)!;
      if (m.groupId === s.own.id) await expect(own.getByText(room.matchId, { exact: true })).toBeVisible();
    }
    const others = page.getByRole('region', { name: 'Other groups' });
    // The two other groups play at the same times: one entry for both (decision 087).
    await expect(others.getByRole('heading', { level: 3 })).toHaveText([/^Qualifiers · Groups \S+ and \S+$/]);
    await expect(others.getByRole('heading', { level: 3 })).toContainText(s.other.name);
    await expect(others.getByText("Room details are shown to each group's own teams.")).toBeVisible();
    // Nowhere in the HTML: another group's room ID or password.
    const html = await page.content();
    for (const m of s.matches.filter((x) => x.groupId !== s.own.id)) {
      expect(html).not.toContain(s.rooms.get(m.id)!.matchId);
      expect(html).not.toContain(s.rooms.get(m.id)!.password);
    }
    // Own group above the others.
    expect(html.indexOf('Your matches')).toBeLessThan(html.indexOf('Other groups'));
    await expectNoSidewaysScroll(page);
    await expectAccessible(page, testInfo, 'matches with stages');
    if (screenshots && javaScript) {
      await first.screenshot({ path: 'docs/screenshots/room-card-360.png' });
      await page.screenshot({ path: 'docs/screenshots/matches-stages-360.png', fullPage: true });
    }

    for (const path of [`/team/${s.t.id}`, '/my-tournaments', `/my-tournaments/${s.t.id}/info`, `/tournaments/${s.t.id}`]) {
      await page.goto(path);
      await expect(page.getByText(label), path).toBeVisible();
      await expect(page.getByText(outcome), path).toBeVisible();
    }
  });

  test('a visitor sees the stages page, a group page with its slots and table, and the stage on the points table', async ({
    page,
    api,
    javaScript,
  }, testInfo) => {
    const s = await stagedTournament(api);
    await page.goto(`/tournaments/${s.t.id}`);
    await page.getByRole('link', { name: 'Stages and groups' }).click();
    await expect(page).toHaveURL(`/tournaments/${s.t.id}/stages`);
    await expect(page.getByRole('heading', { level: 1, name: 'Stages and groups' })).toBeVisible();
    await expect(page.getByRole('heading', { level: 2, name: 'Qualifiers' })).toBeVisible();
    // The draft next stage is nobody's business yet.
    await expect(page.getByRole('heading', { name: 'Semi-finals' })).toHaveCount(0);
    // 3 groups: slot lists inline.
    for (const g of s.stage.groups) await expect(page.getByText(g.slots[0]!.teamName)).toBeVisible();
    await expectNoSidewaysScroll(page);
    await expectAccessible(page, testInfo, 'stages');
    if (screenshots && javaScript) await page.screenshot({ path: 'docs/screenshots/stages-360.png', fullPage: true });

    await page.getByRole('link', { name: `Group ${s.own.name}` }).click();
    await expect(page).toHaveURL(`/tournaments/${s.t.id}/stages/${s.stage.id}/groups/${s.own.id}`);
    await expect(page.getByRole('heading', { level: 1, name: `Qualifiers · Group ${s.own.name}` })).toBeVisible();
    const table = page.getByRole('table');
    await expect(table.getByRole('row')).toHaveCount(5);
    await expect(table.getByRole('row').nth(2)).toContainText(s.team.teamName);
    await page.getByRole('link', { name: 'Day 1' }).click();
    await expect(page).toHaveURL(/\?day=1$/);
    await expect(table.getByRole('row').nth(2)).toContainText(s.team.teamName);
    // Room details never on a public page.
    const html = await page.content();
    for (const room of s.rooms.values()) expect(html).not.toContain(room.matchId);
    // Issue 20: the slot list as a PNG to post, and the page's link preview (the group table's top 3).
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Slot list image' }).click()]);
    expect(download.suggestedFilename()).toBe(`slot-list-${s.t.id}-group-${s.own.id}.png`);
    const slotPng = fs.readFileSync((await download.path())!);
    expect([slotPng.readUInt32BE(16), slotPng.readUInt32BE(20)]).toEqual([1080, 1350]); // IHDR width, height
    const preview = await page.request.get((await page.locator('meta[property="og:image"]').getAttribute('content'))!);
    expect(preview.status()).toBe(200);
    expect(preview.headers()['content-type']).toBe('image/png');
    const previewPng = await preview.body();
    expect([previewPng.readUInt32BE(16), previewPng.readUInt32BE(20)]).toEqual([1200, 630]);
    await expectNoSidewaysScroll(page);
    await expectAccessible(page, testInfo, 'group');
    if (screenshots && javaScript) await page.screenshot({ path: 'docs/screenshots/group-360.png', fullPage: true });

    await page.getByRole('link', { name: /whole stage/ }).click();
    await expect(page).toHaveURL(`/tournaments/${s.t.id}/points-table?stage=${s.stage.id}`);
    await expect(page.getByRole('table').getByRole('columnheader', { name: 'Group and slot' })).toBeVisible();
    await expect(page.getByRole('table').getByRole('row', { name: new RegExp(s.team.teamName) })).toContainText(`${s.own.name}·`);
    await expect(page.getByRole('table').getByRole('row')).toHaveCount(13);
    await expectNoSidewaysScroll(page);
    if (screenshots && javaScript) await page.screenshot({ path: 'docs/screenshots/stage-table-360.png', fullPage: true });
  });
});
