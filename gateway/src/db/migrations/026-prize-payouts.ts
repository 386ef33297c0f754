import type { Db } from './kit.js';

// Issue 31 (decision 085): prize payouts. The winners' captains give the UPI ID to be paid (and a PAN when
// the organiser asks for one); the organiser names each special prize's winner and records each payout
// with its UTR and the TDS withheld.
export const key = '026-prize-payouts';

export async function up(db: Db): Promise<void> {
  await db.schema
    .createTable('prize_options')
    .addColumn('tournament_id', 'integer', (c: any) => c.primaryKey())
    .addColumn('ask_pan', 'integer', (c: any) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .createTable('prize_awards')
    .addColumn('tournament_id', 'integer', (c: any) => c.notNull())
    .addColumn('label', 'text', (c: any) => c.notNull())
    .addColumn('registration_id', 'integer', (c: any) => c.notNull())
    .addPrimaryKeyConstraint('prize_awards_pk', ['tournament_id', 'label'])
    .execute();
  await db.schema
    .createTable('prize_payees')
    .addColumn('registration_id', 'integer', (c: any) => c.primaryKey())
    .addColumn('tournament_id', 'integer', (c: any) => c.notNull())
    .addColumn('upi_id', 'text', (c: any) => c.notNull())
    .addColumn('pan', 'text')
    .addColumn('given_at', 'text', (c: any) => c.notNull())
    .execute();
  await db.schema.createIndex('prize_payees_tournament').on('prize_payees').column('tournament_id').execute();
  await db.schema
    .createTable('prize_payouts')
    .addColumn('registration_id', 'integer', (c: any) => c.primaryKey())
    .addColumn('tournament_id', 'integer', (c: any) => c.notNull())
    .addColumn('gross_paise', 'bigint', (c: any) => c.notNull())
    .addColumn('tds_paise', 'bigint', (c: any) => c.notNull())
    .addColumn('upi_id', 'text', (c: any) => c.notNull())
    .addColumn('utr', 'text', (c: any) => c.notNull())
    .addColumn('recorded_by', 'integer', (c: any) => c.notNull())
    .addColumn('recorded_by_name', 'text', (c: any) => c.notNull())
    .addColumn('recorded_at', 'text', (c: any) => c.notNull())
    .execute();
  await db.schema.createIndex('prize_payouts_tournament').on('prize_payouts').column('tournament_id').execute();
}
