import 'keen-slider/keen-slider.min.css';
import type { KeenSliderOptions } from 'keen-slider';
import { useKeenSlider } from 'keen-slider/react';
import { useEffect, useMemo, useState, type FocusEvent } from 'react';
import { AUTOPLAY_INTERVAL_MS, autoplayRuns, carouselOptions } from '~/utils/carousel';
import { TournamentSlide, type SlideTournament } from './tournament-slide';

/** Browser-only (keen-slider touches the DOM): rendered inside <ClientOnly> by featured-carousel.tsx. */
export function Carousel({ tournaments, labelledBy }: { tournaments: SlideTournament[]; labelledBy: string }) {
  const count = tournaments.length;
  const [current, setCurrent] = useState(0);
  const [paused, setPaused] = useState(false);
  const [hovered, setHovered] = useState(false);
  const [focused, setFocused] = useState(false);
  const reducedMotion = usePrefersReducedMotion();

  const options = useMemo<KeenSliderOptions>(
    () => ({ ...carouselOptions(count), slideChanged: (s) => setCurrent(s.track.details.rel) }),
    [count],
  );
  const [sliderRef, slider] = useKeenSlider<HTMLDivElement>(options);

  const running = autoplayRuns({ count, paused, hovered, focused, reducedMotion });
  useEffect(() => {
    if (!running) return;
    // Re-armed on every slide change, so a swipe also restarts the 5 s wait.
    const timer = window.setTimeout(() => slider.current?.next(), AUTOPLAY_INTERVAL_MS);
    return () => window.clearTimeout(timer);
  }, [running, current, slider]);

  function onFocus(event: FocusEvent<HTMLDivElement>) {
    setFocused(true);
    const instance = slider.current;
    const slide = (event.target as HTMLElement).closest<HTMLElement>('[data-idx]');
    if (!instance || !slide) return;
    // The browser scrolls the overflow:hidden track to reveal a focused link; undo that and let keen-slider move instead.
    instance.container.scrollLeft = 0;
    const idx = Number(slide.dataset.idx);
    if (instance.track.details.rel !== idx) instance.moveToIdx(idx);
  }

  function onBlur(event: FocusEvent<HTMLDivElement>) {
    if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setFocused(false);
  }

  return (
    <div className="fc" role="region" aria-roledescription="carousel" aria-labelledby={labelledBy} onFocus={onFocus} onBlur={onBlur}>
      {/* Before the slides (WCAG 2.2.2): Pause is reached before the moving content, not after every slide link. */}
      <div className="fc-ctl">
        {reducedMotion ? null : (
          <button
            type="button"
            className="button button-secondary"
            onClick={() => {
              // Pressing Play is explicit: it resumes even though focus is now inside the carousel.
              setFocused(false);
              setPaused((p) => !p);
            }}
          >
            {paused ? 'Play' : 'Pause'}
            <span className="visually-hidden"> slideshow</span>
          </button>
        )}
        <button type="button" className="button button-secondary cb" onClick={() => slider.current?.prev()}>
          <span aria-hidden="true">‹</span>
          <span className="visually-hidden">Previous tournament</span>
        </button>
        <span className="fc-pos" aria-hidden="true">
          {current + 1} / {count}
        </span>
        <button type="button" className="button button-secondary cb" onClick={() => slider.current?.next()}>
          <span aria-hidden="true">›</span>
          <span className="visually-hidden">Next tournament</span>
        </button>
      </div>
      <div
        ref={sliderRef}
        className="keen-slider"
        aria-live={running ? 'off' : 'polite'}
        onMouseEnter={() => setHovered(true)}
        onMouseLeave={() => setHovered(false)}
        onScroll={(e) => (e.currentTarget.scrollLeft = 0)}
      >
        {tournaments.map((t, i) => (
          <div
            key={t.id}
            className="keen-slider__slide"
            role="group"
            aria-roledescription="slide"
            aria-label={`${i + 1} of ${count}`}
            data-idx={i}
          >
            {/* The centred slide and its two visible neighbours load at once; the rest when they come near. */}
            <TournamentSlide t={t} priority={i === 0} eager={i === 1 || i === count - 1} />
          </div>
        ))}
      </div>
    </div>
  );
}

function usePrefersReducedMotion(): boolean {
  const query = '(prefers-reduced-motion: reduce)';
  const [reduced, setReduced] = useState(() => window.matchMedia(query).matches);
  useEffect(() => {
    const list = window.matchMedia(query);
    const onChange = () => setReduced(list.matches);
    list.addEventListener('change', onChange);
    return () => list.removeEventListener('change', onChange);
  }, []);
  return reduced;
}
