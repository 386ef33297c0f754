import { Fact } from '~/components/fact';
import type { PlacementView } from '~/utils/stages';

/** A team's stage, group and slot in each published stage, and its result once the stage is completed (issue 18). */
export function PlacementLines({ placements }: { placements: readonly PlacementView[] }) {
  return (
    <ul className="placements">
      {placements.map((p) => (
        <li key={p.stageId}>
          <span className="placement">{p.label}</span>
          {p.outcome ? (
            <>
              <br />
              <span className="outcome">{p.outcome}</span>
            </>
          ) : null}
        </li>
      ))}
    </ul>
  );
}

/** The same inside a <dl className="kv">; nothing for a team in no stage (a tournament without stages). */
export function PlacementFact({ placements }: { placements: readonly PlacementView[] }) {
  if (placements.length === 0) return null;
  return (
    <Fact label={placements.length === 1 ? 'Group' : 'Groups'}>
      <PlacementLines placements={placements} />
    </Fact>
  );
}
