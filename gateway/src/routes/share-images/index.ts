import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { endpoints } from '@custom-room/contract';
import { tooManyRequests } from '../../lib/errors.js';
import { RetryLater, type SharePng } from '../../services/share-images/cache.js';
import { ShareImages, type Admit } from '../../services/share-images/index.js';
import { binaryDocTransform, matchesEtag } from '../images/index.js';

/**
 * A CDN or browser keeps an image a minute, then serves it stale while it asks again (a 304 when the
 * results did not change). Results change during a match day, so not longer than that.
 */
const SHARE_CACHE_CONTROL = 'public, max-age=60, stale-while-revalidate=600';

const pngDocTransform = binaryDocTransform('image/png');

/** The image (or a 304 for the ETag the client holds), or the refusal with its Retry-After (and not to be kept by a CDN). */
async function sendPng(request: FastifyRequest, reply: FastifyReply, get: () => Promise<SharePng>) {
  let image: SharePng;
  try {
    image = await get();
  } catch (err) {
    if (err instanceof RetryLater) reply.header('retry-after', String(err.retryAfterSeconds)).header('cache-control', 'no-store');
    throw err;
  }
  reply.header('cache-control', SHARE_CACHE_CONTROL).header('etag', image.etag).header('x-content-type-options', 'nosniff');
  if (matchesEtag(request.headers['if-none-match'], image.etag)) return reply.code(304).send();
  return reply.type('image/png').header('content-disposition', `inline; filename="${image.filename}"`).send(image.png);
}

const routes: FastifyPluginAsyncZod = async (app) => {
  const images = new ShareImages(
    app.store,
    { queueMax: app.config.SHARE_RENDER_QUEUE_MAX, webUrl: app.config.WEB_URL, timeZone: app.config.APP_TIME_ZONE },
    app.clock,
  );
  // Renders one client may start in a window (issue 27 item 16): images already drawn are served to
  // anyone without limit; drawing new ones is what costs. request.ip is the browser's address behind
  // the web app (TRUST_PROXY, decision 020), so one client's flood does not use up another's turn.
  const renderCount = app.config.RATE_LIMIT
    ? app.createRateLimit({
        max: app.config.SHARE_RENDER_CLIENT_MAX,
        timeWindow: app.config.RATE_LIMIT_WINDOW_SECONDS * 1000,
        keyGenerator: (request) => `share-render:${request.ip}`,
      })
    : undefined;
  const admit =
    (request: FastifyRequest): Admit =>
    async () => {
      if (!renderCount) return;
      const result = await renderCount(request);
      if (result.isAllowed || !result.isExceeded) return;
      throw new RetryLater(429, tooManyRequests(result.ttlInSeconds).message, result.ttlInSeconds);
    };
  const png = { swaggerTransform: pngDocTransform };

  app.get(endpoints.pointsTableImage.url, { config: png, schema: endpoints.pointsTableImage.schema }, (request, reply) => {
    const { day, stage, group } = request.query;
    const where = { tid: request.params.id, day: day ? day : undefined, stage, group };
    return sendPng(request, reply, () => images.pointsTable(where, admit(request)));
  });

  // Issue 30 (decision 076): Top fraggers, the players call's list drawn as the table's image is.
  app.get(endpoints.playerStatsImage.url, { config: png, schema: endpoints.playerStatsImage.schema }, (request, reply) => {
    const { stage, group } = request.query;
    return sendPng(request, reply, () => images.players({ tid: request.params.id, stage, group }, admit(request)));
  });

  // Link previews (issue 20): 1200×630 cards for og:image, the same renderer at a larger type scale.
  app.get(endpoints.pointsCardImage.url, { config: png, schema: endpoints.pointsCardImage.schema }, (request, reply) => {
    const { day, stage, group } = request.query;
    const where = { tid: request.params.id, day: day ? day : undefined, stage, group };
    return sendPng(request, reply, () => images.pointsCard(where, admit(request)));
  });

  app.get(endpoints.tournamentCardImage.url, { config: png, schema: endpoints.tournamentCardImage.schema }, (request, reply) =>
    sendPng(request, reply, () => images.tournamentCard(request.params.id, admit(request))),
  );

  app.get(endpoints.slotListImage.url, { config: png, schema: endpoints.slotListImage.schema }, (request, reply) =>
    sendPng(request, reply, () => images.slotList(request.params.id, request.query.group, admit(request))),
  );
};

export default routes;
