import { reportKey, type ReportLineView } from '~/components/reports/report-lines';
import { formatMatchTime } from '~/utils/format';
import { MatchCard } from './match-card';
import { matchTitle, ScheduleIntro } from './schedule-parts';
import type { StageScheduleData } from './schedule.server';

/** A tournament with stages: the team's own group first (with its rooms), every other group after, without rooms. */
export function StageSchedule({
  stages,
  tournamentName,
  zone,
  registered,
  registeredTeam,
  tid,
  announce,
  dates,
  reports,
}: {
  stages: StageScheduleData;
  dates: Record<number, string>;
  tournamentName: string;
  zone: { short: string; long: string };
  registered: boolean;
  registeredTeam: boolean;
  tid: number;
  announce: (message: string) => void;
  reports: Record<string, ReportLineView>;
}) {
  return (
    <>
      <ScheduleIntro zone={zone} tid={tid} roomsShown={registered || registeredTeam} />
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
                  report={reports[reportKey(m.day, m.matchNo, m.groupId)]}
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
      {stages.others.length > 0 ? <OtherGroups stages={stages} dates={dates} zone={zone} /> : null}
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
                  report={reports[reportKey(m.day, m.matchNo, m.groupId)]}
                />
              </li>
            ))}
          </ol>
        </section>
      ) : null}
    </>
  );
}

/** "A", "A and B", "A, B and C". */
const namesList = (names: readonly string[]) =>
  names.length < 2 ? (names[0] ?? '') : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;

/** Other groups' matches: their times only (the rooms are their teams'); groups playing at the same times once. */
function OtherGroups({
  stages,
  dates,
  zone,
}: {
  stages: StageScheduleData;
  dates: Record<number, string>;
  zone: { short: string; long: string };
}) {
  return (
    <section className="sched-day" aria-labelledby="other-groups">
      <h2 id="other-groups">{stages.own.length > 0 ? 'Other groups' : 'Groups'}</h2>
      {stages.others.map((g) => (
        <section key={g.groups[0]!.groupId} className="group-sched" aria-labelledby={`group-${g.groups[0]!.groupId}`}>
          <h3 id={`group-${g.groups[0]!.groupId}`}>
            {g.stageName} · {g.groups.length === 1 ? 'Group' : 'Groups'} {namesList(g.groups.map((x) => x.groupName))}
          </h3>
          <p className="fine">
            {g.groups.length === 1
              ? `Room details are shown to Group ${g.groups[0]!.groupName}'s teams.`
              : "Room details are shown to each group's own teams."}
          </p>
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
  );
}
