import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { IMAGE_MESSAGES, SCREENSHOT_FIELD, SCREENSHOT_MESSAGES } from '@custom-room/contract';
import type { ImageKind } from '../../lib/images.js';
import { documentOnlyBody, MULTIPART_LIMITS, multipartDocTransform, readFormUpload, requireMultipart } from '../tournaments/upload.js';

/** A report's or a dispute's screenshot through the form reader of covers and logos (its limits, its own words). */
const SCREENSHOT_KIND: ImageKind = {
  field: SCREENSHOT_FIELD,
  messages: {
    ...IMAGE_MESSAGES,
    wrongType: SCREENSHOT_MESSAGES.unreadable,
    unreadable: SCREENSHOT_MESSAGES.unreadable,
    tooLarge: SCREENSHOT_MESSAGES.tooLarge,
    tooMany: SCREENSHOT_MESSAGES.tooMany,
    tooSmall: SCREENSHOT_MESSAGES.tooSmall,
  },
  widths: [],
};

const NOT_FORM = 'Send the report as multipart/form-data: its fields and the screenshot file.';

/** Encapsulated plugins that take multipart bodies register the parser here. */
export async function acceptMultipart(app: FastifyInstance): Promise<void> {
  await app.register(multipart, { limits: MULTIPART_LIMITS });
}

/** The options of a route whose multipart body its handler reads. */
export const multipartRoute = () => ({
  onRequest: requireMultipart,
  validatorCompiler: documentOnlyBody,
  config: { swaggerTransform: multipartDocTransform },
});

export const readScreenshotForm = (request: FastifyRequest) => readFormUpload(request, SCREENSHOT_KIND, NOT_FORM);

/** A screenshot is private (the team and the staff): never kept by a shared cache, never sniffed as anything else. */
export function sendScreenshot(reply: FastifyReply, shot: { content_type: string; data: Buffer }) {
  return reply
    .header('cache-control', 'private, no-store')
    .header('x-content-type-options', 'nosniff')
    .type(shot.content_type)
    .send(shot.data);
}
