import type { HeadersFunction } from '@remix-run/node';

/**
 * Whether a Cookie header carries a session cookie at all. A visitor without one is anonymous: the
 * session cookie is the only place a signed-in user or a flash message can come from. One carrying
 * it, even an empty or expired session, is never served or stored by a shared cache (decision 024).
 */
export const hasSessionCookie = (cookieHeader: string | null | undefined) => /(?:^|;\s*)__session=/.test(cookieHeader ?? '');

/**
 * Public GET pages may be cached briefly, but only for anonymous visitors: anyone carrying a
 * session cookie may see their name in the nav (or a flash message), so their page is never stored.
 */
export function publicPageHeaders(request: Request): Record<string, string> {
  return hasSessionCookie(request.headers.get('Cookie'))
    ? { 'Cache-Control': 'private, no-store' }
    : { 'Cache-Control': 'public, max-age=30, stale-while-revalidate=60', Vary: 'Cookie' };
}

/** The route's loader headers (or its error's, e.g. no-store on a 503) become the document's. */
export const loaderCacheHeaders: HeadersFunction = ({ loaderHeaders, errorHeaders }) => errorHeaders ?? loaderHeaders;
