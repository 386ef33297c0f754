import { lazy, Suspense } from 'react';
import { ClientOnly } from 'remix-utils/client-only';
import { TournamentSlide, type SlideTournament } from './tournament-slide';

// keen-slider arrives in its own chunk after hydration: the page is usable (and scrollable) before it.
const Carousel = lazy(() => import('./carousel.client').then((m) => ({ default: m.Carousel })));

/**
 * The home page's "Featured Tournaments". The server (and a browser without JavaScript) gets a
 * horizontally scrollable row with scroll snapping; after hydration keen-slider takes over with the
 * same slide markup. A single tournament is one still slide, no carousel at all.
 */
export function FeaturedCarousel({ tournaments, labelledBy }: { tournaments: SlideTournament[]; labelledBy: string }) {
  if (tournaments.length === 1) {
    return (
      <div className="fc-one">
        <TournamentSlide t={tournaments[0]!} priority />
      </div>
    );
  }
  const row = <SlideRow tournaments={tournaments} labelledBy={labelledBy} />;
  return (
    <ClientOnly fallback={row}>
      {() => (
        <Suspense fallback={row}>
          <Carousel tournaments={tournaments} labelledBy={labelledBy} />
        </Suspense>
      )}
    </ClientOnly>
  );
}

function SlideRow({ tournaments, labelledBy }: { tournaments: SlideTournament[]; labelledBy: string }) {
  return (
    <div className="fc" role="region" aria-labelledby={labelledBy}>
      {/* Where the carousel's controls go once JavaScript runs: same height, so nothing moves. */}
      <p className="fc-ctl fc-hint">Swipe or scroll sideways for all {tournaments.length} tournaments.</p>
      <ul className="srow">
        {tournaments.map((t, i) => (
          <li key={t.id}>
            <TournamentSlide t={t} priority={i === 0} />
          </li>
        ))}
      </ul>
    </div>
  );
}
