import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ComponentType } from 'react';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import * as videosRoute from '~/routes/videos';
import { resetEnvForTests } from '~/utils/env.server';
import { securityHeaders } from '~/utils/security.server';
import { moreSearch, parseMore } from '~/utils/videos';
import { createYouTubeClient, parsePlaylistItems, resetYouTubeForTests, type YouTubeClientOptions } from '~/utils/youtube.server';
import { CHANNEL, FAKE_API_KEY, MAIN_PLAYLISTS, startYouTubeFake, type YouTubeFake } from '../fixtures/youtube-fake.mjs';
import { captureLogs, type LogLine } from '../support/logs';
import { renderPage } from '../support/render';
import { unwrap } from './support/gateway-stub';

const [WEEKEND, HOWTO] = MAIN_PLAYLISTS as [(typeof MAIN_PLAYLISTS)[0], (typeof MAIN_PLAYLISTS)[0]];
const titles = (videos: { title: string }[] | null) => videos?.map((v) => v.title);

let fake: YouTubeFake;
/** The logger's lines and anything else written to the console, any level (the key must never be in one). */
let logs: LogLine[];
let consoleLines: string[];

beforeAll(async () => {
  fake = await startYouTubeFake({ slowMs: 1000 });
});
afterAll(() => fake.close());

const savedEnv = { ...process.env };
beforeEach(() => {
  fake.setMode('ok', 1000);
  fake.requests.length = 0;
  logs = captureLogs();
  consoleLines = [];
  for (const level of ['log', 'info', 'warn', 'error'] as const) {
    vi.spyOn(console, level).mockImplementation((...args: unknown[]) => void consoleLines.push(args.map(String).join(' ')));
  }
});
afterEach(() => {
  vi.restoreAllMocks();
  expect([...logs.map((line) => JSON.stringify(line)), ...consoleLines].join('\n')).not.toContain(FAKE_API_KEY);
  process.env = { ...savedEnv };
  resetEnvForTests();
  resetYouTubeForTests();
});

/** A client on the fake with a clock the test moves. */
function client(over: Partial<YouTubeClientOptions> = {}) {
  const clock = { t: 1_000_000 };
  const c = createYouTubeClient({
    apiBase: fake.base,
    apiKey: FAKE_API_KEY,
    channelId: CHANNEL.main,
    cacheSeconds: 600,
    timeoutMs: 300,
    now: () => clock.t,
    ...over,
  });
  return { c, clock };
}

