import type { KeenSliderOptions } from 'keen-slider';

/** Home carousel constants (spec §9). keen-slider itself is imported only in components/carousel.client.tsx. */
export const AUTOPLAY_INTERVAL_MS = 5000;
export const SLIDE_TRANSITION_MS = 700;
/** perView 1.25 makes each slide 80% of the track's width. */
const CENTRED_PER_VIEW = 1.25;
const SLIDE_GAP_PX = 12;

/** Loop and centred 80% slides only with more than one tournament; one tournament is a single still slide. */
export function carouselOptions(count: number): KeenSliderOptions {
  const animation = { defaultAnimation: { duration: SLIDE_TRANSITION_MS } };
  if (count <= 1) return { ...animation, loop: false, drag: false, slides: { perView: 1, spacing: 0 } };
  return { ...animation, loop: true, slides: { origin: 'center', perView: CENTRED_PER_VIEW, spacing: SLIDE_GAP_PX } };
}

/** Autoplay runs only with several slides, and never while paused, hovered, focused or under reduced motion. */
export function autoplayRuns(state: {
  count: number;
  paused: boolean;
  hovered: boolean;
  focused: boolean;
  reducedMotion: boolean;
}): boolean {
  return state.count > 1 && !state.paused && !state.hovered && !state.focused && !state.reducedMotion;
}
