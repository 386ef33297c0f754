// The spec's path is singular (/tournament/:id/matches), so this page sits outside the /tournaments/:id layout.
import type { ActionFunctionArgs, HeadersFunction, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { data } from '@remix-run/node';
import { Link, useLoaderData, useLocation } from '@remix-run/react';
import { useCallback, useEffect, useState } from 'react';
import { useHydrated } from 'remix-utils/use-hydrated';
import { Dashboard } from '~/components/dashboard-nav';
import { GeneralErrorBoundary } from '~/components/error-page';
import { getEnv } from '~/utils/env.server';
import { pageError } from '~/utils/errors.server';
import { formatDayDate, formatMatchTime } from '~/utils/format';
import { gateway, GatewayError } from '~/utils/gateway.server';
import {
  canShareRoom,
  groupByDay,
  hasRoom,
  roomShareText,
  seesRoomDetails,
  timeZoneName,
  whatsAppShareUrl,
  type ScheduleMatch,
} from '~/utils/matches';
import { requireUser } from '~/utils/session.server';
import { CheckInForms } from '~/components/check-in-button';
import { checkInAction, checkInOffers } from '~/utils/check-in.server';
import { placeView } from '~/utils/places';
import { requireTournamentId } from '~/utils/route-params.server';
import '~/styles/places.css';
import { nextMatchId, placementViews, splitByGroup, type PlacementView, type StageMatch } from '~/utils/stages';
import { parseTournamentId } from '~/utils/tournament';
import '~/styles/screens.css';
import '~/styles/stages.css';
import { TOURNAMENT_NOT_FOUND } from '@custom-room/contract/constants';

const LOAD_FAILED = 'Error loading matches.';

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data ? `Matches: ${data.t.name} | Custom Room` : 'Matches | Custom Room' },
  { name: 'description', content: 'Match schedule by day, with room ID and password for confirmed teams.' },
];

// Room IDs and passwords: never in a shared cache, nor shown again from the browser's cache after logout.
export const headers: HeadersFunction = () => ({ 'Cache-Control': 'private, no-store' });

type ScheduleState = { status: 'ok'; matches: StageMatch[] } | { status: 'failed'; message: string };

/** The caller's team in this tournament, or null (none, or it could not be read: the schedule still shows). */
async function ownTeam(request: Request, tournamentId: number) {
  try {
    const team = await gateway.myTeam(request, tournamentId);
    return { rid: team.rid, paymentStatus: team.paymentStatus, placements: placementViews(team.placements), full: team };
  } catch (err) {
    if (err instanceof GatewayError) return null;
    throw err; // the redirect to /login
  }
}

export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireUser(request);
  const id = parseTournamentId(params.tournamentId);
  if (id === null) throw data({ message: TOURNAMENT_NOT_FOUND }, { status: 404 });

  const [tournament, matches, team] = await Promise.allSettled([
    gateway.getTournament(request, id),
    gateway.listMatches(request, id),
    ownTeam(request, id),
  ]);
  if (tournament.status === 'rejected') pageError(tournament.reason, TOURNAMENT_NOT_FOUND);
  if (team.status === 'rejected') throw team.reason;
  let state: ScheduleState;
  if (matches.status === 'fulfilled') {
    state = {
      status: 'ok',
      matches: matches.value.map((m) => ({
        id: m.id,
        day: m.day,
        matchNo: m.matchNo,
        map: m.map,
        time: m.time,
        matchId: m.matchId,
        password: m.password,
        groupId: m.groupId ?? null,
        groupName: m.groupName ?? null,
        stageId: m.stageId ?? null,
        stageName: m.stageName ?? null,
      })),
    };
  } else {
    const err: unknown = matches.reason;
    // A 401 is already the redirect to /login, "unreachable" the 503 page, 404 the tournament's.
    if (!(err instanceof GatewayError) || err.unavailable || err.status === 404) pageError(err, TOURNAMENT_NOT_FOUND);
    state = { status: 'failed', message: LOAD_FAILED };
  }
  const timeZone = getEnv().APP_TIME_ZONE;
  const placements = team.value?.placements ?? [];
  const own = team.value?.full;
  const confirmed = own ? placeView(own, { timeZone, free: tournament.value.entryFee <= 0 }).confirmed : false;
  const checkIns = own ? await checkInOffers(request, id, own, confirmed, timeZone) : [];
  // A tournament with stages: the team's own groups' matches first, the next one marked (decision 041).
  const stages =
    state.status === 'ok' && state.matches.some((m) => m.groupId !== null)
      ? stageSchedule(state.matches, placements, tournament.value.startDate, timeZone)
      : null;
  // "Day 1 · Sat 12 Dec": each day's calendar date beside its number (issue 27).
  const dates: Record<number, string> = {};
  for (const m of state.status === 'ok' ? state.matches : []) dates[m.day] ??= formatDayDate(tournament.value.startDate, m.day, timeZone);
  return {
    t: { id: tournament.value.id, name: tournament.value.name },
    dates,
    zone: { short: timeZoneName(timeZone, 'short'), long: timeZoneName(timeZone, 'long') },
    // With stages, the schedule is in stages (each match once, other groups' rooms left out).
    state: stages ? ({ status: 'ok', matches: [] } as ScheduleState) : state,
    stages,
    // The gateway decides who sees room details (decision 029); these only say why someone does not (yet).
    registeredTeam: team.value !== null,
    awaitingPayment:
      team.value && tournament.value.entryFee > 0 && team.value.paymentStatus !== 'verified'
        ? { rid: team.value.rid, paymentStatus: team.value.paymentStatus }
        : null,
    checkIns,
    // Issue 20: the team's matches as a calendar file, for a team that holds or waits for a place (decision 050).
    calendar: own && (own.place === 'placed' || own.place === 'waitlist') ? `/tournament/${id}/matches.ics` : null,
  };
}