describe('YouTube client', () => {
  it('reads the two playlists of 12 and 3 videos, leaving out the private and the deleted one', async () => {
    const { c } = client();
    const { playlists, stale } = await c.channelPlaylists();
    expect(stale).toBe(false);
    expect(playlists.map((p) => [p.id, p.title])).toEqual([
      [WEEKEND.id, WEEKEND.title],
      [HOWTO.id, HOWTO.title],
    ]);
    expect(titles(playlists[0]!.videos)).toEqual(WEEKEND.videos.map((v) => v.title));
    expect(playlists[0]!.videos).toHaveLength(12);
    expect(titles(playlists[1]!.videos)).toEqual(HOWTO.videos.map((v) => v.title));
    expect(JSON.stringify(playlists)).not.toMatch(/Private video|Deleted video/);
    expect(playlists[0]!.videos![0]).toEqual({
      id: WEEKEND.videos[0]!.id,
      title: WEEKEND.videos[0]!.title,
      thumbnail: { url: `https://i.ytimg.com/vi/${WEEKEND.videos[0]!.id}/mqdefault.jpg`, width: 320, height: 180 },
    });
    // The calls of the issue: playlists (max 10) of the channel, then each playlist's items (max 50).
    expect(fake.requests.sort()).toEqual(
      [
        `/youtube/v3/playlists?part=snippet&channelId=${CHANNEL.main}&maxResults=10&key=${FAKE_API_KEY}`,
        `/youtube/v3/playlistItems?part=snippet&playlistId=${WEEKEND.id}&maxResults=50&key=${FAKE_API_KEY}`,
        `/youtube/v3/playlistItems?part=snippet&playlistId=${HOWTO.id}&maxResults=50&key=${FAKE_API_KEY}`,
      ].sort(),
    );
  });

  it('makes one upstream call per URL for 50 concurrent visitors', async () => {
    const { c } = client();
    fake.setMode('slow', 100); // all 50 arrive while the first answers are on their way
    const results = await Promise.all(Array.from({ length: 50 }, () => c.channelPlaylists()));
    expect(fake.requests).toHaveLength(3);
    expect(new Set(fake.requests).size).toBe(3);
    for (const r of results) expect(r).toEqual(results[0]);
  });

  it('answers from the cache for YOUTUBE_CACHE_SECONDS, then asks again', async () => {
    const { c, clock } = client({ cacheSeconds: 600 });
    const first = await c.channelPlaylists();
    clock.t += 599_000;
    expect(await c.channelPlaylists()).toEqual(first);
    expect(fake.requests).toHaveLength(3);
    clock.t += 2_000;
    expect(await c.channelPlaylists()).toEqual(first);
    expect(fake.requests).toHaveLength(6);
  });

  for (const [mode, reason] of [
    ['quota', /HTTP 403 quotaExceeded/],
    ['slow', /timed out after 300 ms/],
    ['error', /HTTP 500 backendError/],
    ['garbage', /not a YouTube list response/],
    ['drop', /unreachable/],
  ] as const) {
    it(`serves the stale copy when YouTube answers "${mode}", and logs why without the key`, async () => {
      const { c, clock } = client({ retryAfterFailureMs: 30_000 });
      const fresh = await c.channelPlaylists();
      clock.t += 601_000;
      fake.setMode(mode);
      const started = Date.now();
      const stale = await c.channelPlaylists();
      expect(Date.now() - started).toBeLessThan(900); // the 1 s slow answer is not waited for
      expect(stale.stale).toBe(true);
      expect(stale.playlists).toEqual(fresh.playlists);
      expect(logs[0]).toMatchObject({ level: 'warn', msg: 'youtube request failed', served: 'stale copy' });
      expect(logs[0]!.reason).toMatch(reason);
      expect(logs[0]!.url).toContain('key=REDACTED');
      // Within the retry window YouTube is not asked again; the stale copy stands.
      const asked = fake.requests.length;
      clock.t += 10_000;
      expect((await c.channelPlaylists()).playlists).toEqual(fresh.playlists);
      expect(fake.requests.length).toBe(asked);
      // Once YouTube is back, the next visitor after the window gets fresh answers.
      fake.setMode('ok');
      clock.t += 30_000;
      expect(await c.channelPlaylists()).toEqual({ ...fresh, stale: false });
    });
  }

  it('fails (YouTubeError) only with nothing cached, and does not hammer a refusing API', async () => {
    const { c, clock } = client({ retryAfterFailureMs: 30_000 });
    fake.setMode('quota');
    await expect(c.channelPlaylists()).rejects.toThrow(/HTTP 403 quotaExceeded/);
    expect(logs[0]).toMatchObject({ level: 'error', served: 'nothing cached' });
    await expect(c.channelPlaylists()).rejects.toThrow(/quotaExceeded/);
    expect(fake.requests).toHaveLength(1);
    fake.setMode('ok');
    clock.t += 31_000;
    expect((await c.channelPlaylists()).playlists).toHaveLength(2);
  });

  it('finds no playlists on an empty channel', async () => {
    const { c } = client({ channelId: CHANNEL.empty });
    expect(await c.channelPlaylists()).toEqual({ playlists: [], stale: false });
  });

  it('reads items leniently: a malformed item is skipped, not fatal; a non-public status is left out', () => {
    const item = (videoId: string, over: Record<string, unknown> = {}) => ({
      snippet: {
        title: `Video ${videoId}`,
        thumbnails: { medium: { url: `https://i.ytimg.com/vi/${videoId}/mqdefault.jpg`, width: 320, height: 180 } },
        resourceId: { kind: 'youtube#video', videoId },
      },
      ...over,
    });
    const videos = parsePlaylistItems({
      kind: 'youtube#playlistItemListResponse',
      items: [
        item('aaaaaaaaaaa'),
        { snippet: { title: 'no resource' } },
        item('bbbbbbbbbbb', { status: { privacyStatus: 'private' } }),
        item('ccccccccccc', { status: { privacyStatus: 'unlisted' } }),
        { snippet: { ...item('ddddddddddd').snippet, thumbnails: { medium: { url: 'http://insecure.example/x.jpg' } } } },
        { snippet: { ...item('eeeeeeeeeee').snippet, thumbnails: { default: { url: 'https://i.ytimg.com/vi/eeeeeeeeeee/default.jpg' } } } },
        item('aaaaaaaaaaa'),
      ],
    });
    expect(videos.map((v) => v.id)).toEqual(['aaaaaaaaaaa', 'ccccccccccc', 'eeeeeeeeeee']);
    expect(videos[2]!.thumbnail).toEqual({ url: 'https://i.ytimg.com/vi/eeeeeeeeeee/default.jpg', width: 320, height: 180 });
  });
});

