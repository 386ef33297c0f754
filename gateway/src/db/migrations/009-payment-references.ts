import { sql } from 'kysely';
import { type Db } from './kit.js';

// Decision 029: a UTR pays for one registration. payment_utr holds it while it is that
// registration's reference and is unique (NULLs never clash). Older data may already share a
// reference: the oldest registration keeps the claim, the others stay NULL (their reference is
// kept and the admin page flags them), so this never fails on such data. The rule is inlined:
// a shipped migration must not change when the form's rules do.
export const key = '009-payment-references';

export async function up(db: Db): Promise<void> {
  await db.schema.alterTable('registrations').addColumn('payment_utr', 'text').execute();
  // One statement, portable to both databases: the old rules allowed only letters and digits, so
  // a reference that is 12 characters, all digits, not one digit repeated, is a UTR as it stands.
  const digitsOnly = '0123456789'.split('').reduce((expr, d) => sql`replace(${expr}, ${sql.lit(d)}, '')`, sql`payment_reference`);
  await sql`
      update registrations set payment_utr = payment_reference
      where id in (
        select min(id) from registrations
        where length(payment_reference) = 12
          and ${digitsOnly} = ''
          and replace(payment_reference, substr(payment_reference, 1, 1), '') <> ''
        group by payment_reference
      )`.execute(db);
  await db.schema.createIndex('registrations_payment_utr').on('registrations').column('payment_utr').unique().execute();
  // "Is this reference on another registration?" and the admin page's flag, without a scan.
  await db.schema.createIndex('registrations_payment_reference').on('registrations').column('payment_reference').execute();
}
