import { type Db } from './kit.js';

// Decision 019: every token names a session row, read by primary key on each authenticated call.
export const key = '002-sessions';

export async function up(db: Db): Promise<void> {
  await db.schema
    .createTable('sessions')
    .ifNotExists()
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('sessions_user').ifNotExists().on('sessions').column('user_id').execute();
  await db.schema.createIndex('sessions_expires').ifNotExists().on('sessions').column('expires_at').execute();
}
