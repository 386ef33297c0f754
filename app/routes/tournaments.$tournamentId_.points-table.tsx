// The trailing "_" keeps /tournaments/:id/points-table out of the detail page's layout (Remix flat routes): a page of its own.
import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { data } from '@remix-run/node';
import { Link, useLoaderData } from '@remix-run/react';
import { GeneralErrorBoundary } from '~/components/error-page';
import { PointsTable, type PointsTableRow } from '~/components/points-table';
import { pageError } from '~/utils/errors.server';
import { gateway } from '~/utils/gateway.server';
import { dayLabel, OVERALL, parseDay, POINTS_DAYS } from '~/utils/points-day';
import { loaderCacheHeaders, publicPageHeaders } from '~/utils/public-cache.server';
import { parseTournamentId } from '~/utils/tournament';
import '~/styles/screens.css';
import { TOURNAMENT_NOT_FOUND } from '@custom-room/contract/constants';

export const headers = loaderCacheHeaders;

export async function loader({ request, params }: LoaderFunctionArgs) {
  const id = parseTournamentId(params.tournamentId);
  if (id === null) throw data({ message: TOURNAMENT_NOT_FOUND }, { status: 404 });
  // An unknown day (?day=9, ?day=x) shows Overall with a note rather than an error page.
  const { day, valid } = parseDay(new URL(request.url).searchParams.get('day'));
  const [t, points] = await Promise.all([gateway.getTournament(request, id), gateway.pointsTable(request, id, day)]).catch((err) =>
    pageError(err, TOURNAMENT_NOT_FOUND),
  );
  const rows: PointsTableRow[] = points.map((r) => ({
    rank: r.rank,
    teamName: r.teamName,
    positionPoints: r.positionPoints,
    finishes: r.finishes,
    wins: r.wins,
    totalPoints: r.totalPoints,
  }));
  return data({ t: { id: t.id, name: t.name }, day, invalidDay: !valid, rows }, { headers: publicPageHeaders(request) });
}

export const meta: MetaFunction<typeof loader> = (args) => {
  const data = args.data;
  if (!data) return [{ title: 'Points table | Custom Room' }, { name: 'description', content: 'Tournament points table.' }];
  const which = data.day === OVERALL ? 'Overall standings' : `${dayLabel(data.day)} standings`;
  return [
    { title: `${which}: ${data.t.name} | Custom Room` },
    { name: 'description', content: `${which} of ${data.t.name}: placement points, finishes, wins and total per team.` },
  ];
};

export default function PointsTablePage() {
  const { t, day, invalidDay, rows } = useLoaderData<typeof loader>();
  const label = dayLabel(day);
  return (
    <>
      <p className="crumb">
        <Link to={`/tournaments/${t.id}`}>{t.name}</Link>
      </p>
      <h1>Points table</h1>
      <nav aria-label="Points table day" className="days">
        <ul>
          {POINTS_DAYS.map((d) => (
            <li key={d}>
              <Link to={`?day=${d}`} aria-current={d === day ? 'page' : undefined} preventScrollReset>
                {dayLabel(d)}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      {invalidDay ? (
        <p className="notice" role="status">
          That day does not exist: the points table has Overall and Day 1 to Day 5. Showing Overall.
        </p>
      ) : null}
      {rows.length === 0 ? (
        <p className="nothing">
          {day === OVERALL ? 'No points yet. The overall table fills in after the first match.' : `No points yet for ${label}.`}
        </p>
      ) : (
        <PointsTable rows={rows} id="pt-caption" caption={`${label} standings`} />
      )}
      <p className="fine">
        Teams level on total points are ranked by wins (chicken dinners), then placement points, then finishes, then team name.
      </p>
    </>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
