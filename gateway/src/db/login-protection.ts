// Device tokens and failed logins (decision 022). Kept in the database so that every gateway process
// sharing it (issue 11) sees the same lockouts.
import type { Trx } from './index.js';
import { nowIso } from './index.js';

/** The most devices remembered per account; the least recently used go first. */
const MAX_DEVICES_PER_USER = 20;

/** The device (by the hash of its token) if it is live and belongs to this user; marks it used. */
export async function findUserDevice(db: Trx, deviceId: string, userId: number): Promise<string | undefined> {
  const now = nowIso();
  const row = await db
    .selectFrom('login_devices')
    .select('id')
    .where('id', '=', deviceId)
    .where('user_id', '=', userId)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  return row?.id;
}

export async function touchDevice(db: Trx, deviceId: string): Promise<void> {
  await db.updateTable('login_devices').set({ last_used_at: nowIso() }).where('id', '=', deviceId).execute();
}

/** Remembers a new device for the user; drops the user's expired ones and all but the most recent few. */
export async function insertDevice(db: Trx, device: { id: string; userId: number; expiresAt: string }): Promise<void> {
  const now = nowIso();
  await db.insertInto('login_devices').values({ id: device.id, user_id: device.userId, created_at: now, last_used_at: now, expires_at: device.expiresAt }).execute();
  await db.deleteFrom('login_devices').where('user_id', '=', device.userId).where('expires_at', '<=', now).execute();
  const kept = await db
    .selectFrom('login_devices')
    .select('id')
    .where('user_id', '=', device.userId)
    .orderBy('last_used_at', 'desc')
    .orderBy('id')
    .limit(MAX_DEVICES_PER_USER)
    .execute();
  if (kept.length === MAX_DEVICES_PER_USER) {
    await db
      .deleteFrom('login_devices')
      .where('user_id', '=', device.userId)
      .where(
        'id',
        'not in',
        kept.map((r) => r.id),
      )
      .execute();
  }
}

/** Forgets every device of the user (password reset, log out everywhere). */
export async function deleteUserDevices(db: Trx, userId: number): Promise<void> {
  await db.deleteFrom('login_devices').where('user_id', '=', userId).execute();
}

export type FailureKey = { address: string } | { account: string } | { device: string };

/**
 * Until when `key` is refused: when it has `max` or more failures since `since`, the moment the
 * max-th most recent of them leaves the window (ISO string); otherwise undefined. For an account,
 * only failures without a device token count.
 */
export async function lockedUntil(db: Trx, key: FailureKey, max: number, since: string, windowMs: number): Promise<string | undefined> {
  let query = db.selectFrom('login_failures').select('failed_at').where('failed_at', '>', since);
  if ('address' in key) query = query.where('address', '=', key.address);
  else if ('account' in key) query = query.where('account', '=', key.account).where('device_id', 'is', null);
  else query = query.where('device_id', '=', key.device);
  const row = await query
    .orderBy('failed_at', 'desc')
    .limit(1)
    .offset(max - 1)
    .executeTakeFirst();
  return row ? new Date(Date.parse(row.failed_at) + windowMs).toISOString() : undefined;
}

/** Records a failed login and drops failures older than the window. */
export async function recordFailure(db: Trx, failure: { address: string; account: string; deviceId: string | null }, since: string): Promise<void> {
  await db.insertInto('login_failures').values({ address: failure.address, account: failure.account, device_id: failure.deviceId, failed_at: nowIso() }).execute();
  await db.deleteFrom('login_failures').where('failed_at', '<=', since).execute();
}
