import crypto from 'node:crypto';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { LRUCache } from 'lru-cache';
import type { SessionState } from './client.server';
import { GENERATION_WAIT_MS, GenerationSource, generationReader } from './gateway-generation.server';
import { logger } from './logger.server';
import { securityHeadersWithHashes } from './security.server';

/**
 * The page cache of the web server (decision 024): finished public pages for anonymous visitors, kept per
 * URL and served before Remix runs, each valid only while the gateway's generation is the one it was
 * rendered under. This module decides what may be kept and prepares what is sent; server/page-cache.ts asks it.
 */

export type Encoding = 'br' | 'gzip' | 'identity';

/** Home, the list, a tournament, its points table, about: pages every anonymous visitor sees alike. */
const CACHED_PAGES = /^\/(?:|about|tournaments|tournaments\/[^/.]+|tournaments\/[^/.]+\/points-table)\/?$/;
/** A page larger than this is sent but not kept (ours are 10–60 KB). */
const MAX_PAGE_BYTES = 1024 * 1024;
/** All kept bytes (plain + gzip + brotli), whatever the number of entries. */
const MAX_TOTAL_BYTES = 64 * 1024 * 1024;
/**
 * A kept page is re-rendered after this long even when the generation did not move: a safety net for a
 * change the generation missed, no longer than the max-age the page already allows shared caches.
 */
export const MAX_PAGE_AGE_MS = 30_000;

const gzip = promisify(zlib.gzip);
const brotli = promisify(zlib.brotliCompress);

export interface CachedPage {
  key: string;
  generation: string;
  storedAt: number;
  status: number;
  /** Per encoding, ready to send: the headers (with Content-Length) and the bytes. */
  variants: Record<Encoding, { headers: Record<string, string>; body: Buffer }>;
  bytes: number;
}

/** GET and HEAD of the public pages: the requests the page cache may answer, if the visitor is anonymous. */
export function cacheablePage(method: string, path: string): boolean {
  return (method === 'GET' || method === 'HEAD') && CACHED_PAGES.test(path);
}

/**
 * Only GET and HEAD of the public pages, only for an anonymous visitor: the session as the server
 * decided it once for the request (decision 031), the answer `publicPageHeaders` also reads.
 */
export function pageCacheApplies(method: string, path: string, session: Pick<SessionState, 'anonymous'>): boolean {
  return cacheablePage(method, path) && session.anonymous;
}

/**
 * Whether Remix's answer may be kept: a 200 HTML page that says `public`, set no cookie, and carries
 * the nonce CSP of entry.server.tsx. Anything else (a 404, the 503 "gateway down" page, a redirect,
 * a flash message read) is sent as it is and never kept.
 */
export function storable(response: Response): boolean {
  const cacheControl = response.headers.get('cache-control') ?? '';
  return (
    response.status === 200 &&
    /^text\/html\b/.test(response.headers.get('content-type') ?? '') &&
    /\bpublic\b/.test(cacheControl) &&
    !/\b(?:private|no-store|no-cache)\b/.test(cacheControl) &&
    !response.headers.has('set-cookie') &&
    nonceOf(response.headers.get('content-security-policy')) !== null
  );
}

const nonceOf = (csp: string | null) => /'nonce-([A-Za-z0-9+/=]+)'/.exec(csp ?? '')?.[1] ?? null;

const sha256 = (text: string) => crypto.createHash('sha256').update(text, 'utf8').digest('base64');

/**
 * The page with its response nonce taken out and the SHA-256 hashes of the inline scripts that carried
 * it: the scripts React and Remix rendered. A script without the nonce (which the nonce CSP would have
 * blocked) gets no hash, so it stays blocked. null when the nonce is still in the page afterwards
 * (somewhere we did not expect): such a page is not kept.
 */
export function pinInlineScripts(html: string, nonce: string): { html: string; hashes: string[] } | null {
  const nonceAttribute = ` nonce="${nonce}"`;
  const hashes = new Set<string>();
  const pinned = html.replace(/<script\b([^>]*)>([\s\S]*?)<\/script>/g, (whole, attributes: string, content: string) => {
    if (!attributes.includes(nonceAttribute)) return whole;
    const rest = attributes.replace(nonceAttribute, '');
    if (!/\ssrc=/.test(rest)) hashes.add(sha256(content));
    return `<script${rest}>${content}</script>`;
  });
  if (pinned.includes(nonce)) return null;
  return { html: pinned, hashes: [...hashes] };
}

/** Headers Remix set that are not kept: per-response, per-connection or rewritten here. */
const NOT_KEPT = new Set([
  'content-length',
  'content-encoding',
  'transfer-encoding',
  'content-security-policy',
  'date',
  'connection',
  'keep-alive',
  'vary',
]);

/**
 * A kept page from Remix's answer and its body: the nonce replaced by script hashes, compressed once
 * for each encoding. null when it cannot be kept (too large, unexpected nonce).
 */
