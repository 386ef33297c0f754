import type { HeadersFunction } from '@remix-run/node';
import { decidedSession } from './client.server';

const SESSION_COOKIE = '__session';

/**
 * Whether a Cookie header names the session cookie in any pair, as a cookie parser could read it
 * (decision 031): the name before a pair's first `=`, with any whitespace around it, as Remix's parser
 * also accepts `__session =…`. Only the fallback where the server has not decided the session (dev
 * server, unit tests); it errs towards "has one".
 */
export function namesSessionCookie(cookieHeader: string | null | undefined): boolean {
  if (!cookieHeader) return false;
  return cookieHeader.split(';').some((pair) => {
    const eq = pair.indexOf('=');
    return eq >= 0 && pair.slice(0, eq).trim() === SESSION_COOKIE;
  });
}

/**
 * Whether this request's page is the one every anonymous visitor gets (decision 031): the answer the
 * server decided once for the request, before its page cache (nobody signed in, no flash message; a
 * bogus or unverifiable session cookie counts as none). Without that answer, any session cookie counts.
 */
export function isAnonymous(request: Request): boolean {
  const decided = decidedSession(request);
  return decided ? decided.anonymous : !namesSessionCookie(request.headers.get('Cookie'));
}

/**
 * Public GET pages may be cached briefly, but only for anonymous visitors: anyone signed in may see
 * their name in the nav (or a flash message), so their page is never stored.
 */
export function publicPageHeaders(request: Request): Record<string, string> {
  return isAnonymous(request)
    ? { 'Cache-Control': 'public, max-age=30, stale-while-revalidate=60', Vary: 'Cookie' }
    : { 'Cache-Control': 'private, no-store' };
}

/** The route's loader headers (or its error's, e.g. no-store on a 503) become the document's. */
export const loaderCacheHeaders: HeadersFunction = ({ loaderHeaders, errorHeaders }) => errorHeaders ?? loaderHeaders;
