import { Link } from '@remix-run/react';
import type { TournamentPhase } from '@custom-room/contract/constants';
import { Fact } from '~/components/fact';
import { LOGO_SIZE_SMALL, type Cover } from '~/utils/images';
import { phaseWords, statusTone } from '~/utils/tournament';
import { CoverImage } from './cover-image';
import { OrganisedBy, type OrganiserLine } from './organised-by';

/** What a card shows, already formatted by the loader (the page ships only these fields). */
export interface CardTournament {
  id: number;
  name: string;
  fee: string;
  prize: string;
  /** Registration closes (the short local date). */
  closes: string;
  /** Where the tournament stands (decision 051's derived phase, not the organiser's free-text status). */
  phase: TournamentPhase;
  /** Where registration stands, in words, when it is not open (null while it is). */
  state: string | null;
  cover: Cover | null;
  /** Who runs it (issue 29); null for an answer without one (an older gateway). */
  organiser: OrganiserLine | null;
}

/** One column at 360 px; one card per tournament on /tournaments. `priority`: the first card, whose cover is the page's largest paint. */
export function TournamentCard({ t, priority = false }: { t: CardTournament; priority?: boolean }) {
  return (
    <article className="tc">
      {t.cover ? (
        <CoverImage
          cover={t.cover}
          alt={`${t.name} cover`}
          sizes="(min-width:64rem) 22rem, (min-width:40rem) 46vw, 92vw"
          priority={priority}
        />
      ) : null}
      <div className="tc-b">
        <h2>{t.name}</h2>
        {t.organiser ? <OrganisedBy organiser={t.organiser} size={LOGO_SIZE_SMALL} /> : null}
        <dl className="kv">
          <Fact label="Entry Fee">{t.fee}</Fact>
          <Fact label="Prize pool">{t.prize}</Fact>
          <Fact label="Registration closes">{t.closes}</Fact>
          <div>
            <dt>Status</dt>
            <dd>
              <StatusBadge phase={t.phase} />
            </dd>
          </div>
        </dl>
        {t.state === null ? (
          <Link className="button" to={`/tournaments/${t.id}`}>
            Register<span className="visually-hidden"> for {t.name}</span>
          </Link>
        ) : (
          <>
            {/* Not open: the state, and a plain link to the details (never an orange Register). */}
            <p className="tc-state">{t.state}</p>
            <Link className="button button-secondary" to={`/tournaments/${t.id}`}>
              View details<span className="visually-hidden">: {t.name}</span>
            </Link>
          </>
        )}
      </div>
    </article>
  );
}

export function StatusBadge({ phase }: { phase: TournamentPhase }) {
  return <span className={`badge b-${statusTone(phase)}`}>{phaseWords(phase)}</span>;
}
