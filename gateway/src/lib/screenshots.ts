import crypto from 'node:crypto';
import sharp from 'sharp';
import { MAX_INPUT_PIXELS, SCREENSHOT_FIELD, SCREENSHOT_MESSAGES } from '@custom-room/contract';
import { HttpError } from './errors.js';
import { imageWork } from './images.js';

// PLACEHOLDER until decision 072's pipeline lands (a helper builds and measures it): a 64-bit dHash.

export interface Screenshot {
  id: string;
  data: Buffer;
  contentType: string;
  width: number;
  height: number;
  hash: string;
}

export const SAME_SCREENSHOT_DISTANCE = 7;

const refuse = (message: string) => new HttpError(400, message, { [SCREENSHOT_FIELD]: message });

export function readScreenshot(input: Buffer): Promise<Screenshot> {
  return imageWork(async () => {
    let meta: sharp.Metadata;
    try {
      meta = await sharp(input, { limitInputPixels: MAX_INPUT_PIXELS }).metadata();
    } catch {
      throw refuse(SCREENSHOT_MESSAGES.unreadable);
    }
    if (!['jpeg', 'png', 'webp'].includes(meta.format ?? '')) throw refuse(SCREENSHOT_MESSAGES.unreadable);
    if ((meta.width ?? 0) < 200 || (meta.height ?? 0) < 100) throw refuse(SCREENSHOT_MESSAGES.tooSmall);
    const base = sharp(input, { limitInputPixels: MAX_INPUT_PIXELS }).rotate();
    const { data, info } = await base
      .clone()
      .resize({ width: 1600, withoutEnlargement: true })
      .webp({ quality: 80 })
      .toBuffer({ resolveWithObject: true });
    const grey = await base.clone().greyscale().resize(9, 8, { fit: 'fill' }).raw().toBuffer();
    let bits = 0n;
    for (let y = 0; y < 8; y++) for (let x = 0; x < 8; x++) bits = (bits << 1n) | (grey[y * 9 + x]! > grey[y * 9 + x + 1]! ? 1n : 0n);
    const id = crypto.createHash('sha256').update(data).digest('hex').slice(0, 32);
    return { id, data, contentType: 'image/webp', width: info.width, height: info.height, hash: bits.toString(16).padStart(16, '0') };
  });
}

export function hashDistance(a: string, b: string): number {
  let x = BigInt(`0x${a}`) ^ BigInt(`0x${b}`);
  let n = 0;
  while (x) {
    n += Number(x & 1n);
    x >>= 1n;
  }
  return n;
}

export function hashBands(hash: string): string[] {
  const bands = SAME_SCREENSHOT_DISTANCE + 1;
  const size = Math.floor(16 / bands) || 1;
  return Array.from({ length: Math.min(bands, 16) }, (_, i) => `${i}:${hash.slice(i * size, i === bands - 1 ? 16 : (i + 1) * size)}`);
}
