import type { HeadersFunction, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { Link, useLoaderData } from '@remix-run/react';
import { GeneralErrorBoundary } from '~/components/error-page';
import { requireRight } from '~/utils/desk.server';
import { loadMoney } from '~/utils/money.server';
import '~/styles/screens.css';

/** Decision 083: the tournament's money at a glance, one line per team, and the CSV for the accountant. */

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: `Money${data ? `: ${data.t.name}` : ''} | Admin | Custom Room` },
  { name: 'robots', content: 'noindex' },
];

export const headers: HeadersFunction = () => ({ 'Cache-Control': 'private, no-store' });

export async function loader({ request, params }: LoaderFunctionArgs) {
  const { tournamentId } = await requireRight(request, params.tournamentId, 'payments');
  return loadMoney(request, tournamentId);
}

export default function Money() {
  const { t, figures, teams } = useLoaderData<typeof loader>();
  return (
    <section className="ops-page" aria-labelledby="money-title">
      <p className="crumb">
        <Link to={`/admin/${t.id}`}>{t.name}</Link> · <Link to={`/admin/${t.id}/statements`}>Bank statements</Link> ·{' '}
        <Link to={`/admin/${t.id}/refunds`}>Refunds</Link> · <Link to={`/admin/${t.id}/payouts`}>Prize payouts</Link>
      </p>
      <h1 id="money-title">Money</h1>
      <dl className="ops-stats">
        {figures.map((f) => (
          <div key={f.term}>
            <dt>{f.term}</dt>
            <dd>{f.value}</dd>
          </div>
        ))}
      </dl>
      <p className="ops-list-tools">
        <a className="button button-secondary" href={`/admin/${t.id}/money.csv`} download>
          Download CSV
        </a>
      </p>
      <h2>Teams ({teams.length})</h2>
      {teams.length === 0 ? (
        <p className="nothing">No team has a place or a payment yet.</p>
      ) : (
        <ul className="ops-cards" aria-label="Each team's money">
          {teams.map((m) => (
            <li key={m.rid} className="ops-card">
              <h3 className="ops-card-title">{m.team}</h3>
              <p className="ops-meta">
                <span>{m.state}</span>
                {m.utr ? <span className="mono">UTR {m.utr}</span> : null}
              </p>
              <p className="ops-meta">
                <span>{m.received}</span>
                {m.payer ? <span>{m.payer}</span> : null}
                {m.refund ? <span>{m.refund}</span> : null}
                {m.prize ? <span>{m.prize}</span> : null}
              </p>
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
