import type { HeadersFunction, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { Link, useLoaderData } from '@remix-run/react';
import { TOURNAMENT_NOT_FOUND } from '@custom-room/contract/constants';
import { GeneralErrorBoundary } from '~/components/error-page';
import { channelWords, deliveryErrorWords } from '~/utils/deliveries';
import { requireRight } from '~/utils/desk.server';
import { getEnv } from '~/utils/env.server';
import { pageError } from '~/utils/errors.server';
import { formatDateTime } from '~/utils/format';
import { gateway } from '~/utils/gateway.server';
import '~/styles/screens.css';

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: `Failed notifications${data ? `: ${data.t.name}` : ''} | Admin | Custom Room` },
  { name: 'description', content: 'The emails and phone notifications of a tournament that could not be delivered, and why.' },
];

export const headers: HeadersFunction = () => ({ 'Cache-Control': 'private, no-store' });

/** Decision 044's failed deliveries for the organiser: who missed which notice, on which channel, and why. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const { tournamentId: tid } = await requireRight(request, params.tournamentId, 'run');
  const [t, failed] = await Promise.all([gateway.getTournament(request, tid), gateway.failedDeliveries(request, tid)]).catch((err) =>
    pageError(err, TOURNAMENT_NOT_FOUND),
  );
  const timeZone = getEnv().APP_TIME_ZONE;
  return {
    t: { id: t.id, name: t.name },
    failed: failed.map((d) => ({
      id: d.id,
      username: d.username,
      channel: channelWords(d.channel),
      title: d.title,
      when: formatDateTime(d.failedAt, timeZone) || '—',
      attempts: d.attempts,
      error: deliveryErrorWords(d.error),
      detail: d.error,
    })),
  };
}

export default function AdminFailedNotifications() {
  const { t, failed } = useLoaderData<typeof loader>();
  return (
    <section className="ops-page" aria-labelledby="ops-title">
      <p className="crumb">
        <Link to="/admin/tournament-list">Tournament list</Link>
      </p>
      <h1 id="ops-title">Failed notifications</h1>
      <p className="ops-subtitle">
        {t.name}: {failed.length === 0 ? 'none' : failed.length === 1 ? '1 delivery gave up' : `${failed.length} deliveries gave up`}
      </p>
      {failed.length === 0 ? (
        <p className="nothing">Every notification was delivered.</p>
      ) : (
        <>
          <p className="ops-note-text">
            Each one stays in the player’s notifications on the site. Tell the player another way if it matters (the captain’s phone is on
            the <Link to={`/admin/${t.id}/registrations`}>registrations</Link> page).
          </p>
          <ul className="ops-cards ops-deliveries">
            {failed.map((d) => (
              <li key={d.id} className="ops-card">
                <article aria-labelledby={`delivery-${d.id}`}>
                  <h2 id={`delivery-${d.id}`} className="ops-card-title">
                    {d.username}
                    <span className="visually-hidden">: {d.title}</span>
                  </h2>
                  <dl className="ops-facts">
                    <div>
                      <dt>Notice</dt>
                      <dd>{d.title}</dd>
                    </div>
                    <div>
                      <dt>Channel</dt>
                      <dd>{d.channel}</dd>
                    </div>
                    <div>
                      <dt>Gave up</dt>
                      <dd>{d.when}</dd>
                    </div>
                    <div>
                      <dt>Attempts</dt>
                      <dd>{d.attempts}</dd>
                    </div>
                    <div className="ops-flag">
                      <dt>Why</dt>
                      <dd>
                        {d.error}
                        {d.detail && d.detail !== d.error ? <span className="ops-detail mono">{d.detail}</span> : null}
                      </dd>
                    </div>
                  </dl>
                </article>
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
