import type { PlayerStats } from '@custom-room/contract';
import { ShareLinks } from './points-extras';
import { Heading, rowClass } from './points-table';

/** The most rows the gateway answers for Top fraggers (decision 071). */
const PLAYERS_SHOWN = 100;

/**
 * Top fraggers (issue 30, decision 076): each player's finishes in the teams' confirmed reports, in the
 * points table's look. Five short columns fit 360 px; a long name scrolls inside the labelled region.
 */
export function TopFraggers({ rows, caption, id }: { rows: PlayerStats; caption: string; id: string }) {
  if (rows.length === 0) return <p className="nothing">No player finishes yet: they come from the teams&apos; confirmed reports.</p>;
  return (
    <>
      <div className="tscroll" role="region" aria-labelledby={id} tabIndex={0}>
        <table className="pt pt-players">
          <caption id={id}>{caption}</caption>
          <thead>
            <tr>
              <Heading short="#" long="Rank" />
              <th scope="col" className="pt-team">
                Player
              </th>
              <th scope="col" className="pt-player-team">
                Team
              </th>
              <Heading short="Fin." long="Finishes" />
              <Heading short="M" long="Matches" />
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={`${r.teamId}-${r.ign}`} className={rowClass(r)}>
                <td>{r.rank}</td>
                <th scope="row" className="pt-team">
                  {r.ign}
                </th>
                <td className="pt-player-team">{r.teamName}</td>
                <td className="pt-total">{r.finishes}</td>
                <td>{r.matches}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {rows.length >= PLAYERS_SHOWN ? <p className="fine">The top {PLAYERS_SHOWN} players are shown.</p> : null}
    </>
  );
}

/** Issue 30: the matches whose results may still be disputed, above the table. */
export function ProvisionalNotes({ notes }: { notes: { key: string; text: string; until: string }[] }) {
  if (notes.length === 0) return null;
  return (
    <ul className="pt-provisional" aria-label="Provisional results">
      {notes.map((n) => (
        <li key={n.key}>{n.text}</li>
      ))}
    </ul>
  );
}

/** The Top fraggers view of the points page: the list (or its empty state), sharing, and how players are ranked. */
export function PlayersView({
  players,
  whatsApp,
}: {
  players: { rows: PlayerStats; scope: string | null; image: string };
  whatsApp: string;
}) {
  return (
    <>
      <TopFraggers rows={players.rows} id="pt-caption" caption={`Top fraggers: ${players.scope ?? 'the whole tournament'}`} />
      <ShareLinks whatsApp={whatsApp} image={players.rows.length > 0 ? players.image : undefined} />
      <p className="fine">
        Finishes from the teams&apos; confirmed reports. Players level on finishes are ranked by fewer matches; level on both, they share a
        rank.
      </p>
    </>
  );
}
