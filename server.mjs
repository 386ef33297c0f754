#!/usr/bin/env node
// The web app's production server (decision 020): express around the Remix build. It replaces
// remix-serve, which can neither see the client's socket address nor answer before Remix runs.
// Before Remix: X-Forwarded-* believed only from TRUST_PROXY, HSTS on https, form posts checked
// (method, origin, content type, size), each refusal a short page with its 4xx and one log line, and
// anonymous public pages answered from the page cache while the gateway's generation holds (decision 024).
// Who is anonymous is decided once per request from the session cookie, as the session reads it; request
// slots are shared fairly between client addresses; logged URLs carry no secrets (decision 031).
import fs from 'node:fs';
import path from 'node:path';
import { Transform } from 'node:stream';
import { fileURLToPath, pathToFileURL } from 'node:url';
import {
  createReadableStreamFromReadable,
  createRequestHandler,
  installGlobals,
  writeReadableStreamToWritable,
} from '@remix-run/node';
import compression from 'compression';
import express from 'express';
import morgan from 'morgan';

const ROOT = path.dirname(fileURLToPath(import.meta.url));
/** urlencoded and multipart form posts; a whole form of ours is a few KB. */
const FORM_LIMIT = 64 * 1024;
/** The admin tournament form with its cover: app/utils/tournament-upload.server.ts reads up to 20 MB of parts and answers 413 itself past that. */
const UPLOAD_LIMIT = 21 * 1024 * 1024;
const UPLOAD_ROUTE = /^\/admin\/(add-tournament|update-tournament\/[^/]+)(\.data)?\/?$/;
const FORM_TYPES = new Set(['application/x-www-form-urlencoded', 'multipart/form-data']);
const ALLOWED_METHODS = 'GET, HEAD, POST';
const HSTS = 'max-age=31536000; includeSubDomains';
const FORWARDED_HEADERS = ['forwarded', 'x-forwarded-for', 'x-forwarded-host', 'x-forwarded-proto', 'x-forwarded-port'];

function fail(message) {
  console.error(`web: ${message}`);
  process.exit(1);
}

const rawPort = process.env.PORT || '3000';
if (!/^\d{1,5}$/.test(rawPort) || Number(rawPort) < 1 || Number(rawPort) > 65535) {
  fail(`bad configuration: PORT: must be a port number from 1 to 65535 (got "${rawPort}")`);
}
const port = Number(rawPort);
const host = process.env.HOST || undefined;
process.env.NODE_ENV ??= 'production';

let build;
try {
  // Importing the build validates the environment (app/entry.server.tsx): a bad value exits with one line.
  build = await import(pathToFileURL(path.join(ROOT, 'build', 'index.js')).href);
} catch (err) {
  fail(err?.code === 'ERR_MODULE_NOT_FOUND' ? 'no build: run `npm run build:web` first' : `cannot load the build: ${err?.message}`);
}
installGlobals({ nativeFetch: build.future.v3_singleFetch });
if (!build.entry.module.webServer) fail('the build is older than server.mjs: run `npm run build:web`');
const { trustProxy, runWithClient, pageCache: createPageCache, readSession, requestTurns, redactUrl } = build.entry.module.webServer;
if (!createPageCache || !readSession || !requestTurns || !redactUrl) fail('the build is older than server.mjs: run `npm run build:web`');
const pageCache = createPageCache();

const app = express();
app.disable('x-powered-by');
app.set('trust proxy', trustProxy());
const trusted = app.get('trust proxy fn');

let closing = false;

app.use((req, res, next) => {
  // Forwarded headers from anyone but a trusted proxy are the client's own words: drop them, so
  // neither Remix nor our code (cookies, origin checks) can be fooled by them.
  if (!isTrusted(req.socket.remoteAddress)) for (const name of FORWARDED_HEADERS) delete req.headers[name];
  if (req.secure) res.setHeader('Strict-Transport-Security', HSTS);
  if (closing) res.setHeader('Connection', 'close');
  next();
});
// Before compression: a kept page is already compressed (and logged here like every page).
app.use(fromPageCache);
app.use(compression());
const assetsDirectory = path.resolve(ROOT, build.assetsBuildDirectory);
app.use(build.publicPath, express.static(assetsDirectory, { immutable: true, maxAge: '1y' }));
// public/ holds a few fixed files: only their paths reach the file system, not every page request.
const publicDirectory = path.join(ROOT, 'public');
const publicFiles = listFiles(publicDirectory, assetsDirectory);
const servePublic = express.static(publicDirectory, { maxAge: '1h' });
app.use((req, res, next) => (publicFiles.has(req.path) ? servePublic(req, res, next) : next()));
// morgan's "tiny" line, its URL without the values of secret-looking parameters (a reset link's token).
morgan.token('url', (req) => redactUrl(req.originalUrl || req.url));
const accessLog = morgan('tiny');
app.use(accessLog);
app.use(checkFormPost);
app.all('*', remixHandler(build));
app.use((err, req, res, _next) => {
  console.error(JSON.stringify({ level: 'error', msg: 'web server error', method: req.method, url: redactUrl(req.originalUrl), error: err?.stack ?? String(err) }));
  if (res.headersSent) return void res.destroy();
  page(res, 500, 'Something went wrong', 'Something went wrong on our side. Please try again in a moment.');
});

