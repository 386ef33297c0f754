import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction, data, redirect } from '@remix-run/node';
import { Form, Link, useFetcher, useLoaderData } from '@remix-run/react';
import { useEffect, useRef, useState } from 'react';
import { PushSubscribeBodySchema } from '@custom-room/contract';
import { GeneralErrorBoundary } from '~/components/error-page';
import { SubmitButton } from '~/components/ui/submit-button';
import { getEnv } from '~/utils/env.server';
import { pageError } from '~/utils/errors.server';
import { formatDateTime } from '~/utils/format';
import { gateway, GatewayError } from '~/utils/gateway.server';
import { applicationServerKey, NOTIFY_INTENTS } from '~/utils/notifications';
import { requireUser } from '~/utils/session.server';
import '~/styles/player.css';

export const meta: MetaFunction = () => [
  { title: 'Notifications | Custom Room' },
  { name: 'description', content: 'What changed for your teams: payments, places, groups, rooms and results.' },
];

const positiveId = (value: string | null) => (value && /^\d{1,10}$/.test(value) && Number(value) > 0 ? Number(value) : undefined);

export async function loader({ request }: LoaderFunctionArgs) {
  await requireUser(request);
  const before = positiveId(new URL(request.url).searchParams.get('before'));
  const timeZone = getEnv().APP_TIME_ZONE;
  try {
    const [page, key] = await Promise.all([
      gateway.listNotifications(request, before),
      // Only the push button needs it: without it the button stays hidden.
      gateway.pushPublicKey(request).catch(() => null),
    ]);
    return data(
      {
        items: page.items.map((n) => ({
          id: n.id,
          title: n.title,
          body: n.body,
          link: n.link,
          read: n.read,
          when: formatDateTime(n.createdAt, timeZone),
        })),
        nextBefore: page.nextBefore,
        unread: page.unread,
        older: before !== undefined,
        publicKey: key?.publicKey ?? null,
      },
      { headers: { 'Cache-Control': 'private, no-store' } },
    );
  } catch (err) {
    pageError(err);
  }
}

export async function action({ request }: ActionFunctionArgs) {
  await requireUser(request);
  const form = await request.formData();
  const intent = form.get('intent');
  const back = new URL(request.url).search ? `/notifications${new URL(request.url).search}` : '/notifications';
  try {
    if (intent === NOTIFY_INTENTS.read) {
      const id = positiveId(String(form.get('id') ?? ''));
      if (id) await gateway.markNotificationsRead(request, [id]);
      return redirect(back, 303);
    }
    if (intent === NOTIFY_INTENTS.readAll) {
      await gateway.markNotificationsRead(request);
      return redirect(back, 303);
    }
    if (intent === NOTIFY_INTENTS.pushOn) {
      let parsed: unknown;
      try {
        parsed = JSON.parse(String(form.get('subscription') ?? ''));
      } catch {
        parsed = null;
      }
      const body = PushSubscribeBodySchema.safeParse(parsed);
      if (!body.success) return data({ push: 'error' as const }, { status: 400 });
      await gateway.pushSubscribe(request, body.data);
      return { push: 'on' as const };
    }
    if (intent === NOTIFY_INTENTS.pushOff) {
      await gateway.pushUnsubscribe(request, String(form.get('endpoint') ?? ''));
      return { push: 'off' as const };
    }
  } catch (err) {
    // This browser's endpoint is another account's (a shared phone): the page asks the browser for a new one.
    if (err instanceof GatewayError && err.status === 409 && intent === NOTIFY_INTENTS.pushOn) {
      return data({ push: 'taken' as const }, { status: 409 });
    }
    if (err instanceof GatewayError && !err.unavailable && (intent === NOTIFY_INTENTS.pushOn || intent === NOTIFY_INTENTS.pushOff)) {
      return data({ push: 'error' as const }, { status: err.status });
    }
    pageError(err);
  }
  return redirect(back, 303);
}

