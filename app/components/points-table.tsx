import type { PointsRow } from '~/utils/gateway.server';

export type PointsTableRow = Pick<PointsRow, 'rank' | 'teamName' | 'positionPoints' | 'finishes' | 'wins' | 'totalPoints'> &
  Partial<Pick<PointsRow, 'groupName' | 'slot'>> & {
    /** The signed-in viewer's own team (issue 20): marked in words, not by colour only. */
    mine?: boolean;
  };

/**
 * The standings table. At 360 px the six columns fit with short headings (screen readers always
 * hear the full ones); if a long team name still makes it wider, it scrolls sideways inside a
 * labelled, focusable region.
 */
export function PointsTable({
  rows,
  caption,
  id,
  showGroup = true,
  cut,
}: {
  rows: PointsTableRow[];
  caption: string;
  id: string;
  /** Stage tables (rows with a group): the Group column, unless the table is one group's. */
  showGroup?: boolean;
  /** A group's qualifying places (issue 27 item 23): the first `cut` rows, with a line below them. */
  cut?: number;
}) {
  // Only stage tables carry groups and slots (decision 041): a tournament without stages keeps its six columns.
  const group = showGroup && rows.some((r) => r.groupName !== undefined);
  const slot = rows.some((r) => r.slot !== undefined);
  return (
    <div className="tscroll" role="region" aria-labelledby={id} tabIndex={0}>
      <table className={group || slot ? 'pt pt-grouped' : 'pt'}>
        <caption id={id}>{caption}</caption>
        <thead>
          <tr>
            <Heading short="#" long="Rank" />
            <th scope="col" className="pt-team">
              Team
            </th>
            {group ? <Heading short="Slot" long="Group and slot" /> : slot ? <Heading short="Slot" long="Slot" /> : null}
            <Heading short="Place" long="Placement points" />
            <Heading short="Fin." long="Finishes" />
            <Heading short="Wins" long="Wins" />
            <Heading short="Total" long="Total" />
          </tr>
        </thead>
        <tbody>
          {rows.map((r, i) => (
            <tr
              key={`${r.rank}-${r.teamName}`}
              className={[rowClass(r), cut !== undefined && i === cut - 1 ? 'pt-cut' : ''].filter(Boolean).join(' ') || undefined}
              aria-current={r.mine ? 'true' : undefined}
            >
              <td>
                {r.rank}
                {/* The line is drawn; screen readers hear it on each qualifying row. */}
                {cut !== undefined && i < cut ? <span className="visually-hidden"> (qualifies)</span> : null}
              </td>
              <th scope="row" className="pt-team">
                <TeamName name={r.teamName} mine={r.mine} />
              </th>
              {/* One column for both ("B·7"): eight columns would not fit 360 px. */}
              {group ? (
                <td className="pt-slot">{[r.groupName, r.slot].filter((x) => x !== undefined).join('·')}</td>
              ) : slot ? (
                <td>{r.slot ?? ''}</td>
              ) : null}
              <td>{r.positionPoints}</td>
              <td>{r.finishes}</td>
              <td>{r.wins}</td>
              <td className="pt-total">{r.totalPoints}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** top1-3 for the podium, pt-mine for the viewer's own team (issue 20). */
export const rowClass = (r: { rank: number; mine?: boolean }) =>
  [r.rank <= 3 ? `top top${r.rank}` : '', r.mine ? 'pt-mine' : ''].filter(Boolean).join(' ') || undefined;

/** The team's name; the viewer's own team also says so, in a badge screen readers read as "(your team)". */
export function TeamName({ name, mine }: { name: string; mine?: boolean }) {
  return (
    <>
      {name}
      {mine ? (
        <>
          {' '}
          <span className="pt-you" aria-hidden="true">
            You
          </span>
          <span className="visually-hidden">(your team)</span>
        </>
      ) : null}
    </>
  );
}

/** Narrow screens show the short label; the full one is always what assistive technology reads. */
export function Heading({ short, long }: { short: string; long: string }) {
  if (short === long) return <th scope="col">{long}</th>;
  return (
    <th scope="col">
      <span className="th-s" aria-hidden="true">
        {short}
      </span>
      <span className="th-l">{long}</span>
    </th>
  );
}