// A crowd connecting at once (a registration rush) overflowed Node's default accept queue of 511; the
// kernel caps this at net.core.somaxconn.
const BACKLOG = 4096;
const server = host ? app.listen(port, host, BACKLOG) : app.listen(port, BACKLOG);
server.on('listening', () => console.log(`[web] http://localhost:${port}${host ? ` (listening on ${host})` : ''}`));
server.on('error', (err) => fail(`cannot listen on ${host ?? '*'}:${port}: ${err.message}`));

// SIGTERM: stop accepting, let requests in flight finish (keep-alive connections close as they go idle), exit.
for (const signal of ['SIGTERM', 'SIGINT']) {
  process.once(signal, () => {
    closing = true;
    server.close(() => process.exit(0));
    const idle = setInterval(() => server.closeIdleConnections(), 100);
    idle.unref();
    setTimeout(() => {
      server.closeAllConnections();
      process.exit(0);
    }, 10_000).unref();
  });
}

/** The URL paths of the files under dir (not under skip), as a browser asks for them. */
function listFiles(dir, skip) {
  const paths = new Set();
  const walk = (current) => {
    for (const entry of fs.readdirSync(current, { withFileTypes: true })) {
      const full = path.join(current, entry.name);
      if (full === skip) continue;
      if (entry.isDirectory()) walk(full);
      else if (entry.isFile()) paths.add(encodeURI(`/${path.relative(dir, full).split(path.sep).join('/')}`));
    }
  };
  if (fs.existsSync(dir)) walk(dir);
  return paths;
}

/**
 * The request's session, read once (decision 031) with the session storage's own cookie parser and
 * signature check, its token verified locally: the page cache, `publicPageHeaders` and every loader
 * (through runWithClient) use this one answer. A bogus or unverifiable session cookie is anonymous.
 */
function sessionOf(req, res) {
  // The Cookie header exactly as the Request Remix gets will hold it (Headers trims it).
  res.locals.session ??= readSession(req.headers.cookie === undefined ? null : new Headers({ cookie: req.headers.cookie }).get('cookie'));
  return res.locals.session;
}

/**
 * Anonymous GET/HEAD of a public page (decision 024): the gateway's current generation, read after
 * this request arrived (shared with every page request waiting for it), decides. A page kept under that
 * generation is sent as it is, before Remix: no route matching, no rendering, no gateway call. Otherwise
 * Remix renders it and the remix handler keeps it under the generation read here, before rendering. No
 * generation (gateway down, slow, or without the endpoint): ordinary rendering, nothing kept.
 */
function fromPageCache(req, res, next) {
  if (!pageCache?.cacheable(req.method, req.path)) return next();
  const url = requestUrl(req);
  if (!url) return next();
  sessionOf(req, res)
    .then(async (session) => {
      if (!pageCache.applies(req.method, req.path, session)) return next();
      const generation = await pageCache.generation();
      if (generation === null) return next();
      const key = url.href;
      const renderKey = `${generation} ${key}`;
      // The same page already being rendered under the same generation (a burst right after a write): wait for it.
      const page = pageCache.get(key, generation) ?? (await rendering.get(renderKey));
      if (page) return accessLog(req, res, () => sendPage(req, res, page, 'hit'));
      let done = () => {};
      if (req.method === 'GET' && !rendering.has(renderKey)) {
        let settle;
        const promise = new Promise((resolve) => (settle = resolve));
        rendering.set(renderKey, promise);
        done = (kept) => {
          if (rendering.get(renderKey) === promise) rendering.delete(renderKey);
          settle(kept);
        };
        // However this answer ends without a page to share (an error, a 404, the client gone), the waiting requests render their own.
        res.once('close', () => done(null));
      }
      res.locals.pageCache = { key, generation, done };
      next();
    })
    .catch(next);
}

