import { type LoaderFunctionArgs, type MetaFunction, data } from '@remix-run/node';
import { Link, useLoaderData } from '@remix-run/react';
import { NO_TEAM_REGISTERED, phaseTakesPayments } from '@custom-room/contract/constants';
import { GeneralErrorBoundary } from '~/components/error-page';
import { Fact } from '~/components/fact';
import { PlaceBadge } from '~/components/place-badge';
import { PlacementFact } from '~/components/placements';
import { StatusBadge } from '~/components/tournament-card';
import { getEnv } from '~/utils/env.server';
import { pageError } from '~/utils/errors.server';
import { formatShortDate } from '~/utils/format';
import { gateway, GatewayError } from '~/utils/gateway.server';
import { placeView } from '~/utils/places';
import { requireUser } from '~/utils/session.server';
import { placementViews } from '~/utils/stages';
import { paymentWords } from '~/utils/team';
import { entryFeeLabel, parseTournamentId, phaseOf } from '~/utils/tournament';
import '~/styles/player.css';
import '~/styles/places.css';
import '~/styles/stages.css';

const OVERVIEW_FAILED = 'Failed to load tournament overview';

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data && 'name' in data ? `${data.name} | My Tournaments | Custom Room` : 'My Tournaments | Custom Room' },
];

export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireUser(request);
  const id = parseTournamentId(params.tournamentId);
  if (id === null) throw data({ message: NO_TEAM_REGISTERED }, { status: 404 });
  try {
    const [t, team] = await Promise.all([gateway.getTournament(request, id), gateway.myTeam(request, id)]);
    const timeZone = getEnv().APP_TIME_ZONE;
    return {
      id: t.id,
      name: t.name,
      game: t.game,
      phase: phaseOf(t),
      paymentsClosed: !phaseTakesPayments(phaseOf(t)),
      starts: formatShortDate(t.startDate, timeZone),
      fee: entryFeeLabel(t.entryFee),
      free: t.entryFee <= 0,
      rid: team.rid,
      teamName: team.teamName,
      paymentStatus: team.paymentStatus,
      payment: paymentWords(team.paymentStatus).label,
      state: placeView(team, { timeZone, free: t.entryFee <= 0, paymentsClosed: !phaseTakesPayments(phaseOf(t)) }),
      placements: placementViews(team.placements),
    };
  } catch (err) {
    if (!(err instanceof GatewayError) || err.unavailable) pageError(err);
    if (err.status === 404) throw data({ message: NO_TEAM_REGISTERED, tid: id }, { status: 404 });
    throw data({ message: OVERVIEW_FAILED, retry: true }, { status: err.status >= 400 && err.status < 500 ? err.status : 502 });
  }
}

export default function TournamentInfo() {
  const t = useLoaderData<typeof loader>();
  const mayPay = !t.free && !t.paymentsClosed && t.paymentStatus !== 'verified' && t.state.place === 'placed';
  return (
    <section className="player-page" aria-labelledby="info-title">
      <h1 id="info-title">{t.name}</h1>
      <p className="my-status info-status">
        <span className="visually-hidden">Status: </span>
        <StatusBadge phase={t.phase} /> {t.game}
      </p>
      <dl className="kv">
        <Fact label="Team">{t.teamName}</Fact>
        <Fact label="State">
          <PlaceBadge view={t.state} />
        </Fact>
        <PlacementFact placements={t.placements} />
        <Fact label="Starts">{t.starts || '—'}</Fact>
        <Fact label="Entry fee">{t.fee}</Fact>
        <Fact label="Payment">{t.free ? 'Free entry' : t.payment}</Fact>
      </dl>
      <nav className="info-actions" aria-label="This tournament">
        <Link className="button" to={`/team/${t.id}`}>
          View Team
        </Link>
        <Link className="button" to={`/tournament/${t.id}/matches`}>
          Matches
        </Link>
        <Link className="button" to={`/tournaments/${t.id}/points-table`}>
          Points Table
        </Link>
        {mayPay ? (
          <Link className="button button-pay" to={`/payment?rid=${t.rid}`}>
            Pay
          </Link>
        ) : null}
      </nav>
      <p>
        <Link to="/my-tournaments">Back to My Tournaments</Link>
      </p>
    </section>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
