import { type LoaderFunctionArgs, type MetaFunction, data } from '@remix-run/node';
import { isRouteErrorResponse, Link, useLoaderData } from '@remix-run/react';
import { phaseTakesPayments, TOURNAMENT_NOT_FOUND } from '@custom-room/contract/constants';
import { AnnouncementList } from '~/components/announcements';
import { CoverImage } from '~/components/cover-image';
import { GeneralErrorBoundary } from '~/components/error-page';
import { Fact } from '~/components/fact';
import { OrganisedBy } from '~/components/organised-by';
import { PlaceBadge } from '~/components/place-badge';
import { PlacementLines } from '~/components/placements';
import { PodiumSection, type Podium } from '~/components/podium';
import { StatusBadge } from '~/components/tournament-card';
import { announcementView, forTournamentPage } from '~/utils/announcements';
import { getEnv } from '~/utils/env.server';
import { pageError } from '~/utils/errors.server';
import { formatDateTime } from '~/utils/format';
import { call, gateway, GatewayError, type Tournament } from '~/utils/gateway.server';
import { coverOf, LOGO_SIZE_PAGE, organiserLineOf } from '~/utils/images';
import { linkPreviewMeta } from '~/utils/link-preview';
import { publicOrigin, tournamentFacts } from '~/utils/link-preview.server';
import { placeView, type PlaceView } from '~/utils/places';
import { prizeLines } from '~/utils/prizes';
import { isAnonymous, loaderCacheHeaders, publicPageHeaders } from '~/utils/public-cache.server';
import { getUser, isAdmin } from '~/utils/session.server';
import { placementViews, type PlacementView } from '~/utils/stages';
import { paymentDue } from '~/utils/team';
import { entryFeeLabel, parseTournamentId, phaseOf, phaseWords, registrationStateWords } from '~/utils/tournament';
import '~/styles/screens.css';
import '~/styles/stages.css';
import '~/styles/places.css';

export const headers = loaderCacheHeaders;

/**
 * Whether any stage is published, and the podium when the last stage is completed (public, cached data): the
 * tournament's stageProgress says "finished" over every stage, drafts included, so the last listed is the last.
 * A failure only hides the link and the podium.
 */
