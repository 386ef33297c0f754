import { Link } from '@remix-run/react';
import { useEffect, useRef } from 'react';
import { useHydrated } from 'remix-utils/use-hydrated';
import { embedUrl, videoAnchor, watchUrl, type Video } from '~/utils/videos';

export interface PlaylistView {
  id: string;
  title: string;
  /** Public videos in the playlist (at most 50). */
  total: number;
  /** The ones on screen; null when they could not be loaded. */
  videos: Video[] | null;
  /** The link showing 5 more (the others' counts kept), or null when all are shown. */
  seeMore: string | null;
}

/** Thumbnails this high up the first playlist are in the first screen on a phone: not lazy. */
const EAGER_THUMBNAILS = 4;

/**
 * One playlist: light embeds (a thumbnail and a title linking to YouTube) and a See More link. With
 * JavaScript the thumbnail becomes a Play button that swaps in the youtube-nocookie player; before
 * that no player, iframe or YouTube script is loaded.
 */
export function PlaylistSection({
  playlist,
  first,
  playing,
  onPlay,
}: {
  playlist: PlaylistView;
  first: boolean;
  playing: string | null;
  onPlay: (videoId: string) => void;
}) {
  const hydrated = useHydrated();
  const list = useRef<HTMLUListElement>(null);
  const shown = playlist.videos?.length ?? 0;
  const previous = useRef(shown);

  // After See More (client navigation), keyboard focus moves to the first new video rather than staying below them.
  useEffect(() => {
    if (shown > previous.current) {
      list.current?.querySelectorAll<HTMLAnchorElement>('.vi-t')[previous.current]?.focus({ preventScroll: true });
    }
    previous.current = shown;
  }, [shown]);

  const headingId = `pl-${playlist.id}`;
  return (
    <section className="playlist" aria-labelledby={headingId}>
      <h2 id={headingId}>{playlist.title}</h2>
      {playlist.videos === null ? (
        <p className="notice">Failed to load this playlist&apos;s videos.</p>
      ) : (
        <>
          <ul className="vlist" ref={list}>
            {playlist.videos.map((v, i) => (
              <VideoItem
                key={v.id}
                video={v}
                anchor={videoAnchor(playlist.id, i + 1)}
                eager={first && i < EAGER_THUMBNAILS}
                hydrated={hydrated}
                playing={playing === v.id}
                onPlay={() => onPlay(v.id)}
              />
            ))}
          </ul>
          <div className="pl-foot">
            <p className="pl-count">
              {shown} of {playlist.total} videos
            </p>
            {playlist.seeMore ? (
              <Link to={playlist.seeMore} preventScrollReset className="button button-secondary">
                See More<span className="visually-hidden"> from {playlist.title}</span>
              </Link>
            ) : null}
          </div>
        </>
      )}
    </section>
  );
}

function VideoItem({
  video,
  anchor,
  eager,
  hydrated,
  playing,
  onPlay,
}: {
  video: Video;
  anchor: string;
  eager: boolean;
  hydrated: boolean;
  playing: boolean;
  onPlay: () => void;
}) {
  const frame = useRef<HTMLIFrameElement>(null);
  useEffect(() => {
    if (playing) frame.current?.focus();
  }, [playing]);

  const thumb = (
    <>
      <img
        src={video.thumbnail.url}
        width={video.thumbnail.width}
        height={video.thumbnail.height}
        alt=""
        loading={eager ? 'eager' : 'lazy'}
        decoding="async"
      />
      <span className="vi-play" aria-hidden="true" />
    </>
  );
  return (
    <li className={playing ? 'vi vi-on' : 'vi'} id={anchor}>
      <div className="vi-m">
        {playing ? (
          <iframe
            ref={frame}
            src={embedUrl(video.id)}
            title={video.title}
            width={video.thumbnail.width}
            height={video.thumbnail.height}
            allow="accelerometer; autoplay; clipboard-write; encrypted-media; gyroscope; picture-in-picture; web-share"
            referrerPolicy="strict-origin-when-cross-origin"
            allowFullScreen
          />
        ) : hydrated ? (
          <button type="button" className="vi-th" onClick={onPlay} aria-label={`Play ${video.title}`}>
            {thumb}
          </button>
        ) : (
          // Without JavaScript the thumbnail is a second way to the same YouTube link as the title (hidden from assistive tech).
          <a href={watchUrl(video.id)} className="vi-th" tabIndex={-1} aria-hidden="true">
            {thumb}
          </a>
        )}
      </div>
      <a className="vi-t" href={watchUrl(video.id)}>
        {video.title}
      </a>
    </li>
  );
}
