import { Link } from '@remix-run/react';
import { Fact } from '~/components/fact';
import { LOGO_SIZE_SMALL, type Cover } from '~/utils/images';
import { CoverImage } from './cover-image';
import { OrganisedBy, type OrganiserLine } from './organised-by';

/** What a home slide shows, already formatted by the loader. */
export interface SlideTournament {
  id: number;
  name: string;
  fee: string;
  prize: string;
  starts: string;
  closes: string;
  cover: Cover | null;
  /** Who runs it (issue 29); null for an answer without one. */
  organiser: OrganiserLine | null;
}

/** Slides are 80% of a page at most 72rem wide; from 48rem the cover takes 55% of a slide. */
const SLIDE_SIZES = '(min-width:72rem) 31rem, (min-width:48rem) 44vw, 80vw';

/**
 * One slide's markup, shared by the carousel and its no-JavaScript scrollable row so both look the same.
 * `priority`: the first slide, the home page's largest paint.
 */
export function TournamentSlide({ t, eager = false, priority = false }: { t: SlideTournament; eager?: boolean; priority?: boolean }) {
  return (
    <article className="slide">
      <CoverImage cover={t.cover} alt={`${t.name} cover`} sizes={SLIDE_SIZES} eager={eager} priority={priority} />
      <div className="slide-b">
        <h3>{t.name}</h3>
        {t.organiser ? <OrganisedBy organiser={t.organiser} size={LOGO_SIZE_SMALL} /> : null}
        <dl className="kv">
          <Fact label="Entry fee">{t.fee}</Fact>
          <Fact label="Prize pool">{t.prize}</Fact>
          <Fact label="Starts">{t.starts}</Fact>
          <Fact label="Registration closes">{t.closes}</Fact>
        </dl>
        <Link className="button" to={`/tournaments/${t.id}`}>
          Register Now<span className="visually-hidden">: {t.name}</span>
        </Link>
      </div>
    </article>
  );
}
