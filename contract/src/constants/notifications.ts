/**
 * What the product tells a player (issue 19). Each kind is one event a write records in the outbox
 * (gateway `notification_events`, in the write's own transaction); a worker turns it into a line of the
 * player's notifications list and, where set up, an email and a web push.
 */
export const NOTIFICATION_KINDS = [
  'payment-verified',
  'payment-rejected',
  'promoted',
  'released',
  'stage-published',
  'room-posted',
  'match-reminder',
  'qualified',
  'eliminated',
  'invited',
  'seated',
  // Issue 27: the last stage's completion tells each team where it finished (never "did not qualify").
  'final-standing',
  // Issue 29: an account invited to a tournament's crew; an organiser's announcement.
  'staff-invited',
  'announcement',
  // Issue 30: a member reported the team's result (to the captain); a report is due; a dispute was resolved.
  'report-filed',
  'report-reminder',
  'dispute-resolved',
  // Issue 31: the organiser recorded the team's refund.
  'refund-recorded',
  // Decision 085: the team won a prize (give the UPI ID to be paid), and its prize was paid.
  'prize-won',
  'prize-paid',
] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];

/** The channels a notification goes out on: the site's list always, email and push when set up. */
export const NOTIFICATION_CHANNELS = ['site', 'email', 'push'] as const;
export type NotificationChannel = (typeof NOTIFICATION_CHANNELS)[number];

/** Lines per page of the notifications list, and the most a caller may ask for. */
export const NOTIFICATIONS_PAGE_SIZE = 20;
export const NOTIFICATIONS_PAGE_MAX = 100;
/** Ids one "mark as read" call may name. */
export const MARK_READ_MAX = 100;
/** The unread count the nav shows at most ("99+" past it). */
export const UNREAD_COUNT_MAX = 99;
/** Phones (push subscriptions) one account keeps at most: a new one past this replaces the oldest (issue 27). */
export const PUSH_SUBSCRIPTIONS_MAX = 10;
/** A push endpoint another account holds: refused, never moved (issue 27). */
export const PUSH_ENDPOINT_TAKEN = 'This phone gets another account’s notifications. Turn them off there first.';
/** An unsubscribe that found nothing of the caller's to remove. */
export const PUSH_NOT_ON = 'Notifications were not on for this phone on your account.';
