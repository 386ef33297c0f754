import type { Trx } from './index.js';

/** Counted no further: the nav shows "99+" past 99, and a capped count stays cheap for a long list. */
export const UNREAD_COUNT_CAP = 100;

/** The account's unread notifications, up to UNREAD_COUNT_CAP (the partial index notifications_unread). */
export async function countUnread(db: Trx, userId: number): Promise<number> {
  const row = await db
    .selectFrom((eb) =>
      eb
        .selectFrom('notifications')
        .select('id')
        .where('user_id', '=', userId)
        .where('read_at', 'is', null)
        .limit(UNREAD_COUNT_CAP)
        .as('u'),
    )
    .select((eb) => eb.fn.countAll().as('n'))
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** The exact unread count (the list's own calls); the nav's count in GET /api/auth/me is capped (countUnread). */
export async function countAllUnread(db: Trx, userId: number): Promise<number> {
  const row = await db
    .selectFrom('notifications')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('user_id', '=', userId)
    .where('read_at', 'is', null)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** A page of the account's notifications, newest first: up to limit + 1 (the extra one says there are more). */
export function listNotificationsPage(db: Trx, userId: number, limit: number, before?: number) {
  let query = db
    .selectFrom('notifications')
    .select(['id', 'kind', 'tournament_id', 'title', 'body', 'link', 'created_at', 'read_at'])
    .where('user_id', '=', userId)
    .orderBy('id', 'desc')
    .limit(limit + 1);
  if (before) query = query.where('id', '<', before);
  return query.execute();
}

/** Marks the account's unread notifications (those among ids, or all) read at `at`. */
export async function markRead(db: Trx, userId: number, at: string, ids?: readonly number[]): Promise<void> {
  let update = db.updateTable('notifications').set({ read_at: at }).where('user_id', '=', userId).where('read_at', 'is', null);
  if (ids) update = update.where('id', 'in', ids);
  await update.execute();
}

/** The push subscription of this endpoint, whichever account holds it. */
export function findPushSubscription(db: Trx, endpoint: string) {
  return db.selectFrom('push_subscriptions').select(['id', 'user_id']).where('endpoint', '=', endpoint).executeTakeFirst();
}

/** New keys for a subscription the account holds already; it counts as new from `at`. */
export async function renewPushSubscription(db: Trx, id: number, keys: { p256dh: string; auth: string }, at: string): Promise<void> {
  await db.updateTable('push_subscriptions').set({ p256dh: keys.p256dh, auth: keys.auth, created_at: at }).where('id', '=', id).execute();
}

/** Deletes the account's subscriptions but its newest `keep`. */
export async function keepNewestPushSubscriptions(db: Trx, userId: number, keep: number): Promise<void> {
  const kept = await db
    .selectFrom('push_subscriptions')
    .select('id')
    .where('user_id', '=', userId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(keep)
    .execute();
  let drop = db.deleteFrom('push_subscriptions').where('user_id', '=', userId);
  if (kept.length > 0)
    drop = drop.where(
      'id',
      'not in',
      kept.map((k) => k.id),
    );
  await drop.execute();
}

/** Adds the subscription; false when another account took the endpoint meanwhile (PostgreSQL), instead of a 500. */
export async function insertPushSubscription(
  db: Trx,
  userId: number,
  subscription: { endpoint: string; keys: { p256dh: string; auth: string } },
  at: string,
): Promise<boolean> {
  const { endpoint, keys } = subscription;
  const added = await db
    .insertInto('push_subscriptions')
    .values({ user_id: userId, endpoint, p256dh: keys.p256dh, auth: keys.auth, created_at: at })
    .onConflict((oc) => oc.column('endpoint').doNothing())
    .returning('id')
    .executeTakeFirst();
  return !!added;
}

/** Deletes the account's subscription of this endpoint; false when it held none. */
export async function deletePushSubscription(db: Trx, userId: number, endpoint: string): Promise<boolean> {
  const removed = await db
    .deleteFrom('push_subscriptions')
    .where('user_id', '=', userId)
    .where('endpoint', '=', endpoint)
    .executeTakeFirst();
  return Number(removed.numDeletedRows) > 0;
}

/** The tournament's failed deliveries, newest first (at most 200), with what the organiser needs to follow up. */
export function listFailedDeliveries(db: Trx, tournamentId: number) {
  return db
    .selectFrom('notification_deliveries as d')
    .innerJoin('notifications as n', 'n.id', 'd.notification_id')
    .innerJoin('users as u', 'u.id', 'd.user_id')
    .select(['d.id', 'd.channel', 'n.kind', 'n.title', 'u.username', 'd.attempts', 'd.last_error', 'd.done_at'])
    .where('d.tournament_id', '=', tournamentId)
    .where('d.state', '=', 'failed')
    .orderBy('d.id', 'desc')
    .limit(200)
    .execute();
}
