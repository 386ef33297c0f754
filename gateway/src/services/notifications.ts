import {
  type FailedDelivery,
  type NotificationChannel,
  type NotificationKind,
  PUSH_ENDPOINT_TAKEN,
  PUSH_NOT_ON,
  PUSH_SUBSCRIPTIONS_MAX,
} from '@custom-room/contract';
import type { DatabaseHandle, Trx } from '../db/index.js';
import {
  countAllUnread,
  deletePushSubscription,
  findPushSubscription,
  insertPushSubscription,
  keepNewestPushSubscriptions,
  listFailedDeliveries,
  listNotificationsPage,
  markRead,
  renewPushSubscription,
} from '../db/notifications.js';
import { isoAt } from '../lib/clock.js';
import { conflict, notFound } from '../lib/errors.js';
import type { ServiceDeps } from './deps.js';
import { liveTournamentOr404 } from './live-tournament.js';

/** Issue 19's notifications (decision 044): the caller's list, its unread count, web push subscriptions, failed deliveries. */

/** A page of the account's notifications (before an id, or the newest) and its unread count. */
export async function notificationsPage(db: Trx, userId: number, limit: number, before?: number) {
  const [rows, unread] = await Promise.all([listNotificationsPage(db, userId, limit, before), countAllUnread(db, userId)]);
  const items = rows.slice(0, limit).map((r) => ({
    id: Number(r.id),
    kind: r.kind as NotificationKind,
    tournamentId: Number(r.tournament_id),
    title: r.title,
    body: r.body,
    link: r.link,
    createdAt: r.created_at,
    read: r.read_at !== null,
  }));
  return { items, nextBefore: rows.length > limit ? items.at(-1)!.id : null, unread };
}

/** Marks the account's notifications (those among ids, or all) read now; the unread count left. */
export function markNotificationsRead({ store, clock }: ServiceDeps, userId: number, ids?: number[]) {
  const at = isoAt(clock.now());
  return store.writeTransaction(async (trx) => {
    await markRead(trx, userId, at, ids);
    return { unread: await countAllUnread(trx, userId) };
  });
}

/** Turns push on for one phone of the account: at most PUSH_SUBSCRIPTIONS_MAX, the oldest make room. */
export async function subscribePush(
  { store, clock }: ServiceDeps,
  userId: number,
  subscription: { endpoint: string; keys: { p256dh: string; auth: string } },
) {
  const at = isoAt(clock.now());
  await store.writeTransaction(async (trx) => {
    const held = await findPushSubscription(trx, subscription.endpoint);
    // Another account's phone stays theirs: moving it would let anyone who learns an endpoint take its pushes.
    if (held && Number(held.user_id) !== userId) throw conflict(PUSH_ENDPOINT_TAKEN, { endpoint: PUSH_ENDPOINT_TAKEN });
    if (held) return renewPushSubscription(trx, held.id, subscription.keys, at);
    await keepNewestPushSubscriptions(trx, userId, PUSH_SUBSCRIPTIONS_MAX - 1);
    // Another account's subscribe of the same endpoint at the same moment (PostgreSQL) loses here, not with a 500.
    if (!(await insertPushSubscription(trx, userId, subscription, at))) {
      throw conflict(PUSH_ENDPOINT_TAKEN, { endpoint: PUSH_ENDPOINT_TAKEN });
    }
  });
}

/** Turns push off for one phone of the account; 404 when it was not on (never "off" for another account's endpoint). */
export async function unsubscribePush(store: DatabaseHandle, userId: number, endpoint: string) {
  const removed = await store.writeTransaction((trx) => deletePushSubscription(trx, userId, endpoint));
  if (!removed) throw notFound(PUSH_NOT_ON);
}

/** The failed deliveries of a live tournament, for its organiser. */
export async function failedDeliveries(db: Trx, tournamentId: number): Promise<FailedDelivery[]> {
  await liveTournamentOr404(db, tournamentId);
  const rows = await listFailedDeliveries(db, tournamentId);
  return rows.map((r) => ({
    id: Number(r.id),
    channel: r.channel as NotificationChannel,
    kind: r.kind as NotificationKind,
    title: r.title,
    username: r.username,
    attempts: Number(r.attempts),
    error: r.last_error ?? '',
    failedAt: r.done_at ?? '',
  }));
}
