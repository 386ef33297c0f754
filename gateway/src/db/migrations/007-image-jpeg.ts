import { type Db, type Kit } from './kit.js';

// Decision 032: the JPEG of each cover for link previews, made once (at upload, or on its first
// request for covers stored before) and shared by every gateway process.
export const key = '007-image-jpeg';

export async function up(db: Db, { blob }: Kit): Promise<void> {
  await db.schema
    .createTable('image_jpegs')
    .ifNotExists()
    .addColumn('id', 'text', (c) => c.primaryKey()) // the cover's id (images.id)
    .addColumn('width', 'integer', (c) => c.notNull())
    .addColumn('height', 'integer', (c) => c.notNull())
    .addColumn('data', blob, (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
}
