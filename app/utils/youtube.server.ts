import { LRUCache } from 'lru-cache';
import { z } from 'zod';
import { getEnv } from './env.server';
import { logger } from './logger.server';
import type { Thumbnail, Video } from './videos';

/**
 * The web server's YouTube Data API v3 client for /videos (spec §2, §9: up to 10 playlists of the
 * channel, 50 items each). Every answer is cached per URL for YOUTUBE_CACHE_SECONDS; one request per URL
 * is in flight at a time however many visitors arrive; when YouTube fails, times out or refuses (quota),
 * the last good answer is served. The API key travels only in the URL to YouTube: it is scrubbed from
 * every log line and never returned to callers.
 */

export type { Thumbnail, Video };

export interface Playlist {
  id: string;
  title: string;
  /** null: this playlist's videos could not be loaded and nothing was cached. */
  videos: Video[] | null;
}
export interface ChannelPlaylists {
  playlists: Playlist[];
  /** Some answer is a stale copy kept from before a failure. */
  stale: boolean;
}

export class YouTubeError extends Error {
  name = 'YouTubeError';
}

// --- Reading the API's answers: leniently, item by item; a malformed item is skipped, not fatal. ---

const ListSchema = z
  .object({ kind: z.string().optional(), items: z.array(z.unknown()).optional() })
  .passthrough()
  .refine((v) => Array.isArray(v.items) || /ListResponse$/.test(v.kind ?? ''), 'not a YouTube list response');

const ThumbnailSchema = z.object({
  url: z
    .string()
    .url()
    .refine((u) => u.startsWith('https://'), 'https only'),
  width: z.number().int().positive().optional(),
  height: z.number().int().positive().optional(),
});

const PlaylistResourceSchema = z.object({
  id: z.string().regex(/^[\w-]{2,64}$/),
  snippet: z.object({ title: z.string().min(1) }).passthrough(),
});

const PlaylistItemSchema = z.object({
  snippet: z
    .object({
      title: z.string(),
      thumbnails: z.record(z.unknown()).optional(),
      resourceId: z.object({ kind: z.string().optional(), videoId: z.string().regex(/^[\w-]{11}$/) }).passthrough(),
    })
    .passthrough(),
  status: z.object({ privacyStatus: z.string().optional() }).passthrough().optional(),
});

/** How the API lists an item it will not show: private or deleted videos keep their place with these titles and no thumbnails. */
const UNAVAILABLE_TITLES = new Set(['Private video', 'Deleted video']);
/** medium is 320×180 (16:9, no letterbox bars): light, and sharp at the size the page shows it. */
const THUMBNAIL_PREFERENCE = ['medium', 'high', 'standard', 'default', 'maxres'];

function itemsOf(json: unknown): unknown[] {
  const parsed = ListSchema.safeParse(json);
  if (!parsed.success) throw new YouTubeError('answer is not a YouTube list response');
  return parsed.data.items ?? [];
}

export function parsePlaylists(json: unknown): { id: string; title: string }[] {
  const out: { id: string; title: string }[] = [];
  for (const item of itemsOf(json)) {
    const p = PlaylistResourceSchema.safeParse(item);
    if (p.success) out.push({ id: p.data.id, title: p.data.snippet.title });
  }
  return out;
}

export function parsePlaylistItems(json: unknown): Video[] {
  const out: Video[] = [];
  const seen = new Set<string>();
  for (const item of itemsOf(json)) {
    const p = PlaylistItemSchema.safeParse(item);
    if (!p.success) continue;
    const { snippet, status } = p.data;
    if (snippet.resourceId.kind && snippet.resourceId.kind !== 'youtube#video') continue;
    if (UNAVAILABLE_TITLES.has(snippet.title)) continue;
    if (status?.privacyStatus && status.privacyStatus !== 'public' && status.privacyStatus !== 'unlisted') continue;
    const thumbnail = pickThumbnail(snippet.thumbnails);
    if (!thumbnail) continue; // private and deleted videos come without thumbnails
    const id = snippet.resourceId.videoId;
    if (seen.has(id)) continue;
    seen.add(id);
    out.push({ id, title: snippet.title, thumbnail });
  }
  return out;
}

function pickThumbnail(thumbnails: Record<string, unknown> | undefined): Thumbnail | null {
  if (!thumbnails) return null;
  const keys = [...THUMBNAIL_PREFERENCE, ...Object.keys(thumbnails).filter((k) => !THUMBNAIL_PREFERENCE.includes(k))];
  for (const key of keys) {
    const t = ThumbnailSchema.safeParse(thumbnails[key]);
    if (t.success) return { url: t.data.url, width: t.data.width ?? 320, height: t.data.height ?? 180 };
  }
  return null;
}

/** The reason Google's error envelope gives ({ error: { errors: [{ reason }] } }), e.g. quotaExceeded. */
function googleReason(text: string): string | undefined {
  try {
    const body = JSON.parse(text) as { error?: { errors?: { reason?: unknown }[]; status?: unknown } };
    const reason = body.error?.errors?.[0]?.reason ?? body.error?.status;
    return typeof reason === 'string' ? reason.slice(0, 60) : undefined;
  } catch {
    return undefined;
  }
}

// --- The client ---

export interface YouTubeClientOptions {
  apiBase: string;
  apiKey: string;
  channelId: string;
  cacheSeconds: number;
  /** Per request to YouTube (default 3000 ms): a slower answer counts as a failure. */
  timeoutMs?: number;
  /** After a failure, the stale copy (or the failure) stands this long before YouTube is asked again (default 30 s). */
  retryAfterFailureMs?: number;
  /** Clock, for tests. */
  now?: () => number;
}