/** Renders of cacheable pages under way, by generation and URL: the promise of the page they keep (or null). */
const rendering = new Map();

function sendPage(req, res, page, outcome) {
  const { headers, body } = pageCache.variant(page, req.headers['accept-encoding']);
  res.writeHead(page.status, { ...headers, 'x-page-cache': outcome });
  if (req.method === 'HEAD') res.end();
  else res.end(body);
}

function isTrusted(address) {
  try {
    return !!address && trusted(address, 0);
  } catch {
    return false;
  }
}

/**
 * Form posts are checked before Remix reads them: Remix would answer a cross-site post, a body it
 * cannot parse or a method no route takes with a bare 500, and it reads any body whole.
 */
function checkFormPost(req, res, next) {
  if (req.method === 'GET' || req.method === 'HEAD') return next();
  if (req.method !== 'POST') {
    res.setHeader('Allow', ALLOWED_METHODS);
    return refuse(req, res, 405, 'method not allowed', 'Method not allowed', 'This page can be read (GET) and its forms sent (POST), nothing else.');
  }
  const crossSite = crossSiteReason(req);
  if (crossSite) {
    return refuse(req, res, 403, crossSite, 'Form from another site', 'This form was sent from another site, so we did not accept it. Please use the form on this site.');
  }
  const contentType = req.headers['content-type'] ?? '';
  const mediaType = contentType.split(';')[0].trim().toLowerCase();
  if (!FORM_TYPES.has(mediaType)) {
    return refuse(req, res, 415, `content type ${mediaType || 'missing'}`, 'Form not understood', 'This page takes form posts only (application/x-www-form-urlencoded or multipart/form-data).');
  }
  if (mediaType === 'multipart/form-data' && !/;\s*boundary=/i.test(contentType)) return unreadable(req, res, 'multipart without boundary');

  const upload = UPLOAD_ROUTE.test(req.path);
  const limit = upload ? UPLOAD_LIMIT : FORM_LIMIT;
  const declared = req.headers['content-length'];
  if (declared !== undefined && Number(declared) > limit) return tooLarge(req, res, limit, `declared ${declared} bytes`);

  if (upload) {
    // Uploads stream on to the route, which reads them part by part with its own limits and answers
    // a broken body itself; here they are only counted, so a body without a length is cut too.
    res.locals.body = countedBody(req, limit, res.locals);
    return next();
  }
  readSmallBody(req, limit).then(
    async (body) => {
      if (!body) return tooLarge(req, res, limit, 'body over the limit');
      if (mediaType === 'multipart/form-data') {
        // Parsed here with the same parser the route's request.formData() uses, so a broken body is a 400, not the route's 500.
        const readable = await new Response(body, { headers: { 'content-type': contentType } }).formData().then(() => true, () => false);
        if (!readable) return unreadable(req, res, 'broken multipart body');
      }
      res.locals.body = body;
      next();
    },
    () => {
      // The client went away while sending: nobody to answer.
      if (!res.headersSent) res.destroy();
    },
  );
}

/** Why a post is not from this site, or null: Sec-Fetch-Site, else Origin against the host we answer as (as Remix compares them). */
function crossSiteReason(req) {
  const site = req.headers['sec-fetch-site'];
  if (site && site !== 'same-origin' && site !== 'none') return `sec-fetch-site ${site}`;
  const origin = req.headers.origin;
  if (origin === undefined) return null;
  if (origin === 'null') return 'origin null';
  const expected = (req.headers['x-forwarded-host'] ?? '').split(',')[0].trim() || req.headers.host;
  let originHost;
  try {
    originHost = new URL(origin).host;
  } catch {
    return 'origin unreadable';
  }
  return originHost === expected ? null : `origin ${originHost}`;
}

/** The whole body when it is at most limit bytes; null as soon as it is more (the rest is not read). */
function readSmallBody(req, limit) {
  return new Promise((resolve, reject) => {
    const chunks = [];
    let size = 0;
    const onData = (chunk) => {
      size += chunk.length;
      if (size > limit) {
        cleanup();
        req.pause();
        return resolve(null);
      }
      chunks.push(chunk);
    };
    const onEnd = () => (cleanup(), resolve(Buffer.concat(chunks)));
    const onError = (err) => (cleanup(), reject(err));
    const onClose = () => (cleanup(), reject(new Error('client closed the connection')));
    function cleanup() {
      req.off('data', onData).off('end', onEnd).off('error', onError).off('close', onClose);
    }
    req.on('data', onData).on('end', onEnd).on('error', onError).on('close', onClose);
  });
}

