import { useEffect, useState } from 'react';
import { useHydrated } from 'remix-utils/use-hydrated';
import { ReportCardLine, type ReportLineView } from '~/components/reports/report-lines';
import { formatMatchTime } from '~/utils/format';
import { canShareRoom, hasRoom, roomShareText, whatsAppShareUrl, type ScheduleMatch } from '~/utils/matches';

/** One match: its map and time, and for a team that may see them, the room ID and password to copy or share. */
export function MatchCard({
  match: m,
  title,
  label,
  next = false,
  tournamentName,
  zone,
  registered,
  announce,
  report,
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
  /** Issue 30: where the team's report of this match stands ("Report your result" when due). */
  report?: ReportLineView;
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
      {report ? <ReportCardLine line={report} /> : null}
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