describe('See More in the URL', () => {
  it('reads several playlists’ counts, kept within 5..50, ignoring junk', () => {
    const counts = parseMore(
      new URLSearchParams('more=PLa:10&more=PLb:15,PLc:99&more=PLd:2&more=junk&more=:10&more=PL%20x:10&more=PLe:ten'),
    );
    expect([...counts]).toEqual([
      ['PLa', 10],
      ['PLb', 15],
      ['PLc', 50],
      ['PLd', 5],
    ]);
    expect(moreSearch(['PLb', 'PLa', 'PLd'], counts)).toBe('?more=PLb:15&more=PLa:10');
    expect(moreSearch(['PLz'], counts)).toBe('');
  });
});

// --- The route: loader and page ---

function useEnv(vars: Record<string, string | undefined>) {
  process.env = {
    ...savedEnv,
    DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'videos-test-')),
    SESSION_SECRET: 'web-test-secret-0123456789',
    YOUTUBE_API_KEY: undefined,
    YOUTUBE_CHANNEL_ID: undefined,
    YOUTUBE_API_BASE: undefined,
    YOUTUBE_CACHE_SECONDS: undefined,
    ...vars,
  };
  resetEnvForTests();
  resetYouTubeForTests();
}
const configured = (channelId = CHANNEL.main) =>
  useEnv({ YOUTUBE_API_KEY: FAKE_API_KEY, YOUTUBE_CHANNEL_ID: channelId, YOUTUBE_API_BASE: fake.base });

async function load(search = '', headers: Record<string, string> = {}) {
  const result = await videosRoute.loader({
    request: new Request(`http://localhost/videos${search}`, { headers }),
    params: {},
    context: {},
  });
  const r = result as unknown as { init: ResponseInit | null };
  return { ...unwrap(result), headers: new Headers(r.init?.headers ?? {}) };
}

/** Server-renders the page with this loader data: the HTML a browser without JavaScript gets. */
const render = (loaderData: unknown) => renderPage(videosRoute.default as ComponentType, loaderData, 'http://localhost/videos');

