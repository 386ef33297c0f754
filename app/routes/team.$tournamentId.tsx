import { type ActionFunctionArgs, type HeadersFunction, type LoaderFunctionArgs, type MetaFunction, data } from '@remix-run/node';
import { Link, useLoaderData, useLocation } from '@remix-run/react';
import {
  CHARACTER_ID_FIELDS,
  CHARACTER_ID_OF,
  characterIdName,
  IGN_FIELDS,
  IGN_FORM_LABELS,
  NO_TEAM_REGISTERED,
  TOURNAMENT_NOT_FOUND as NOT_FOUND,
} from '@custom-room/contract/constants';
import { CheckInForms } from '~/components/check-in-button';
import { Dashboard } from '~/components/dashboard-nav';
import { GeneralErrorBoundary } from '~/components/error-page';
import { PlaceBadge } from '~/components/place-badge';
import { PlacementLines } from '~/components/placements';
import { ReportLines, type ReportLineView } from '~/components/reports/report-lines';
import { TeamPrize } from '~/components/team-prize';
import { checkInAction, checkInOffers, type CheckInOffer, stageWindows } from '~/utils/check-in.server';
import { getEnv } from '~/utils/env.server';
import { pageError } from '~/utils/errors.server';
import { call, gateway, GatewayError } from '~/utils/gateway.server';
import { PAYEE_INTENT } from '~/utils/payouts';
import { mayWithdraw, placeView, withdrawLabel, type PlaceView } from '~/utils/places';
import { refundWords } from '~/utils/refunds.server';
import { myReportsOrNull, reportLines } from '~/utils/reports.server';
import { requireTournamentId } from '~/utils/route-params.server';
import { requireUser } from '~/utils/session.server';
import { placementViews, type PlacementView } from '~/utils/stages';
import { prizePayeeAction, prizeView, type PrizeView } from '~/utils/team-prize.server';
import { canRegister, parseTournamentId } from '~/utils/tournament';
import '~/styles/screens.css';
import '~/styles/stages.css';
import '~/styles/places.css';

const LOAD_FAILED = 'Failed to load team data';

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data ? `Your team: ${data.t.name} | Custom Room` : 'Your team | Custom Room' },
  { name: 'description', content: 'Your squad for the tournament: team name, players and substitutes.' },
];

export const headers: HeadersFunction = () => ({ 'Cache-Control': 'private, no-store' });

type Team = {
  teamName: string;
  placements: PlacementView[];
  state: PlaceView;
  mayWithdraw: boolean;
  mayRegisterAgain: boolean;
  checkIns: CheckInOffer[];
  reportLines: ReportLineView[];
  idName: string;
  /** Decision 082: "Refunded ₹50 on 29 Nov (UTR …)" once the organiser recorded the team's refund. */
  refund: string | null;
  /** Decision 085: the prize the team won, where it goes, and when it was paid. */
  prize: PrizeView | null;
} & Record<(typeof IGN_FIELDS)[number] | (typeof CHARACTER_ID_FIELDS)[number], string>;
type TeamState =
  { status: 'ok'; team: Team } | { status: 'none'; message: string; reportLines: ReportLineView[] } | { status: 'failed'; message: string };

export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireUser(request);
  const id = parseTournamentId(params.tournamentId);
  if (id === null) throw data({ message: NOT_FOUND }, { status: 404 });

  // Issue 30: the team's reports, asked at the same time (null for a caller on no confirmed team there).
  const [tournament, team, reports] = await Promise.allSettled([
    gateway.getTournament(request, id),
    gateway.myTeam(request, id),
    myReportsOrNull(request, id),
  ]);
  if (tournament.status === 'rejected') pageError(tournament.reason, NOT_FOUND);
  if (reports.status === 'rejected') throw reports.reason;
  const tour = tournament.value;
  const t = { id: tour.id, name: tour.name };
  if (team.status === 'fulfilled') {
    const r = team.value;
    const fields = Object.fromEntries([...IGN_FIELDS, ...CHARACTER_ID_FIELDS].map((f) => [f, r[f]])) as Record<
      (typeof IGN_FIELDS)[number] | (typeof CHARACTER_ID_FIELDS)[number],
      string
    >;
    const nowMs = Date.now();
    const timeZone = getEnv().APP_TIME_ZONE;
    const state = placeView(r, { timeZone, free: tour.entryFee <= 0, nowMs });
    // A refund exists only for a paid team that left or whose tournament was cancelled: only then is it asked for.
    const owedMaybe = tour.entryFee > 0 && r.paymentStatus === 'verified' && (!state.active || tour.phase === 'cancelled');
    // Decision 085: a prize exists only once the tournament is completed.
    const wonMaybe = tour.phase === 'completed' && r.place === 'placed';
    const money = owedMaybe || wonMaybe ? await call(request, 'myMoney', { params: { id } }).catch((err) => pageError(err)) : null;
    const view: Team = {
      teamName: r.teamName,
      placements: placementViews(r.placements),
      idName: characterIdName(tour.game),
      state,
      mayWithdraw: mayWithdraw(r.place, tour, nowMs),
      // Released and withdrawn teams free the captain's one-team rule (decision 043).
      mayRegisterAgain: !state.active && canRegister(tour, nowMs),
      checkIns: await checkInOffers(r, state.confirmed, () => stageWindows(request, tour.id), timeZone, nowMs),
      reportLines: reportLines(tour.id, reports.value, timeZone),
      refund: money?.refund ? refundWords(money.refund, timeZone) : null,
      prize: money?.prize ? prizeView(money.prize, timeZone) : null,
      ...fields,
    };
    return { t, state: { status: 'ok', team: view } as TeamState };
  }
  const err: unknown = team.reason;
  // A 401 is already the redirect to /login; "unreachable" is the 503 page.
  if (!(err instanceof GatewayError) || err.unavailable) pageError(err);
  // No team here: a 404 page of our own, with the way to the tournament's registration.
  // A member who did not register the team has none of its own here, but may report its results (issue 30).
  if (err.status === 404) {
    const lines = reportLines(tour.id, reports.value, getEnv().APP_TIME_ZONE);
    return data({ t, state: { status: 'none', message: NO_TEAM_REGISTERED, reportLines: lines } as TeamState }, { status: 404 });
  }
  return { t, state: { status: 'failed', message: LOAD_FAILED } as TeamState };
}