async function stagesView(
  request: Request,
  id: number,
  finished: Promise<boolean>,
): Promise<{ published: boolean; podium: Podium | null }> {
  try {
    const stages = await gateway.listStages(request, id);
    const last = stages.at(-1);
    if (!(await finished) || !last || last.state !== 'completed')
      return { published: stages.some((s) => s.state !== 'draft'), podium: null };
    const table = await gateway.pointsTable(request, id, 0, { stage: last.id });
    return {
      published: true,
      podium: {
        stageName: last.name,
        tableUrl: `/tournaments/${id}/points-table?stage=${last.id}`,
        places: table.slice(0, 3).map((r) => ({ rank: r.rank, teamName: r.teamName, points: r.totalPoints })),
      },
    };
  } catch (err) {
    if (err instanceof GatewayError) return { published: false, podium: null };
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
async function memberTeam(request: Request, id: number, tournament: Promise<Tournament>): Promise<MemberTeam | null> {
  if (isAnonymous(request)) return null;
  try {
    const team = await gateway.call(request, 'myTeam', { params: { tournamentId: id } }, { unauthorizedAsError: true });
    const t = await tournament;
    const free = t.entryFee <= 0;
    // Decision 051: a Completed or Cancelled tournament asks nobody to pay.
    const phase = phaseOf(t);
    const paymentsClosed = !phaseTakesPayments(phase);
    return {
      rid: team.rid,
      teamName: team.teamName,
      state: placeView(team, { timeZone: getEnv().APP_TIME_ZONE, free, paymentsClosed }),
      resend: !free && !paymentsClosed && team.place === 'placed' && team.paymentStatus === 'rejected',
      payNow: paymentDue(team, { free, phase }),
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
  const finished = tournament.then((x) => x.stageProgress?.finished === true).catch(() => false);
  // The organiser's way to this tournament's hub (issue 27 item 24); only asked of someone signed in (never a shared-cache page).
  const organiser = isAnonymous(request) ? Promise.resolve(false) : getUser(request).then(isAdmin);
  const [t, stagesNow, team, admin, announced, prizes] = await Promise.all([
    tournament,
    stagesView(request, id, finished),
    memberTeam(request, id, tournament),
    organiser,
    // Issue 29: a gateway without announcements (or one failing only them) leaves the list out, not the page.
    gateway.announcements(request, id).catch(() => []),
    // Decision 084: the prize table beside the prize pool text (a gateway without it leaves it out, not the page).
    call(request, 'getPrizes', { params: { id } }, { auth: false }).catch(() => null),
  ]);
  const timeZone = getEnv().APP_TIME_ZONE;
  const url = new URL(request.url);
  const origin = publicOrigin(request);
  const cover = coverOf(t);
  const fee = entryFeeLabel(t.entryFee);
  const closes = formatDateTime(t.registrationClose, timeZone);
  // Decision 051: what the page shows follows the derived phase, never the free-text status alone.
  const phase = phaseOf(t);
  const open = phase === 'registration-open';
  const opensLater = t.registrationOpen && Date.parse(t.registrationOpen) > Date.now() ? formatDateTime(t.registrationOpen, timeZone) : '';
  const summary = [...tournamentFacts(t, timeZone), open && closes ? `Registration closes ${closes}` : phaseWords(phase)]
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
        phase,
        fee,
        prize: t.prizePool,
        prizes: prizes ? prizeLines(prizes) : [],
        teams: `${t.registeredTeams} / ${t.maxTeams} teams`,
        full: t.maxTeams > 0 && t.registeredTeams >= t.maxTeams,
        starts: formatDateTime(t.startDate, timeZone),
        ends: formatDateTime(t.endDate, timeZone),
        regOpens: formatDateTime(t.registrationOpen, timeZone),
        regCloses: closes,
        cover,
        // Issue 29: who runs it (the gateway always says; an older one may not).
        organiser: organiserLineOf(t),
      },
      canRegister: open,
      // Not open: where registration stands, shown instead of a Register button.
      state: open ? null : registrationStateWords(phase, opensLater),
      stages: stagesNow.published,
      podium: stagesNow.podium,
      organiser: admin,
      announcements: forTournamentPage(announced).map((a) => announcementView(a, timeZone)),
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
  const {
    t,
    canRegister: open,
    state,
    closedAlert,
    stages,
    podium,
    team,
    placements,
    organiser,
    announcements,
  } = useLoaderData<typeof loader>();
  return (
    <article className="td">
      <CoverImage cover={t.cover} alt={`${t.name} cover`} sizes="(min-width:48rem) 46rem, 100vw" priority fit="natural" />
      <header className="td-h">
        <h1>{t.name}</h1>
        <p className="td-sub">
          <span className="visually-hidden">Status: </span>
          <StatusBadge phase={t.phase} /> {t.game}
        </p>
        {t.organiser ? <OrganisedBy organiser={t.organiser} size={LOGO_SIZE_PAGE} link className="td-org org-by" /> : null}
      </header>

      {podium ? <PodiumSection podium={podium} /> : null}

      {announcements.length > 0 ? (
        <section aria-labelledby="td-ann">
          <h2 id="td-ann">Announcements</h2>
          <AnnouncementList items={announcements} showAuthor={false} />
        </section>
      ) : null}

      <section id="register" className="td-reg" aria-label="Registration">
        {closedAlert ? (
          <p role="alert" className="ralert">
            Registration is closed for this tournament. Status: {phaseWords(t.phase)}.
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
          {organiser ? (
            <Link className="button button-secondary" to={`/admin/${t.id}`}>
              Manage
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
        {t.prizes.length > 0 ? (
          <div>
            <dt>Prizes</dt>
            <dd>
              <ul className="td-prizes">
                {t.prizes.map((p) => (
                  <li key={p}>{p}</li>
                ))}
              </ul>
            </dd>
          </div>
        ) : null}
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
