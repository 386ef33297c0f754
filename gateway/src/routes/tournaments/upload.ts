import type { SwaggerTransform } from '@fastify/swagger';
import type { FastifyRequest, FastifySchemaCompiler } from 'fastify';
import { jsonSchemaTransform, validatorCompiler } from 'fastify-type-provider-zod';
import {
  COVER_FIELD,
  FIELD_TOO_LONG,
  FORM_UNREADABLE,
  LOGO_FIELD,
  MAX_UPLOAD_BYTES,
  SCREENSHOT_FIELD,
  type TournamentForm,
  validateTournamentForm,
} from '@custom-room/contract';
import type { ProcessedImage } from '../../db/images.js';
import { HttpError, NUL_MESSAGE, badRequest, type FieldErrors } from '../../lib/errors.js';
import { COVER_KIND, processCoverImage, type ImageKind } from '../../lib/images.js';

// The tournament form arrives as multipart/form-data: its text fields and an optional cover file.
// An organiser's page may too, with an optional logo (decision 068): the same reader, another file field.

const NOT_MULTIPART = 'Send the tournament as multipart/form-data: the text fields plus an optional coverImage file.';

/**
 * fieldSize is in bytes: 20 KB keeps a 5000-character description whole even in 4-byte UTF-8
 * (Devanagari is 3 bytes a character); a longer value is truncated by busboy and reported below.
 */
export const MULTIPART_LIMITS = { fileSize: MAX_UPLOAD_BYTES, files: 1, fields: 30, fieldSize: 20 * 1024 };

export interface FormUpload {
  fields: Record<string, string>;
  /** The one file of the form's file field, when one was chosen. */
  file?: Buffer;
  /** Its name as the browser sent it ('' when none). */
  fileName?: string;
}

/** onRequest: refuse anything but multipart before a byte of the body is read. */
export async function requireMultipart(request: FastifyRequest) {
  if (!/^multipart\/form-data\b/i.test(request.headers['content-type'] ?? '')) throw new HttpError(415, NOT_MULTIPART);
}

/**
 * Reads every part (so the client always gets our answer, not a reset connection), collecting
 * text fields and the one file of kind.field; maps the plugin's limit errors to players' messages.
 */
export async function readFormUpload(
  request: FastifyRequest,
  kind: ImageKind = COVER_KIND,
  notMultipart = NOT_MULTIPART,
): Promise<FormUpload> {
  if (!request.isMultipart()) throw new HttpError(415, notMultipart);
  const fields: Record<string, string> = {};
  const errors: FieldErrors = {};
  let file: Buffer | undefined;
  let fileName = '';
  try {
    for await (const part of request.parts()) {
      if (part.type === 'file') {
        const data = await part.toBuffer();
        if (part.fieldname !== kind.field) {
          errors[part.fieldname] = `Only ${kind.field} may carry a file.`;
        } else if (data.length > 0 || part.filename) {
          // A browser sends an empty, nameless part when no file was chosen: that means "no new image".
          file = data;
          fileName = part.filename ?? '';
        }
        continue;
      }
      const name = part.fieldname;
      if (name === kind.field) continue; // an empty text value from a form without a chosen file
      if (Object.hasOwn(fields, name)) errors[name] = 'Send this field only once.';
      else if (part.valueTruncated) errors[name] = FIELD_TOO_LONG;
      else if (typeof part.value !== 'string') errors[name] = 'Must be text.';
      else if (part.value.includes('\u0000')) errors[name] = NUL_MESSAGE;
      fields[name] = typeof part.value === 'string' ? part.value : '';
    }
  } catch (err) {
    throw uploadError(err, kind);
  }
  if (Object.keys(errors).length > 0) throw badRequest('Please check the highlighted fields.', errors);
  return { fields, file, fileName };
}

function uploadError(err: unknown, { field, messages }: ImageKind): HttpError {
  if (err instanceof HttpError) return err;
  switch ((err as { code?: string }).code) {
    case 'FST_REQ_FILE_TOO_LARGE':
      return new HttpError(413, messages.tooLarge, { [field]: messages.tooLarge });
    case 'FST_FILES_LIMIT':
      return badRequest(messages.tooMany, { [field]: messages.tooMany });
    case 'FST_FIELDS_LIMIT':
    case 'FST_PARTS_LIMIT':
      return badRequest(`Too many form fields: at most ${MULTIPART_LIMITS.fields}.`);
    case 'FST_PROTO_VIOLATION':
      return badRequest('The form has a field name that is not allowed.');
    default:
      // Busboy's own errors: a cut-off upload, a missing boundary, a malformed part header.
      return badRequest(FORM_UNREADABLE);
  }
}

function validateFields(fields: Record<string, string>): TournamentForm {
  const result = validateTournamentForm(fields);
  if (result.errors) throw badRequest('Please check the highlighted fields.', result.errors);
  return result.data;
}

/** The multipart body has a documentation schema only: the handler parses it, so Fastify must not validate it. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- it serves routes whose schema types all differ
export const documentOnlyBody: FastifySchemaCompiler<any> = (route) =>
  route.httpPart === 'body' ? (data: unknown) => ({ value: data }) : validatorCompiler(route);

/** OpenAPI: the file field is binary, which zod cannot express. */
export const multipartDocTransform: SwaggerTransform = (input) => {
  const out = jsonSchemaTransform(input as Parameters<typeof jsonSchemaTransform>[0]);
  const body = (out.schema as { body?: { properties?: Record<string, { type?: string; format?: string; description?: string }> } }).body;
  if (body?.properties?.[COVER_FIELD]) {
    body.properties[COVER_FIELD] = {
      type: 'string',
      format: 'binary',
      description: 'Image file (JPEG, PNG, WebP, GIF or AVIF), at most 5 MB, at least 200×100 pixels; re-encoded to WebP',
    };
  }
  // The logo (decision 068) and a report's or dispute's screenshot (decision 071) keep their descriptions.
  for (const field of [LOGO_FIELD, SCREENSHOT_FIELD]) {
    const file = body?.properties?.[field];
    if (body?.properties && file) body.properties[field] = { type: 'string', format: 'binary', description: file.description };
  }
  return out as ReturnType<SwaggerTransform>;
};

/**
 * The form's fields checked (400 naming them), then its cover processed: what an add or an edit
 * stores. beforeCover runs between the two (an edit's 404 comes before the image work).
 */
export async function readTournamentForm(
  request: FastifyRequest,
  beforeCover?: () => Promise<unknown>,
): Promise<{ form: TournamentForm; cover: ProcessedImage | undefined }> {
  const upload = await readFormUpload(request);
  const form = validateFields(upload.fields);
  await beforeCover?.();
  return { form, cover: upload.file ? await processCoverImage(upload.file) : undefined };
}