/** The schedule of a tournament with stages, as the page shows it. Other groups' rooms are never passed on. */
function stageSchedule(matches: StageMatch[], placements: PlacementView[], startDate: string, timeZone: string) {
  const { own, others, ungrouped } = splitByGroup(
    matches,
    placements.map((p) => p.groupId),
  );
  const labels = Object.fromEntries(placements.map((p) => [p.groupId, p.label]));
  return {
    placements,
    own: own.map((m) => ({ ...m, label: labels[m.groupId!] ?? '' })),
    nextId: nextMatchId(own, startDate, timeZone, Date.now()),
    others: others.map((g) => ({ ...g, matches: g.matches.map((m) => ({ ...m, matchId: null, password: null })) })),
    ungrouped,
  };
}

export async function action({ request, params }: ActionFunctionArgs) {
  await requireUser(request);
  const id = requireTournamentId(params.tournamentId);
  return checkInAction(request, id, await request.formData(), `/tournament/${id}/matches`);
}

export default function MatchesPage() {
  const { t, dates, zone, state, stages, registeredTeam, awaitingPayment, checkIns, calendar } = useLoaderData<typeof loader>();
  const location = useLocation();
  const [announcement, setAnnouncement] = useState('');
  const announce = useCallback((message: string) => {
    // Cleared first so the same message twice is announced twice.
    setAnnouncement('');
    window.setTimeout(() => setAnnouncement(message), 50);
  }, []);

  const matches = state.status === 'ok' ? state.matches : [];
  const days = groupByDay(matches);
  const registered = seesRoomDetails(stages ? stages.own : matches);

  return (
    <Dashboard>
      <section className="sched" aria-labelledby="matches-title">
        <p className="crumb">
          <Link to={`/tournaments/${t.id}`}>{t.name}</Link>
        </p>
        <h1 id="matches-title">Matches</h1>
        {calendar && state.status === 'ok' ? (
          <p className="sched-calendar">
            {/* A plain link: the file downloads with or without JavaScript, and Remix does not fetch it as a page. */}
            <a className="button button-secondary" href={calendar} download>
              Add to calendar
            </a>
          </p>
        ) : null}
        <CheckInForms offers={checkIns} />
        {state.status === 'ok' && !registered && awaitingPayment ? (
          <AwaitingPayment rid={awaitingPayment.rid} paymentStatus={awaitingPayment.paymentStatus} />
        ) : null}
        {state.status === 'failed' ? (
          <p className="notice" role="alert">
            {state.message} <a href={location.pathname}>Try again</a>
          </p>
        ) : stages ? (
          <StageSchedule
            stages={stages}
            tournamentName={t.name}
            zone={zone}
            registered={registered}
            registeredTeam={registeredTeam}
            tid={t.id}
            announce={announce}
            dates={dates}
          />
        ) : days.length === 0 ? (
          <p className="nothing">No matches found.</p>
        ) : (
          <>
            <p className="fine">
              Times are {zone.long} ({zone.short}).
            </p>
            {registered || registeredTeam ? null : (
              <p className="notice">
                Room IDs and passwords are only for registered teams. <Link to={`/tournaments/${t.id}`}>Register your team</Link> to get
                them here before each match.
              </p>
            )}
            {days.map(({ day, matches }) => (
              <section key={day} className="sched-day" aria-labelledby={`day-${day}`}>
                <h2 id={`day-${day}`}>{dayTitle(day, dates)}</h2>
                <ol className="sched-list">
                  {matches.map((m) => (
                    <li key={m.id}>
                      <MatchCard match={m} tournamentName={t.name} zone={zone} registered={registered} announce={announce} />
                    </li>
                  ))}
                </ol>
              </section>
            ))}
          </>
        )}
        <p className="visually-hidden" role="status" aria-live="polite">
          {announcement}
        </p>
      </section>
    </Dashboard>
  );
}

