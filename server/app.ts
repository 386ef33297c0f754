import fs from 'node:fs';
import path from 'node:path';
import compression from 'compression';
import express, { type ErrorRequestHandler } from 'express';
import type { WebBuild } from './build.js';
import type { ServerConfig } from './config.js';
import { formGuard } from './form-guard.js';
import { forwardedHeaders } from './forwarded.js';
import { accessLog } from './logging.js';
import { pageCacheMiddleware } from './page-cache.js';
import { page, refusals as makeRefusals } from './refusal.js';
import { remixHandler } from './remix-adapter.js';
import { requestSlots } from './request-limits.js';
import { sessionReader } from './session.js';
import type { Shutdown } from './shutdown.js';

/**
 * The web app's server (decisions 020, 036): express around the Remix build. In order: the request id
 * and access line, forwarded headers believed only from TRUST_PROXY (and HSTS on https), the refusal of
 * Remix's legacy ?_data= requests, anonymous public pages from the page cache, compression, static files,
 * the form guard (the one cross-site check), then Remix in a fair request slot.
 */
export function createApp({ remix, web }: WebBuild, config: ServerConfig, root: string, stop: Pick<Shutdown, 'closeHeader'>) {
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', web.trustProxy());
  const trusted = app.get('trust proxy fn');

  const pageCache = web.pageCache();
  const sessionOf = sessionReader(web.readSession);
  const refusals = makeRefusals(web.redactUrl);
  const assetsDirectory = path.resolve(root, remix.assetsBuildDirectory);
  // public/ holds a few fixed files: only their paths reach the file system, not every page request.
  const publicDirectory = path.join(root, 'public');
  const publicFiles = listFiles(publicDirectory, assetsDirectory);
  const isStatic = (req: express.Request) => req.path.startsWith(remix.publicPath) || publicFiles.has(req.path);

  app.use(accessLog(web.logger, web.redactUrl, isStatic));
  app.use(forwardedHeaders(trusted));
  app.use(stop.closeHeader);
  // Remix's pre-single-fetch data protocol (?_data=), which our client never speaks (single fetch, decision 036).
  // Remix still answers it, badly: a loader's data goes out as if it were a Response, so a `status` field in it
  // (a tournament's) became the HTTP status, a RangeError and a 500 (issue 27). Refused here: a client's bad request.
  app.use((req, res, next) =>
    new URL(req.originalUrl, 'http://web').searchParams.has('_data')
      ? refusals.refuse(
          req,
          res,
          400,
          'legacy ?_data request',
          'Bad request',
          'This address asks for data this site does not serve. Open the page without "_data".',
        )
      : next(),
  );
  // Before compression: a kept page is already compressed.
  if (pageCache) app.use(pageCacheMiddleware(pageCache, sessionOf));
  app.use(compression());
  app.use(remix.publicPath, express.static(assetsDirectory, { immutable: true, maxAge: '1y' }));
  const servePublic = express.static(publicDirectory, { maxAge: '1h' });
  app.use((req, res, next) => (publicFiles.has(req.path) ? servePublic(req, res, next) : next()));
  app.use(formGuard(refusals));
  app.all(
    '*',
    remixHandler({
      build: remix,
      mode: config.NODE_ENV,
      web,
      pageCache,
      sessionOf,
      slots: requestSlots(web.requestTurns(config.WEB_MAX_ACTIVE_REQUESTS, config.WEB_MAX_ACTIVE_PER_CLIENT)),
      refusals,
    }),
  );
  const onError: ErrorRequestHandler = (err, req, res, _next) => {
    req.log.error({ err, method: req.method, url: web.redactUrl(req.originalUrl) }, 'web server error');
    if (res.headersSent) return void res.destroy();
    page(res, 500, 'Something went wrong', 'Something went wrong on our side. Please try again in a moment.');
  };
  app.use(onError);
  return app;
}

/** The URL paths of the files under dir (not under skip), as a browser asks for them. */
export function listFiles(dir: string, skip: string): Set<string> {
  const paths = new Set<string>();
  const walk = (current: string) => {
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
