import type { Page } from '@playwright/test';
import { MAIN_PLAYLISTS } from '../fixtures/youtube-fake.mjs';
import { expect, expectAccessible, expectNoSidewaysScroll, test } from './support/fixtures';

/**
 * /videos against the fake YouTube API the global setup starts (two playlists: 12 public videos plus a
 * private and a deleted one, and 3 videos). YouTube's own hosts (thumbnails, player, watch pages) are
 * answered locally by the youtubeHosts fixture.
 */

const [WEEKEND, HOWTO] = MAIN_PLAYLISTS as [(typeof MAIN_PLAYLISTS)[0], (typeof MAIN_PLAYLISTS)[0]];
const titlesOf = (videos: { title: string }[]) => videos.map((v) => v.title);

const playlist = (page: Page, title: string) => page.getByRole('region', { name: title });
const shownTitles = (page: Page, title: string) => playlist(page, title).locator('.vi-t').allInnerTexts();

/** With JavaScript, wait until the page is hydrated (the thumbnails have become Play buttons). */
async function ready(page: Page, javaScript: boolean) {
  await expect(page.getByRole('heading', { level: 1, name: 'Videos' })).toBeVisible();
  if (javaScript)
    await expect(playlist(page, WEEKEND.title).getByRole('button', { name: `Play ${WEEKEND.videos[0]!.title}` })).toBeVisible();
}

test.describe('videos page', () => {
  test('See More shows videos 6–10, then 11–12, and the button disappears', async ({ page, javaScript, youtubeHosts }) => {
    const response = await page.goto('/videos');
    expect(response?.status()).toBe(200);
    await expect(page).toHaveTitle('Videos | Custom Room');
    await ready(page, javaScript);
    expect(youtubeHosts.every((u) => u.startsWith('https://i.ytimg.com/'))).toBe(true);

    const weekend = playlist(page, WEEKEND.title);
    expect(await shownTitles(page, WEEKEND.title)).toEqual(titlesOf(WEEKEND.videos.slice(0, 5)));
    expect(await shownTitles(page, HOWTO.title)).toEqual(titlesOf(HOWTO.videos));
    await expect(playlist(page, HOWTO.title).getByRole('link', { name: /^See More/ })).toHaveCount(0);
    await expect(page.getByText(/Private video|Deleted video/)).toHaveCount(0);
    if (javaScript) await page.evaluate(() => ((window as unknown as { sameDocument: boolean }).sameDocument = true));

    await weekend.getByRole('link', { name: `See More from ${WEEKEND.title}` }).click();
    await expect(page).toHaveURL(`/videos?more=${WEEKEND.id}:10#v-${WEEKEND.id}-6`);
    await expect(weekend.locator('.vi-t')).toHaveCount(10);
    expect(await shownTitles(page, WEEKEND.title)).toEqual(titlesOf(WEEKEND.videos.slice(0, 10)));
    await expect(weekend.getByText('10 of 12 videos')).toBeVisible();
    // The visitor lands on the first new video; the other playlist is as it was.
    await expect(weekend.getByRole('link', { name: WEEKEND.videos[5]!.title })).toBeInViewport();
    if (javaScript) await expect(weekend.getByRole('link', { name: WEEKEND.videos[5]!.title })).toBeFocused();
    expect(await shownTitles(page, HOWTO.title)).toEqual(titlesOf(HOWTO.videos));

    await weekend.getByRole('link', { name: `See More from ${WEEKEND.title}` }).click();
    await expect(weekend.locator('.vi-t')).toHaveCount(12);
    expect(await shownTitles(page, WEEKEND.title)).toEqual(titlesOf(WEEKEND.videos));
    await expect(weekend.getByRole('link', { name: /^See More/ })).toHaveCount(0);
    await expect(weekend.getByText('12 of 12 videos')).toBeVisible();
    await expect(page).toHaveURL(`/videos?more=${WEEKEND.id}:15#v-${WEEKEND.id}-11`);

    // With JavaScript both steps were client-side navigations: still the same document.
    if (javaScript) expect(await page.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument)).toBe(true);
  });

  test('a video plays in place with JavaScript, and no player loads before the click @js', async ({ page, youtubeHosts }, testInfo) => {
    const response = await page.goto('/videos');
    expect(response?.headers()['content-security-policy']).toContain('frame-src https://www.youtube-nocookie.com;');
    await ready(page, true);
    await expect(page.locator('iframe')).toHaveCount(0);
    expect(youtubeHosts.filter((u) => !u.startsWith('https://i.ytimg.com/'))).toEqual([]);

    const [first, second] = [WEEKEND.videos[0]!, WEEKEND.videos[1]!];
    await page.getByRole('button', { name: `Play ${first.title}` }).click();
    const player = page.locator(`iframe[title="${first.title}"]`);
    await expect(player).toHaveAttribute('src', `https://www.youtube-nocookie.com/embed/${first.id}?autoplay=1&rel=0`);
    await expect(page.frameLocator('iframe').getByText(`Playing ${first.id}`)).toBeVisible(); // the CSP let the frame load
    await expect(player).toBeInViewport();
    // The title still links to YouTube; the page stayed put.
    await expect(page.getByRole('link', { name: first.title })).toHaveAttribute('href', `https://www.youtube.com/watch?v=${first.id}`);
    await expect(page).toHaveURL('/videos');
    await expectAccessible(page, testInfo, 'videos, one playing');

    // One player at a time.
    await page.getByRole('button', { name: `Play ${second.title}` }).click();
    await expect(page.locator('iframe')).toHaveCount(1);
    await expect(page.locator(`iframe[title="${second.title}"]`)).toHaveAttribute('src', new RegExp(`/embed/${second.id}\\?`));
    await expect(page.getByRole('button', { name: `Play ${first.title}` })).toBeVisible();
  });

  test('without JavaScript a video is a link to YouTube, never a player @no-js', async ({ page, youtubeHosts }) => {
    await page.goto('/videos');
    await ready(page, false);
    await expect(page.getByRole('button', { name: /^Play / })).toHaveCount(0);
    const first = WEEKEND.videos[0]!;
    const watch = `https://www.youtube.com/watch?v=${first.id}`;
    await expect(page.locator(`#v-${WEEKEND.id}-1 .vi-th`)).toHaveAttribute('href', watch);
    await page.locator(`#v-${WEEKEND.id}-1 .vi-th`).click(); // the thumbnail
    await expect(page).toHaveURL(watch);
    await page.goBack();
    await page.getByRole('link', { name: first.title }).click(); // the title
    await expect(page).toHaveURL(watch);
    expect(youtubeHosts.some((u) => u.startsWith('https://www.youtube-nocookie.com/'))).toBe(false);
  });

  // youtubeHosts is asked for to set it up (Playwright starts only the fixtures a test names).
  // eslint-disable-next-line @typescript-eslint/no-unused-vars
  test('is accessible and fits a 360 px phone', async ({ page, javaScript, youtubeHosts }, testInfo) => {
    await page.goto(`/videos?more=${WEEKEND.id}:10`);
    await ready(page, javaScript);
    await expectNoSidewaysScroll(page);
    await expectAccessible(page, testInfo, 'videos');
    // Thumbnails: sized, lazy below the first screen.
    const imgs = page.locator('.vi img');
    await expect(imgs).toHaveCount(13);
    for (const img of await imgs.all()) {
      await expect(img).toHaveAttribute('width', '320');
      await expect(img).toHaveAttribute('height', '180');
    }
    await expect(imgs.nth(0)).toHaveAttribute('loading', 'eager');
    await expect(imgs.nth(12)).toHaveAttribute('loading', 'lazy');
  });
});