type StageScheduleData = NonNullable<ReturnType<typeof useLoaderData<typeof loader>>['stages']>;

/** A tournament with stages: the team's own group first (with its rooms), every other group after, without rooms. */
/** "Day 1 · Sat 12 Dec" (the date left out when it cannot be known). */
const dayTitle = (day: number, dates: Record<number, string>) => (dates[day] ? `Day ${day} · ${dates[day]}` : `Day ${day}`);
/** "Day 1 · Match 2 · Sat 12 Dec", where no "Day 1" heading stands above the match. */
const matchTitle = (m: { day: number; matchNo: number }, dates: Record<number, string>) =>
  `Day ${m.day} · Match ${m.matchNo}${dates[m.day] ? ` · ${dates[m.day]}` : ''}`;

function StageSchedule({
  stages,
  tournamentName,
  zone,
  registered,
  registeredTeam,
  tid,
  announce,
  dates,
}: {
  stages: StageScheduleData;
  dates: Record<number, string>;
  tournamentName: string;
  zone: { short: string; long: string };
  registered: boolean;
  registeredTeam: boolean;
  tid: number;
  announce: (message: string) => void;
}) {
  return (
    <>
      <p className="fine">
        Times are {zone.long} ({zone.short}).
      </p>
      {registered || registeredTeam ? null : (
        <p className="notice">
          Room IDs and passwords are only for registered teams. <Link to={`/tournaments/${tid}`}>Register your team</Link> to get them here
          before each match.
        </p>
      )}
      {stages.own.length > 0 ? (
        <section className="sched-day" aria-labelledby="own-matches">
          <h2 id="own-matches">Your matches</h2>
          <ul className="placements">
            {stages.placements.map((p) => (
              <li key={p.stageId}>
                <span className="placement">{p.label}</span>
                {p.outcome ? <span className="outcome"> · {p.outcome}</span> : null}
              </li>
            ))}
          </ul>
          <ol className="sched-list">
            {stages.own.map((m) => (
              <li key={m.id}>
                <MatchCard
                  match={m}
                  title={matchTitle(m, dates)}
                  label={m.label}
                  next={m.id === stages.nextId}
                  tournamentName={tournamentName}
                  zone={zone}
                  registered={registered}
                  announce={announce}
                />
              </li>
            ))}
          </ol>
        </section>
      ) : registeredTeam && stages.placements.length === 0 ? (
        <p className="notice">
          Your team is not in a group yet. Your group, slot and room details appear here once the groups are published.
        </p>
      ) : null}
      {stages.others.length > 0 ? (
        <section className="sched-day" aria-labelledby="other-groups">
          <h2 id="other-groups">{stages.own.length > 0 ? 'Other groups' : 'Groups'}</h2>
          {stages.others.map((g) => (
            <section key={g.groupId} className="group-sched" aria-labelledby={`group-${g.groupId}`}>
              <h3 id={`group-${g.groupId}`}>
                {g.stageName} · Group {g.groupName}
              </h3>
              <p className="fine">Room details are shown to Group {g.groupName}&apos;s teams.</p>
              <ol className="group-matches">
                {g.matches.map((m) => (
                  <li key={m.id}>
                    {matchTitle(m, dates)} · {m.map} ·{' '}
                    <time dateTime={formatMatchTime(m.time)}>
                      {formatMatchTime(m.time)} <abbr title={zone.long}>{zone.short}</abbr>
                    </time>
                  </li>
                ))}
              </ol>
            </section>
          ))}
        </section>
      ) : null}
      {stages.ungrouped.length > 0 ? (
        <section className="sched-day" aria-labelledby="all-teams">
          <h2 id="all-teams">All teams</h2>
          <ol className="sched-list">
            {stages.ungrouped.map((m) => (
              <li key={m.id}>
                <MatchCard
                  match={m}
                  title={matchTitle(m, dates)}
                  tournamentName={tournamentName}
                  zone={zone}
                  registered={registered}
                  announce={announce}
                />
              </li>
            ))}
          </ol>
        </section>
      ) : null}
    </>
  );
}

