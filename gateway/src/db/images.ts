import type { Trx } from './index.js';
import { nowIso } from './index.js';
import type { ProcessedImage } from '../lib/images.js';

export interface StoredImage {
  id: string;
  width: number;
  height: number;
  content_type: string;
  data: Buffer;
}

/** Stores every variant; idempotent, since ids are content hashes and an identical upload maps to the same rows. */
export async function insertImage(db: Trx, image: ProcessedImage): Promise<void> {
  const createdAt = nowIso();
  await db
    .insertInto('images')
    .values(image.variants.map((v) => ({ id: image.id, width: v.width, height: v.height, content_type: image.contentType, data: v.data, created_at: createdAt })))
    .onConflict((oc) => oc.columns(['id', 'width']).doNothing())
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
