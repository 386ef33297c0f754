import type { Page } from '@playwright/test';
import { expect, expectAccessible, expectNoSidewaysScroll, FAILED_RESOURCE, test } from './support/fixtures';
import { stagedTournament } from './support/stages';
import { logIn } from './support/ui';

// Issue 30, decision 073: placement-order entry on a group's results page, on a phone (360 px), with
// JavaScript and without: the slots as the game's result list shows them, then the finishes in that order.

const shots = process.env.SCREENSHOTS === '1';
const flash = (page: Page, text: string) => expect(page.locator('.flash').filter({ hasText: text })).toBeVisible();

test.describe('staff: results typed in the order of the result screen', () => {
  test('two steps with a refused slot, then one post with a refused finish, both saved', async ({
    page,
    api,
    stack,
    consoleGuard,
    javaScript,
  }, testInfo) => {
    test.setTimeout(120_000);
    consoleGuard.allow(FAILED_RESOURCE(400)); // the refused posts answer 400
    const { t, stage, other } = await stagedTournament(api, { complete: false });
    const slots = [...other.slots].sort((a, b) => a.slot - b.slot);
    const [s1, s2, s3, s4] = slots;
    const url = (match: number) => `/admin/${t.id}/stages/${stage.id}/results?day=1&match=${match}&group=${other.id}`;
    await logIn(page, stack.admin.email, stack.admin.password, { from: `/login?redirectTo=${encodeURIComponent(url(1))}` });
    await expect(page).toHaveURL(url(1));
    await page.getByRole('navigation', { name: 'How to enter the results' }).getByRole('link', { name: 'Result order' }).click();
    await expect(page).toHaveURL(`${url(1)}&entry=order`);

    // Step 1: a slot of another group is refused beside the field, and what was typed is kept.
    const slotList = page.getByLabel('Slots in result order');
    await slotList.fill(`${s3!.slot} 99 ${s1!.slot}`);
    await page.getByRole('button', { name: 'Next: finishes' }).click();
    await expect(page.locator('#slotOrder-error')).toContainText(`Slot 99 is not in Group ${other.name} (slots ${s1!.slot}–${s4!.slot}).`);
    await expect(slotList).toHaveValue(`${s3!.slot} 99 ${s1!.slot}`);
    await expectNoSidewaysScroll(page);
    await expectAccessible(page, testInfo);
    if (shots && javaScript) await page.screenshot({ path: 'docs/screenshots/placement-order-step1-360.png', fullPage: true });

    // Slot 4 did not play; the other three in the order of the result screen.
    await slotList.fill(`${s3!.slot}, ${s1!.slot}\n${s2!.slot}`);
    await page.getByRole('button', { name: 'Next: finishes' }).click();
    const rows = page.locator('table.po-order tbody tr:not(.ops-row-error)');
    await expect(rows).toHaveCount(3);
    await expect(rows.locator('.ops-team > span:first-child')).toHaveText([s3!.teamName, s1!.teamName, s2!.teamName]);
    await expect(page.locator('.po-absent')).toContainText(`Slot ${s4!.slot} · ${s4!.teamName}`);
    await page.getByRole('textbox', { name: `${s3!.teamName} Finishes` }).fill('5');
    await page.getByRole('textbox', { name: `${s2!.teamName} Finishes` }).fill('2');
    await expectNoSidewaysScroll(page);
    await expectAccessible(page, testInfo);
    if (shots && javaScript) await page.screenshot({ path: 'docs/screenshots/placement-order-step2-360.png', fullPage: true });
    await page.getByRole('button', { name: 'Save results' }).click();
    await flash(page, `Group ${other.name} results saved: 3 placed, 1 absent`);
    await expect(slotList).toHaveValue(`${s3!.slot} ${s1!.slot} ${s2!.slot}`);
    await expect(page.getByLabel('Finishes in the same order (optional)')).toHaveValue('5 0 2');

    // The grid shows the same results: positions in the typed order, slot 4 absent.
    await page.getByRole('link', { name: 'Slot grid' }).click();
    const positions = page.locator('input[name^="position."]');
    for (const [i, value] of ['2', '3', '1', ''].entries()) await expect(positions.nth(i)).toHaveValue(value);
    await expect(page.locator(`input[name="absent.${s4!.teamId}"]`)).toBeChecked();

    // Match 2 in one post: a team's finishes over the lobby's most land on its row in step 2, then saved.
    await page.goto(`${url(2)}&entry=order`);
    await slotList.fill(`${s4!.slot} ${s3!.slot} ${s2!.slot} ${s1!.slot}`);
    await page.getByLabel('Finishes in the same order (optional)').fill('40 1 0 3');
    await page.getByRole('button', { name: 'Save results' }).click();
    const refused = page.getByRole('textbox', { name: `${s4!.teamName} Finishes` });
    await expect(refused).toHaveValue('40');
    await expect(refused).toHaveAttribute('aria-invalid', 'true');
    await expect(page.locator(`#row-error-${s4!.teamId}`)).toContainText('Finishes must be from 0 to 12');
    await refused.fill('4');
    await page.getByRole('button', { name: 'Save results' }).click();
    await flash(page, `Group ${other.name} results saved: 4 placed`);
    await expect(slotList).toHaveValue(`${s4!.slot} ${s3!.slot} ${s2!.slot} ${s1!.slot}`);
  });
});
