import type { Trx } from './types.js';

/** Issue 30 (decision 071): screenshots kept once, found again by their perceptual hash's bands. */

export interface StoredScreenshot {
  id: string;
  contentType: string;
  width: number;
  height: number;
  data: Buffer;
  hash: string;
}

/** Keeps a screenshot (nothing when the same bytes are already kept) and its bands. */
export async function storeScreenshot(trx: Trx, shot: StoredScreenshot, bands: readonly string[], at: string): Promise<void> {
  const inserted = await trx
    .insertInto('screenshots')
    .values({
      id: shot.id,
      content_type: shot.contentType,
      width: shot.width,
      height: shot.height,
      data: shot.data,
      hash: shot.hash,
      created_at: at,
    })
    .onConflict((oc) => oc.column('id').doNothing())
    .executeTakeFirst();
  if (Number(inserted.numInsertedOrUpdatedRows ?? 0n) === 0 || bands.length === 0) return;
  await trx
    .insertInto('screenshot_bands')
    .values([...new Set(bands)].map((band) => ({ band, screenshot_id: shot.id })))
    .onConflict((oc) => oc.doNothing())
    .execute();
}

export async function screenshotData(db: Trx, id: string): Promise<{ content_type: string; data: Buffer } | undefined> {
  return db.selectFrom('screenshots').select(['content_type', 'data']).where('id', '=', id).executeTakeFirst();
}

/** The perceptual hashes of these screenshots. */
export async function screenshotHashes(db: Trx, ids: readonly string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const rows = await db.selectFrom('screenshots').select(['id', 'hash']).where('id', 'in', ids).execute();
  return new Map(rows.map((r) => [r.id, r.hash]));
}

/** Screenshots sharing a band with these (the candidates for "the same screenshot"), with their hashes. */
export async function screenshotsSharingBands(db: Trx, bands: readonly string[]): Promise<{ id: string; hash: string }[]> {
  if (bands.length === 0) return [];
  return db
    .selectFrom('screenshots as s')
    .select(['s.id', 's.hash'])
    .where('s.id', 'in', (eb) =>
      eb
        .selectFrom('screenshot_bands')
        .select('screenshot_id')
        .where('band', 'in', [...new Set(bands)]),
    )
    .execute();
}
