import type { PlaceView } from '~/utils/places';

/** A team's state in the product's words ("waitlist #3", "pending payment (pay by 21:00)"). */
export function PlaceBadge({ view, className }: { view: Pick<PlaceView, 'words' | 'tone'>; className?: string }) {
  return <span className={`${className ? `${className} ` : ''}place place-${view.tone}`}>{view.words}</span>;
}
