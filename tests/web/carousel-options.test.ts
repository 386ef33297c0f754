import { describe, expect, it } from 'vitest';
import { AUTOPLAY_INTERVAL_MS, SLIDE_TRANSITION_MS, autoplayRuns, carouselOptions } from '~/utils/carousel';

describe('carouselOptions', () => {
  it('loops with centred 80% slides and a 700 ms transition when there are several tournaments', () => {
    for (const count of [2, 5, 20]) {
      const o = carouselOptions(count);
      expect(o.loop).toBe(true);
      expect(o.defaultAnimation).toEqual({ duration: 700 });
      expect(o.slides).toMatchObject({ origin: 'center', perView: 1.25 });
      expect(1 / (o.slides as { perView: number }).perView).toBe(0.8);
    }
  });

  it('is one still, full-width slide for a single tournament (and for none)', () => {
    for (const count of [0, 1]) {
      const o = carouselOptions(count);
      expect(o.loop).toBe(false);
      expect(o.drag).toBe(false);
      expect(o.slides).toMatchObject({ perView: 1 });
    }
  });

  it('uses the spec’s timings', () => {
    expect(AUTOPLAY_INTERVAL_MS).toBe(5000);
    expect(SLIDE_TRANSITION_MS).toBe(700);
  });
});

describe('autoplayRuns', () => {
  const base = { count: 3, paused: false, hovered: false, focused: false, reducedMotion: false };
  it('runs with several slides and nothing holding it', () => {
    expect(autoplayRuns(base)).toBe(true);
  });
  it('stops for one slide, the Pause button, hover, focus and reduced motion', () => {
    expect(autoplayRuns({ ...base, count: 1 })).toBe(false);
    expect(autoplayRuns({ ...base, paused: true })).toBe(false);
    expect(autoplayRuns({ ...base, hovered: true })).toBe(false);
    expect(autoplayRuns({ ...base, focused: true })).toBe(false);
    expect(autoplayRuns({ ...base, reducedMotion: true })).toBe(false);
  });
});
