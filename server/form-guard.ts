import type { IncomingHttpHeaders } from 'node:http';
import { Transform, type Readable } from 'node:stream';
import type { Request as ExpressRequest, RequestHandler } from 'express';
import type { Refusals } from './refusal.js';

/**
 * Form posts are checked before Remix reads them (decision 020): Remix would answer a cross-site post,
 * a body it cannot parse or a method no route takes with a bare 500, and it reads any body whole.
 * This is the web app's one cross-site check (decision 036): every POST passes here before any action.
 */

/** urlencoded and multipart form posts; a whole form of ours is a few KB. */
export const FORM_LIMIT = 64 * 1024;
/** The admin tournament form with its cover: app/utils/tournament-upload.server.ts reads up to 20 MB of parts and answers 413 itself past that. */
export const UPLOAD_LIMIT = 21 * 1024 * 1024;
// Issue 30: a team's report and dispute forms carry a screenshot (app/utils/reports.server.ts reads them the same way).
// Issue 31: the organiser's bank statement, up to 5 MB (app/utils/statements.server.ts, the same reader).
const UPLOAD_ROUTE =
  /^\/(admin\/(add-tournament|update-tournament\/[^/]+|\d+\/statements)|team\/\d+\/(reports\/\d+\/\d+|disputes))(\.data)?\/?$/;
const FORM_TYPES = new Set(['application/x-www-form-urlencoded', 'multipart/form-data']);
const ALLOWED_METHODS = 'GET, HEAD, POST';

/** The body the guard hands on: read whole (a form), or the counted stream of an upload. */
export type CheckedBody = Buffer | Readable;

export interface GuardLocals {
  body?: CheckedBody;
  /** Set when an upload ran past UPLOAD_LIMIT while the route read it. */
  tooLarge?: boolean;
}

export function formGuard({ refuse, tooLarge, unreadable }: Refusals): RequestHandler {
  return (req, res, next) => {
    if (req.method === 'GET' || req.method === 'HEAD') return next();
    if (req.method !== 'POST') {
      res.setHeader('Allow', ALLOWED_METHODS);
      return refuse(
        req,
        res,
        405,
        'method not allowed',
        'Method not allowed',
        'This page can be read (GET) and its forms sent (POST), nothing else.',
      );
    }
    const crossSite = crossSiteReason(req.headers);
    if (crossSite) {
      return refuse(
        req,
        res,
        403,
        crossSite,
        'Form from another site',
        'This form was sent from another site, so we did not accept it. Please use the form on this site.',
      );
    }
    const contentType = req.headers['content-type'] ?? '';
    const mediaType = contentType.split(';')[0]!.trim().toLowerCase();
    if (!FORM_TYPES.has(mediaType)) {
      return refuse(
        req,
        res,
        415,
        `content type ${mediaType || 'missing'}`,
        'Form not understood',
        'This page takes form posts only (application/x-www-form-urlencoded or multipart/form-data).',
      );
    }
    if (mediaType === 'multipart/form-data' && !/;\s*boundary=/i.test(contentType))
      return unreadable(req, res, 'multipart without boundary');

    const locals = res.locals as GuardLocals;
    const upload = UPLOAD_ROUTE.test(req.path);
    const limit = upload ? UPLOAD_LIMIT : FORM_LIMIT;
    const declared = req.headers['content-length'];
    if (declared !== undefined && Number(declared) > limit) return tooLarge(req, res, limit, `declared ${declared} bytes`);

    if (upload) {
      // Uploads stream on to the route, which reads them part by part with its own limits and answers
      // a broken body itself; here they are only counted, so a body without a length is cut too.
      locals.body = countedBody(req, limit, locals);
      return next();
    }
    readSmallBody(req, limit).then(
      async (body) => {
        if (!body) return tooLarge(req, res, limit, 'body over the limit');
        if (mediaType === 'multipart/form-data') {
          // Parsed here with the same parser the route's request.formData() uses, so a broken body is a 400, not the route's 500.
          const readable = await new Response(body as unknown as BodyInit, { headers: { 'content-type': contentType } }).formData().then(
            () => true,
            () => false,
          );
          if (!readable) return unreadable(req, res, 'broken multipart body');
        }
        locals.body = body;
        next();
      },
      () => {
        // The client went away while sending: nobody to answer.
        if (!res.headersSent) res.destroy();
      },
    );
  };
}

/**
 * Why a post is not from this site, or null: Sec-Fetch-Site, else Origin against the host we answer as
 * (the comparison Remix makes, so its own check never throws). X-Forwarded-Host is only still present
 * when a trusted proxy sent it (server/forwarded.ts).
 */
export function crossSiteReason(headers: IncomingHttpHeaders): string | null {
  const site = headers['sec-fetch-site'];
  if (site && site !== 'same-origin' && site !== 'none') return `sec-fetch-site ${site}`;
  const origin = headers.origin;
  if (origin === undefined) return null;
  if (origin === 'null') return 'origin null';
  const forwardedHost = headers['x-forwarded-host'];
  const expected = (Array.isArray(forwardedHost) ? forwardedHost[0] : (forwardedHost ?? '')).split(',')[0]!.trim() || headers.host;
  let originHost: string;
  try {
    originHost = new URL(origin).host;
  } catch {
    return 'origin unreadable';
  }
  return originHost === expected ? null : `origin ${originHost}`;
}

/** The whole body when it is at most limit bytes; null as soon as it is more (the rest is not read). */
export function readSmallBody(req: Readable, limit: number): Promise<Buffer | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        cleanup();
        req.pause();
        return resolve(null);
      }
      chunks.push(chunk);
    };
    const onEnd = () => (cleanup(), resolve(Buffer.concat(chunks)));
    const onError = (err: Error) => (cleanup(), reject(err));
    const onClose = () => (cleanup(), reject(new Error('client closed the connection')));
    function cleanup() {
      req.off('data', onData).off('end', onEnd).off('error', onError).off('close', onClose);
    }
    req.on('data', onData).on('end', onEnd).on('error', onError).on('close', onClose);
  });
}

/** The request body passed through a byte count: past the limit the stream fails and state.tooLarge is set. */
export function countedBody(req: ExpressRequest, limit: number, state: GuardLocals): Readable {
  let size = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      size += chunk.length;
      if (size <= limit) return callback(null, chunk);
      state.tooLarge = true;
      req.unpipe(counter);
      req.pause();
      callback(new Error('request body over the limit'));
    },
  });
  req.on('error', (err) => counter.destroy(err));
  req.on('aborted', () => counter.destroy(new Error('client closed the connection')));
  return req.pipe(counter);
}
