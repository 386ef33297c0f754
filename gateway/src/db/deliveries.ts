import { sql } from 'kysely';
import type { Db, Dialect, Trx } from './types.js';

// The notification worker's queries (decision 044): the outbox's events fanned out to list lines and
// deliveries, deliveries claimed under a lease, and each outcome recorded. Instants are ISO text.

/** A delivery claimed for sending, counted as one more attempt. */
export interface Claimed {
  id: number;
  notification_id: number;
  user_id: number;
  channel: string;
  subscription_id: number;
  attempts: number;
}

/** A new outbox event, as the fan-out reads it. */
export interface OutboxRow {
  id: number;
  kind: string;
  tournament_id: number;
  audience: string;
  data: string;
}

export interface NewLine {
  user_id: number;
  event_id: number;
  tournament_id: number;
  kind: string;
  title: string;
  body: string;
  link: string;
  created_at: string;
}

export interface NewDelivery {
  notification_id: number;
  event_id: number;
  user_id: number;
  tournament_id: number;
  channel: string;
  subscription_id: number;
  next_attempt_at: string;
  created_at: string;
}

export const chunks = <T>(items: T[], size: number) =>
  Array.from({ length: Math.ceil(items.length / size) }, (_, i) => items.slice(i * size, (i + 1) * size));

/** Runs a query per slice of ids (SQLite's limit on bound values), concatenating the rows. */
export async function inChunks<T>(ids: number[], query: (ids: number[]) => Promise<T[]>): Promise<T[]> {
  if (ids.length === 0) return [];
  const parts = await Promise.all(chunks(ids, 500).map(query));
  return parts.flat();
}

/** Matches with a room set, of tournaments not deleted whose dates come near the window [from, until] (ISO). */
export function matchesWithRooms(db: Db, from: string, until: string) {
  return db
    .selectFrom('matches as m')
    .innerJoin('tournaments as t', 't.id', 'm.tournament_id')
    .leftJoin('stage_groups as g', 'g.id', 'm.group_id')
    .leftJoin('stages as s', 's.id', 'g.stage_id')
    .select([
      'm.id',
      'm.tournament_id',
      'm.day',
      'm.match_no',
      'm.time',
      'm.group_id',
      't.start_date',
      't.entry_fee',
      'g.name as group_name',
      's.state',
    ])
    .where('t.deleted_at', 'is', null)
    .where('m.room_id', '<>', '')
    .where('t.end_date', '>=', from)
    .where('t.start_date', '<=', until)
    .execute();
}

/** Which of these dedupe keys the outbox already holds. */
export async function takenDedupeKeys(db: Db, keys: string[]): Promise<Set<string | null>> {
  const rows = await db.selectFrom('notification_events').select('dedupe_key').where('dedupe_key', 'in', keys).execute();
  return new Set(rows.map((r) => r.dedupe_key));
}

/** A read first: an idle round takes no write lock. */
export async function hasNewEvents(db: Db): Promise<boolean> {
  const any = await db.selectFrom('notification_events').select('id').where('fanned_out_at', 'is', null).limit(1).executeTakeFirst();
  return any !== undefined;
}

/** The oldest events not fanned out yet; on PostgreSQL locked, skipping those another process holds. */
export function takeNewEvents(trx: Trx, dialect: Dialect, limit: number): Promise<OutboxRow[]> {
  let query = trx.selectFrom('notification_events').selectAll().where('fanned_out_at', 'is', null).orderBy('id').limit(limit);
  if (dialect === 'postgres') query = query.forUpdate().skipLocked();
  return query.execute();
}

export async function markFannedOut(trx: Trx, eventIds: number[], at: string): Promise<void> {
  await trx.updateTable('notification_events').set({ fanned_out_at: at }).where('id', 'in', eventIds).execute();
}

export function tournamentName(trx: Trx, tournamentId: number) {
  return trx.selectFrom('tournaments').select(['id', 'name']).where('id', '=', tournamentId).executeTakeFirst();
}

/** Adds list lines; one an event already gave an account stays as it was. Returns the event's lines. */
export async function insertLines(trx: Trx, eventId: number, rows: NewLine[]): Promise<{ id: number; user_id: number }[]> {
  for (const part of chunks(rows, 200)) {
    await trx
      .insertInto('notifications')
      .values(part)
      .onConflict((oc) => oc.columns(['event_id', 'user_id']).doNothing())
      .execute();
  }
  return trx.selectFrom('notifications').select(['id', 'user_id']).where('event_id', '=', eventId).execute();
}

/** The accounts' push subscriptions, newest first. */
export function subscriptionsOf(trx: Trx, userIds: number[]): Promise<{ id: number; user_id: number }[]> {
  return inChunks(userIds, (ids) =>
    trx
      .selectFrom('push_subscriptions')
      .select(['id', 'user_id'])
      .where('user_id', 'in', ids)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .execute(),
  );
}

/** Adds deliveries; one already there for the same event, account, channel and subscription stays. */
export async function insertDeliveries(trx: Trx, rows: NewDelivery[]): Promise<void> {
  for (const part of chunks(rows, 200)) {
    await trx
      .insertInto('notification_deliveries')
      .values(part)
      .onConflict((oc) => oc.columns(['event_id', 'user_id', 'channel', 'subscription_id']).doNothing())
      .execute();
  }
}

/** A read first: true when some pending delivery is due at `at` and not leased. */
export async function hasDueDelivery(db: Db, at: string): Promise<boolean> {
  const due = await db
    .selectFrom('notification_deliveries')
    .select('id')
    .where('state', '=', 'pending')
    .where('next_attempt_at', '<=', at)
    .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<=', at)]))
    .limit(1)
    .executeTakeFirst();
  return due !== undefined;
}

