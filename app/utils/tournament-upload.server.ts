import { data, unstable_parseMultipartFormData, type UploadHandler } from '@remix-run/node';
import { IMAGE_MESSAGES, MAX_UPLOAD_BYTES, FORM_UNREADABLE, FIELD_TOO_LONG } from '@custom-room/contract/constants';
import { COVER_FIELD } from './tournament-form';

/** The contract's messages, as this module has always exported them. */
export { FORM_UNREADABLE, FIELD_TOO_LONG };

/**
 * Reads the admin tournament form (multipart: text fields and at most one coverImage file) from the
 * browser, with limits, before anything goes on to the gateway. At most one file is ever held in
 * memory, and never more than MAX_COVER_BYTES of it: a part over the limit, a second file or bytes
 * that are no image are read to their end and dropped, so the rest of the form (every text value)
 * still arrives and the form can be shown again with them. The gateway checks everything again.
 */

/** The contract's limits and messages (decision 035), the ones the gateway applies again. */
export const MAX_COVER_BYTES = MAX_UPLOAD_BYTES;
export const COVER_MESSAGES = {
  wrongType: IMAGE_MESSAGES.wrongType,
  tooLarge: IMAGE_MESSAGES.tooLarge,
  tooMany: IMAGE_MESSAGES.tooMany,
} as const;

/** As the gateway's multipart limits: a 5000-character text in 4-byte UTF-8 fits; 30 text fields. */
const MAX_FIELD_BYTES = 20 * 1024;
const MAX_PARTS = 40;
/** Past this the request is not an admin filling in the form: stop reading and answer 413. */
const MAX_BODY_BYTES = 4 * MAX_COVER_BYTES;

/** Which file field a form has and the messages it refuses a file with: the cover's, or an organiser's logo (decision 068). */
export interface UploadFile {
  field: string;
  messages: { wrongType: string; tooLarge: string; tooMany: string };
  /** Whether the file's first bytes are of a kind the gateway takes (default: an image). */
  accepts?: (head: Uint8Array) => boolean;
}
export const COVER_UPLOAD: UploadFile = { field: COVER_FIELD, messages: COVER_MESSAGES };

export interface TournamentUpload {
  /** Text fields (first value of each name). */
  fields: Record<string, string>;
  /** The chosen file (the cover, or the form's file field), already checked to start like an image and to be within the size limit. */
  cover: File | null;
  /** Per-field problems found while reading (the cover's type, size or count; overlong values). */
  errors: Record<string, string>;
  /** The file name the browser sent, even when the file was refused (to ask for it again). */
  coverName: string;
}

/**
 * Formats the gateway accepts (JPEG, PNG, WebP, GIF, AVIF), by their first bytes: a cheap check
 * before forwarding. The gateway decodes the image and is the judge (HEIC passes here, not there).
 */
export function looksLikeImage(head: Uint8Array): boolean {
  const ascii = (from: number, to: number) => String.fromCharCode(...head.subarray(from, to));
  if (head.length >= 3 && head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return true;
  if (head.length >= 8 && [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a].every((b, i) => head[i] === b)) return true;
  if (head.length >= 6 && (ascii(0, 6) === 'GIF87a' || ascii(0, 6) === 'GIF89a')) return true;
  if (head.length >= 12 && ascii(0, 4) === 'RIFF' && ascii(8, 12) === 'WEBP') return true;
  // ISO-BMFF: "ftyp" at 4, then brands; AVIF says avif/avis among them.
  if (head.length >= 12 && ascii(4, 8) === 'ftyp') return /avi[fs]/.test(ascii(8, Math.min(head.length, 64)));
  return false;
}

const SNIFF_BYTES = 64;

export async function readTournamentUpload(request: Request, file: UploadFile = COVER_UPLOAD): Promise<TournamentUpload> {
  const { field: fileField, messages } = file;
  const accepts = file.accepts ?? looksLikeImage;
  const upload: TournamentUpload = { fields: {}, cover: null, errors: {}, coverName: '' };
  const contentType = request.headers.get('content-type') ?? '';
  if (!/^multipart\/form-data\b/i.test(contentType)) {
    // A form without a file input (or a script) posting urlencoded: text fields only.
    const form = await request.formData().catch(() => {
      throw data({ message: FORM_UNREADABLE }, { status: 400 });
    });
    for (const [name, value] of form) if (typeof value === 'string' && !(name in upload.fields)) upload.fields[name] = value;
    return upload;
  }

  let bodyBytes = 0;
  let parts = 0;
  let files = 0;
  const count = (chunk: Uint8Array) => {
    bodyBytes += chunk.byteLength;
    if (bodyBytes > MAX_BODY_BYTES) throw data({ message: messages.tooLarge }, { status: 413 });
  };
  const drain = async (stream: AsyncIterable<Uint8Array>) => {
    for await (const chunk of stream) count(chunk);
  };

  const handler: UploadHandler = async ({ name, filename, contentType: partType, data: stream }) => {
    parts += 1;
    if (parts > MAX_PARTS) {
      await drain(stream);
      upload.errors.form ??= FORM_UNREADABLE;
      return undefined;
    }

    if (filename === undefined) {
      // A text field: kept whole up to MAX_FIELD_BYTES.
      const chunks: Uint8Array[] = [];
      let size = 0;
      for await (const chunk of stream) {
        count(chunk);
        size += chunk.byteLength;
        if (size <= MAX_FIELD_BYTES) chunks.push(chunk);
      }
      if (name in upload.fields || name === fileField) return undefined;
      if (size > MAX_FIELD_BYTES) upload.errors[name] ??= FIELD_TOO_LONG;
      const value = new TextDecoder().decode(Buffer.concat(chunks));
      upload.fields[name] = value;
      return undefined;
    }

    if (name !== fileField || filename === '') {
      // Another field carrying a file, or the empty part a browser sends when no file was chosen.
      await drain(stream);
      if (name !== fileField) upload.errors.form ??= FORM_UNREADABLE;
      return undefined;
    }

    files += 1;
    upload.coverName ||= filename;
    if (files > 1) {
      await drain(stream);
      upload.cover = null;
      upload.errors[fileField] = messages.tooMany;
      return undefined;
    }

    let chunks: Uint8Array[] | null = [];
    let size = 0;
    let sniffed = false;
    for await (const chunk of stream) {
      count(chunk);
      size += chunk.byteLength;
      if (!chunks) continue; // refused: read on to the end, keep nothing
      if (size > MAX_COVER_BYTES) {
        chunks = null;
        upload.errors[fileField] ??= messages.tooLarge;
        continue;
      }
      chunks.push(chunk);
      if (!sniffed && size >= SNIFF_BYTES) {
        sniffed = true;
        if (!accepts(Buffer.concat(chunks))) {
          chunks = null;
          upload.errors[fileField] ??= messages.wrongType;
        }
      }
    }
    if (chunks && !sniffed && !accepts(Buffer.concat(chunks))) {
      chunks = null; // shorter than the sniff window: an empty or tiny file is no image either
      upload.errors[fileField] ??= messages.wrongType;
    }
    if (chunks && files === 1 && !upload.errors[fileField]) {
      upload.cover = new File(chunks as BlobPart[], filename, { type: partType || 'application/octet-stream' });
    }
    return undefined;
  };

  try {
    await unstable_parseMultipartFormData(request, handler);
  } catch (err) {
    if (err instanceof Response || (err && typeof err === 'object' && 'type' in err && err.type === 'DataWithResponseInit')) throw err;
    throw data({ message: FORM_UNREADABLE }, { status: 400 });
  }
  if (upload.errors[fileField]) upload.cover = null;
  return upload;
}
