import type { NotificationChannel } from '@custom-room/contract/constants';

/**
 * Failed deliveries in the organiser's words (decision 044). The gateway records the technical reason
 * (its worker's and the push sender's messages); the page leads with what happened and keeps the reason
 * beside it for anyone who has to fix the mail server.
 */

const CHANNEL_WORDS: Record<NotificationChannel, string> = { site: 'On the site', email: 'Email', push: 'Phone notification' };

export const channelWords = (channel: NotificationChannel) => CHANNEL_WORDS[channel] ?? channel;

const REASONS: [RegExp, string][] = [
  [/^Mail not sent:/, 'The mail server did not accept the email, five times over.'],
  [/^SMTP_URL is not set/, 'Email is not set up on the server (SMTP_URL).'],
  [/^Push service answered (404|410)\b/, 'The phone has turned notifications off (its push service no longer knows it).'],
  [/^Push service answered/, 'The phone’s push service refused the notification, five times over.'],
  [/^Push service not reached/, 'The phone’s push service could not be reached, five times over.'],
  [/^The subscription's keys are not valid/, 'The phone’s subscription was not valid, so nothing could be sent to it.'],
  [/^The phone turned notifications off/, 'The phone turned notifications off before it was sent.'],
  [/^The account is gone/, 'The player’s account no longer exists.'],
  [/^The notification is gone/, 'The notification no longer exists.'],
];

/** What went wrong, in words; an unknown reason is shown as the gateway wrote it. */
export function deliveryErrorWords(error: string): string {
  if (!error) return 'No reason was recorded.';
  return REASONS.find(([pattern]) => pattern.test(error))?.[1] ?? error;
}
