import { type HeadersFunction, type LoaderFunctionArgs, type MetaFunction, data } from '@remix-run/node';
import { Link, useLoaderData } from '@remix-run/react';
import { standingAllows } from '@custom-room/contract';
import { TOURNAMENT_NOT_FOUND } from '@custom-room/contract/constants';
import { GeneralErrorBoundary } from '~/components/error-page';
import { StatusBadge } from '~/components/tournament-card';
import { requireDesk } from '~/utils/desk.server';
import { getEnv } from '~/utils/env.server';
import { pageError } from '~/utils/errors.server';
import { formatShortDate } from '~/utils/format';
import { gateway } from '~/utils/gateway.server';
import { requireTournamentId } from '~/utils/route-params.server';
import { phaseOf, phaseWords } from '~/utils/tournament';
import '~/styles/screens.css';

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: `${data ? `Manage ${data.t.name}` : 'Manage tournament'} | Admin | Custom Room` },
  { name: 'description', content: 'Everything the organiser does with one tournament, in one place.' },
];

export const headers: HeadersFunction = () => ({ 'Cache-Control': 'private, no-store' });

/**
 * /admin/:id, the organiser's hub of one tournament (issue 27 item 24): where the organiser lands after creating
 * it, and what "Manage" leads to from both admin lists and from the public page.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const desk = await requireDesk(request);
  const tid = requireTournamentId(params.tournamentId);
  // Issue 29: a crew member sees the tools its role may use (a site admin all): its part, from the desk already read.
  const kind = desk.siteAdmin ? ('site-admin' as const) : desk.kinds.get(tid);
  const [t, summary] = await Promise.all([gateway.getTournament(request, tid), gateway.adminTournamentSummary(request)]).catch((err) =>
    pageError(err, TOURNAMENT_NOT_FOUND),
  );
  const mine = summary.find((s) => s.id === tid);
  if (!mine) throw data({ message: TOURNAMENT_NOT_FOUND }, { status: 404 });
  const timeZone = getEnv().APP_TIME_ZONE;
  const phase = phaseOf(t);
  return {
    t: { id: t.id, name: t.name, game: t.game, status: t.status, phase, starts: formatShortDate(t.startDate, timeZone) },
    counts: {
      teams: `${mine.registeredTeams}/${mine.maxTeams}`,
      waitlisted: mine.waitlisted,
      toVerify: mine.paymentsAwaiting,
      failed: mine.failedDeliveries,
      stages: t.stageProgress?.stages ?? 0,
    },
    // Issue 29 (decision 069): a lobby manager's tools are on one page, its groups'; the organisers have the stage pages.
    may: {
      run: standingAllows(kind, 'run'),
      payments: standingAllows(kind, 'payments'),
      announce: standingAllows(kind, 'lobby'),
      groups: kind === 'lobby',
    },
  };
}

export default function TournamentHub() {
  const { t, counts, may } = useLoaderData<typeof loader>();
  const base = `/admin/${t.id}`;
  return (
    <section className="ops-page" aria-labelledby="hub-title">
      <p className="crumb">
        <Link to="/admin/manage-tournament">Tournaments</Link>
      </p>
      <h1 id="hub-title">{t.name}</h1>
      <p className="ops-meta">
        <span>{t.game}</span>
        <StatusBadge phase={t.phase} />
        {t.starts ? <span>Starts {t.starts}</span> : null}
      </p>
      {phaseWords(t.phase) !== t.status ? (
        <p className="fine">
          Status you set: {t.status}. Players see “{phaseWords(t.phase)}”: it follows the dates and the stages.
        </p>
      ) : null}
      <dl className="ops-stats">
        <div>
          <dt>Teams</dt>
          <dd>{counts.teams}</dd>
        </div>
        <div>
          <dt>Waitlist</dt>
          <dd>{counts.waitlisted}</dd>
        </div>
        <div>
          <dt>Payments to verify</dt>
          <dd>
            {counts.toVerify > 0 && may.payments ? (
              <Link to={`${base}/registrations?payment=submitted`} className="button button-secondary">
                Verify {counts.toVerify}
              </Link>
            ) : (
              counts.toVerify
            )}
          </dd>
        </div>
      </dl>
      <ul className="ops-links" aria-label={`Manage ${t.name}`}>
        {may.groups ? (
          <li>
            <Link to={`${base}/my-groups`}>My groups</Link>
          </li>
        ) : null}
        {may.payments ? (
          <li>
            <Link to={`${base}/registrations`}>Registrations</Link>
          </li>
        ) : null}
        {may.payments ? (
          <li>
            <Link to={`${base}/statements`}>Bank statements</Link>
          </li>
        ) : null}
        {may.payments ? (
          <li>
            <Link to={`${base}/refunds`}>Refunds</Link>
          </li>
        ) : null}
        {may.payments ? (
          <li>
            <Link to={`${base}/money`}>Money</Link>
          </li>
        ) : null}
        {may.payments ? (
          <li>
            <Link to={`${base}/payouts`}>Prize payouts</Link>
          </li>
        ) : null}
        {may.run ? (
          <>
            <li>
              <Link to={`${base}/stages`}>{counts.stages > 0 ? `Stages (${counts.stages})` : 'Stages'}</Link>
            </li>
            <li>
              <Link to={`${base}/matches`}>Matches</Link>
            </li>
            <li>
              <Link to={`/admin/add-points/${t.id}`}>Points entry</Link>
            </li>
            <li>
              <Link to={`${base}/notifications`}>
                {counts.failed > 0 ? `Failed notifications (${counts.failed})` : 'Failed notifications'}
              </Link>
            </li>
            <li>
              <Link to={`/admin/update-tournament/${t.id}`}>Edit details</Link>
            </li>
            <li>
              <Link to={`${base}/staff`}>Crew</Link>
            </li>
            <li>
              <Link to={`${base}/activity`}>Activity</Link>
            </li>
            <li>
              <Link to={`${base}/reports`}>Report settings</Link>
            </li>
            <li>
              <Link to={`${base}/prizes`}>Prizes</Link>
            </li>
          </>
        ) : null}
        {may.announce ? (
          <>
            <li>
              <Link to={`${base}/announcements`}>Announcements</Link>
            </li>
            {/* Issue 30 (decision 075): disputes of confirmed results, for whoever runs lobbies. */}
            <li>
              <Link to={`${base}/disputes`}>Disputes</Link>
            </li>
          </>
        ) : null}
        <li>
          <Link to={`/tournaments/${t.id}`}>Public page</Link>
        </li>
      </ul>
    </section>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
