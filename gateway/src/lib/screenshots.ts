import crypto from 'node:crypto';
import sharp from 'sharp';
import { MAX_INPUT_PIXELS, SCREENSHOT_FIELD, SCREENSHOT_MESSAGES } from '@custom-room/contract';
import { HttpError } from './errors.js';
import { imageWork } from './images.js';
import { COARSE_BITS, coarseBits, localDifference, parseHash, perceptualHash } from './screenshot-hash.js';

// A report's screenshot (issue 30, decision 072): read by its bytes, turned upright, stripped of every
// metadata, stored once as JPEG (decision 077), and hashed so that the same screenshot sent again (re-encoded, resized,
// cropped by a few percent, brighter or darker, a status bar more or less) is found.

export interface Screenshot {
  id: string;
  data: Buffer;
  contentType: string;
  width: number;
  height: number;
  hash: string;
}

/** Stored at most this wide: a phone's 2400 px result screen stays readable when enlarged, at a third of its bytes. */
export const SCREENSHOT_MAX_WIDTH = 1600;
/** Below this (its short side, its long side) a result screen's names and numbers cannot be read. */
export const SCREENSHOT_MIN_SIDE = 240;
export const SCREENSHOT_MIN_LONG_SIDE = 480;
/**
 * Decision 077: JPEG (libjpeg-turbo, no mozjpeg) takes a fifth of WebP's CPU (effort 2); a burst of a
 * lobby's reports waits on this encode, and staff open each screenshot once. Decision 079: at 75 without
 * optimised Huffman tables, a third of the CPU of 80 with them (7 ms instead of 22 on a 1600×720 screen)
 * and smaller (160 KB instead of 260): names and numbers read the same.
 */
const JPEG = { quality: 75, optimiseCoding: false } as const;
const ID_HEX_LENGTH = 32;

const refuse = (message: string) => new HttpError(400, message, { [SCREENSHOT_FIELD]: message });

/**
 * Reads an upload: JPEG, PNG or WebP by its bytes (else 400 unreadable), large enough to read (else 400
 * tooSmall); turned by its EXIF orientation, every metadata dropped (sharp keeps none unless told),
 * re-encoded as JPEG at most SCREENSHOT_MAX_WIDTH wide. The id is the content hash of the stored bytes
 * (the same upload twice is stored once), the hash the perceptual one. Takes its turn in the image queue.
 */
export function readScreenshot(input: Buffer): Promise<Screenshot> {
  return imageWork(async () => {
    const pixels = await decode(input);
    const { data, info } = await pixels().jpeg(JPEG).toBuffer({ resolveWithObject: true });
    const hash = await perceptualHash(pixels());
    const id = crypto.createHash('sha256').update(data).digest('hex').slice(0, ID_HEX_LENGTH);
    return { id, data, contentType: 'image/jpeg', width: info.width, height: info.height, hash };
  });
}

/** The perceptual hash readScreenshot gives this upload, without the JPEG (tests and benchmarks). */
export function screenshotHash(input: Buffer): Promise<string> {
  return imageWork(async () => perceptualHash((await decode(input))()));
}

/**
 * The upload checked, upright and at its stored size, decoded once (the JPEG and the hash are both made
 * from these pixels): a new pipeline over them at each call (sharp's clone() would copy the 3 MB of
 * pixels, decision 079). Throws the refusals.
 */
async function decode(input: Buffer): Promise<() => sharp.Sharp> {
  let meta: sharp.Metadata;
  try {
    meta = await sharp(input, { limitInputPixels: false }).metadata();
  } catch {
    throw refuse(SCREENSHOT_MESSAGES.unreadable);
  }
  if (!['jpeg', 'png', 'webp'].includes(meta.format ?? '') || !meta.width || !meta.height) throw refuse(SCREENSHOT_MESSAGES.unreadable);
  if (meta.width * meta.height > MAX_INPUT_PIXELS) throw refuse(SCREENSHOT_MESSAGES.unreadable);
  if (Math.min(meta.width, meta.height) < SCREENSHOT_MIN_SIDE || Math.max(meta.width, meta.height) < SCREENSHOT_MIN_LONG_SIDE) {
    throw refuse(SCREENSHOT_MESSAGES.tooSmall);
  }
  try {
    // failOn 'error' (which takes in 'truncated'): a cut-off file is refused, not stored half grey.
    const { data, info } = await sharp(input, { limitInputPixels: MAX_INPUT_PIXELS, failOn: 'error' })
      .rotate()
      .resize({ width: SCREENSHOT_MAX_WIDTH, withoutEnlargement: true })
      .removeAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true });
    return () => sharp(data, { raw: { width: info.width, height: info.height, channels: info.channels } });
  } catch {
    throw refuse(SCREENSHOT_MESSAGES.unreadable);
  }
}

/** The coarse hashes' distance (bits of 64) above which two pictures are different whatever their thumbnails. */
export const COARSE_GATE = 24;
/** Two screenshots at most this far apart are "the same screenshot" (hashDistance's units: hundredths of a block's edges). */
export const SAME_SCREENSHOT_DISTANCE = 50;
/** What hashDistance answers, plus the coarse bits, for pictures the coarse hashes already tell apart. */
const FAR = 1000;

/** Perceptual distance of two hashes (0 = same picture): the worst block's difference, or FAR + bits when the coarse hashes differ too much. */
export function hashDistance(a: string, b: string): number {
  return hashDistanceWithin(a, b, Infinity);
}

/**
 * hashDistance when it is at most limit; else a distance above limit, not always hashDistance's (the
 * comparison stops at the first block past it: decision 079). What a look-alike check needs.
 */
export function hashDistanceWithin(a: string, b: string, limit: number): number {
  const pa = parseHash(a);
  const pb = parseHash(b);
  const bits = coarseBits(pa, pb);
  if (bits > COARSE_GATE) return FAR + bits;
  // In hundredths, rounded: a block past (limit + 1) / 100 rounds above limit, far from any rounding edge.
  return Math.round(localDifference(pa, pb, undefined, (limit + 1) / 100) * 100);
}

/** Keys for finding candidates: the coarse hash cut in COARSE_GATE + 1 bands, so two hashes within the gate share one (pigeonhole). */
export function hashBands(hash: string): string[] {
  const { coarse } = parseHash(hash);
  const bands = COARSE_GATE + 1;
  const keys: string[] = [];
  for (let i = 0, start = 0; i < bands; i++) {
    const end = Math.floor((COARSE_BITS * (i + 1)) / bands);
    const value = (coarse >> BigInt(start)) & ((1n << BigInt(end - start)) - 1n);
    keys.push(`${i.toString(36)}.${value.toString(36)}`);
    start = end;
  }
  return keys;
}
