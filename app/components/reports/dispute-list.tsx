import '~/styles/reports.css';

export interface DisputeItem {
  id: number;
  state: 'open' | 'upheld' | 'dismissed';
  stateWords: string;
  title: string;
  about: string;
  by: string;
  filedAt: string;
  reason: string;
  resolution: string | null;
  resolved: string | null;
  screenshot: string | null;
}

/** A team's disputes, newest as the gateway orders them: what, by whom, and what the staff decided. */
export function DisputeList({ disputes }: { disputes: DisputeItem[] }) {
  if (disputes.length === 0) return <p className="nothing">No disputes filed by or about your team.</p>;
  return (
    <ul className="dispute-list">
      {disputes.map((d) => (
        <li key={d.id} className={`dispute dispute-${d.state}`}>
          <h3>
            {d.title}: {d.about}
          </h3>
          <p>
            <strong>{d.stateWords}.</strong> {d.state === 'open' ? 'The tournament staff will uphold or dismiss it.' : null}
            {d.state !== 'open' && d.resolution ? (
              <>
                {d.state === 'dismissed' ? 'Reason: ' : ''}
                {d.resolution}
              </>
            ) : null}
            {d.resolved ? <span className="fine"> ({d.resolved})</span> : null}
          </p>
          <p className="fine">
            Filed by {d.by}, {d.filedAt}: “{d.reason}”
          </p>
          {d.screenshot ? (
            <p>
              <a href={d.screenshot} target="_blank" rel="noreferrer">
                See the screenshot<span className="visually-hidden"> (opens in a new tab)</span>
              </a>
            </p>
          ) : null}
        </li>
      ))}
    </ul>
  );
}
