/**
 * How many videos each playlist on /videos shows lives in the URL, so "See More" is a plain link that
 * works without JavaScript: `?more=PLAYLIST_ID:10` (repeated for several playlists). Spec §9: 5 at
 * first, 5 more per See More, at most 50.
 */

export interface Thumbnail {
  url: string;
  width: number;
  height: number;
}

export interface Video {
  id: string;
  title: string;
  thumbnail: Thumbnail;
}

export const FIRST_VIDEOS = 5;
export const MORE_VIDEOS = 5;
export const MAX_VIDEOS = 50;

const PLAYLIST_ID = /^[\w-]{2,64}$/;

/** The counts asked for in the URL, by playlist id; malformed entries are ignored, counts kept within 5..50. */
export function parseMore(params: URLSearchParams): Map<string, number> {
  const counts = new Map<string, number>();
  for (const value of params.getAll('more')) {
    for (const part of value.split(',')) {
      const at = part.lastIndexOf(':');
      if (at <= 0) continue;
      const id = part.slice(0, at);
      const n = Number(part.slice(at + 1));
      if (!PLAYLIST_ID.test(id) || !Number.isInteger(n)) continue;
      counts.set(id, Math.min(MAX_VIDEOS, Math.max(FIRST_VIDEOS, n)));
    }
  }
  return counts;
}

/** The query string showing `counts` (only counts beyond the first 5, in the page's playlist order); '' for none. */
export function moreSearch(order: string[], counts: Map<string, number>): string {
  const parts = order.filter((id) => (counts.get(id) ?? FIRST_VIDEOS) > FIRST_VIDEOS).map((id) => `more=${id}:${counts.get(id)}`);
  return parts.length ? `?${parts.join('&')}` : '';
}

/** The id of the n-th (1-based) video of a playlist on the page: See More lands on the first new one. */
export function videoAnchor(playlistId: string, n: number): string {
  return `v-${playlistId}-${n}`;
}

export const watchUrl = (videoId: string) => `https://www.youtube.com/watch?v=${encodeURIComponent(videoId)}`;
/** The privacy-enhanced player; only ever loaded after the visitor asks to play. */
export const embedUrl = (videoId: string) => `https://www.youtube-nocookie.com/embed/${encodeURIComponent(videoId)}?autoplay=1&rel=0`;
