import { type Db } from './kit.js';

// Issue 27 (decision 055): each tournament's own payee; null keeps the site's default (UPI_PAYEE_VPA / UPI_PAYEE_NAME).
export const key = '018-tournament-payee';

export async function up(db: Db): Promise<void> {
  await db.schema.alterTable('tournaments').addColumn('payee_upi_id', 'text').execute();
  await db.schema.alterTable('tournaments').addColumn('payee_name', 'text').execute();
}
