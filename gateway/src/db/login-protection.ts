// Device tokens and failed logins (decision 022). Kept in the database so that every gateway process
// sharing it (issue 11) sees the same lockouts.
import { sql } from 'kysely';
import type { DatabaseHandle } from './index.js';
import { isoAt } from './instant.js';
import type { Trx } from './types.js';

/** The most devices remembered per account; the least recently used go first. */
const MAX_DEVICES_PER_USER = 20;

/** The device (by the hash of its token) if it is live at `at` and belongs to this user. */
export async function findUserDevice(db: Trx, deviceId: string, userId: number, at: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('login_devices')
    .select('id')
    .where('id', '=', deviceId)
    .where('user_id', '=', userId)
    .where('expires_at', '>', at)
    .executeTakeFirst();
  return row?.id;
}

export async function touchDevice(db: Trx, deviceId: string, at: string): Promise<void> {
  await db.updateTable('login_devices').set({ last_used_at: at }).where('id', '=', deviceId).execute();
}

/** Remembers a new device for the user at `at`; drops the user's expired ones and all but the most recent few. */
export async function insertDevice(db: Trx, device: { id: string; userId: number; expiresAt: string }, at: string): Promise<void> {
  await db
    .insertInto('login_devices')
    .values({ id: device.id, user_id: device.userId, created_at: at, last_used_at: at, expires_at: device.expiresAt })
    .execute();
  await db.deleteFrom('login_devices').where('user_id', '=', device.userId).where('expires_at', '<=', at).execute();
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
  return row ? isoAt(Date.parse(row.failed_at) + windowMs) : undefined;
}

export interface Attempt {
  address: string;
  account: string;
  /** The valid device token the attempt carries, if any. */
  deviceId: string | null;
}

/**
 * Checks every limit (failures since window.since) and, when none is reached, reserves the attempt at window.at, in one step that holds across
 * gateway processes (decision 030): a reservation is a failure row written before the password is
 * verified, so attempts in flight count as failures. Returns the reserved row's id (confirmed by
 * keeping it on a wrong password, released on a right one), or until when a limit refuses.
 * SQLite: BEGIN IMMEDIATE takes the database's write lock; PostgreSQL: a transaction-scoped advisory
 * lock per key counted (taken in one order, so two attempts never wait on each other crosswise).
 * Attempts on the same keys first take turns in the process, so a burst from one address waits in
 * memory, not on pooled connections that every other request needs too (as registrations, decision 026).
 */
export async function reserveAttempt(
  store: DatabaseHandle,
  attempt: Attempt,
  limits: [FailureKey, number][],
  window: { since: string; windowMs: number; at: string },
): Promise<{ reserved: number } | { lockedUntil: string }> {
  const { since, windowMs, at } = window;
  // The address too when only the device is counted: every row written carries it, and the address count includes it.
  const keys = [...new Set([...limits.map(([key]) => lockName(key)), lockName({ address: attempt.address })])].sort();
  return inTurn(store, keys, () =>
    store.writeTransaction(async (trx) => {
      if (store.dialect === 'postgres') {
        for (const key of keys) await sql`select pg_advisory_xact_lock(hashtextextended(${key}, 0))`.execute(trx);
      }
      for (const [key, max] of limits) {
        const until = await lockedUntil(trx, key, max, since, windowMs);
        if (until) return { lockedUntil: until };
      }
      const row = await trx
        .insertInto('login_failures')
        .values({ address: attempt.address, account: attempt.account, device_id: attempt.deviceId, failed_at: at })
        .returning('id')
        .executeTakeFirstOrThrow();
      return { reserved: row.id };
    }),
  );
}

/** Per database and key, the end of the latest task queued on it. */
const turnsOf = new WeakMap<DatabaseHandle, Map<string, Promise<void>>>();

/** Runs task once every earlier task on any of these keys has ended (each waits only on earlier ones: no cycle). */
async function inTurn<T>(store: DatabaseHandle, keys: string[], task: () => Promise<T>): Promise<T> {
  let turns = turnsOf.get(store);
  if (!turns) turnsOf.set(store, (turns = new Map()));
  let release!: () => void;
  const done = new Promise<void>((resolve) => (release = resolve));
  const before = keys.map((key) => turns.get(key));
  for (const key of keys) turns.set(key, done);
  try {
    await Promise.all(before);
    return await task();
  } finally {
    release();
    for (const key of keys) if (turns.get(key) === done) turns.delete(key);
  }
}

/** The attempt was right: it was never a failure. */
export async function releaseAttempt(db: Trx, reserved: number): Promise<void> {
  await db.deleteFrom('login_failures').where('id', '=', reserved).execute();
}

/** The attempt was wrong: its reservation stays as the failure; failures older than the window go. */
export async function confirmFailure(db: Trx, since: string): Promise<void> {
  await db.deleteFrom('login_failures').where('failed_at', '<=', since).execute();
}

function lockName(key: FailureKey): string {
  if ('address' in key) return `login-address:${key.address}`;
  if ('account' in key) return `login-account:${key.account}`;
  return `login-device:${key.device}`;
}
