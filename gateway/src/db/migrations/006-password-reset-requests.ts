import { type Db, type Kit } from './kit.js';

// Decision 030: one row per password reset request, for an account or not, so that both cost the same write.
export const key = '006-password-reset-requests';

export async function up(db: Db, { id }: Kit): Promise<void> {
  await id(db.schema.createTable('password_reset_requests').ifNotExists())
    .addColumn('email_hash', 'text', (c: any) => c.notNull()) // SHA-256 of the email asked for, lower-cased
    .addColumn('requested_at', 'text', (c: any) => c.notNull())
    .execute();
  await db.schema.createIndex('password_reset_requests_time').ifNotExists().on('password_reset_requests').column('requested_at').execute();
}
