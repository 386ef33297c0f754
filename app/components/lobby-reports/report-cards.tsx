import { Fragment } from 'react';
import type { LobbyPage } from '~/utils/lobby-reports.server';

type Report = LobbyPage['reports'][number];

/**
 * Issue 30 (decision 075): the reports of one group-match in placement order, each beside its screenshot.
 * A phone shows 25 of them: the screenshot is a small thumbnail in the row; tapping it opens the full image
 * in place (a <details>, no JavaScript), and its link opens the image alone.
 */
export function ReportCards({ reports }: { reports: readonly Report[] }) {
  if (reports.length === 0) return <p className="nothing">No team has reported yet.</p>;
  return (
    <ol className="lr-reports" aria-label="Reports in placement order">
      {reports.map((r) => (
        <ReportCard key={r.id} report={r} />
      ))}
    </ol>
  );
}

function ReportCard({ report: r }: { report: Report }) {
  return (
    <li id={`report-${r.teamId}`} className={r.conflict || r.same.length ? 'lr-report lr-flagged' : 'lr-report'}>
      <Screenshot report={r} />
      <div className="lr-body">
        <p className="lr-team">
          <span className="lr-place" aria-label={`Placement ${r.position}`}>
            #{r.position}
          </span>{' '}
          <strong>{r.teamName}</strong> · {r.finishes} {r.finishes === 1 ? 'finish' : 'finishes'}
        </p>
        <ul className="lr-players" aria-label={`${r.teamName}’s players`}>
          {r.players.map((p) => (
            <li key={p.ign} className={p.onTeam ? undefined : 'lr-stranger'}>
              {p.ign} {p.finishes}
              {p.onTeam ? null : <span className="lr-flag"> (not on the team)</span>}
            </li>
          ))}
        </ul>
        <p className="fine">
          By {r.by}, {r.at}
          {r.edited ? ` · edited ${r.edited}` : ''}
        </p>
        {r.same.map((words) => (
          <p key={words} className="ops-attention lr-same">
            <span aria-hidden="true">⚠ </span>
            {words}
          </p>
        ))}
      </div>
    </li>
  );
}

function Screenshot({ report: r }: { report: Report }) {
  const alt = `${r.teamName}’s result screen`;
  return (
    <details className="lr-shot">
      <summary>
        <img src={r.screenshot} alt={alt} loading="lazy" width={64} height={36} />
        <span className="visually-hidden"> (enlarge)</span>
      </summary>
      <div className="lr-shot-large">
        <img src={r.screenshot} alt="" loading="lazy" />
        <a href={r.screenshot} target="_blank" rel="noreferrer">
          Open the full image
        </a>
      </div>
    </details>
  );
}

/** The conflicts at the top, each naming its teams, linked to their reports (or their rows of the form). */
export function Conflicts({ conflicts }: { conflicts: LobbyPage['conflicts'] }) {
  if (conflicts.length === 0) return null;
  return (
    <section className="notice lr-conflicts" aria-labelledby="lr-conflicts-title">
      <h2 id="lr-conflicts-title">{conflicts.length === 1 ? '1 conflict' : `${conflicts.length} conflicts`} in the reports</h2>
      <ul>
        {conflicts.map((c) => (
          <li key={`${c.kind}-${c.message}`}>
            {c.message} (
            {c.teams.map((team, i) => (
              <Fragment key={team.href}>
                {i > 0 ? ', ' : null}
                <a href={team.href}>{team.name}</a>
              </Fragment>
            ))}
            )
          </li>
        ))}
      </ul>
    </section>
  );
}

/** Screenshots still being compared with earlier reports (decision 077): a same-screenshot conflict may yet appear. */
export function Checking({ checking, here }: { checking: number; here: string }) {
  if (checking === 0) return null;
  return (
    <p className="ops-attention" role="status">
      {checking === 1 ? '1 screenshot is' : `${checking} screenshots are`} still being compared with earlier reports (a few seconds): a
      reused screenshot may still show up. <a href={here}>Reload</a> before you confirm.
    </p>
  );
}

/** The teams of the lobby that have not reported (their rows below are empty, to fill in). */
export function Missing({ missing }: { missing: LobbyPage['missing'] }) {
  if (missing.length === 0) return <p className="fine">Every team has reported.</p>;
  return (
    <p className="ops-attention" id="missing">
      Not reported ({missing.length}): {missing.map((m) => (m.slot ? `#${m.slot} ${m.teamName}` : m.teamName)).join(', ')}.
    </p>
  );
}
