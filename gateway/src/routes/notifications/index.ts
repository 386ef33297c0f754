import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { endpoints, NOTIFICATIONS_PAGE_SIZE } from '@custom-room/contract';
import { countAllUnread } from '../../db/notifications.js';
import { badRequest } from '../../lib/errors.js';
import { isPushServiceUrl, NOT_A_PUSH_SERVICE } from '../../lib/push.js';
import { currentUser } from '../../plugins/auth.js';
import {
  failedDeliveries,
  markNotificationsRead,
  notificationsPage,
  subscribePush,
  unsubscribePush,
} from '../../services/notifications.js';

/** Issue 19's notifications (decision 044): the caller's list, its unread count, web push subscriptions, and failed deliveries for the organiser. */
const routes: FastifyPluginAsyncZod = async (app) => {
  app.get(endpoints.listNotifications.url, { schema: endpoints.listNotifications.schema }, async (request, reply) => {
    const page = await notificationsPage(
      app.store.db,
      currentUser(request).id,
      request.query.limit ?? NOTIFICATIONS_PAGE_SIZE,
      request.query.before,
    );
    reply.header('cache-control', 'private, no-store');
    return page;
  });

  app.get(endpoints.unreadCount.url, { schema: endpoints.unreadCount.schema }, async (request, reply) => {
    reply.header('cache-control', 'private, no-store');
    return { unread: await countAllUnread(app.store.db, currentUser(request).id) };
  });

  app.post(endpoints.markNotificationsRead.url, { schema: endpoints.markNotificationsRead.schema }, async (request) =>
    markNotificationsRead(app, currentUser(request).id, request.body.ids),
  );

  app.get(endpoints.pushPublicKey.url, { schema: endpoints.pushPublicKey.schema }, async (_request, reply) => {
    reply.header('cache-control', 'public, max-age=300');
    return { publicKey: app.notifier.vapid.publicKey };
  });

  app.post(endpoints.pushSubscribe.url, { schema: endpoints.pushSubscribe.schema }, async (request, reply) => {
    const user = currentUser(request);
    // The gateway posts to this address: only the browsers' push services, never an address inside our network.
    if (!isPushServiceUrl(request.body.endpoint, { allowLoopbackHttp: app.config.PUSH_ALLOW_HTTP })) {
      throw badRequest('Please check the highlighted fields.', { endpoint: NOT_A_PUSH_SERVICE });
    }
    await subscribePush(app, user.id, request.body);
    return reply.status(201).send({ message: 'Notifications are on for this phone.' });
  });

  app.post(endpoints.pushUnsubscribe.url, { schema: endpoints.pushUnsubscribe.schema }, async (request) => {
    await unsubscribePush(app.store, currentUser(request).id, request.body.endpoint);
    return { message: 'Notifications are off for this phone.' };
  });

  app.get(endpoints.failedDeliveries.url, { schema: endpoints.failedDeliveries.schema }, async (request, reply) => {
    const rows = await failedDeliveries(app.store.db, request.params.id);
    reply.header('cache-control', 'private, no-store');
    return rows;
  });
};

export default routes;
