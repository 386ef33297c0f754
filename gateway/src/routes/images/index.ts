import { z } from 'zod';
import sharp from 'sharp';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { SwaggerTransform } from '@fastify/swagger';
import { jsonSchemaTransform, type FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ErrorSchema } from '../../schemas/common.js';
import { getImageVariant } from '../../db/images.js';
import { VARIANT_WIDTHS } from '../../lib/images.js';
import { notFound } from '../../lib/errors.js';

/** Content-addressed URLs never change content, so browsers and CDNs may keep them for a year. */
const IMMUTABLE = 'public, max-age=31536000, immutable';
const IMAGE_NOT_FOUND = 'Image not found.';

const ImageIdSchema = z.string().regex(/^[0-9a-f]{8,64}$/, 'Not a valid image id.');
const WIDTHS = VARIANT_WIDTHS.map(String) as [string, ...string[]];

const LargestParamsSchema = z.object({ imageId: ImageIdSchema });
const VariantParamsSchema = z.object({
  imageId: ImageIdSchema,
  width: z.enum(WIDTHS, { errorMap: () => ({ message: `Width must be one of ${WIDTHS.join(', ')}.` }) }),
});

/** OpenAPI: a binary 200 and a bodiless 304, which zod response schemas cannot describe. */
const binaryDocTransform =
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
function matchesEtag(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header.split(',').some((tag) => {
    const t = tag.trim();
    return t === '*' || t === etag || t === `W/${etag}`;
  });
}

async function sendImage(
  app: Parameters<FastifyPluginAsyncZod>[0],
  request: FastifyRequest,
  reply: FastifyReply,
  imageId: string,
  options: { width?: number; jpeg?: boolean } = {},
) {
  const image = await getImageVariant(app.store.db, imageId, options.width);
  if (!image) throw notFound(IMAGE_NOT_FOUND);
  const etag = `"${image.id}-${image.width}${options.jpeg ? '-jpg' : ''}"`;
  reply.header('cache-control', IMMUTABLE).header('etag', etag).header('x-content-type-options', 'nosniff');
  if (matchesEtag(request.headers['if-none-match'], etag)) return reply.code(304).send();
  if (options.jpeg) return reply.type('image/jpeg').send(await sharp(image.data).jpeg({ quality: 82, mozjpeg: true }).toBuffer());
  return reply.type(image.content_type).send(image.data);
}

const routes: FastifyPluginAsyncZod = async (app) => {
  // Registered before /images/:imageId.webp, which would otherwise swallow "<id>-400" as the id.
  app.get(
    '/images/:imageId-:width.webp',
    {
      config: { swaggerTransform: imageDocTransform },
      schema: {
        tags: ['images'],
        summary: 'A cover image at a nominal width (400, 800 or 1200); a smaller original is served at its own size',
        params: VariantParamsSchema,
        response: { 400: ErrorSchema, 404: ErrorSchema },
      },
    },
    async (request, reply) => sendImage(app, request, reply, request.params.imageId, { width: Number(request.params.width) }),
  );

  app.get(
    '/images/:imageId.webp',
    {
      config: { swaggerTransform: imageDocTransform },
      schema: {
        tags: ['images'],
        summary: 'A cover image at its largest stored width',
        params: LargestParamsSchema,
        response: { 400: ErrorSchema, 404: ErrorSchema },
      },
    },
    async (request, reply) => sendImage(app, request, reply, request.params.imageId),
  );

  // Link previews: WhatsApp and some other crawlers do not show WebP, so the share image is also a JPEG.
  app.get(
    '/images/:imageId.jpg',
    {
      config: { swaggerTransform: jpegDocTransform },
      schema: {
        tags: ['images'],
        summary: 'A cover image at its largest stored width as JPEG, for link previews',
        params: LargestParamsSchema,
        response: { 400: ErrorSchema, 404: ErrorSchema },
      },
    },
    async (request, reply) => sendImage(app, request, reply, request.params.imageId, { jpeg: true }),
  );
};

export default routes;
