import { z } from 'zod';
import { MARK_READ_MAX, NOTIFICATION_CHANNELS, NOTIFICATION_KINDS, NOTIFICATIONS_PAGE_MAX } from '../constants.js';
import { IdSchema } from './common.js';

/** A line of the caller's notifications list (decision 044). No room ID or password, ever: link leads to the room card. */
export const NotificationSchema = z.object({
  id: z.number().int(),
  kind: z.enum(NOTIFICATION_KINDS),
  tournamentId: z.number().int(),
  title: z.string(),
  body: z.string(),
  /** A path of the web app. */
  link: z.string(),
  createdAt: z.string(),
  read: z.boolean(),
});
export type Notification = z.infer<typeof NotificationSchema>;

export const NotificationListQuerySchema = z.object({
  before: IdSchema.optional().describe('Lines older than this id (the previous page\'s "nextBefore").'),
  limit: z.coerce
    .number({ invalid_type_error: 'Must be a whole number.' })
    .int('Must be a whole number.')
    .min(1, 'Must be at least 1.')
    .max(NOTIFICATIONS_PAGE_MAX, `Must be at most ${NOTIFICATIONS_PAGE_MAX}.`)
    .optional(),
});

export const NotificationListSchema = z.object({
  items: z.array(NotificationSchema),
  /** Pass as before for the next (older) page; null on the last page. */
  nextBefore: z.number().int().nullable(),
  unread: z.number().int(),
});
export type NotificationList = z.infer<typeof NotificationListSchema>;

export const UnreadCountSchema = z.object({ unread: z.number().int() });

export const MarkReadBodySchema = z
  .object({
    ids: z
      .array(IdSchema, { invalid_type_error: 'Must be a list of notification ids.' })
      .min(1, 'Name at least one notification, or leave ids out to mark all.')
      .max(MARK_READ_MAX, `At most ${MARK_READ_MAX} at a time.`)
      .optional()
      .describe('Left out: every notification of the caller.'),
  })
  .strict();

/** A browser's PushSubscription as JSON (PushSubscription.toJSON()). */
export const PushSubscribeBodySchema = z.object({
  endpoint: z.string({ required_error: 'Required.' }).url('Must be the push service URL the browser gave.').max(2000, 'Too long.'),
  keys: z.object(
    {
      p256dh: z
        .string({ required_error: 'Required.' })
        .regex(/^[A-Za-z0-9_-]{80,100}={0,2}$/, 'Must be the browser’s p256dh key (URL-safe base64).'),
      auth: z
        .string({ required_error: 'Required.' })
        .regex(/^[A-Za-z0-9_-]{16,44}={0,2}$/, 'Must be the browser’s auth secret (URL-safe base64).'),
    },
    { required_error: 'Required.' },
  ),
});
export type PushSubscribeBody = z.infer<typeof PushSubscribeBodySchema>;

export const PushUnsubscribeBodySchema = z.object({
  endpoint: z.string({ required_error: 'Required.' }).url('Must be the push service URL the browser gave.').max(2000, 'Too long.'),
});

export const PushPublicKeySchema = z.object({ publicKey: z.string() });

/** A delivery that gave up (admin): who, what, on which channel, and why. */
export const FailedDeliverySchema = z.object({
  id: z.number().int(),
  channel: z.enum(NOTIFICATION_CHANNELS),
  kind: z.enum(NOTIFICATION_KINDS),
  title: z.string(),
  username: z.string(),
  attempts: z.number().int(),
  error: z.string(),
  failedAt: z.string(),
});
export type FailedDelivery = z.infer<typeof FailedDeliverySchema>;
