import { LOGO_WIDTH } from '@custom-room/contract';
import type { Trx } from './types.js';

/** One stored rendition; rows are keyed by (id, width), so equal widths are stored once. */
export interface ImageVariant {
  /** Real pixels: min(nominal width, original width), since small originals are never enlarged. */
  width: number;
  height: number;
  data: Buffer;
}

export interface ProcessedImage {
  id: string;
  contentType: 'image/webp';
  variants: ImageVariant[];
  /** The largest variant as JPEG, for link previews (WhatsApp does not reliably show WebP). */
  jpeg: ImageVariant;
  /** The largest variant's pixels: what coverImageWidth/Height report. */
  width: number;
  height: number;
}

/** Where the gateway serves an image (routes/images). */
export const imageUrl = (id: string) => `/images/${id}.webp`;

/** An organiser's logo at the width it is shown at (64 CSS pixels, 2× screens): decision 068. */
export const logoUrl = (id: string) => `/images/${id}-${LOGO_WIDTH}.webp`;

export interface StoredImage {
  id: string;
  width: number;
  height: number;
  content_type: string;
  data: Buffer;
}

/** Stores every variant and the JPEG, made at `at`; idempotent, since ids are content hashes and an identical upload maps to the same rows. */
export async function insertImage(db: Trx, image: ProcessedImage, at: string): Promise<void> {
  await db
    .insertInto('images')
    .values(
      image.variants.map((v) => ({
        id: image.id,
        width: v.width,
        height: v.height,
        content_type: image.contentType,
        data: v.data,
        created_at: at,
      })),
    )
    .onConflict((oc) => oc.columns(['id', 'width']).doNothing())
    .execute();
  await insertImageJpeg(db, { id: image.id, ...image.jpeg }, at);
}

export interface StoredJpeg {
  id: string;
  width: number;
  height: number;
  data: Buffer;
}

/** The cover's JPEG, if it was made (at upload, or by an earlier request). */
export async function getImageJpeg(db: Trx, id: string): Promise<StoredJpeg | undefined> {
  const row = await db.selectFrom('image_jpegs').select(['id', 'width', 'height', 'data']).where('id', '=', id).executeTakeFirst();
  return row && { ...row, data: Buffer.isBuffer(row.data) ? row.data : Buffer.from(row.data) };
}

/** Keeps the first JPEG stored for an id: a process that made one at the same moment serves the stored one. at: when (ISO). */
export async function insertImageJpeg(db: Trx, jpeg: StoredJpeg, at: string): Promise<void> {
  await db
    .insertInto('image_jpegs')
    .values({ id: jpeg.id, width: jpeg.width, height: jpeg.height, data: jpeg.data, created_at: at })
    .onConflict((oc) => oc.column('id').doNothing())
    .execute();
}

/**
 * The variant for a nominal width: the largest stored width not above it (a small original
 * has fewer, narrower rows), or the largest of all when no width is given.
 */
export async function getImageVariant(db: Trx, id: string, nominalWidth?: number): Promise<StoredImage | undefined> {
  let query = db.selectFrom('images').select(['id', 'width', 'height', 'content_type', 'data']).where('id', '=', id);
  if (nominalWidth !== undefined) query = query.where('width', '<=', nominalWidth);
  const row = await query.orderBy('width', 'desc').limit(1).executeTakeFirst();
  return row && { ...row, data: Buffer.isBuffer(row.data) ? row.data : Buffer.from(row.data) };
}
