import type { Request as ExpressRequest, RequestHandler } from 'express';

/**
 * Who the client is (decision 020): X-Forwarded-* and Forwarded are believed only from a proxy
 * TRUST_PROXY names; from anyone else they are the client's own words and are dropped before anything
 * reads them, so neither Remix nor our code (cookies, the cross-site check, og: URLs) can be fooled.
 */

export const FORWARDED_HEADERS = ['forwarded', 'x-forwarded-for', 'x-forwarded-host', 'x-forwarded-proto', 'x-forwarded-port'];
export const HSTS = 'max-age=31536000; includeSubDomains';

type TrustFn = (address: string, hop: number) => boolean;

/** Whether the socket's peer is a proxy we trust; a broken trust function trusts nobody. */
export function isTrusted(trusted: TrustFn, address: string | undefined): boolean {
  try {
    return !!address && trusted(address, 0);
  } catch {
    return false;
  }
}

/** Drops forwarded headers from untrusted peers and adds HSTS on https (never on plain http). */
export function forwardedHeaders(trusted: TrustFn): RequestHandler {
  return (req, res, next) => {
    if (!isTrusted(trusted, req.socket.remoteAddress)) for (const name of FORWARDED_HEADERS) delete req.headers[name];
    if (req.secure) res.setHeader('Strict-Transport-Security', HSTS);
    next();
  };
}

/** req.ip under TRUST_PROXY, without the IPv4-in-IPv6 prefix (the gateway counts rate limits by it). */
export function clientAddress(req: ExpressRequest): string | undefined {
  const ip = req.ip ?? req.socket.remoteAddress;
  return ip?.startsWith('::ffff:') && ip.includes('.') ? ip.slice(7) : ip;
}

/** The URL Remix sees (and the page cache keys by: its og: URLs are built from it), or null. */
export function requestUrl(req: ExpressRequest): URL | null {
  // As @remix-run/express: host and port from X-Forwarded-Host (dropped above unless trusted) or Host.
  const portOf = (value: string | undefined) => Number.parseInt(value?.split(':')[1] ?? '', 10);
  const forwardedPort = portOf(req.get('x-forwarded-host'));
  const hostPort = portOf(req.get('host'));
  const urlPort = Number.isSafeInteger(forwardedPort) ? forwardedPort : Number.isSafeInteger(hostPort) ? hostPort : '';
  try {
    return new URL(`${req.protocol}://${req.hostname}${urlPort ? `:${urlPort}` : ''}${req.originalUrl}`);
  } catch {
    return null;
  }
}
