import { type Db, type Kit } from './kit.js';

// Decision 022: device tokens (a browser that has logged in to the account) and failed logins.
export const key = '003-login-protection';

export async function up(db: Db, { id }: Kit): Promise<void> {
  await db.schema
    .createTable('login_devices')
    .ifNotExists()
    .addColumn('id', 'text', (c) => c.primaryKey()) // SHA-256 of the device token
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('last_used_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('login_devices_user').ifNotExists().on('login_devices').column('user_id').execute();
  await id(db.schema.createTable('login_failures').ifNotExists())
    .addColumn('address', 'text', (c: any) => c.notNull())
    .addColumn('account', 'text', (c: any) => c.notNull()) // user:<id>, or the email/phone asked for when no such account
    .addColumn('device_id', 'text', (c: any) => c) // the valid device token the attempt carried, if any
    .addColumn('failed_at', 'text', (c: any) => c.notNull())
    .execute();
  await db.schema.createIndex('login_failures_account').ifNotExists().on('login_failures').columns(['account', 'failed_at']).execute();
  await db.schema.createIndex('login_failures_address').ifNotExists().on('login_failures').columns(['address', 'failed_at']).execute();
  await db.schema.createIndex('login_failures_device').ifNotExists().on('login_failures').columns(['device_id', 'failed_at']).execute();
  await db.schema.createIndex('login_failures_time').ifNotExists().on('login_failures').column('failed_at').execute();
}