/** Leases up to limit deliveries due at `at` until leaseUntil, each claim counting as an attempt. */
export async function claimDue(trx: Trx, dialect: Dialect, { at, leaseUntil, limit }: { at: string; leaseUntil: string; limit: number }) {
  const skipLocked = dialect === 'postgres' ? sql`for update skip locked` : sql``;
  const { rows } = await sql<Claimed>`
    update notification_deliveries set lease_until = ${leaseUntil}, attempts = attempts + 1
    where id in (
      select id from notification_deliveries
      where state = 'pending' and next_attempt_at <= ${at} and (lease_until is null or lease_until <= ${at})
      order by id limit ${limit} ${skipLocked}
    )
    returning id, notification_id, user_id, channel, subscription_id, attempts`.execute(trx);
  return rows.map((r) => ({
    id: Number(r.id),
    notification_id: Number(r.notification_id),
    user_id: Number(r.user_id),
    channel: r.channel,
    subscription_id: Number(r.subscription_id),
    attempts: Number(r.attempts),
  }));
}

export type SendingContext = Awaited<ReturnType<typeof sendingContext>>;

/** What the claimed deliveries send: their list lines, accounts and push subscriptions, by id. */
export async function sendingContext(db: Db, claimed: Claimed[]) {
  const notificationIds = [...new Set(claimed.map((c) => c.notification_id))];
  const userIds = [...new Set(claimed.map((c) => c.user_id))];
  const subscriptionIds = [...new Set(claimed.filter((c) => c.channel === 'push').map((c) => c.subscription_id))];
  const [lines, users, subs] = await Promise.all([
    inChunks(notificationIds, (ids) =>
      db.selectFrom('notifications').select(['id', 'kind', 'title', 'body', 'link', 'tournament_id']).where('id', 'in', ids).execute(),
    ),
    inChunks(userIds, (ids) => db.selectFrom('users').select(['id', 'email', 'username']).where('id', 'in', ids).execute()),
    inChunks(subscriptionIds, (ids) =>
      db.selectFrom('push_subscriptions').select(['id', 'endpoint', 'p256dh', 'auth']).where('id', 'in', ids).execute(),
    ),
  ]);
  return {
    lineOf: new Map(lines.map((l) => [Number(l.id), l])),
    userOf: new Map(users.map((u) => [Number(u.id), u])),
    subOf: new Map(subs.map((s) => [Number(s.id), s])),
  };
}

export async function deleteSubscription(db: Db, subscriptionId: number): Promise<void> {
  await db.deleteFrom('push_subscriptions').where('id', '=', subscriptionId).execute();
}

/** The outcomes of one round's sends, recorded on deliveries still pending: sent, failed for good, or due again. */
export async function recordOutcomes(
  trx: Trx,
  outcomes: {
    doneAt: string;
    sent: number[];
    failed: { id: number; error: string }[];
    retried: { id: number; error: string; nextAttemptAt: string }[];
  },
): Promise<void> {
  const { doneAt } = outcomes;
  for (const part of chunks(outcomes.sent, 500)) {
    await trx
      .updateTable('notification_deliveries')
      .set({ state: 'sent', done_at: doneAt, lease_until: null, last_error: null })
      .where('id', 'in', part)
      .where('state', '=', 'pending')
      .execute();
  }
  for (const o of outcomes.failed) {
    await trx
      .updateTable('notification_deliveries')
      .set({ state: 'failed', done_at: doneAt, lease_until: null, last_error: o.error.slice(0, 500) })
      .where('id', '=', o.id)
      .where('state', '=', 'pending')
      .execute();
  }
  for (const o of outcomes.retried) {
    await trx
      .updateTable('notification_deliveries')
      .set({ next_attempt_at: o.nextAttemptAt, lease_until: null, last_error: o.error.slice(0, 500) })
      .where('id', '=', o.id)
      .where('state', '=', 'pending')
      .execute();
  }
}

/** The captains of these registrations, in id order. */
export function captainsOf(trx: Trx, registrationIds: number[]) {
  return inChunks(registrationIds, (ids) =>
    trx.selectFrom('registrations').select(['user_id', 'team_name']).where('id', 'in', ids).orderBy('id').execute(),
  );
}

/** The captains of the teams placed in these groups, by group and slot. */
export function captainsInGroups(trx: Trx, groupIds: number[]) {
  return inChunks(groupIds, (ids) =>
    trx
      .selectFrom('group_slots as gs')
      .innerJoin('stage_groups as g', 'g.id', 'gs.group_id')
      .innerJoin('registrations as r', 'r.id', 'gs.registration_id')
      .select(['r.user_id', 'r.team_name', 'g.name as group_name', 'gs.slot'])
      .where('gs.group_id', 'in', ids)
      .where('r.place', '=', 'placed') // decision 043: a team that left keeps its published slot, not its news
      .orderBy('gs.group_id')
      .orderBy('gs.slot')
      .execute(),
  );
}

/** Every team a completed stage ranked, with its captain and place, best first. */
export function stageRanking(trx: Trx, stageId: number) {
  return trx
    .selectFrom('stage_results as sr')
    .innerJoin('registrations as r', 'r.id', 'sr.registration_id')
    .select(['r.user_id', 'r.team_name', 'r.place', 'sr.stage_rank'])
    .where('sr.stage_id', '=', stageId)
    .orderBy('sr.stage_rank')
    .execute();
}
