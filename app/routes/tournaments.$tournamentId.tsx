import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { data } from '@remix-run/node';
import { isRouteErrorResponse, Link, useLoaderData } from '@remix-run/react';
import { CoverImage } from '~/components/cover-image';
import { GeneralErrorBoundary } from '~/components/error-page';
import { StatusBadge } from '~/components/tournament-card';
import { getEnv } from '~/utils/env.server';
import { pageError } from '~/utils/errors.server';
import { formatDateTime } from '~/utils/format';
import { gateway, GatewayError } from '~/utils/gateway.server';
import { PlacementLines } from '~/components/placements';
import { placementViews, type PlacementView } from '~/utils/stages';
import { coverOf } from '~/utils/images';
import { publicOrigin, tournamentFacts } from '~/utils/link-preview.server';
import { linkPreviewMeta } from '~/utils/link-preview';
import { isAnonymous, loaderCacheHeaders, publicPageHeaders } from '~/utils/public-cache.server';
import { canRegister, entryFeeLabel, parseTournamentId, registrationStateWords } from '~/utils/tournament';
import { paymentDue } from '~/utils/team';
import { placeView, type PlaceView } from '~/utils/places';
import { PlaceBadge } from '~/components/place-badge';
import '~/styles/screens.css';
import '~/styles/stages.css';
import '~/styles/places.css';
import { Fact } from '~/components/fact';
import { TOURNAMENT_NOT_FOUND } from '@custom-room/contract/constants';

export const headers = loaderCacheHeaders;

/** Whether any stage is published (public, cached data); a failure only hides the link. */
async function hasPublishedStages(request: Request, id: number): Promise<boolean> {
  try {
    return (await gateway.listStages(request, id)).some((s) => s.state !== 'draft');
  } catch (err) {
    if (err instanceof GatewayError) return false;
    throw err;
  }
}

/** A signed-in member's team here: its state in words, and its group and slot in each published stage (issue 18). */
interface MemberTeam {
  rid: number;
  teamName: string;
  state: PlaceView;
  /** A rejected payment: the team sends its UPI reference again. */
  resend: boolean;
  payNow: boolean;
  placements: PlacementView[];
}

/**
 * The signed-in member's team (issues 18, 19). Only asked for someone signed in (their page is never
 * stored in a shared cache); a refusal of any kind, even a 401 or a 404 (no team), only leaves it out:
 * this page is public.
 */
async function memberTeam(request: Request, id: number, tournament: Promise<{ entryFee: number }>): Promise<MemberTeam | null> {
  if (isAnonymous(request)) return null;
  try {
    const team = await gateway.call(request, 'myTeam', { params: { tournamentId: id } }, { unauthorizedAsError: true });
    const free = (await tournament).entryFee <= 0;
    return {
      rid: team.rid,
      teamName: team.teamName,
      state: placeView(team, { timeZone: getEnv().APP_TIME_ZONE, free }),
      resend: !free && team.place === 'placed' && team.paymentStatus === 'rejected',
      payNow: paymentDue(team, { free }),
      placements: placementViews(team.placements),
    };
  } catch (err) {
    if (err instanceof GatewayError) return null;
    throw err;
  }
}

export async function loader({ request, params }: LoaderFunctionArgs) {
  const id = parseTournamentId(params.tournamentId);
  if (id === null) throw data({ message: TOURNAMENT_NOT_FOUND }, { status: 404 });
  const tournament = gateway.getTournament(request, id).catch((err) => pageError(err, TOURNAMENT_NOT_FOUND));
  const [t, stages, team] = await Promise.all([tournament, hasPublishedStages(request, id), memberTeam(request, id, tournament)]);
  const timeZone = getEnv().APP_TIME_ZONE;
  const url = new URL(request.url);
  const origin = publicOrigin(request);
  const cover = coverOf(t);
  const fee = entryFeeLabel(t.entryFee);
  const closes = formatDateTime(t.registrationClose, timeZone);
  const open = canRegister(t.status);
  const opensLater = t.registrationOpen && Date.parse(t.registrationOpen) > Date.now() ? formatDateTime(t.registrationOpen, timeZone) : '';
  const summary = [...tournamentFacts(t, timeZone), open && closes ? `Registration closes ${closes}` : t.status]
    .filter(Boolean)
    .join(' · ');

  return data(
    {
      t: {
        id: t.id,
        name: t.name,
        game: t.game,
        description: t.description,
        overview: t.overview,
        format: t.format,
        platform: t.platform,
        status: t.status,
        fee,
        prize: t.prizePool,
        teams: `${t.registeredTeams} / ${t.maxTeams} teams`,
        full: t.maxTeams > 0 && t.registeredTeams >= t.maxTeams,
        starts: formatDateTime(t.startDate, timeZone),
        ends: formatDateTime(t.endDate, timeZone),
        regOpens: formatDateTime(t.registrationOpen, timeZone),
        regCloses: closes,
        cover,
      },
      canRegister: open,
      // Not open: where registration stands, shown instead of a Register button.
      state: open ? null : registrationStateWords(t.status, opensLater),
      stages,
      team: team ? { rid: team.rid, teamName: team.teamName, state: team.state, resend: team.resend, payNow: team.payNow } : null,
      placements: team?.placements ?? [],
      // ?register=closed is where the Register control of a closed tournament leads (works without JavaScript).
      closedAlert: !open && url.searchParams.get('register') === 'closed',
      // Link preview (issue 20): the tournament's 1200×630 card, absolute from PUBLIC_URL.
      og: { url: `${origin}/tournaments/${t.id}`, description: summary, image: `${origin}/tournaments/${t.id}/card.png` },
    },
    { headers: publicPageHeaders(request) },
  );
}

