// The spec's path is singular (/tournament/:id/matches), so this page sits outside the /tournaments/:id layout.
import { type ActionFunctionArgs, data, type HeadersFunction, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node';
import { Link, useLoaderData } from '@remix-run/react';
import { useCallback, useState } from 'react';
import { TOURNAMENT_NOT_FOUND } from '@custom-room/contract/constants';
import { CheckInForms } from '~/components/check-in-button';
import { Dashboard } from '~/components/dashboard-nav';
import { GeneralErrorBoundary } from '~/components/error-page';
import { reportKey, type ReportLineView } from '~/components/reports/report-lines';
import { checkInAction } from '~/utils/check-in.server';
import { groupByDay, seesRoomDetails, type ScheduleDay, type ScheduleMatch } from '~/utils/matches';
import { requireTournamentId } from '~/utils/route-params.server';
import { requireUser } from '~/utils/session.server';
import { parseTournamentId } from '~/utils/tournament';
import { MatchCard } from './match-card';
import { dayTitle, ScheduleIntro } from './schedule-parts';
import { loadSchedule } from './schedule.server';
import { StageSchedule } from './stage-schedule';
import '~/styles/places.css';
import '~/styles/screens.css';
import '~/styles/stages.css';

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data ? `Matches: ${data.t.name} | Custom Room` : 'Matches | Custom Room' },
  { name: 'description', content: 'Match schedule by day, with room ID and password for confirmed teams.' },
];

// Room IDs and passwords: never in a shared cache, nor shown again from the browser's cache after logout.
export const headers: HeadersFunction = () => ({ 'Cache-Control': 'private, no-store' });

export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireUser(request);
  const id = parseTournamentId(params.tournamentId);
  if (id === null) throw data({ message: TOURNAMENT_NOT_FOUND }, { status: 404 });
  return loadSchedule(request, id);
}

export async function action({ request, params }: ActionFunctionArgs) {
  await requireUser(request);
  const id = requireTournamentId(params.tournamentId);
  return checkInAction(request, id, await request.formData(), `/tournament/${id}/matches`);
}

export default function MatchesPage() {
  const { t, dates, zone, matches, stages, registeredTeam, awaitingPayment, checkIns, calendar, reports } = useLoaderData<typeof loader>();
  const [announcement, setAnnouncement] = useState('');
  const announce = useCallback((message: string) => {
    // Cleared first so the same message twice is announced twice.
    setAnnouncement('');
    window.setTimeout(() => setAnnouncement(message), 50);
  }, []);

  const days = groupByDay(matches);
  const registered = seesRoomDetails(stages ? stages.own : matches);

  return (
    <Dashboard>
      <section className="sched" aria-labelledby="matches-title">
        <p className="crumb">
          <Link to={`/tournaments/${t.id}`}>{t.name}</Link>
        </p>
        <h1 id="matches-title">Matches</h1>
        {calendar ? (
          <p className="sched-calendar">
            {/* A plain link: the file downloads with or without JavaScript, and Remix does not fetch it as a page. */}
            <a className="button button-secondary" href={calendar} download>
              Add to calendar
            </a>
          </p>
        ) : null}
        <CheckInForms offers={checkIns} />
        {!registered && awaitingPayment ? (
          <AwaitingPayment rid={awaitingPayment.rid} paymentStatus={awaitingPayment.paymentStatus} />
        ) : null}
        {stages ? (
          <StageSchedule
            stages={stages}
            tournamentName={t.name}
            zone={zone}
            registered={registered}
            registeredTeam={registeredTeam}
            tid={t.id}
            announce={announce}
            dates={dates}
            reports={reports}
          />
        ) : days.length === 0 ? (
          <p className="nothing">No matches found.</p>
        ) : (
          <DaySchedule
            days={days}
            dates={dates}
            tid={t.id}
            tournamentName={t.name}
            zone={zone}
            registered={registered}
            registeredTeam={registeredTeam}
            announce={announce}
            reports={reports}
          />
        )}
        <p className="visually-hidden" role="status" aria-live="polite">
          {announcement}
        </p>
      </section>
    </Dashboard>
  );
}

/** A tournament without stages: every match under its day's heading. */
function DaySchedule({
  days,
  dates,
  tid,
  tournamentName,
  zone,
  registered,
  registeredTeam,
  announce,
  reports,
}: {
  days: ScheduleDay<ScheduleMatch & { groupId: number | null }>[];
  dates: Record<number, string>;
  tid: number;
  tournamentName: string;
  zone: { short: string; long: string };
  registered: boolean;
  registeredTeam: boolean;
  announce: (message: string) => void;
  reports: Record<string, ReportLineView>;
}) {
  return (
    <>
      <ScheduleIntro zone={zone} tid={tid} roomsShown={registered || registeredTeam} />
      {days.map(({ day, matches }) => (
        <section key={day} className="sched-day" aria-labelledby={`day-${day}`}>
          <h2 id={`day-${day}`}>{dayTitle(day, dates)}</h2>
          <ol className="sched-list">
            {matches.map((m) => (
              <li key={m.id}>
                <MatchCard
                  match={m}
                  tournamentName={tournamentName}
                  zone={zone}
                  registered={registered}
                  announce={announce}
                  report={reports[reportKey(m.day, m.matchNo, m.groupId)]}
                />
              </li>
            ))}
          </ol>
        </section>
      ))}
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

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
