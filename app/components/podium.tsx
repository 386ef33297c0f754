import { Link } from '@remix-run/react';
import { ordinal } from '@custom-room/contract/constants';

/** The top three of the last stage, once it is completed (issue 27, decision 051). */
export interface Podium {
  stageName: string;
  tableUrl: string;
  places: { rank: number; teamName: string; points: number }[];
}

/** The final podium on the tournament page: the champions first, then 2nd and 3rd, and the final table linked. */
export function PodiumSection({ podium }: { podium: Podium }) {
  const [champion] = podium.places;
  return (
    <section className="podium" aria-labelledby="td-podium">
      <h2 id="td-podium">Final standings</h2>
      {champion ? (
        <p className="podium-champ">
          Champions: <strong>{champion.teamName}</strong>
        </p>
      ) : null}
      <ol className="podium-list" aria-label="Podium">
        {podium.places.map((p) => (
          <li key={`${p.rank}-${p.teamName}`} className={`podium-${p.rank}`}>
            <span className="podium-rank">{ordinal(p.rank)}</span> <span className="podium-team">{p.teamName}</span>{' '}
            <span className="podium-pts">{p.points} pts</span>
          </li>
        ))}
      </ol>
      <p>
        <Link to={podium.tableUrl}>{podium.stageName} table: the final standings</Link>
      </p>
    </section>
  );
}
