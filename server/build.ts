import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { ServerBuild } from '@remix-run/node';
import type { Logger } from 'pino';

/**
 * What the web server takes from the Remix build (decision 020, 036): `export const webServer` of
 * app/entry.server.tsx, the one module of the build a server can import. These need ONE instance,
 * the build's: the scope loaders read the client and session from, the parsed TRUST_PROXY, the session
 * storage with its key set, the page cache with its generation reader, the logger. The pure helpers
 * (request slots, URL redaction) come the same way so that the build and the server never disagree.
 * entry.server.tsx declares `satisfies WebServerExports`, so tsc holds both sides to this contract.
 */

/**
 * A request's session as the build decides it (app/utils/client.server.ts SessionState); opaque here but for
 * `anonymous` and the verified account's id (the request slots' client, decision 086).
 */
export interface SessionLike {
  anonymous: boolean;
  user?: { id: number } | null;
}

/** A finished page the page cache keeps (app/utils/page-cache.server.ts CachedPage); opaque here but for its status. */
export interface KeptPage {
  status: number;
}

export interface PageCacheApi<Page extends KeptPage = KeptPage> {
  cacheable(method: string, path: string): boolean;
  applies(method: string, path: string, session: SessionLike): boolean;
  generation(): Promise<string | null>;
  get(key: string, generation: string): Page | undefined;
  storable(response: Response): boolean;
  store(key: string, generation: string, response: Response, body: Buffer): Promise<Page | null>;
  variant(page: Page, acceptEncoding: string | undefined): { headers: Record<string, string>; body: Buffer };
}

export interface RequestTurnsApi {
  enter(client: string, abandoned?: AbortSignal): true | Promise<boolean>;
  leave(client: string): void;
}

/** A page Remix rendered (app/utils/document.server.ts RenderedDocument, decision 090). */
export interface RenderedPage {
  bytes(): Buffer;
  gzip(): Promise<Buffer>;
}

export interface WebServerExports {
  trustProxy(): false | number | string[];
  runWithClient<T>(client: { address: string | undefined; session?: SessionLike }, fn: () => T): T;
  readSession(cookieHeader: string | null): Promise<SessionLike>;
  requestTurns(maxActive: number, perClient?: number): RequestTurnsApi;
  redactUrl(url: string | undefined | null): string;
  /** The page a rendered document's answer carries (its own body is empty); undefined for any other answer. */
  documentOf(response: Response): RenderedPage | undefined;
  pageCache(): PageCacheApi | null;
  logger: Logger;
}

/** The build as the server uses it: Remix's ServerBuild, its entry module exporting webServer. */
export interface WebBuild {
  remix: ServerBuild;
  web: WebServerExports;
}

export class BuildError extends Error {}

/** Imports build/index.js from root. Importing it validates the web app's environment (a bad value exits with one line). */
export async function loadBuild(root: string): Promise<WebBuild> {
  let remix: ServerBuild;
  try {
    remix = await import(pathToFileURL(path.join(root, 'build', 'index.js')).href);
  } catch (err) {
    const error = err as NodeJS.ErrnoException;
    throw new BuildError(
      error?.code === 'ERR_MODULE_NOT_FOUND' ? 'no build: run `npm run build:web` first' : `cannot load the build: ${error?.message}`,
    );
  }
  const web = (remix.entry.module as { webServer?: Partial<WebServerExports> }).webServer;
  const needed = ['trustProxy', 'runWithClient', 'readSession', 'requestTurns', 'redactUrl', 'documentOf', 'pageCache', 'logger'] as const;
  if (!web || needed.some((name) => !web[name])) throw new BuildError('the build is older than the web server: run `npm run build:web`');
  return { remix, web: web as WebServerExports };
}
