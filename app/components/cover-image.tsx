import { coverSources, type Cover } from '~/utils/images';
import '~/styles/screens.css';

/**
 * A tournament cover: the 800 px WebP with 400/800/1200 candidates, explicit width/height and a CSS
 * aspect ratio so nothing shifts while it loads. `frame` crops every cover to 16:9 (cards, slides);
 * `natural` keeps the upload's own ratio (detail page). No cover: a same-size placeholder in a frame (a slide
 * keeps its shape), and nothing at all on the detail page (issue 27: not an empty box of a screen's third).
 * Loading: lazy by default; `eager` for covers that may be in the first screen; `priority` for the one
 * that is the page's largest paint (eager and fetched first, ahead of the scripts). See decision 025.
 */
export function CoverImage({
  cover,
  alt,
  sizes,
  eager = false,
  priority = false,
  fit = 'frame',
}: {
  cover: Cover | null;
  alt: string;
  sizes: string;
  eager?: boolean;
  priority?: boolean;
  fit?: 'frame' | 'natural';
}) {
  const s = coverSources(cover);
  const cls = fit === 'frame' ? 'cv cv-f' : 'cv';
  if (!s) return fit === 'frame' ? <div className={`${cls} cv-ph`} aria-hidden="true" /> : null;
  return (
    <img
      className={cls}
      src={s.src}
      srcSet={s.srcSet}
      sizes={s.srcSet ? sizes : undefined}
      width={s.width}
      height={s.height}
      alt={alt}
      loading={eager || priority ? 'eager' : 'lazy'}
      // React 18 does not know fetchPriority (19 does) and warns about the camel-case name; lowercase passes through.
      {...(priority ? { fetchpriority: 'high' } : null)}
      decoding={priority ? undefined : 'async'}
    />
  );
}