export const meta: MetaFunction<typeof loader> = (args) => {
  const data = args.data;
  if (!data) {
    // The error page's title says what happened: a missing tournament, or a server we could not reach.
    const status = isRouteErrorResponse(args.error) ? args.error.status : 500;
    if (status === 404) {
      // The loader's own message (the contract's TOURNAMENT_NOT_FOUND): this runs in the browser too, where importing it costs a chunk.
      const message = isRouteErrorResponse(args.error) ? (args.error.data as { message?: string } | null)?.message : undefined;
      return [{ title: 'Tournament not found | Custom Room' }, ...(message ? [{ name: 'description', content: message }] : [])];
    }
    return [{ title: status === 503 ? 'Server unavailable | Custom Room' : 'Something went wrong | Custom Room' }];
  }
  const { t, og } = data;
  return [
    { title: `${t.name} | Custom Room` },
    { name: 'description', content: og.description },
    ...linkPreviewMeta({
      title: t.name,
      description: og.description,
      url: og.url,
      image: og.image,
      imageAlt: `${t.name}: ${og.description}`,
    }),
  ];
};

export default function TournamentDetail() {
  const { t, canRegister: open, state, closedAlert, stages, team, placements } = useLoaderData<typeof loader>();
  return (
    <article className="td">
      <CoverImage cover={t.cover} alt={`${t.name} cover`} sizes="(min-width:48rem) 46rem, 100vw" priority fit="natural" />
      <header className="td-h">
        <h1>{t.name}</h1>
        <p className="td-sub">
          <span className="visually-hidden">Status: </span>
          <StatusBadge status={t.status} /> {t.game}
        </p>
      </header>

      <section id="register" className="td-reg" aria-label="Registration">
        {closedAlert ? (
          <p role="alert" className="ralert">
            Registration is closed for this tournament. Status: {t.status}.
          </p>
        ) : null}
        {team ? (
          <p className="td-mine">
            Your team <strong>{team.teamName}</strong>: <PlaceBadge view={team.state} className="team-state" />
            {team.resend ? ' Send your UPI reference again.' : null}
          </p>
        ) : state ? (
          <p className="td-state">{state}</p>
        ) : null}
        <p className="td-act">
          {team ? (
            <>
              {team.payNow ? (
                <Link className="button" to={`/payment?rid=${team.rid}`}>
                  Pay the entry fee
                </Link>
              ) : null}
              <Link className={team.payNow ? 'button button-secondary' : 'button'} to={`/team/${t.id}`}>
                Your team
              </Link>
              <Link className="button button-secondary" to={`/tournament/${t.id}/matches`}>
                Room details
              </Link>
            </>
          ) : open ? (
            <Link className="button" to={`/register/${t.id}`}>
              Register
            </Link>
          ) : null}
          <Link className="button button-secondary" to={`/tournaments/${t.id}/points-table`}>
            View Points Table
          </Link>
          {stages ? (
            <Link className="button button-secondary" to={`/tournaments/${t.id}/stages`}>
              Stages and groups
            </Link>
          ) : null}
        </p>
        {open && !team && t.regCloses ? <p className="fine">Registration closes {t.regCloses}.</p> : null}
      </section>

      {placements.length > 0 ? (
        <section aria-labelledby="td-team">
          <h2 id="td-team">Your group and slot</h2>
          <PlacementLines placements={placements} />
        </section>
      ) : null}

      <dl className="kv td-facts">
        <Fact label="Entry fee">{t.fee}</Fact>
        <Fact label="Prize pool">{t.prize}</Fact>
        <div>
          <dt>Teams</dt>
          <dd>
            {t.teams}
            {t.full ? ' (full)' : ''}
          </dd>
        </div>
        <Fact label="Format">{t.format}</Fact>
        <Fact label="Game">{t.game}</Fact>
        <Fact label="Platform">{t.platform}</Fact>
      </dl>

      <section aria-labelledby="td-when">
        <h2 id="td-when">Schedule</h2>
        <dl className="kv td-facts">
          <Fact label="Starts">{t.starts}</Fact>
          <Fact label="Ends">{t.ends}</Fact>
          <Fact label="Registration opens">{t.regOpens}</Fact>
          <Fact label="Registration closes">{t.regCloses}</Fact>
        </dl>
      </section>

      {t.description ? (
        <section aria-labelledby="td-desc">
          <h2 id="td-desc">About this tournament</h2>
          <p className="prose">{t.description}</p>
        </section>
      ) : null}
      {t.overview ? (
        <section aria-labelledby="td-over">
          <h2 id="td-over">Overview</h2>
          <p className="prose">{t.overview}</p>
        </section>
      ) : null}
    </article>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