export async function preparePage(
  key: string,
  generation: string,
  response: Response,
  body: Buffer,
  now = Date.now(),
): Promise<CachedPage | null> {
  const nonce = nonceOf(response.headers.get('content-security-policy'));
  if (!nonce || body.length > MAX_PAGE_BYTES) return null;
  const pinned = pinInlineScripts(body.toString('utf8'), nonce);
  if (!pinned) return null;
  const plain = Buffer.from(pinned.html, 'utf8');
  const [gzipped, brotlied] = await Promise.all([
    gzip(plain, { level: 6 }),
    brotli(plain, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: plain.length } }),
  ]);
  const common: Record<string, string> = {};
  for (const [name, value] of response.headers) if (!NOT_KEPT.has(name)) common[name] = value;
  // Lower-case names, as Remix's Headers gave the others: writeHead sends an object's keys as they are,
  // so `X-Content-Type-Options` beside `x-content-type-options` would go out twice.
  for (const [name, value] of Object.entries(securityHeadersWithHashes(pinned.hashes))) common[name.toLowerCase()] = value;
  common.vary = 'Cookie, Accept-Encoding';
  const variant = (body: Buffer, encoding: Encoding) => ({
    body,
    headers: { ...common, ...(encoding === 'identity' ? {} : { 'content-encoding': encoding }), 'content-length': String(body.length) },
  });
  return {
    key,
    generation,
    storedAt: now,
    status: response.status,
    variants: { identity: variant(plain, 'identity'), gzip: variant(gzipped, 'gzip'), br: variant(brotlied, 'br') },
    bytes: plain.length + gzipped.length + brotlied.length,
  };
}

/** The encoding to send for an Accept-Encoding header: brotli, then gzip, then none; weights honoured. */
export function chooseEncoding(acceptEncoding: string | undefined): Encoding {
  if (!acceptEncoding) return 'identity';
  const weights = new Map<string, number>();
  for (const part of acceptEncoding.split(',')) {
    const [coding, ...params] = part.trim().toLowerCase().split(';');
    if (!coding) continue;
    const q = params.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)?.[1]).find((v) => v !== undefined);
    const weight = q === undefined ? 1 : Number(q);
    weights.set(coding, Number.isFinite(weight) ? weight : 0);
  }
  const weight = (coding: Encoding) => weights.get(coding) ?? weights.get('*') ?? (coding === 'identity' ? 1 : 0);
  let best: Encoding = 'identity';
  let bestWeight = 0;
  for (const coding of ['br', 'gzip', 'identity'] as const) {
    const w = weight(coding);
    if (w > bestWeight) {
      best = coding;
      bestWeight = w;
    }
  }
  return best;
}

/**
 * Kept pages by key (URL), least recently used first; bounded in entries and in bytes (lru-cache).
 * An entry lasts at most MAX_PAGE_AGE_MS in the cache; `get` also checks the page's own generation and
 * age (against `now`, which tests set).
 */
export class PageStore {
  private readonly pages: LRUCache<string, CachedPage> | null;

  constructor(maxEntries: number, maxBytes = MAX_TOTAL_BYTES) {
    this.pages =
      maxEntries === 0
        ? null
        : new LRUCache<string, CachedPage>({
            max: maxEntries,
            maxSize: maxBytes,
            sizeCalculation: (page) => page.bytes,
            ttl: MAX_PAGE_AGE_MS,
          });
  }

  get size() {
    return this.pages?.size ?? 0;
  }

  /** The page kept for key if it was rendered under this generation and is not too old. */
  get(key: string, generation: string, now = Date.now()): CachedPage | undefined {
    const page = this.pages?.get(key);
    if (!page) return undefined;
    if (page.generation !== generation || now - page.storedAt > MAX_PAGE_AGE_MS) {
      this.pages!.delete(key);
      return undefined;
    }
    return page;
  }

  set(page: CachedPage): void {
    // A page larger than all the room is not kept (lru-cache refuses it too, with a warning we don't want).
    if (!this.pages || page.bytes > this.pages.maxSize) return;
    this.pages.set(page.key, page);
  }
}

/** What the web server (server/page-cache.ts) uses: null when PAGE_CACHE_ENTRIES is 0. */
export function createPageCache(options: { gatewayUrl: string; maxEntries: number; timeoutMs?: number }) {
  if (options.maxEntries === 0) return null;
  const waitMs = Math.min(options.timeoutMs ?? GENERATION_WAIT_MS, GENERATION_WAIT_MS);
  let lastWarning = 0;
  const source = new GenerationSource(generationReader(options.gatewayUrl, waitMs), (err) => {
    // At most one line per 10 s: while the gateway is down every page would add one.
    if (Date.now() - lastWarning < 10_000) return;
    lastWarning = Date.now();
    logger.warn({ reason: (err as Error)?.message ?? String(err) }, 'page cache: gateway generation unavailable, pages rendered uncached');
  });
  const store = new PageStore(options.maxEntries);
  // Browsers send a handful of distinct Accept-Encoding headers: parse each once.
  const encodings = new Map<string, Encoding>();
  const encodingFor = (acceptEncoding: string | undefined) => {
    const header = acceptEncoding ?? '';
    let encoding = encodings.get(header);
    if (!encoding) {
      encoding = chooseEncoding(header);
      if (encodings.size >= 64) encodings.clear();
      encodings.set(header, encoding);
    }
    return encoding;
  };
  return {
    cacheable: cacheablePage,
    applies: pageCacheApplies,
    /** The gateway's generation read after this call started, or null (failed, or slower than the wait). */
    generation: () => source.currentWithin(waitMs),
    get: (key: string, generation: string) => store.get(key, generation),
    storable,
    /** Prepares and keeps the page; null when it cannot be kept (then send Remix's answer as it is). */
    async store(key: string, generation: string, response: Response, body: Buffer) {
      const page = await preparePage(key, generation, response, body);
      // A page rendered under a generation that has moved on meanwhile is sent, not kept: it would only
      // push out a newer copy rendered by a later request.
      if (page && generation === source.latest) store.set(page);
      return page;
    },
    /** The variant of a kept page to send for this Accept-Encoding. */
    variant: (page: CachedPage, acceptEncoding: string | undefined) => page.variants[encodingFor(acceptEncoding)],
    stats: () => ({ entries: store.size, generationReads: source.reads }),
  };
}

export type PageCache = NonNullable<ReturnType<typeof createPageCache>>;
