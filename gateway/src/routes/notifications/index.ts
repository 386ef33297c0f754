import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { isoAt } from '../../lib/clock.js';
import { badRequest, conflict, notFound } from '../../lib/errors.js';
import { currentUser } from '../../plugins/auth.js';
import { isPushServiceUrl, NOT_A_PUSH_SERVICE } from '../../lib/push.js';
import type { Trx } from '../../db/index.js';
import {
  endpoints,
  type FailedDelivery,
  type NotificationChannel,
  type NotificationKind,
  NOTIFICATIONS_PAGE_SIZE,
  PUSH_ENDPOINT_TAKEN,
  PUSH_NOT_ON,
  PUSH_SUBSCRIPTIONS_MAX,
  TOURNAMENT_NOT_FOUND,
} from '@custom-room/contract';

/** The exact unread count (the list's own calls); the nav's count in GET /api/auth/me is capped (countUnread). */
const unreadOf = async (db: Trx, userId: number) =>
  Number(
    (
      await db
        .selectFrom('notifications')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('user_id', '=', userId)
        .where('read_at', 'is', null)
        .executeTakeFirst()
    )?.n ?? 0,
  );

/** Issue 19's notifications (decision 044): the caller's list, its unread count, web push subscriptions, and failed deliveries for the organiser. */
const routes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    endpoints.listNotifications.url,
    { schema: endpoints.listNotifications.schema },
    async (request, reply) => {
      const user = currentUser(request);
      const limit = request.query.limit ?? NOTIFICATIONS_PAGE_SIZE;
      let query = app.store.db
        .selectFrom('notifications')
        .select(['id', 'kind', 'tournament_id', 'title', 'body', 'link', 'created_at', 'read_at'])
        .where('user_id', '=', user.id)
        .orderBy('id', 'desc')
        .limit(limit + 1);
      if (request.query.before) query = query.where('id', '<', request.query.before);
      const [rows, unread] = await Promise.all([query.execute(), unreadOf(app.store.db, user.id)]);
      reply.header('cache-control', 'private, no-store');
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
    },
  );

  app.get(endpoints.unreadCount.url, { schema: endpoints.unreadCount.schema }, async (request, reply) => {
    reply.header('cache-control', 'private, no-store');
    return { unread: await unreadOf(app.store.db, currentUser(request).id) };
  });

  app.post(
    endpoints.markNotificationsRead.url,
    { schema: endpoints.markNotificationsRead.schema },
    async (request) => {
      const user = currentUser(request);
      const ids = request.body.ids;
      const now = isoAt(app.clock.now());
      return app.store.writeTransaction(async (trx) => {
        let update = trx.updateTable('notifications').set({ read_at: now }).where('user_id', '=', user.id).where('read_at', 'is', null);
        if (ids) update = update.where('id', 'in', ids);
        await update.execute();
        return { unread: await unreadOf(trx, user.id) };
      });
    },
  );

  app.get(endpoints.pushPublicKey.url, { schema: endpoints.pushPublicKey.schema }, async (_request, reply) => {
    reply.header('cache-control', 'public, max-age=300');
    return { publicKey: app.notifier.vapid.publicKey };
  });

  app.post(endpoints.pushSubscribe.url, { schema: endpoints.pushSubscribe.schema }, async (request, reply) => {
    const user = currentUser(request);
    const { endpoint, keys } = request.body;
    // The gateway posts to this address: only the browsers' push services, never an address inside our network.
    if (!isPushServiceUrl(endpoint, { allowLoopbackHttp: app.config.PUSH_ALLOW_HTTP })) {
      throw badRequest('Please check the highlighted fields.', { endpoint: NOT_A_PUSH_SERVICE });
    }
    const now = isoAt(app.clock.now());
    await app.store.writeTransaction(async (trx) => {
      const held = await trx.selectFrom('push_subscriptions').select(['id', 'user_id']).where('endpoint', '=', endpoint).executeTakeFirst();
      // Another account's phone stays theirs: moving it would let anyone who learns an endpoint take its pushes.
      if (held && Number(held.user_id) !== user.id) throw conflict(PUSH_ENDPOINT_TAKEN, { endpoint: PUSH_ENDPOINT_TAKEN });
      if (held) {
        await trx
          .updateTable('push_subscriptions')
          .set({ p256dh: keys.p256dh, auth: keys.auth, created_at: now })
          .where('id', '=', held.id)
          .execute();
        return;
      }
      // At most PUSH_SUBSCRIPTIONS_MAX phones per account: the oldest make room for the new one.
      const keep = await trx
        .selectFrom('push_subscriptions')
        .select('id')
        .where('user_id', '=', user.id)
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .limit(PUSH_SUBSCRIPTIONS_MAX - 1)
        .execute();
      let drop = trx.deleteFrom('push_subscriptions').where('user_id', '=', user.id);
      if (keep.length > 0)
        drop = drop.where(
          'id',
          'not in',
          keep.map((k) => k.id),
        );
      await drop.execute();
      // Another account's subscribe of the same endpoint at the same moment (PostgreSQL) loses here, not with a 500.
      const added = await trx
        .insertInto('push_subscriptions')
        .values({ user_id: user.id, endpoint, p256dh: keys.p256dh, auth: keys.auth, created_at: now })
        .onConflict((oc) => oc.column('endpoint').doNothing())
        .returning('id')
        .executeTakeFirst();
      if (!added) throw conflict(PUSH_ENDPOINT_TAKEN, { endpoint: PUSH_ENDPOINT_TAKEN });
    });
    return reply.status(201).send({ message: 'Notifications are on for this phone.' });
  });

  app.post(endpoints.pushUnsubscribe.url, { schema: endpoints.pushUnsubscribe.schema }, async (request) => {
    const user = currentUser(request);
    const removed = await app.store.writeTransaction((trx) =>
      trx.deleteFrom('push_subscriptions').where('user_id', '=', user.id).where('endpoint', '=', request.body.endpoint).executeTakeFirst(),
    );
    // Never "off" when nothing was removed (another account's endpoint, or one never on).
    if (Number(removed.numDeletedRows) === 0) throw notFound(PUSH_NOT_ON);
    return { message: 'Notifications are off for this phone.' };
  });

  app.get(
    endpoints.failedDeliveries.url,
    { schema: endpoints.failedDeliveries.schema },
    async (request, reply) => {
      const tid = request.params.id;
      const tournament = await app.store.db
        .selectFrom('tournaments')
        .select('id')
        .where('id', '=', tid)
        .where('deleted_at', 'is', null)
        .executeTakeFirst();
      if (!tournament) throw notFound(TOURNAMENT_NOT_FOUND);
      const rows = await app.store.db
        .selectFrom('notification_deliveries as d')
        .innerJoin('notifications as n', 'n.id', 'd.notification_id')
        .innerJoin('users as u', 'u.id', 'd.user_id')
        .select(['d.id', 'd.channel', 'n.kind', 'n.title', 'u.username', 'd.attempts', 'd.last_error', 'd.done_at'])
        .where('d.tournament_id', '=', tid)
        .where('d.state', '=', 'failed')
        .orderBy('d.id', 'desc')
        .limit(200)
        .execute();
      reply.header('cache-control', 'private, no-store');
      return rows.map((r): FailedDelivery => ({
        id: Number(r.id),
        channel: r.channel as NotificationChannel,
        kind: r.kind as NotificationKind,
        title: r.title,
        username: r.username,
        attempts: Number(r.attempts),
        error: r.last_error ?? '',
        failedAt: r.done_at ?? '',
      }));
    },
  );
};

export default routes;
