import type { Request as ExpressRequest, Response as ExpressResponse } from 'express';
import type { SessionLike } from './build.js';

/**
 * The request's session, read once (decision 031) with the session storage's own cookie parser and
 * signature check, its token verified locally: the page cache, `publicPageHeaders` and every loader
 * (through runWithClient) use this one answer. A bogus or unverifiable session cookie is anonymous.
 */
export function sessionReader(readSession: (cookie: string | null) => Promise<SessionLike>) {
  return (req: ExpressRequest, res: ExpressResponse): Promise<SessionLike> => {
    const locals = res.locals as { session?: Promise<SessionLike> };
    // The Cookie header exactly as the Request Remix gets will hold it (Headers trims it).
    locals.session ??= readSession(req.headers.cookie === undefined ? null : new Headers({ cookie: req.headers.cookie }).get('cookie'));
    return locals.session;
  };
}

export type SessionOf = ReturnType<typeof sessionReader>;
