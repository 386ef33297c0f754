import { sql } from 'kysely';
import { type Db, type Kit } from './kit.js';

// Issue 19 (decision 044): the site list, the deliveries by email and push, and the push subscriptions.
export const key = '013-notifications';

export async function up(db: Db, { id }: Kit): Promise<void> {
  await id(db.schema.createTable('notifications'))
    .addColumn('user_id', 'integer', (c: any) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('event_id', 'integer', (c: any) => c.notNull())
    .addColumn('tournament_id', 'integer', (c: any) => c.notNull())
    .addColumn('kind', 'text', (c: any) => c.notNull())
    .addColumn('title', 'text', (c: any) => c.notNull())
    .addColumn('body', 'text', (c: any) => c.notNull())
    .addColumn('link', 'text', (c: any) => c.notNull())
    .addColumn('created_at', 'text', (c: any) => c.notNull())
    .addColumn('read_at', 'text')
    .addUniqueConstraint('notifications_once', ['event_id', 'user_id'])
    .execute();
  await db.schema.createIndex('notifications_user').on('notifications').columns(['user_id', 'id']).execute();
  await db.schema.createIndex('notifications_unread').on('notifications').column('user_id').where(sql.ref('read_at'), 'is', null).execute();

  await id(db.schema.createTable('push_subscriptions'))
    .addColumn('user_id', 'integer', (c: any) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('endpoint', 'text', (c: any) => c.notNull().unique())
    .addColumn('p256dh', 'text', (c: any) => c.notNull())
    .addColumn('auth', 'text', (c: any) => c.notNull())
    .addColumn('created_at', 'text', (c: any) => c.notNull())
    .execute();
  await db.schema.createIndex('push_subscriptions_user').on('push_subscriptions').column('user_id').execute();

  // One row per (event, account, channel, subscription): a second fan-out of the same event adds nothing.
  await id(db.schema.createTable('notification_deliveries'))
    .addColumn('notification_id', 'integer', (c: any) => c.notNull().references('notifications.id').onDelete('cascade'))
    .addColumn('event_id', 'integer', (c: any) => c.notNull())
    .addColumn('user_id', 'integer', (c: any) => c.notNull())
    .addColumn('tournament_id', 'integer', (c: any) => c.notNull())
    .addColumn('channel', 'text', (c: any) => c.notNull())
    .addColumn('subscription_id', 'integer', (c: any) => c.notNull().defaultTo(0))
    .addColumn('state', 'text', (c: any) => c.notNull().defaultTo('pending'))
    .addColumn('attempts', 'integer', (c: any) => c.notNull().defaultTo(0))
    .addColumn('next_attempt_at', 'text', (c: any) => c.notNull())
    .addColumn('lease_until', 'text')
    .addColumn('last_error', 'text')
    .addColumn('created_at', 'text', (c: any) => c.notNull())
    .addColumn('done_at', 'text')
    .addUniqueConstraint('notification_deliveries_once', ['event_id', 'user_id', 'channel', 'subscription_id'])
    .execute();
  await db.schema
    .createIndex('notification_deliveries_due')
    .on('notification_deliveries')
    .column('next_attempt_at')
    .where(sql.ref('state'), '=', 'pending')
    .execute();
  await db.schema
    .createIndex('notification_deliveries_failed')
    .on('notification_deliveries')
    .columns(['tournament_id', 'id'])
    .where(sql.ref('state'), '=', 'failed')
    .execute();
}
