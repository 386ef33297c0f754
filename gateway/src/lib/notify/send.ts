import type { Config } from '../../config.js';
import { deleteSubscription, type Claimed, type SendingContext } from '../../db/deliveries.js';
import type { Db } from '../../db/types.js';
import type { Mailer } from '../mailer.js';
import { isPushServiceUrl, type PushSender } from '../push.js';

export interface SendOutcome {
  c: Claimed;
  ok: boolean;
  /** No retry: sent, or failed for a reason a retry cannot mend. */
  final: boolean;
  error?: string;
}

/** Sends one claimed delivery by email or push, off any transaction; a push service that says "gone" drops the subscription. */
export async function sendOne(
  c: Claimed,
  { db, config, mailer, push, context }: { db: Db; config: Config; mailer: Mailer | undefined; push: PushSender; context: SendingContext },
): Promise<SendOutcome> {
  const line = context.lineOf.get(c.notification_id);
  if (!line) return { c, ok: false, final: true, error: 'The notification is gone.' };
  const link = `${config.WEB_URL.replace(/\/$/, '')}${line.link}`;
  if (c.channel === 'email') {
    const user = context.userOf.get(c.user_id);
    if (!mailer || !user) return { c, ok: false, final: true, error: !user ? 'The account is gone.' : 'SMTP_URL is not set.' };
    try {
      await mailer.send({ to: user.email, subject: line.title, text: `${line.body}\n\n${link}\n\nCustom Room` });
      return { c, ok: true, final: true };
    } catch (err) {
      return { c, ok: false, final: false, error: `Mail not sent: ${(err as Error).message}` };
    }
  }
  const sub = context.subOf.get(c.subscription_id);
  if (!sub) return { c, ok: false, final: true, error: 'The phone turned notifications off.' };
  // Stored before the gateway checked the host (decision 044): never posted to, dropped.
  if (!isPushServiceUrl(sub.endpoint, { allowLoopbackHttp: config.PUSH_ALLOW_HTTP })) {
    await deleteSubscription(db, Number(sub.id));
    return { c, ok: false, final: true, error: 'Not a browser push service: the subscription was dropped.' };
  }
  const payload = JSON.stringify({ title: line.title, body: line.body, url: link, tag: `n${line.id}` });
  const outcome = await push.send(sub, payload, { ttlSeconds: 6 * 60 * 60, timeoutMs: 10_000 });
  if (outcome.ok) return { c, ok: true, final: true };
  if (outcome.gone) await deleteSubscription(db, Number(sub.id));
  return { c, ok: false, final: outcome.gone, error: outcome.error };
}
