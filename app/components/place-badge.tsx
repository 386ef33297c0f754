import type { PlaceView } from '~/utils/places';

/** A team's state in the product's words ("waitlist #3", "pending payment (pay by 21:00)"). */
export function PlaceBadge({ view }: { view: Pick<PlaceView, 'words' | 'tone'> }) {
  return <span className={`place place-${view.tone}`}>{view.words}</span>;
}