export default function Notifications() {
  const { items, nextBefore, unread, older, publicKey } = useLoaderData<typeof loader>();
  return (
    <section className="player-page notifications-page" aria-labelledby="notifications-title">
      <h1 id="notifications-title">Notifications</h1>
      <div className="notifications-actions">
        <p>{unread === 0 ? 'All read.' : `${unread} unread.`}</p>
        {unread > 0 ? (
          <Form method="post">
            <input type="hidden" name="intent" value={NOTIFY_INTENTS.readAll} />
            <SubmitButton className="button button-secondary" pendingLabel="Marking…">
              Mark all as read
            </SubmitButton>
          </Form>
        ) : null}
      </div>
      {publicKey ? <PushButton publicKey={publicKey} /> : null}
      {items.length === 0 ? (
        <p className="notice">
          {older ? 'No older notifications.' : 'Nothing yet. We will tell you here when your payment, group or room changes.'}
        </p>
      ) : (
        <ol className="notification-list">
          {items.map((n) => (
            <li key={n.id} className={n.read ? 'notification' : 'notification notification-unread'}>
              <article aria-labelledby={`n-${n.id}`}>
                <h2 id={`n-${n.id}`}>
                  {n.read ? null : <span className="visually-hidden">Unread: </span>}
                  {n.title}
                </h2>
                <p>{n.body}</p>
                {/* A div, not a p: a form inside a p is closed by the HTML parser, and hydration then fails (React #418). */}
                <div className="notification-meta">
                  <span>{n.when}</span>
                  <Link to={n.link} className="notification-link">
                    Open
                  </Link>
                  {n.read ? null : (
                    <Form method="post" className="notification-read">
                      <input type="hidden" name="intent" value={NOTIFY_INTENTS.read} />
                      <input type="hidden" name="id" value={n.id} />
                      <button type="submit" aria-describedby={`n-${n.id}`}>
                        Mark as read
                      </button>
                    </Form>
                  )}
                </div>
              </article>
            </li>
          ))}
        </ol>
      )}
      {nextBefore ? (
        <p>
          <Link className="button button-secondary" to={`/notifications?before=${nextBefore}`}>
            Older notifications
          </Link>
        </p>
      ) : null}
      {older ? (
        <p>
          <Link to="/notifications">Newest notifications</Link>
        </p>
      ) : null}
    </section>
  );
}

type PushState = 'unsupported' | 'off' | 'on' | 'busy' | 'blocked' | 'failed';

/**
 * "Notify me on this phone" (progressive enhancement): rendered only once JavaScript runs in a browser
 * with service workers and the Push API. The subscription goes to this page's action, which hands it to
 * the gateway; the service worker (/notify-sw.js) shows each push.
 */
function PushButton({ publicKey }: { publicKey: string }) {
  const [state, setState] = useState<PushState>('unsupported');
  const fetcher = useFetcher<{ push: 'on' | 'off' | 'error' | 'taken' }>();
  const renewed = useRef(false);
  useEffect(() => {
    if (!('serviceWorker' in navigator) || !('PushManager' in window) || !('Notification' in window)) return;
    if (Notification.permission === 'denied') return setState('blocked');
    navigator.serviceWorker
      .getRegistration('/')
      .then((reg) => reg?.pushManager.getSubscription())
      .then((sub) => setState(sub ? 'on' : 'off'))
      .catch(() => setState('off'));
  }, []);
  useEffect(() => {
    if (fetcher.data?.push === 'error') setState('failed');
    // Once: drop the browser's subscription that another account holds and send a new one.
    if (fetcher.data?.push === 'taken') {
      if (renewed.current) setState('failed');
      else {
        renewed.current = true;
        void turnOn(true);
      }
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [fetcher.data]);
  if (state === 'unsupported') return null;

  async function turnOn(renew = false) {
    setState('busy');
    try {
      if ((await Notification.requestPermission()) !== 'granted') return setState('blocked');
      const reg = await navigator.serviceWorker.register('/notify-sw.js', { scope: '/' });
      await navigator.serviceWorker.ready;
      if (renew) await (await reg.pushManager.getSubscription())?.unsubscribe();
      const sub =
        (await reg.pushManager.getSubscription()) ??
        (await reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: applicationServerKey(publicKey) }));
      fetcher.submit({ intent: NOTIFY_INTENTS.pushOn, subscription: JSON.stringify(sub) }, { method: 'post' });
      setState('on');
    } catch {
      setState('failed');
    }
  }
  async function turnOff() {
    setState('busy');
    try {
      const reg = await navigator.serviceWorker.getRegistration('/');
      const sub = await reg?.pushManager.getSubscription();
      if (sub) {
        fetcher.submit({ intent: NOTIFY_INTENTS.pushOff, endpoint: sub.endpoint }, { method: 'post' });
        await sub.unsubscribe();
      }
      setState('off');
    } catch {
      setState('failed');
    }
  }

  return (
    <div className="push-box">
      {state === 'on' ? (
        <>
          <p>This phone gets your notifications.</p>
          <button type="button" className="button button-secondary" onClick={turnOff}>
            Stop notifications on this phone
          </button>
        </>
      ) : state === 'blocked' ? (
        <p>Notifications are blocked for this site. Allow them in the browser’s site settings to get them on this phone.</p>
      ) : (
        <>
          <button
            type="button"
            className="button"
            onClick={() => turnOn()}
            disabled={state === 'busy'}
            aria-busy={state === 'busy' || undefined}
          >
            Notify me on this phone
          </button>
          {state === 'failed' ? (
            <p role="alert" className="push-error">
              Could not turn on notifications. Please try again.
            </p>
          ) : null}
        </>
      )}
    </div>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
