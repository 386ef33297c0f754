import { type Db, type Kit } from './kit.js';

// Issue 19: the outbox. A write that a player must hear about records its event here, in its own
// transaction; the notification worker fans it out to the player's list, email and push.
export const key = '011-outbox';

export async function up(db: Db, { id }: Kit): Promise<void> {
  await id(db.schema.createTable('notification_events'))
    .addColumn('kind', 'text', (c: any) => c.notNull())
    .addColumn('tournament_id', 'integer', (c: any) => c.notNull())
    .addColumn('audience', 'text', (c: any) => c.notNull())
    .addColumn('data', 'text', (c: any) => c.notNull())
    .addColumn('dedupe_key', 'text', (c: any) => c.unique())
    .addColumn('created_at', 'text', (c: any) => c.notNull())
    .addColumn('fanned_out_at', 'text')
    .execute();
  await db.schema.createIndex('notification_events_pending').on('notification_events').column('fanned_out_at').execute();
}
