import crypto from 'node:crypto';
import pLimit from 'p-limit';
import sharp from 'sharp';
import {
  COVER_FIELD,
  IMAGE_MESSAGES,
  LOGO_FIELD,
  LOGO_MESSAGES,
  LOGO_WIDTHS,
  MAX_INPUT_PIXELS,
  MAX_TALLNESS,
  MIN_COVER_HEIGHT,
  MIN_COVER_WIDTH,
  VARIANT_WIDTHS,
  type ImageMessages,
} from '@custom-room/contract';
import type { ImageVariant, ProcessedImage } from '../db/images.js';
import { HttpError } from './errors.js';

// The limits and messages are the contract's (decision 035): the web form checks the same ones.

/**
 * Image work never starves logins and reads (decision 032): one sharp job at a time per process, and
 * one libvips thread per job. sharp runs on libuv's thread pool (4 threads), the same pool argon2 and
 * file reads queue on; with a flood of encodes queued there, every login waited behind them.
 */
export const IMAGE_JOBS = 1;
sharp.concurrency(1);
const limit = pLimit(IMAGE_JOBS);

/** Counters of this process's image work, for logs and tests: jobs run, JPEGs encoded from a stored cover, most jobs at once. */
export const imageWorkStats = { jobs: 0, jpegEncodes: 0, peak: 0 };
let running = 0;

/** Runs one sharp job in its turn (IMAGE_JOBS at a time), counted in imageWorkStats. */
export function imageWork<T>(job: () => Promise<T>): Promise<T> {
  return limit(async () => {
    running += 1;
    imageWorkStats.jobs += 1;
    imageWorkStats.peak = Math.max(imageWorkStats.peak, running);
    try {
      return await job();
    } finally {
      running -= 1;
    }
  });
}

export type VariantWidth = (typeof VARIANT_WIDTHS)[number];
const WEBP_QUALITY = 80;
const JPEG_QUALITY = 82;
/** JPEG has no transparency: transparent parts of a cover show on white, not on black. */
const JPEG_BACKGROUND = '#ffffff';
const IMAGE_ID_HEX_LENGTH = 32;

/** What is uploaded: a tournament's cover or an organiser's logo (decision 068), one pipeline for both. */
export interface ImageKind {
  /** The form field the errors name. */
  field: string;
  messages: ImageMessages;
  /** Nominal widths of the stored WebP renditions. */
  widths: readonly number[];
}
export const COVER_KIND: ImageKind = { field: COVER_FIELD, messages: IMAGE_MESSAGES, widths: VARIANT_WIDTHS };
export const LOGO_KIND: ImageKind = { field: LOGO_FIELD, messages: LOGO_MESSAGES, widths: LOGO_WIDTHS };

/** Formats accepted by their bytes; sharp calls AVIF 'heif' and tells it apart from HEIC by its compression. */
function isAcceptedFormat(meta: sharp.Metadata): boolean {
  switch (meta.format) {
    case 'jpeg':
    case 'png':
    case 'webp':
    case 'gif':
      return true;
    case 'heif':
      return meta.compression === 'av1';
    default:
      return false;
  }
}

/**
 * Checks an uploaded cover by its bytes and re-encodes it as metadata-free WebP in three widths,
 * plus a JPEG of the largest. Throws HttpErrors with a coverImage field error: 415 not an accepted
 * image, 400 too small, too many pixels or undecodable. CPU-heavy: call it before opening a
 * transaction. Takes its turn with the other image work.
 */
export function processCoverImage(input: Buffer): Promise<ProcessedImage> {
  return imageWork(() => processNow(input, COVER_KIND));
}

/** An organiser's logo: the cover's checks and limits, its errors on the logo field, stored at LOGO_WIDTHS. */
export function processLogoImage(input: Buffer): Promise<ProcessedImage> {
  return imageWork(() => processNow(input, LOGO_KIND));
}

/** The JPEG of a stored variant (covers stored before their JPEG was made at upload). Takes its turn. */
export function encodeCoverJpeg(source: Buffer): Promise<Buffer> {
  return imageWork(() => {
    imageWorkStats.jpegEncodes += 1;
    return toJpeg(sharp(source)).toBuffer();
  });
}

const toJpeg = (image: sharp.Sharp) => image.flatten({ background: JPEG_BACKGROUND }).jpeg({ quality: JPEG_QUALITY, mozjpeg: true });

