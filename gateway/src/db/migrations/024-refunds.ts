import type { Db } from './kit.js';

// Issue 31 (decision 082): a paid team that withdrew, was removed, or whose tournament was cancelled is
// refunded outside the site; the organiser records the refund's UTR and the team sees it.
export const key = '024-refunds';

export async function up(db: Db): Promise<void> {
  await db.schema
    .createTable('refunds')
    .addColumn('registration_id', 'integer', (c: any) => c.primaryKey())
    .addColumn('tournament_id', 'integer', (c: any) => c.notNull())
    .addColumn('amount_paise', 'bigint', (c: any) => c.notNull())
    .addColumn('utr', 'text', (c: any) => c.notNull())
    .addColumn('recorded_by', 'integer', (c: any) => c.notNull())
    .addColumn('recorded_by_name', 'text', (c: any) => c.notNull())
    .addColumn('recorded_at', 'text', (c: any) => c.notNull())
    .execute();
  await db.schema.createIndex('refunds_tournament').on('refunds').column('tournament_id').execute();
}
