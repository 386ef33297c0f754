import { AsyncLocalStorage } from 'node:async_hooks';
import type { SessionState } from './session-state';

export type { SessionState } from './session-state';

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
 * One answer per request for key, however many loaders ask (the root's and the route's run side by side):
 * read once when the server decided this request's session, else (dev server, unit tests) read each time.
 */
export function sharedAnswer<T>(request: Request, key: string, read: () => Promise<T>): Promise<T> {
  const decided = decidedSession(request);
  if (!decided) return read();
  decided.shared ??= new Map();
  let answer = decided.shared.get(key) as Promise<T> | undefined;
  if (!answer) decided.shared.set(key, (answer = read()));
  return answer;
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
