import type { SwaggerTransform } from '@fastify/swagger';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { jsonSchemaTransform, type FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { endpoints } from '@custom-room/contract';
import { InFlight } from '@custom-room/toolkit';
import { getImageJpeg, getImageVariant, insertImageJpeg, type StoredJpeg } from '../../db/images.js';
import { isoAt } from '../../lib/clock.js';
import { notFound } from '../../lib/errors.js';
import { encodeCoverJpeg } from '../../lib/images.js';

/** Content-addressed URLs never change content, so browsers and CDNs may keep them for a year. */
const IMMUTABLE = 'public, max-age=31536000, immutable';
const IMAGE_NOT_FOUND = 'Image not found.';

/** OpenAPI: a binary 200 and a bodiless 304, which zod response schemas cannot describe. */
export const binaryDocTransform =
  (type: string): SwaggerTransform =>
  (input) => {
    const out = jsonSchemaTransform(input as Parameters<typeof jsonSchemaTransform>[0]);
    const schema = out.schema as { response?: Record<string, unknown> };
    schema.response = {
      200: { description: `The ${type} bytes`, content: { [type]: { schema: { type: 'string', format: 'binary' } } } },
      304: { description: 'Not modified (If-None-Match matched the ETag)', type: 'null' },
      ...schema.response,
    };
    return out as ReturnType<SwaggerTransform>;
  };
const imageDocTransform = binaryDocTransform('image/webp');
const jpegDocTransform = binaryDocTransform('image/jpeg');

/** True when an If-None-Match header names this ETag (weak or strong) or is "*". */
export function matchesEtag(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header.split(',').some((tag) => {
    const t = tag.trim();
    return t === '*' || t === etag || t === `W/${etag}`;
  });
}

function sendBytes(request: FastifyRequest, reply: FastifyReply, etag: string, type: string, data: Buffer) {
  reply.header('cache-control', IMMUTABLE).header('etag', etag).header('x-content-type-options', 'nosniff');
  if (matchesEtag(request.headers['if-none-match'], etag)) return reply.code(304).send();
  return reply.type(type).send(data);
}

/**
 * The JPEG of a cover, made once (decision 032): stored at upload; a cover stored before that gets it
 * on its first request, kept in the database for every process. Requests for one id that arrive
 * while it is being made share that one encode.
 */
function jpegStore({ store, log, clock }: Pick<FastifyInstance, 'store' | 'log' | 'clock'>) {
  const { db } = store;
  // Content-addressed: a JPEG made before this request asked is the same JPEG.
  const making = new InFlight<string, StoredJpeg | undefined>();
  const make = async (id: string): Promise<StoredJpeg | undefined> => {
    const source = await getImageVariant(db, id);
    if (!source) return undefined;
    const made = { id, width: source.width, height: source.height, data: await encodeCoverJpeg(source.data) };
    try {
      await insertImageJpeg(db, made, isoAt(clock.now()));
    } catch (err) {
      // A full disk, say: the preview is still served, and made again next time.
      store.noteWriteFailure(err);
      log.warn({ err, imageId: id }, 'cover JPEG not stored');
      return made;
    }
    // Another process may have stored its own first: serve the stored bytes, the same everywhere.
    return (await getImageJpeg(db, id)) ?? made;
  };
  return async (id: string): Promise<StoredJpeg | undefined> => {
    const stored = await getImageJpeg(db, id);
    if (stored) return stored;
    return making.run(id, () => make(id));
  };
}

const routes: FastifyPluginAsyncZod = async (app) => {
  const sendImage = async (request: FastifyRequest, reply: FastifyReply, imageId: string, width?: number) => {
    const image = await getImageVariant(app.store.db, imageId, width);
    if (!image) throw notFound(IMAGE_NOT_FOUND);
    return sendBytes(request, reply, `"${image.id}-${image.width}"`, image.content_type, image.data);
  };
  const jpegOf = jpegStore(app);

  // Registered before /images/:imageId.webp, which would otherwise swallow "<id>-400" as the id.
  app.get(
    endpoints.imageVariant.url,
    {
      config: { swaggerTransform: imageDocTransform },
      schema: endpoints.imageVariant.schema,
    },
    async (request, reply) => sendImage(request, reply, request.params.imageId, Number(request.params.width)),
  );

  app.get(
    endpoints.imageWebp.url,
    {
      config: { swaggerTransform: imageDocTransform },
      schema: endpoints.imageWebp.schema,
    },
    async (request, reply) => sendImage(request, reply, request.params.imageId),
  );

  // Link previews: WhatsApp and some other crawlers do not show WebP, so the share image is also a JPEG.
  app.get(
    endpoints.imageJpeg.url,
    {
      config: { swaggerTransform: jpegDocTransform },
      schema: endpoints.imageJpeg.schema,
    },
    async (request, reply) => {
      const jpeg = await jpegOf(request.params.imageId);
      if (!jpeg) throw notFound(IMAGE_NOT_FOUND);
      return sendBytes(request, reply, `"${jpeg.id}-${jpeg.width}-jpg"`, 'image/jpeg', jpeg.data);
    },
  );
};

export default routes;
