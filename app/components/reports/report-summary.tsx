import '~/styles/reports.css';

export interface ReportSummaryView {
  position: number;
  finishes: number;
  players: { ign: string; finishes: number; onTeam: boolean }[];
  /** The web's proxy path of the screenshot (private: the team and the staff). */
  screenshot: string;
  /** When it was last edited, if it was. */
  updated: string | null;
}

/** The team's report as it stands: placement, each player's finishes, the screenshot (tap for the full size). */
export function ReportSummary({ report }: { report: ReportSummaryView }) {
  return (
    <article className="report-summary" aria-labelledby="report-summary-title">
      <h2 id="report-summary-title">Your report</h2>
      <div className="report-summary-body">
        <a className="report-shot" href={report.screenshot} target="_blank" rel="noreferrer">
          <img src={report.screenshot} alt="Your screenshot of the result screen" width={160} height={90} loading="lazy" />
          <span className="visually-hidden"> (full size, opens in a new tab)</span>
        </a>
        <dl className="kv report-kv">
          <div>
            <dt>Placement</dt>
            <dd>#{report.position}</dd>
          </div>
          <div>
            <dt>Finishes</dt>
            <dd>{report.finishes}</dd>
          </div>
        </dl>
      </div>
      <ul className="report-players-list">
        {report.players.map((p) => (
          <li key={p.ign}>
            <span className="mono">{p.ign}</span> · {p.finishes} {p.finishes === 1 ? 'finish' : 'finishes'}
            {p.onTeam ? null : <span className="fine"> (not on the team’s roster)</span>}
          </li>
        ))}
      </ul>
      {report.updated ? <p className="fine">Edited {report.updated}.</p> : null}
    </article>
  );
}
