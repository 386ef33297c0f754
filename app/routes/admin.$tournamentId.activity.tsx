import type { HeadersFunction, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { Link, useLoaderData } from '@remix-run/react';
import { TOURNAMENT_NOT_FOUND } from '@custom-room/contract/constants';
import { GeneralErrorBoundary } from '~/components/error-page';
import { requireRight } from '~/utils/desk.server';
import { getEnv } from '~/utils/env.server';
import { pageError } from '~/utils/errors.server';
import { formatDateTime } from '~/utils/format';
import { gateway } from '~/utils/gateway.server';
import '~/styles/screens.css';

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: `Activity${data ? `: ${data.t.name}` : ''} | Admin | Custom Room` },
  { name: 'description', content: 'Who on the crew did what, and when.' },
];

export const headers: HeadersFunction = () => ({ 'Cache-Control': 'private, no-store' });

/** Issue 29 (decision 065): the activity log, for the owner and co-organisers (the gateway refuses the rest). */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const { tournamentId: tid } = await requireRight(request, params.tournamentId, 'run');
  const [t, log] = await Promise.all([
    gateway.getTournament(request, tid),
    gateway.call(request, 'tournamentActivity', { params: { id: tid } }),
  ]).catch((err) => pageError(err, TOURNAMENT_NOT_FOUND));
  const timeZone = getEnv().APP_TIME_ZONE;
  return {
    t: { id: t.id, name: t.name },
    entries: log.entries.map((e) => ({
      id: e.id,
      when: formatDateTime(e.at, timeZone),
      actor: e.actor,
      action: e.action,
      detail: e.detail,
    })),
  };
}

export default function TournamentActivity() {
  const { t, entries } = useLoaderData<typeof loader>();
  return (
    <section className="ops-page" aria-labelledby="act-title">
      <p className="crumb">
        <Link to={`/admin/${t.id}`}>{t.name}</Link>
      </p>
      <h1 id="act-title">Activity</h1>
      {entries.length === 0 ? (
        <p className="nothing">Nothing yet: the crew’s changes appear here as they happen.</p>
      ) : (
        <ol className="ops-activity">
          {entries.map((e) => (
            <li key={e.id}>
              <strong>{e.actor}</strong> {e.action.charAt(0).toLowerCase() + e.action.slice(1)}
              {e.detail ? `: ${e.detail}` : ''}
              <span className="fine"> · {e.when}</span>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
