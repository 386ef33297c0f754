import type { HeadersFunction } from '@remix-run/node';

/**
 * Public GET pages may be cached briefly, but only for anonymous visitors: anyone carrying a
 * session cookie may see their name in the nav (or a flash message), so their page is never stored.
 */
export function publicPageHeaders(request: Request): Record<string, string> {
  const cookie = request.headers.get('Cookie') ?? '';
  const hasSession = /(?:^|;\s*)__session=/.test(cookie);
  return hasSession
    ? { 'Cache-Control': 'private, no-store' }
    : { 'Cache-Control': 'public, max-age=30, stale-while-revalidate=60', Vary: 'Cookie' };
}

/** The route's loader headers (or its error's, e.g. no-store on a 503) become the document's. */
export const loaderCacheHeaders: HeadersFunction = ({ loaderHeaders, errorHeaders }) => errorHeaders ?? loaderHeaders;
