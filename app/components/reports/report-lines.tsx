import { Link } from '@remix-run/react';
import '~/styles/reports.css';

/** What the team page and a room card show of a match's report (reportLines in utils/reports.server). */
export interface ReportLineView {
  key: string;
  title: string;
  words: string;
  href: string;
  linkText: string;
  due: boolean;
}

/** The key a schedule's match finds its line by (groupId 0 outside groups). */
export const reportKey = (day: number, match: number, groupId: number | null | undefined) => `${day}.${match}.${groupId ?? 0}`;

/** The team page: each match with a report due, reported or confirmed; nothing when there is none. */
export function ReportLines({ lines }: { lines: ReportLineView[] }) {
  if (lines.length === 0) return null;
  return (
    <section className="report-lines" aria-labelledby="report-lines-title">
      <h2 id="report-lines-title">Match results</h2>
      <ul>
        {lines.map((line) => (
          <li key={line.key} className={line.due ? 'report-line report-due' : 'report-line'}>
            <strong>{line.title}</strong>
            <span className="report-words">{line.words}</span>
            <ReportLink line={line} />
          </li>
        ))}
      </ul>
    </section>
  );
}

/** A room card's line: the way to report when it is due, else where the report stands. */
export function ReportCardLine({ line }: { line: ReportLineView }) {
  return (
    <p className={line.due ? 'report-line report-due' : 'report-line'}>
      <span className="report-words">{line.words}</span> <ReportLink line={line} />
    </p>
  );
}

function ReportLink({ line }: { line: ReportLineView }) {
  return (
    <Link className={line.due ? 'button report-link' : 'report-link'} to={line.href}>
      {line.linkText}
      <span className="visually-hidden"> ({line.title})</span>
    </Link>
  );
}
