import type { Db, Kit } from './kit.js';

// Issue 31 (decision 081): the organiser uploads the bank's or UPI business app's statement; its credits
// are matched to the teams' UTRs and the matched are verified in one action.
export const key = '023-statements';

export async function up(db: Db, { id, blob }: Kit): Promise<void> {
  // The file is kept (at most 5 MB) so the organiser can pick its columns after the upload, without
  // sending it again; the same bytes uploaded twice to a tournament are the same statement.
  await id(db.schema.createTable('statements'))
    .addColumn('tournament_id', 'integer', (c: any) => c.notNull())
    .addColumn('sha256', 'text', (c: any) => c.notNull())
    .addColumn('file_name', 'text', (c: any) => c.notNull())
    .addColumn('format', 'text', (c: any) => c.notNull()) // csv | xlsx
    .addColumn('data', blob, (c: any) => c.notNull())
    .addColumn('state', 'text', (c: any) => c.notNull()) // read | needs-columns
    .addColumn('headers', 'text', (c: any) => c.notNull()) // JSON string[]
    .addColumn('header_row', 'integer', (c: any) => c.notNull())
    .addColumn('columns', 'text') // JSON ColumnMap once read
    .addColumn('rows', 'integer', (c: any) => c.notNull().defaultTo(0))
    .addColumn('skipped', 'integer', (c: any) => c.notNull().defaultTo(0))
    .addColumn('uploaded_by', 'integer', (c: any) => c.notNull())
    .addColumn('uploaded_by_name', 'text', (c: any) => c.notNull())
    .addColumn('uploaded_at', 'text', (c: any) => c.notNull())
    .addUniqueConstraint('statements_file', ['tournament_id', 'sha256'])
    .execute();

  await db.schema
    .createTable('statement_credits')
    .addColumn('statement_id', 'integer', (c: any) => c.notNull())
    .addColumn('line', 'integer', (c: any) => c.notNull())
    .addColumn('utr', 'text')
    .addColumn('amount_paise', 'bigint', (c: any) => c.notNull())
    .addColumn('date', 'text')
    .addColumn('payer_name', 'text', (c: any) => c.notNull())
    .addColumn('payer_vpa', 'text')
    .addColumn('remarks', 'text', (c: any) => c.notNull())
    .addColumn('registration_hint', 'integer')
    .addPrimaryKeyConstraint('statement_credits_pk', ['statement_id', 'line'])
    .execute();
  await db.schema.createIndex('statement_credits_utr').on('statement_credits').column('utr').execute();

  // The columns an organiser picked for a layout the detection could not read, by the header row's signature.
  await db.schema
    .createTable('statement_layouts')
    .addColumn('organiser_id', 'integer', (c: any) => c.notNull())
    .addColumn('signature', 'text', (c: any) => c.notNull())
    .addColumn('columns', 'text', (c: any) => c.notNull())
    .addColumn('updated_at', 'text', (c: any) => c.notNull())
    .addPrimaryKeyConstraint('statement_layouts_pk', ['organiser_id', 'signature'])
    .execute();

  // Which credit verified a team's payment: its payer for a refund, and the money page's "received".
  await db.schema
    .createTable('statement_verifications')
    .addColumn('registration_id', 'integer', (c: any) => c.primaryKey())
    .addColumn('tournament_id', 'integer', (c: any) => c.notNull())
    .addColumn('statement_id', 'integer', (c: any) => c.notNull())
    .addColumn('line', 'integer', (c: any) => c.notNull())
    .addColumn('verified_by', 'integer', (c: any) => c.notNull())
    .addColumn('verified_at', 'text', (c: any) => c.notNull())
    .execute();
  await db.schema.createIndex('statement_verifications_tournament').on('statement_verifications').column('tournament_id').execute();
}
