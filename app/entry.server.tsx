import { Writable } from 'node:stream';
import { cssBundleHref } from '@remix-run/css-bundle';
import type { AppLoadContext, EntryContext, HandleErrorFunction } from '@remix-run/node';
import { RemixServer } from '@remix-run/react';
import { isbot } from 'isbot';
import { renderToPipeableStream } from 'react-dom/server';
import type { WebServerExports } from '../server/build';
import { runWithClient } from './utils/client.server';
import { documentOf, documentResponse, renderedDocument } from './utils/document.server';
import { getEnv } from './utils/env.server';
import { readInlineCss } from './utils/inline-css.server';
import { redactUrl } from './utils/log-url.server';
import { logger } from './utils/logger.server';
import { NonceProvider } from './utils/nonce-provider';
import { createPageCache } from './utils/page-cache.server';
import { createRequestTurns } from './utils/request-turns.server';
import { createNonce, securityHeaders } from './utils/security.server';
import { readSessionState } from './utils/session.server';

// Configuration is checked when the server starts: one clear line and exit, never a stack trace later.
try {
  getEnv();
} catch (err) {
  console.error(`web: bad configuration: ${(err as Error).message}`);
  process.exit(1);
}

const ABORT_DELAY = 5_000;

/**
 * For the web server (server/, decisions 020, 036), which runs this build: the validated TRUST_PROXY,
 * the scope the client's address and session are kept in while Remix handles a request, the page cache
 * for anonymous public pages (decision 024; null when PAGE_CACHE_ENTRIES=0), the session read once per
 * request with the session storage's own parser (decision 031), the request slots shared fairly between
 * clients (031), URLs as logs print them (031), the page a rendered answer carries (090) and the logger. One parse, one store and one logger,
 * shared through the build's entry module, the one part of the build a server can reach; the contract
 * is server/build.ts.
 */
export const webServer = {
  trustProxy: () => getEnv().TRUST_PROXY,
  runWithClient,
  readSession: readSessionState,
  requestTurns: createRequestTurns,
  redactUrl,
  documentOf,
  pageCache: () => {
    const env = getEnv();
    return createPageCache({ gatewayUrl: env.GATEWAY_URL, maxEntries: env.PAGE_CACHE_ENTRIES, timeoutMs: env.GATEWAY_TIMEOUT_MS });
  },
  logger,
} satisfies WebServerExports;

export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
  _loadContext: AppLoadContext,
) {
  const nonce = createNonce();
  for (const [k, v] of Object.entries(securityHeaders(nonce))) responseHeaders.set(k, v);
  const waitForAll = isbot(request.headers.get('user-agent') ?? '') || remixContext.isSpaMode;

  return new Promise((resolve, reject) => {
    let shellRendered = false;
    let status = responseStatusCode;
    // The document, whole, before it is sent (decision 090): every page is rendered at once (loaders run
    // before React, nothing suspends for long), so holding the few chunks of one render costs no time; the
    // web server sends it as one write, compressed (app/utils/document.server.ts).
    const chunks: Uint8Array[] = [];
    const sink = new Writable({
      // No 'close' after 'finish': React takes a close for a client gone and aborts, ending the sink twice.
      emitClose: false,
      write(chunk: Uint8Array, _encoding, done) {
        chunks.push(chunk);
        done();
      },
      final(done) {
        responseHeaders.set('Content-Type', 'text/html; charset=utf-8');
        const page = renderedDocument(Buffer.concat(chunks).toString('utf8'), readInlineCss(cssBundleHref));
        resolve(documentResponse(page, { headers: responseHeaders, status }));
        clearTimeout(abortTimer);
        done();
      },
    });
    const { pipe, abort } = renderToPipeableStream(
      <NonceProvider value={nonce}>
        <RemixServer context={remixContext} url={request.url} abortDelay={ABORT_DELAY} nonce={nonce} />
      </NonceProvider>,
      {
        nonce,
        [waitForAll ? 'onAllReady' : 'onShellReady']() {
          shellRendered = true;
          status = responseStatusCode;
          pipe(sink);
        },
        onShellError(error: unknown) {
          reject(error);
        },
        onError(error: unknown) {
          responseStatusCode = 500;
          if (shellRendered) logger.error({ err: error }, 'error while rendering');
        },
      },
    );
    // Cleared once the page is whole (the sink's final runs after this line, never during the call above).
    const abortTimer = setTimeout(abort, ABORT_DELAY);
  });
}

export const handleError: HandleErrorFunction = (error, { request }) => {
  if (request.signal.aborted) return;
  // The server sets x-request-id to the id of its own log lines for this request (server/logging.ts).
  const log = logger.child({ reqId: request.headers.get('x-request-id') ?? undefined });
  // Remix's own cross-site check, should a post ever reach it (the server's form guard refuses them
  // first, decision 036): anyone can trigger it, so one warning line, not an error with a stack.
  if (error instanceof Error && /does not match `origin` header|headers are not provided/.test(error.message)) {
    log.warn({ url: redactUrl(request.url), origin: request.headers.get('origin') }, 'cross-site form post refused');
    return;
  }
  // Remix "warns" through handleError about any ?_data= request (its pre-single-fetch data protocol,
  // which our client never uses). Anyone can add the parameter to a URL: one warning line, not an error.
  if (error instanceof Error && error.message.startsWith('Warning: Single fetch-enabled apps should not be making ?_data requests')) {
    log.warn({ url: redactUrl(request.url) }, 'legacy ?_data request');
    return;
  }
  if (error instanceof Error) log.error({ url: redactUrl(request.url), err: error }, 'unhandled error');
};