async function processNow(input: Buffer, kind: ImageKind): Promise<ProcessedImage> {
  const { messages } = kind;
  const refuse = (status: number, message: string) => new HttpError(status, message, { [kind.field]: message });
  const options: sharp.SharpOptions = { limitInputPixels: MAX_INPUT_PIXELS, failOn: 'error' };
  let meta: sharp.Metadata;
  try {
    meta = await sharp(input, { ...options, limitInputPixels: false }).metadata();
  } catch {
    throw refuse(415, messages.wrongType);
  }
  if (!isAcceptedFormat(meta)) throw refuse(415, messages.wrongType);
  if (hasDataAfterImage(input, meta.format!)) throw refuse(415, messages.hiddenData);
  if (!meta.width || !meta.height) throw refuse(400, messages.unreadable);
  if (meta.width * meta.height > MAX_INPUT_PIXELS) throw refuse(400, messages.tooManyPixels);
  const oriented = meta.autoOrient ?? { width: meta.width, height: meta.height };
  if (oriented.width < MIN_COVER_WIDTH || oriented.height < MIN_COVER_HEIGHT) throw refuse(400, messages.tooSmall);
  if (oriented.height > oriented.width * MAX_TALLNESS) throw refuse(400, messages.tooTall);

  // Nominal width n is served by the largest stored width <= n, so a small original yields one row.
  const widths = [...new Set(kind.widths.map((n) => Math.min(n, oriented.width)))];
  const variants: ImageVariant[] = [];
  let jpeg: ImageVariant;
  try {
    // Animated images keep their first frame; EXIF, XMP and ICC are dropped (sharp keeps none by default).
    const base = sharp(input, options).rotate();
    for (const width of widths) {
      const { data, info } = await base.clone().resize({ width }).webp({ quality: WEBP_QUALITY }).toBuffer({ resolveWithObject: true });
      variants.push({ width: info.width, height: info.height, data });
    }
    const { data, info } = await toJpeg(base.clone().resize({ width: widths[widths.length - 1] })).toBuffer({ resolveWithObject: true });
    jpeg = { width: info.width, height: info.height, data };
  } catch (err) {
    if (err instanceof HttpError) throw err;
    throw refuse(400, messages.unreadable);
  }
  const largest = variants[variants.length - 1]!;
  // Content-addressed: the same upload twice shares one set of rows and one URL.
  const id = crypto.createHash('sha256').update(largest.data).digest('hex').slice(0, IMAGE_ID_HEX_LENGTH);
  return { id, contentType: 'image/webp', variants, jpeg, width: largest.width, height: largest.height };
}

/**
 * True when bytes other than zero padding follow the end of a PNG (IEND), GIF (trailer) or WebP
 * (RIFF length): the shape of a polyglot (a script, page or archive riding on a real image).
 * Re-encoding drops such bytes anyway; refusing says so to the uploader and stores nothing.
 * JPEG is left alone: phones append data after its end (Samsung trailers, motion photos), so an
 * honest photo would be refused; re-encoding is the defence there. AVIF has no end marker to read.
 */
export function hasDataAfterImage(input: Buffer, format: string): boolean {
  const end = format === 'png' ? pngEnd(input) : format === 'gif' ? gifEnd(input) : format === 'webp' ? webpEnd(input) : undefined;
  if (end === undefined || end >= input.length) return false;
  return input.subarray(end).some((byte) => byte !== 0);
}

function pngEnd(input: Buffer): number | undefined {
  let offset = 8;
  while (offset + 12 <= input.length) {
    const length = input.readUInt32BE(offset);
    const type = input.toString('latin1', offset + 4, offset + 8);
    offset += 12 + length;
    if (type === 'IEND') return offset;
  }
  return undefined; // cut off: the decoder judges it
}

function gifEnd(input: Buffer): number | undefined {
  const colourTable = (flags: number) => (flags & 0x80 ? 3 * 2 ** ((flags & 7) + 1) : 0);
  const skipSubBlocks = (at: number) => {
    while (at < input.length && input[at] !== 0) at += input[at]! + 1;
    return at + 1;
  };
  if (input.length < 13) return undefined;
  let offset = 13 + colourTable(input[10]!);
  while (offset < input.length) {
    const block = input[offset];
    if (block === 0x3b) return offset + 1; // trailer
    if (block === 0x21)
      offset = skipSubBlocks(offset + 2); // extension: introducer, label, data
    else if (block === 0x2c && offset + 10 <= input.length)
      offset = skipSubBlocks(offset + 10 + colourTable(input[offset + 9]!) + 1); // image: descriptor, table, LZW size, data
    else return undefined;
  }
  return undefined;
}

function webpEnd(input: Buffer): number | undefined {
  return input.length >= 12 ? 8 + input.readUInt32LE(4) : undefined;
}
