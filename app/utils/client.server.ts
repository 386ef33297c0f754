import { AsyncLocalStorage } from 'node:async_hooks';
import type { SessionUser } from './session.server';
import type { SignedIn } from './signed-in.server';

/**
 * What the web server (server/, decisions 020, 036) knows about the browser's connection, worked out
 * under TRUST_PROXY before Remix runs. Remix copies the incoming Request more than once (single
 * fetch, ?index), so the address cannot hang off the Request object: the server runs Remix's
 * handler inside `runWithClient`, and anything below a loader or action (the gateway client) reads it here.
 */
export interface ClientInfo {
  /** The client's address: the socket's, or the one a trusted proxy reported. */
  address: string | undefined;
  /** What the request's session cookie amounts to, decided once by the server before its page cache (decision 031). */
  session?: SessionState;
}

/**
 * One request's session (decision 031), read with the session storage's own cookie parser and
 * signature check, its token verified against the gateway's key set (no call per request).
 */
export interface SessionState {
  /** The Cookie header it was read from: the answer holds only for a request that carries exactly this one. */
  cookie: string | null;
  /** The signed-in user the token stands for, or null (no cookie, a bogus or unsigned one, a forged or expired token). */
  user: SessionUser | null;
  /**
   * Nobody signed in and nothing else of this visitor's in the session (a flash message): the page is
   * the one every anonymous visitor gets, so it may come from and go into the page cache, with
   * `Cache-Control: public`. The page cache and `publicPageHeaders` both read this one answer.
   */
  anonymous: boolean;
  /** The gateway's word on the token, asked at most once per request (app/utils/signed-in.server.ts). */
  confirmation?: Promise<SignedIn>;
}

const current = new AsyncLocalStorage<ClientInfo>();

export function runWithClient<T>(client: ClientInfo, fn: () => T): T {
  return current.run(client, fn);
}

/** The client address of the request being handled; undefined outside the server (unit tests). */
export function clientAddress(): string | undefined {
  return current.getStore()?.address;
}

/** The session the server decided for this request, if this request is the one it decided for. */
export function decidedSession(request: Request): SessionState | undefined {
  const session = current.getStore()?.session;
  return session && session.cookie === request.headers.get('Cookie') ? session : undefined;
}

/**
 * Whether the browser reached us over https. The server builds the Request's URL from express's
 * `req.protocol`, which reads X-Forwarded-Proto only from a trusted proxy (and the server drops
 * that header from anyone else), so the URL is the one place to ask.
 */
export function isHttps(request: Request): boolean {
  return new URL(request.url).protocol === 'https:';
}

declare module '@remix-run/node' {
  interface AppLoadContext {
    /** Also in the load context for loaders that want it; the gateway client uses clientAddress(). */
    clientAddress?: string;
  }
}
