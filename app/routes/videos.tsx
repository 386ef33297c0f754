import { type LoaderFunctionArgs, type MetaFunction, data } from '@remix-run/node';
import { Link, useLoaderData, useLocation } from '@remix-run/react';
import { useState } from 'react';
import { GeneralErrorBoundary } from '~/components/error-page';
import { PlaylistSection, type PlaylistView } from '~/components/playlist-section';
import { loaderCacheHeaders, publicPageHeaders } from '~/utils/public-cache.server';
import { FIRST_VIDEOS, MORE_VIDEOS, moreSearch, parseMore, videoAnchor } from '~/utils/videos';
import { getYouTube } from '~/utils/youtube.server';
import '~/styles/screens.css';
import '~/styles/videos.css';

export const meta: MetaFunction = () => [
  { title: 'Videos | Custom Room' },
  { name: 'description', content: 'Match highlights, finals and how-to guides from the Custom Room YouTube channel.' },
];

export const headers = loaderCacheHeaders;

/**
 * The channel's playlists, each cut to the count the URL asks for (?more=ID:10), so the hydration data
 * carries only the videos on screen. YouTube trouble is never an error page: the cached copy, or a
 * notice with status 200 while the rest of the site works.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const youtube = getYouTube();
  if (!youtube) return data({ status: 'not-configured' as const }, { headers: publicPageHeaders(request) });
  let channel;
  try {
    channel = await youtube.channelPlaylists();
  } catch {
    return data({ status: 'failed' as const }, { headers: { 'Cache-Control': 'no-store' } });
  }
  if (channel.playlists.length === 0) return data({ status: 'empty' as const }, { headers: publicPageHeaders(request) });

  const counts = parseMore(new URL(request.url).searchParams);
  const order = channel.playlists.map((p) => p.id);
  const playlists = channel.playlists.map((p): PlaylistView => {
    if (!p.videos) return { id: p.id, title: p.title, total: 0, videos: null, seeMore: null };
    const shown = Math.min(p.videos.length, counts.get(p.id) ?? FIRST_VIDEOS);
    const seeMore =
      shown < p.videos.length
        ? `/videos${moreSearch(order, new Map(counts).set(p.id, shown + MORE_VIDEOS))}#${videoAnchor(p.id, shown + 1)}`
        : null;
    return { id: p.id, title: p.title, total: p.videos.length, videos: p.videos.slice(0, shown), seeMore };
  });
  return data({ status: 'ok' as const, playlists }, { headers: publicPageHeaders(request) });
}

export default function Videos() {
  const page = useLoaderData<typeof loader>();
  const location = useLocation();
  // One player at a time, and only once the visitor asks for it.
  const [playing, setPlaying] = useState<string | null>(null);

  return (
    <div className="videos">
      <h1>Videos</h1>
      <p className="lead">Match highlights, finals and how-to guides from our YouTube channel.</p>
      {page.status === 'not-configured' ? (
        <p className="nothing">Videos are not configured on this site yet.</p>
      ) : page.status === 'failed' ? (
        <div className="notice" role="alert">
          <p>Failed to load playlists.</p>
          <p>
            <Link to={`/videos${location.search}`} className="button button-secondary">
              Try again
            </Link>
          </p>
        </div>
      ) : page.status === 'empty' ? (
        <p className="nothing">No videos yet.</p>
      ) : (
        page.playlists.map((p, i) => <PlaylistSection key={p.id} playlist={p} first={i === 0} playing={playing} onPlay={setPlaying} />)
      )}
    </div>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
