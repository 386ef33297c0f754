import type { Readable } from 'node:stream';
import { createReadableStreamFromReadable, createRequestHandler, writeReadableStreamToWritable, type ServerBuild } from '@remix-run/node';
import type { Request as ExpressRequest, RequestHandler, Response as ExpressResponse } from 'express';
import type { PageCacheApi, RenderedPage, WebServerExports } from './build.js';
import { UPLOAD_LIMIT, type GuardLocals } from './form-guard.js';
import { clientAddress, requestUrl } from './forwarded.js';
import { sendPage, type KeepPage } from './page-cache.js';
import { dropRestOfBody, type Refusals } from './refusal.js';
import { slotClient, type RequestSlots } from './request-limits.js';
import type { SessionOf } from './session.js';

/**
 * Remix behind our checks (decision 020). Remix's express adapter reads the body straight from the
 * socket; this one hands Remix the checked body (a buffer, or the counted upload stream), runs it in a
 * request slot and inside the client's scope (app/utils/client.server.ts), so the gateway client can
 * send the client's address, and keeps a page the page cache may keep.
 */
export interface AdapterOptions {
  build: ServerBuild;
  mode: string;
  web: Pick<WebServerExports, 'runWithClient' | 'documentOf'>;
  pageCache: PageCacheApi | null;
  sessionOf: SessionOf;
  slots: RequestSlots;
  refusals: Refusals;
}

type Locals = GuardLocals & { pageCache?: KeepPage };

export function remixHandler({ build, mode, web, pageCache, sessionOf, slots, refusals }: AdapterOptions): RequestHandler {
  const handle = createRequestHandler(build, mode);
  return async (req, res, next) => {
    try {
      const locals = res.locals as Locals;
      const request = remixRequest(req, res, locals.body);
      if (!request) return refusals.unreadable(req, res, 'unreadable host');
      const address = clientAddress(req);
      const session = await sessionOf(req, res);
      const response = await slots.run(slotClient(session, address), request.signal, () =>
        web.runWithClient({ address, session }, () => handle(request, { clientAddress: address })),
      );
      if (!response) return;
      if (locals.tooLarge) return refusals.tooLarge(req, res, UPLOAD_LIMIT, 'upload over the limit');
      // A route may answer an upload without reading it (a visitor sent to log in): the rest is dropped,
      // not left piped and paused, so the client can finish sending and read the answer.
      if (locals.body && !Buffer.isBuffer(locals.body) && !req.complete) {
        req.unpipe();
        dropRestOfBody(req, res);
      }
      const keep = locals.pageCache;
      const document = web.documentOf(response);
      if (keep && pageCache && req.method === 'GET' && pageCache.storable(response)) {
        const body = document ? document.bytes() : Buffer.from(await response.arrayBuffer());
        const page = await pageCache.store(keep.key, keep.generation, response, body);
        keep.done(page);
        if (page) return sendPage(pageCache, req, res, page, 'miss');
        return await sendResponse(res, response, body);
      }
      keep?.done(null);
      if (document) await sendDocument(req, res, response, document);
      else await sendResponse(res, response);
    } catch (err) {
      next(err);
    }
  };
}

/** The Request Remix gets: our URL, the headers (with the request id the log uses), the checked body, aborted when the client goes. */
export function remixRequest(req: ExpressRequest, res: ExpressResponse, body: GuardLocals['body']): Request | null {
  const url = requestUrl(req);
  if (!url) return null;
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (Array.isArray(value)) for (const v of value) headers.append(name, v);
    else if (value !== undefined) headers.set(name, value);
  }
  // The id of this request's log lines: the gateway client sends it on (app/utils/gateway.server.ts requestId()).
  if (req.id !== undefined) headers.set('x-request-id', String(req.id));
  let controller: AbortController | null = new AbortController();
  res.on('finish', () => (controller = null));
  res.on('close', () => controller?.abort());
  const init: RequestInit & { duplex?: 'half' } = { method: req.method, headers, signal: controller.signal };
  if (body !== undefined) {
    // A Buffer is a Uint8Array; TypeScript's BodyInit only lacks the ArrayBufferLike generic.
    init.body = Buffer.isBuffer(body) ? (body as unknown as BodyInit) : createReadableStreamFromReadable(body as Readable);
    init.duplex = 'half';
  }
  return new Request(url.href, init);
}

/** Writes Remix's answer; its body already read into a buffer when one is given. */
export async function sendResponse(res: ExpressResponse, response: Response, body?: Buffer): Promise<void> {
  statusAndHeaders(res, response);
  const eventStream = /text\/event-stream/i.test(response.headers.get('content-type') ?? '');
  if (eventStream) res.flushHeaders();
  if (body) res.end(body);
  else if (!response.body) res.end();
  else if (eventStream)
    await writeReadableStreamToWritable(response.body, res); // flushed per event
  else await writeWithoutFlush(response.body, res);
}

/** Remix's status line and headers on the express response. */
function statusAndHeaders(res: ExpressResponse, response: Response): void {
  res.statusMessage = response.statusText;
  res.status(response.status);
  for (const [name, value] of response.headers.entries()) res.append(name, value);
}

/**
 * A rendered page (decision 090), in one write: gzip when the client takes it (the page's head comes
 * compressed once per build), with its length; the compression middleware leaves an answer that already
 * has a Content-Encoding alone. A client that takes no gzip gets what the middleware gives it (brotli,
 * deflate or the page as it is). Gzip comes first, where browsers also take brotli: at the quality a page
 * can afford per request (4) brotli was no smaller than this gzip.
 */
export async function sendDocument(req: ExpressRequest, res: ExpressResponse, response: Response, document: RenderedPage): Promise<void> {
  const gzip = req.acceptsEncodings('gzip', 'identity') === 'gzip';
  const body = gzip ? await document.gzip() : document.bytes();
  statusAndHeaders(res, response);
  res.vary('Accept-Encoding');
  if (gzip) res.setHeader('Content-Encoding', 'gzip');
  res.setHeader('Content-Length', body.length);
  res.end(body);
}

/**
 * Like Remix's writeReadableStreamToWritable without its flush() after every chunk: through the
 * compression middleware each flush ends a deflate block, and React's many small chunks made a
 * page's gzip twice its size (9.0 KB against 4.3 KB for the same list). No page streams deferred
 * data, so nothing waits on a flush; zlib sends what it has when the answer ends.
 */
async function writeWithoutFlush(stream: ReadableStream<Uint8Array>, res: ExpressResponse): Promise<void> {
  const reader = stream.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (!res.write(value) && !res.destroyed) {
        await new Promise((resolve) => {
          res.once('drain', resolve);
          res.once('close', resolve);
        });
      }
    }
    res.end();
  } catch (error) {
    res.destroy(error as Error);
    throw error;
  }
}