export async function action({ request, params }: ActionFunctionArgs) {
  await requireUser(request);
  const id = requireTournamentId(params.tournamentId);
  const form = await request.formData();
  if (form.get('intent') === PAYEE_INTENT) return prizePayeeAction(request, id, form);
  return checkInAction(request, id, form, `/team/${id}`);
}

export default function TeamPage() {
  const { t, state } = useLoaderData<typeof loader>();
  const location = useLocation();
  return (
    <Dashboard>
      <section className="team-page" aria-labelledby="team-title">
        <p className="crumb">
          <Link to={`/tournaments/${t.id}`}>{t.name}</Link>
        </p>
        {state.status === 'ok' ? (
          <>
            <h1 id="team-title">Your team</h1>
            <CheckInForms offers={state.team.checkIns} />
            <ReportLines lines={state.team.reportLines} />
            <article className="team-card" aria-labelledby="team-name">
              <h2 id="team-name" className="team-name">
                {state.team.teamName}
              </h2>
              <p className="team-place">
                <span className="visually-hidden">State: </span>
                <PlaceBadge view={state.team.state} />
              </p>
              {state.team.refund ? <p className="team-refund">{state.team.refund}.</p> : null}
              {state.team.prize ? <TeamPrize prize={state.team.prize} /> : null}
              <dl className="kv team-kv">
                {IGN_FIELDS.map((field) => (
                  <div key={field}>
                    <dt>{IGN_FORM_LABELS[field]}</dt>
                    <dd>
                      {state.team[field] || (
                        <>
                          <span aria-hidden="true">—</span>
                          <span className="visually-hidden">None</span>
                        </>
                      )}
                      {state.team[CHARACTER_ID_OF[field]] ? (
                        <span className="team-character-id">
                          {state.team.idName} <span className="mono">{state.team[CHARACTER_ID_OF[field]]}</span>
                        </span>
                      ) : null}
                    </dd>
                  </div>
                ))}
              </dl>
              {state.team.placements.length > 0 ? (
                <section className="team-stages" aria-labelledby="team-stages">
                  <h3 id="team-stages">{state.team.placements.length === 1 ? 'Group and slot' : 'Groups and slots'}</h3>
                  <PlacementLines placements={state.team.placements} />
                </section>
              ) : null}
            </article>
            <p className="form-actions team-actions">
              {state.team.state.active ? (
                <Link className="button" to={`/tournaments/${t.id}/update-team`}>
                  Edit Team
                </Link>
              ) : state.team.mayRegisterAgain ? (
                <Link className="button" to={`/register/${t.id}`}>
                  Register again
                </Link>
              ) : null}
              <Link className="button button-secondary" to={`/tournament/${t.id}/matches`}>
                Matches
              </Link>
              <Link className="button button-secondary" to={`/tournaments/${t.id}/points-table`}>
                Points Table
              </Link>
            </p>
            {state.team.mayWithdraw ? (
              <p>
                <Link className="withdraw-link" to={`/team/${t.id}/withdraw`}>
                  {withdrawLabel(state.team.state.place)}
                </Link>
              </p>
            ) : null}
          </>
        ) : state.status === 'none' ? (
          <>
            <h1 id="team-title">No team yet</h1>
            <p className="notice" role="alert">
              {state.message}
            </p>
            <ReportLines lines={state.reportLines} />
            <p className="form-actions">
              <Link className="button" to={`/tournaments/${t.id}`}>
                Go to the tournament
              </Link>
            </p>
          </>
        ) : (
          <>
            <h1 id="team-title">Your team</h1>
            <p className="notice" role="alert">
              {state.message}. <a href={location.pathname}>Try again</a>
            </p>
          </>
        )}
      </section>
    </Dashboard>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