/** The request body passed through a byte count: past the limit the stream fails and state.tooLarge is set. */
function countedBody(req, limit, state) {
  let size = 0;
  const counter = new Transform({
    transform(chunk, _encoding, callback) {
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

function tooLarge(req, res, limit, reason) {
  const limitText = limit >= 1024 * 1024 ? `${Math.round(limit / (1024 * 1024))} MB` : `${limit / 1024} KB`;
  return refuse(req, res, 413, reason, 'Form too large', `This form is larger than this page accepts (${limitText}). Please send less.`);
}

function unreadable(req, res, reason) {
  return refuse(req, res, 400, reason, 'Form could not be read', 'The form could not be read. Please try sending it again.');
}

/** A refusal: one warning line (anyone can cause these), never an error with a stack. */
function refuse(req, res, status, reason, title, message) {
  console.warn(JSON.stringify({ level: 'warn', msg: 'request refused', status, reason, method: req.method, url: redactUrl(req.originalUrl), client: clientAddress(req) }));
  if (!req.complete) dropRestOfBody(req, res);
  page(res, status, title, message);
}

/**
 * What the client is still sending after our answer is read and dropped, never kept: closing at once
 * would reset the connection under a client still writing, and it might never read the answer.
 * A client that goes on sending for long has its connection cut.
 */
function dropRestOfBody(req, res) {
  res.once('finish', () => {
    const cut = setTimeout(() => req.socket.destroy(), 10_000);
    cut.unref();
    req.once('end', () => clearTimeout(cut));
    req.resume();
  });
}

function page(res, status, title, message) {
  const escape = (text) => text.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);
  res.status(status);
  res.set({
    'Content-Type': 'text/html; charset=utf-8',
    'Cache-Control': 'no-store',
    'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'strict-origin-when-cross-origin',
    'X-Frame-Options': 'DENY',
  });
  res.end(
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">` +
      `<title>${escape(title)} | Custom Room</title></head><body style="font-family:system-ui,sans-serif;max-width:40rem;margin:3rem auto;padding:0 1rem">` +
      `<main><h1>${escape(title)}</h1><p>${escape(message)}</p><p><a href="/">Go to the home page</a></p></main></body></html>`,
  );
}

/** req.ip under TRUST_PROXY, without the IPv4-in-IPv6 prefix (the gateway counts rate limits by it). */
function clientAddress(req) {
  const ip = req.ip ?? req.socket.remoteAddress;
  return ip?.startsWith('::ffff:') && ip.includes('.') ? ip.slice(7) : ip;
}

/**
 * At most MAX_ACTIVE requests inside Remix at once; the others wait their turn. A crowd arriving
 * together (a registration rush, decision 026) was otherwise interleaved stage by stage, so the first
 * to arrive were answered only when the last had been read. One client address holds at most
 * PER_CLIENT of the slots, and waiting requests are served round-robin between addresses, in arrival
 * order within one (decision 031): a client sending hundreds at once waits behind itself, not everyone.
 */
const MAX_ACTIVE = Number(process.env.WEB_MAX_ACTIVE_REQUESTS || 32);
if (!Number.isInteger(MAX_ACTIVE) || MAX_ACTIVE < 1 || MAX_ACTIVE > 10_000) {
  fail(`bad configuration: WEB_MAX_ACTIVE_REQUESTS: must be a whole number from 1 to 10000 (got "${process.env.WEB_MAX_ACTIVE_REQUESTS}")`);
}
const PER_CLIENT = process.env.WEB_MAX_ACTIVE_PER_CLIENT ? Number(process.env.WEB_MAX_ACTIVE_PER_CLIENT) : Math.max(1, Math.floor(MAX_ACTIVE / 4));
if (!Number.isInteger(PER_CLIENT) || PER_CLIENT < 1 || PER_CLIENT > MAX_ACTIVE) {
  fail(`bad configuration: WEB_MAX_ACTIVE_PER_CLIENT: must be a whole number from 1 to WEB_MAX_ACTIVE_REQUESTS (${MAX_ACTIVE}) (got "${process.env.WEB_MAX_ACTIVE_PER_CLIENT}")`);
}
const turns = requestTurns(MAX_ACTIVE, PER_CLIENT);

/**
 * Remix's express adapter reads the body straight from the socket; ours hands Remix the checked
 * body (a buffer, or the counted upload stream) and runs it inside the client's scope
 * (app/utils/client.server.ts), so the gateway client can send the client's address.
 */
function remixHandler(build) {
  const handle = createRequestHandler(build, process.env.NODE_ENV);
  return async (req, res, next) => {
    try {
      const request = remixRequest(req, res);
      if (!request) return unreadable(req, res, 'unreadable host');
      const address = clientAddress(req);
      const session = await sessionOf(req, res);
      const client = address ?? '';
      // A client that went away while waiting gives its place up: nobody would read the page.
      const granted = await turns.enter(client, request.signal);
      if (!granted) return;
      let response;
      try {
        response = await runWithClient({ address, session }, () => handle(request, { clientAddress: address }));
      } finally {
        turns.leave(client);
      }
      if (res.locals.tooLarge) return tooLarge(req, res, UPLOAD_LIMIT, 'upload over the limit');
      // A route may answer an upload without reading it (a visitor sent to log in): the rest is dropped,
      // not left piped and paused, so the client can finish sending and read the answer.
      if (res.locals.body && !Buffer.isBuffer(res.locals.body) && !req.complete) {
        req.unpipe();
        dropRestOfBody(req, res);
      }
      const keep = res.locals.pageCache;
      if (keep && req.method === 'GET' && pageCache.storable(response)) {
        const body = Buffer.from(await response.arrayBuffer());
        const page = await pageCache.store(keep.key, keep.generation, response, body);
        keep.done(page);
        if (page) return sendPage(req, res, page, 'miss');
        return await sendResponse(res, response, body);
      }
      keep?.done(null);
      await sendResponse(res, response);
    } catch (err) {
      next(err);
    }
  };
}

/** The URL Remix sees (and the page cache keys by: its og: URLs are built from it), or null. */
function requestUrl(req) {
  // As @remix-run/express: host and port from X-Forwarded-Host (dropped above unless trusted) or Host.
  const portOf = (value) => Number.parseInt(value?.split(':')[1] ?? '', 10);
  const forwardedPort = portOf(req.get('x-forwarded-host'));
  const hostPort = portOf(req.get('host'));
  const urlPort = Number.isSafeInteger(forwardedPort) ? forwardedPort : Number.isSafeInteger(hostPort) ? hostPort : '';
  try {
    return new URL(`${req.protocol}://${req.hostname}${urlPort ? `:${urlPort}` : ''}${req.originalUrl}`);
  } catch {
    return null;
  }
}

function remixRequest(req, res) {
  const url = requestUrl(req);
  if (!url) return null;
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (Array.isArray(value)) for (const v of value) headers.append(name, v);
    else if (value !== undefined) headers.set(name, value);
  }
  let controller = new AbortController();
  res.on('finish', () => (controller = null));
  res.on('close', () => controller?.abort());
  const init = { method: req.method, headers, signal: controller.signal };
  const body = res.locals.body;
  if (body !== undefined) {
    init.body = Buffer.isBuffer(body) ? body : createReadableStreamFromReadable(body);
    init.duplex = 'half';
  }
  return new Request(url.href, init);
}

/** Writes Remix's answer; its body already read into a buffer when one is given. */
async function sendResponse(res, response, body) {
  res.statusMessage = response.statusText;
  res.status(response.status);
  for (const [name, value] of response.headers.entries()) res.append(name, value);
  const eventStream = /text\/event-stream/i.test(response.headers.get('content-type') ?? '');
  if (eventStream) res.flushHeaders();
  if (body) res.end(body);
  else if (!response.body) res.end();
  else if (eventStream) await writeReadableStreamToWritable(response.body, res); // flushed per event
  else await writeWithoutFlush(response.body, res);
}

/**
 * Like Remix's writeReadableStreamToWritable without its flush() after every chunk: through the
 * compression middleware each flush ends a deflate block, and React's many small chunks made a
 * page's gzip twice its size (9.0 KB against 4.3 KB for the same list). No page streams deferred
 * data, so nothing waits on a flush; zlib sends what it has when the answer ends.
 */
async function writeWithoutFlush(stream, res) {
  const reader = stream.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (!res.write(value) && !res.destroyed) await new Promise((resolve) => {
        res.once('drain', resolve);
        res.once('close', resolve);
      });
    }
    res.end();
  } catch (error) {
    res.destroy(error);
    throw error;
  }
}
