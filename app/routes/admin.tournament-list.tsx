import type { HeadersFunction, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { Link, useLoaderData } from '@remix-run/react';
import { standingAllows } from '@custom-room/contract';
import { PLACEHOLDER_UPI_ID } from '@custom-room/contract/constants';
import { GeneralErrorBoundary } from '~/components/error-page';
import { requireDesk } from '~/utils/desk.server';
import { getEnv } from '~/utils/env.server';
import { pageError } from '~/utils/errors.server';
import { formatShortDate } from '~/utils/format';
import { gateway } from '~/utils/gateway.server';
import { phaseWords, statusTone, summaryPhase } from '~/utils/tournament';
import { paysPlaceholder } from '~/utils/upi.server';
import '~/styles/screens.css';

const LOAD_FAILED = 'Failed to fetch tournaments.';

export const meta: MetaFunction = () => [
  { title: 'Tournament list | Admin | Custom Room' },
  { name: 'description', content: 'Every tournament with its teams, payments awaiting verification, matches and points entry.' },
];

export const headers: HeadersFunction = () => ({ 'Cache-Control': 'private, no-store' });

export async function loader({ request }: LoaderFunctionArgs) {
  const desk = await requireDesk(request);
  const { APP_TIME_ZONE } = getEnv();
  const all = await gateway.adminTournamentSummary(request).catch((err) => pageError(err, LOAD_FAILED));
  // Issue 29: teams and payments of the tournaments whose payments this desk handles (a lobby manager's are not).
  const summary = desk.siteAdmin ? all : all.filter((t) => standingAllows(desk.kinds.get(t.id), 'payments'));
  return {
    tournaments: summary.map((t) => ({
      id: t.id,
      name: t.name,
      game: t.game,
      // The organiser's own status, and beside it what the product shows (decision 051) when that differs.
      status: t.status,
      phase: phaseWords(summaryPhase(t)),
      tone: statusTone(summaryPhase(t)),
      starts: formatShortDate(t.startDate, APP_TIME_ZONE),
      registeredTeams: t.registeredTeams,
      maxTeams: t.maxTeams,
      full: t.maxTeams > 0 && t.registeredTeams >= t.maxTeams,
      paymentsAwaiting: t.paymentsAwaiting,
      verified: t.payments.verified,
      failedDeliveries: t.failedDeliveries,
      paysPlaceholder: paysPlaceholder(t),
    })),
    placeholder: PLACEHOLDER_UPI_ID,
  };
}

export default function AdminTournamentList() {
  const { tournaments, placeholder } = useLoaderData<typeof loader>();
  const unpaid = tournaments.filter((t) => t.paysPlaceholder).length;
  return (
    <section className="ops-page" aria-labelledby="ops-title">
      <h1 id="ops-title">Tournament list</h1>
      {unpaid > 0 ? (
        <p className="notice" role="status" id="payee-warning">
          {unpaid === 1 ? 'A tournament that takes fees' : `${unpaid} tournaments that take fees`} still {unpaid === 1 ? 'pays' : 'pay'} the
          placeholder UPI ID {placeholder}, where nobody receives the money: set its payee on its tournament form (Edit).
        </p>
      ) : null}
      {tournaments.length === 0 ? (
        <p className="nothing">No tournaments yet.</p>
      ) : (
        <ul className="ops-cards">
          {tournaments.map((t) => (
            <li key={t.id} className="ops-card">
              <article aria-labelledby={`t-${t.id}`}>
                <h2 id={`t-${t.id}`} className="ops-card-title">
                  {t.name}
                </h2>
                <p className="ops-meta">
                  <span>{t.game}</span>
                  <span className={`badge b-${t.tone}`}>{t.phase}</span>
                  {t.phase !== t.status ? <span className="ops-note">Status set: {t.status}</span> : null}
                  {t.starts ? <span>Starts {t.starts}</span> : null}
                </p>
                <dl className="ops-stats">
                  <div>
                    <dt>Teams</dt>
                    <dd>
                      {t.registeredTeams}/{t.maxTeams}
                      {t.full ? <span className="ops-note"> full</span> : null}
                    </dd>
                  </div>
                  <div>
                    <dt>Payments to verify</dt>
                    <dd>
                      {t.paymentsAwaiting > 0 ? (
                        <Link className="ops-attention" to={`/admin/${t.id}/registrations?payment=submitted`}>
                          {t.paymentsAwaiting}
                          <span className="visually-hidden"> payments of {t.name} to verify</span>
                        </Link>
                      ) : (
                        0
                      )}
                    </dd>
                  </div>
                  <div>
                    <dt>Verified</dt>
                    <dd>{t.verified}</dd>
                  </div>
                </dl>
                {t.paysPlaceholder ? (
                  <p className="notice ops-payee">
                    Players pay the placeholder UPI ID {placeholder}.{' '}
                    <Link to={`/admin/update-tournament/${t.id}`}>
                      Set the payee<span className="visually-hidden"> of {t.name}</span>
                    </Link>
                  </p>
                ) : null}
                <ul className="ops-links" aria-label={`Manage ${t.name}`}>
                  <li>
                    <Link to={`/admin/${t.id}`}>
                      Manage<span className="visually-hidden"> {t.name}</span>
                    </Link>
                  </li>
                  <li>
                    <Link to={`/admin/${t.id}/registrations`}>
                      Registrations<span className="visually-hidden"> of {t.name}</span>
                    </Link>
                  </li>
                  <li>
                    <Link to={`/admin/${t.id}/matches`}>
                      Matches<span className="visually-hidden"> of {t.name}</span>
                    </Link>
                  </li>
                  <li>
                    <Link to={`/admin/${t.id}/stages`}>
                      Stages<span className="visually-hidden"> of {t.name}</span>
                    </Link>
                  </li>
                  <li>
                    <Link to={`/admin/add-points/${t.id}`}>
                      Points entry<span className="visually-hidden"> for {t.name}</span>
                    </Link>
                  </li>
                  <li>
                    <Link to={`/admin/${t.id}/notifications`}>
                      {t.failedDeliveries > 0 ? `Failed notifications (${t.failedDeliveries})` : 'Failed notifications'}
                      <span className="visually-hidden"> of {t.name}</span>
                    </Link>
                  </li>
                </ul>
              </article>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