export interface YouTubeClient {
  channelPlaylists(): Promise<ChannelPlaylists>;
}

/** What is kept per URL: an answer (fresh, or a stale copy kept after a failure), or the failure itself. */
type Entry = { value: unknown; stale: boolean } | { error: Error };

/** The least recently used URLs go first beyond this many (a channel needs 1 + 10). */
const MAX_ENTRIES = 100;

export function createYouTubeClient(options: YouTubeClientOptions): YouTubeClient {
  const { apiKey, channelId } = options;
  const apiBase = options.apiBase.replace(/\/+$/, '');
  const ttlMs = options.cacheSeconds * 1000;
  const timeoutMs = options.timeoutMs ?? 3000;
  const retryMs = options.retryAfterFailureMs ?? 30_000;

  const apiUrl = (endpoint: string, params: Record<string, string>) =>
    `${apiBase}/${endpoint}?${new URLSearchParams({ ...params, key: apiKey })}`;

  /** The URL and any text with the key replaced, fit for a log line. */
  const scrub = (text: string) => (apiKey ? text.split(apiKey).join('REDACTED').split(encodeURIComponent(apiKey)).join('REDACTED') : text);

  async function fetchJson(url: string): Promise<unknown> {
    let res: Response;
    let text: string;
    try {
      res = await fetch(url, { headers: { accept: 'application/json' }, signal: AbortSignal.timeout(timeoutMs) });
      text = await res.text();
    } catch (err) {
      const e = err as Error;
      throw new YouTubeError(e.name === 'TimeoutError' ? `timed out after ${timeoutMs} ms` : `unreachable: ${e.message}`);
    }
    if (!res.ok) {
      const reason = googleReason(text);
      throw new YouTubeError(`HTTP ${res.status}${reason ? ` ${reason}` : ''}`);
    }
    try {
      return JSON.parse(text);
    } catch {
      throw new YouTubeError('answer is not JSON');
    }
  }

  // lru-cache keeps each URL's entry for its TTL and runs one fetch per URL at a time, everyone asking
  // meanwhile waiting on it (decision 038). The fetch never rejects: a failure becomes an entry of its
  // own. A fetch's context is how that URL's answer is read.
  const cache = new LRUCache<string, Entry, (json: unknown) => unknown>({
    max: MAX_ENTRIES,
    // lru-cache reads a TTL of 0 as "forever": YOUTUBE_CACHE_SECONDS=0 keeps a copy 1 ms (for failures).
    ttl: Math.max(1, ttlMs),
    // Read the clock on every check, not once per ms: tests move theirs by hand.
    ttlResolution: 0,
    ...(options.now ? { perf: { now: options.now } } : {}),
    // An entry pushed out while its fetch runs still answers those waiting on that fetch.
    ignoreFetchAbort: true,
    fetchMethod: (url, previous, { options: entryOptions, context: parse }) =>
      fetchJson(url)
        .then(parse)
        .then(
          (value): Entry => ({ value, stale: false }),
          (err: Error): Entry => {
            // The stale copy (or the failure) stands this long before YouTube is asked again.
            entryOptions.ttl = retryMs;
            const hasCopy = !!previous && 'value' in previous;
            const fields = { url: scrub(url), reason: scrub(err.message), served: hasCopy ? 'stale copy' : 'nothing cached' };
            if (hasCopy) logger.warn(fields, 'youtube request failed');
            else logger.error(fields, 'youtube request failed');
            if (previous && 'value' in previous) return { value: previous.value, stale: true };
            return { error: new YouTubeError(scrub(err.message)) };
          },
        ),
  });

  /** The parsed answer for url: fresh from the cache, from the one request in flight, or fetched; the stale copy when that fails. */
  async function cached<T>(url: string, parse: (json: unknown) => T): Promise<{ value: T; stale: boolean }> {
    const entry = (await cache.fetch(url, { context: parse }))!;
    if ('error' in entry) throw entry.error;
    return entry as { value: T; stale: boolean };
  }

  return {
    /** The channel's playlists (at most 10) with their public videos (at most 50 each); playlists left empty are dropped. Throws YouTubeError when the list of playlists cannot be had at all. */
    async channelPlaylists() {
      const lists = await cached(apiUrl('playlists', { part: 'snippet', channelId, maxResults: '10' }), parsePlaylists);
      let stale = lists.stale;
      const playlists = await Promise.all(
        lists.value.map(async (pl): Promise<Playlist> => {
          try {
            const items = await cached(
              apiUrl('playlistItems', { part: 'snippet', playlistId: pl.id, maxResults: '50' }),
              parsePlaylistItems,
            );
            stale ||= items.stale;
            return { ...pl, videos: items.value };
          } catch {
            return { ...pl, videos: null };
          }
        }),
      );
      return { playlists: playlists.filter((p) => p.videos === null || p.videos.length > 0), stale };
    },
  };
}

let client: YouTubeClient | null | undefined;

/** The client configured by the environment; null when YOUTUBE_API_KEY or YOUTUBE_CHANNEL_ID is unset. */
export function getYouTube(): YouTubeClient | null {
  if (client === undefined) {
    const env = getEnv();
    client =
      env.YOUTUBE_API_KEY && env.YOUTUBE_CHANNEL_ID
        ? createYouTubeClient({
            apiBase: env.YOUTUBE_API_BASE,
            apiKey: env.YOUTUBE_API_KEY,
            channelId: env.YOUTUBE_CHANNEL_ID,
            cacheSeconds: env.YOUTUBE_CACHE_SECONDS,
          })
        : null;
  }
  return client;
}

/** For tests: forget the client and its cache (after changing the environment). */
export function resetYouTubeForTests() {
  client = undefined;
}