/** A registered team whose place is not confirmed yet: why there are no room details, and the way to pay. */
function AwaitingPayment({ rid, paymentStatus }: { rid: number; paymentStatus: string }) {
  const why: Record<string, { detail: string; link: string }> = {
    submitted: { detail: 'The organiser is checking your UPI reference.', link: 'See your payment' },
    rejected: { detail: 'The organiser could not match your payment.', link: 'Check your UTR and send it again' },
  };
  const { detail, link } = why[paymentStatus] ?? { detail: '', link: 'Pay the entry fee' };
  return (
    <p className="notice">
      Room details appear once your payment is verified. {detail ? `${detail} ` : null}
      <Link to={`/payment?rid=${rid}`}>{link}</Link>
    </p>
  );
}

function MatchCard({
  match: m,
  title,
  label,
  next = false,
  tournamentName,
  zone,
  registered,
  announce,
}: {
  match: ScheduleMatch;
  /** Default "Match N" (under its day's heading). */
  title?: string;
  /** The team's stage, group and slot: "Qualifiers · Group C · Slot 7". */
  label?: string;
  next?: boolean;
  tournamentName: string;
  zone: { short: string; long: string };
  registered: boolean;
  announce: (message: string) => void;
}) {
  const time = formatMatchTime(m.time);
  const headingId = `match-${m.id}`;
  return (
    <article className={next ? 'match match-next' : 'match'} aria-labelledby={headingId}>
      {next ? <p className="next-badge">Next match</p> : null}
      <header className="match-h">
        <h3 id={headingId}>{title ?? `Match ${m.matchNo}`}</h3>
        <p className="match-meta">
          <span>{m.map}</span>
          <time className="match-time" dateTime={time}>
            {time} <abbr title={zone.long}>{zone.short}</abbr>
          </time>
        </p>
      </header>
      {label ? <p className="match-slot">{label}</p> : null}
      {!registered ? null : hasRoom(m) ? (
        <div className="room">
          <dl className="room-kv">
            <RoomValue label="Room ID" value={m.matchId} matchNo={m.matchNo} announce={announce} />
            <RoomValue label="Password" value={m.password} matchNo={m.matchNo} announce={announce} />
          </dl>
          {canShareRoom(m) ? (
            <a
              className="button room-share"
              href={whatsAppShareUrl(roomShareText(tournamentName, m, zone.short))}
              target="_blank"
              rel="noopener noreferrer"
            >
              Share on WhatsApp<span className="visually-hidden"> (match {m.matchNo}, opens in a new tab)</span>
            </a>
          ) : null}
        </div>
      ) : (
        <p className="room-wait">Room details will appear here before the match.</p>
      )}
    </article>
  );
}

function RoomValue({
  label,
  value,
  matchNo,
  announce,
}: {
  label: string;
  value: string | null;
  matchNo: number;
  announce: (message: string) => void;
}) {
  return (
    <div>
      <dt>{label}</dt>
      <dd>
        {value ? (
          <>
            <code className="room-v">{value}</code>
            <CopyButton value={value} label={`${label} of match ${matchNo}`} announce={announce} />
          </>
        ) : (
          <span className="muted">Not set yet</span>
        )}
      </dd>
    </div>
  );
}

/** Only once JavaScript runs (and the browser offers the clipboard): without it the text is there to select. */
function CopyButton({ value, label, announce }: { value: string; label: string; announce: (message: string) => void }) {
  const hydrated = useHydrated();
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    if (!copied) return;
    const timer = window.setTimeout(() => setCopied(false), 2000);
    return () => window.clearTimeout(timer);
  }, [copied]);
  if (!hydrated || typeof navigator === 'undefined' || !navigator.clipboard?.writeText) return null;
  return (
    <button
      type="button"
      className="button button-secondary room-copy"
      onClick={() => {
        navigator.clipboard.writeText(value).then(
          () => {
            setCopied(true);
            announce(`Copied ${label}.`);
          },
          () => announce('Could not copy. Select the text and copy it instead.'),
        );
      }}
    >
      {copied ? 'Copied' : 'Copy'}
      <span className="visually-hidden"> {label}</span>
    </button>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
