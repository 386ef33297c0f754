import { Link } from '@remix-run/react';
import { rowClass, TeamName } from './points-table';

/** Issue 20 (decision 048, "The points page"): the table's two views, the per-match table, and sharing. */

/** "Standings", "Per match" and (issue 30) "Top fraggers" as links (plain GETs: they work without JavaScript). */
export function TableTabs({
  view,
  standings,
  matches,
  players,
}: {
  view: 'standings' | 'matches' | 'players';
  standings: string;
  matches: string;
  /** Top fraggers' link (the points page only). */
  players?: string;
}) {
  return (
    <nav aria-label="Table view" className="days pt-tabs">
      <ul>
        <li>
          <Link to={standings} aria-current={view === 'standings' ? 'page' : undefined} preventScrollReset>
            Standings
          </Link>
        </li>
        <li>
          <Link to={matches} aria-current={view === 'matches' ? 'page' : undefined} preventScrollReset>
            Per match
          </Link>
        </li>
        {players ? (
          <li>
            <Link to={players} aria-current={view === 'players' ? 'page' : undefined} preventScrollReset>
              Top fraggers
            </Link>
          </li>
        ) : null}
      </ul>
    </nav>
  );
}

export interface BreakdownView {
  /** provisional (issue 30): the match's results may still be disputed; its heading says so. */
  matches: { short: string; long: string; provisional?: boolean }[];
  rows: {
    rank: number;
    teamName: string;
    /** "B·7" on stage tables, "7" on a group's; absent without stages. */
    slot?: string;
    mine?: boolean;
    totalPoints: number;
    cells: { short: string; long: string }[];
  }[];
}

/**
 * Each team's placement and finishes in every match ("3 · 4"), in table order. However many matches,
 * the table scrolls sideways inside its own labelled, focusable region, never the page; the team
 * column stays in view.
 */
export function MatchBreakdown({ data, caption, id }: { data: BreakdownView; caption: string; id: string }) {
  const slot = data.rows.some((r) => r.slot !== undefined);
  return (
    <div className="tscroll" role="region" aria-labelledby={id} tabIndex={0}>
      <table className="pt pt-matches">
        <caption id={id}>{caption}</caption>
        <thead>
          <tr>
            <th scope="col">
              <span aria-hidden="true">#</span>
              <span className="visually-hidden">Rank</span>
            </th>
            <th scope="col" className="pt-team">
              Team
            </th>
            {slot ? <th scope="col">Slot</th> : null}
            {data.matches.map((m) => (
              <th scope="col" key={m.short}>
                <span aria-hidden="true">{m.short}</span>
                <span className="visually-hidden">{m.long}</span>
              </th>
            ))}
            <th scope="col">Total</th>
          </tr>
        </thead>
        <tbody>
          {data.rows.map((r) => (
            <tr key={`${r.rank}-${r.teamName}`} className={rowClass(r)} aria-current={r.mine ? 'true' : undefined}>
              <td>{r.rank}</td>
              <th scope="row" className="pt-team">
                <TeamName name={r.teamName} mine={r.mine} />
              </th>
              {slot ? <td className="pt-slot">{r.slot ?? ''}</td> : null}
              {r.cells.map((c, i) => (
                <td key={i} className="pt-cell">
                  <span aria-hidden="true">{c.short}</span>
                  <span className="visually-hidden">{c.long}</span>
                </td>
              ))}
              <td className="pt-total">{r.totalPoints}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** "Share on WhatsApp": a wa.me link with the table's name and address, in a new tab. */
/** "Share on WhatsApp", and "Download image" (the table as a PNG to post, decision 049) when the table has rows. */
export function ShareLinks({ whatsApp, image }: { whatsApp: string; image?: string }) {
  return (
    <p className="pt-share">
      <a href={whatsApp} target="_blank" rel="noopener noreferrer" className="pt-share-wa">
        Share on WhatsApp<span className="visually-hidden"> (opens in a new tab)</span>
      </a>
      {image ? (
        <a href={image} download className="pt-share-image">
          Download image
        </a>
      ) : null}
    </p>
  );
}