describe('/videos loader and page', () => {
  it('says videos are not configured without the key and the channel, asking nothing', async () => {
    for (const vars of [{}, { YOUTUBE_API_KEY: FAKE_API_KEY }, { YOUTUBE_CHANNEL_ID: CHANNEL.main }]) {
      useEnv(vars);
      const { status, body } = await load();
      expect(status).toBe(200);
      expect(body).toEqual({ status: 'not-configured' });
      expect(await render(body)).toContain('Videos are not configured on this site yet.');
    }
    expect(fake.requests).toEqual([]);
  });

  it('shows 5 videos per playlist with thumbnails sized and lazy below the fold, See More linking to 5 more', async () => {
    configured();
    const { status, body, headers } = await load();
    expect(status).toBe(200);
    expect(headers.get('cache-control')).toBe('public, max-age=30, stale-while-revalidate=60');
    expect(body.status).toBe('ok');
    const [weekend, howto] = body.playlists;
    expect(titles(weekend.videos)).toEqual(WEEKEND.videos.slice(0, 5).map((v) => v.title));
    expect(weekend.total).toBe(12);
    expect(weekend.seeMore).toBe(`/videos?more=${WEEKEND.id}:10#v-${WEEKEND.id}-6`);
    expect(titles(howto.videos)).toEqual(HOWTO.videos.map((v) => v.title));
    expect(howto.seeMore).toBeNull();

    const html = await render(body);
    expect(html).not.toContain('<iframe');
    expect(html).not.toContain('youtube-nocookie');
    const imgs = [...html.matchAll(/<img\b[^>]*>/g)].map((m) => m[0]);
    expect(imgs).toHaveLength(8);
    for (const img of imgs) expect(img).toMatch(/ width="320" height="180"/);
    expect(imgs.map((i) => /loading="(\w+)"/.exec(i)![1])).toEqual(['eager', 'eager', 'eager', 'eager', 'lazy', 'lazy', 'lazy', 'lazy']);
    const first = WEEKEND.videos[0]!;
    expect(html).toContain(`<a class="vi-t" href="https://www.youtube.com/watch?v=${first.id}">${first.title}</a>`);
    expect(html).toContain(`href="/videos?more=${WEEKEND.id}:10#v-${WEEKEND.id}-6"`);
    expect(html).toContain('>See More<span class="visually-hidden"> from Weekend Cup highlights</span>');
    expect(html).toContain('5 of 12 videos');
    // Without JavaScript there is no Play button that would do nothing.
    expect(html).not.toContain('<button');
  });

  it('See More shows 6–10, then 11–12 and no more link; other playlists keep their counts', async () => {
    configured();
    let { body } = await load(`?more=${WEEKEND.id}:10`);
    expect(titles(body.playlists[0].videos)).toEqual(WEEKEND.videos.slice(0, 10).map((v) => v.title));
    expect(body.playlists[0].seeMore).toBe(`/videos?more=${WEEKEND.id}:15#v-${WEEKEND.id}-11`);
    ({ body } = await load(`?more=${WEEKEND.id}:15`));
    expect(titles(body.playlists[0].videos)).toEqual(WEEKEND.videos.map((v) => v.title));
    expect(body.playlists[0].seeMore).toBeNull();
    expect(await render(body)).not.toContain('See More');

    // Another playlist's count in the URL survives a See More of this one.
    ({ body } = await load(`?more=${HOWTO.id}:10&more=${WEEKEND.id}:10`));
    expect(body.playlists[0].seeMore).toBe(`/videos?more=${WEEKEND.id}:15&more=${HOWTO.id}:10#v-${WEEKEND.id}-11`);
    expect(body.playlists[1].videos).toHaveLength(3);
    expect(fake.requests).toHaveLength(3); // the cache served all four loads
  });

  it('says "Failed to load playlists." with status 200 only when nothing is cached', async () => {
    configured();
    fake.setMode('quota');
    const failed = await load();
    expect(failed.status).toBe(200);
    expect(failed.body).toEqual({ status: 'failed' });
    expect(failed.headers.get('cache-control')).toBe('no-store');
    const html = await render(failed.body);
    expect(html).toContain('Failed to load playlists.');
    expect(html).toContain('href="/videos"');
  });

  it('keeps showing the cached playlists when YouTube then fails', async () => {
    useEnv({ YOUTUBE_API_KEY: FAKE_API_KEY, YOUTUBE_CHANNEL_ID: CHANNEL.main, YOUTUBE_API_BASE: fake.base, YOUTUBE_CACHE_SECONDS: '0' });
    const before = await load();
    fake.setMode('error');
    const after = await load();
    expect(fake.requests.length).toBeGreaterThan(3); // asked again (no caching at 0 s) and failed
    expect(after.status).toBe(200);
    expect(after.body).toEqual(before.body);
    expect(logs).toContainEqual(expect.objectContaining({ level: 'warn', served: 'stale copy' }));
  });

  it('says "No videos yet." for a channel without playlists', async () => {
    configured(CHANNEL.empty);
    const { status, body } = await load();
    expect(status).toBe(200);
    expect(body).toEqual({ status: 'empty' });
    expect(await render(body)).toContain('No videos yet.');
  });

  it('never puts the key in the page, its data or its headers', async () => {
    configured();
    const ok = await load();
    const html = await render(ok.body);
    for (const text of [html, JSON.stringify(ok.body), JSON.stringify([...ok.headers])]) expect(text).not.toContain(FAKE_API_KEY);
    resetYouTubeForTests();
    fake.setMode('drop');
    const failed = await load();
    for (const text of [await render(failed.body), JSON.stringify(failed.body), JSON.stringify([...failed.headers])])
      expect(text).not.toContain(FAKE_API_KEY);
    expect(logs.length).toBeGreaterThan(0); // the failure was logged (afterEach checks no line has the key)
  });

  it('is private to a signed-in visitor (the nav shows their name)', async () => {
    configured();
    const { headers } = await load('', { cookie: '__session=abc' });
    expect(headers.get('cache-control')).toBe('private, no-store');
  });

  it('caches for YOUTUBE_CACHE_SECONDS, 600 unless set', async () => {
    configured();
    const { getEnv } = await import('~/utils/env.server');
    expect(getEnv().YOUTUBE_CACHE_SECONDS).toBe(600);
    useEnv({ YOUTUBE_CACHE_SECONDS: '60' });
    expect(getEnv().YOUTUBE_CACHE_SECONDS).toBe(60);
    useEnv({ YOUTUBE_CACHE_SECONDS: '-1' });
    expect(() => getEnv()).toThrow(/^YOUTUBE_CACHE_SECONDS: /);
  });
});

describe('Content-Security-Policy', () => {
  it('allows exactly the youtube-nocookie player as a frame, and https images (thumbnails from i.ytimg.com)', () => {
    const directives = securityHeaders('n0nce')['Content-Security-Policy']!.split('; ');
    expect(directives).toContain('frame-src https://www.youtube-nocookie.com');
    expect(directives.filter((d) => d.startsWith('frame-src'))).toHaveLength(1);
    expect(directives).toContain("img-src 'self' data: https:");
    expect(directives).toContain("frame-ancestors 'none'");
  });
});
