import type { Db, Kit } from './kit.js';

// Issue 31 (decision 084): a tournament's prize table, an amount per final rank and special prizes.
export const key = '025-prizes';

export async function up(db: Db, { id }: Kit): Promise<void> {
  await id(db.schema.createTable('prizes'))
    .addColumn('tournament_id', 'integer', (c: any) => c.notNull())
    .addColumn('rank', 'integer') // null: a special prize
    .addColumn('label', 'text', (c: any) => c.notNull()) // '' for a rank
    .addColumn('amount_paise', 'bigint', (c: any) => c.notNull())
    .addColumn('sort', 'integer', (c: any) => c.notNull())
    .execute();
  await db.schema.createIndex('prizes_tournament').on('prizes').column('tournament_id').execute();
}
