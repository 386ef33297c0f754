import type { Request as ExpressRequest, RequestHandler, Response as ExpressResponse } from 'express';
import type { KeptPage, PageCacheApi } from './build.js';
import { requestUrl } from './forwarded.js';
import type { SessionOf } from './session.js';

/**
 * The middleware side of the page cache (decision 024; what may be kept and how is
 * app/utils/page-cache.server.ts). Anonymous GET/HEAD of a public page: the gateway's current
 * generation, read after this request arrived (shared with every page request waiting for it),
 * decides. A page kept under that generation is sent as it is, before Remix: no route matching, no
 * rendering, no gateway call. Otherwise Remix renders it and the Remix adapter keeps it under the
 * generation read here, before rendering. No generation (gateway down, slow, or without the
 * endpoint): ordinary rendering, nothing kept.
 */

/** What the Remix adapter needs to keep the page it renders. */
export interface KeepPage {
  key: string;
  generation: string;
  done(page: KeptPage | null): void;
}

export function pageCacheMiddleware(pageCache: PageCacheApi, sessionOf: SessionOf): RequestHandler {
  /** Renders of cacheable pages under way, by generation and URL: the promise of the page they keep (or null). */
  const rendering = new Map<string, Promise<KeptPage | null>>();
  return (req, res, next) => {
    if (!pageCache.cacheable(req.method, req.path)) return next();
    const url = requestUrl(req);
    if (!url) return next();
    sessionOf(req, res)
      .then(async (session) => {
        if (!pageCache.applies(req.method, req.path, session)) return next();
        const generation = await pageCache.generation();
        if (generation === null) return next();
        const key = url.href;
        const renderKey = `${generation} ${key}`;
        // The same page already being rendered under the same generation (a burst right after a write): wait for it.
        const page = pageCache.get(key, generation) ?? (await rendering.get(renderKey));
        if (page) return sendPage(pageCache, req, res, page, 'hit');
        let done: KeepPage['done'] = () => {};
        if (req.method === 'GET' && !rendering.has(renderKey)) {
          let settle!: (page: KeptPage | null) => void;
          const promise = new Promise<KeptPage | null>((resolve) => (settle = resolve));
          rendering.set(renderKey, promise);
          done = (kept) => {
            if (rendering.get(renderKey) === promise) rendering.delete(renderKey);
            settle(kept);
          };
          // However this answer ends without a page to share (an error, a 404, the client gone), the waiting requests render their own.
          res.once('close', () => done(null));
        }
        (res.locals as { pageCache?: KeepPage }).pageCache = { key, generation, done };
        next();
      })
      .catch(next);
  };
}

export function sendPage(
  pageCache: PageCacheApi,
  req: ExpressRequest,
  res: ExpressResponse,
  page: KeptPage,
  outcome: 'hit' | 'miss',
): void {
  const { headers, body } = pageCache.variant(page, req.headers['accept-encoding']);
  res.writeHead(page.status, { ...headers, 'x-page-cache': outcome });
  if (req.method === 'HEAD') res.end();
  else res.end(body);
}
