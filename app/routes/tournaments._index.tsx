import { type LoaderFunctionArgs, type MetaFunction, data } from '@remix-run/node';
import { Link, useLoaderData, useNavigation } from '@remix-run/react';
import { GeneralErrorBoundary } from '~/components/error-page';
import { TournamentCard, type CardTournament } from '~/components/tournament-card';
import { formatShortDate } from '~/utils/format';
import { coverOf, organiserLineOf } from '~/utils/images';
import { loaderCacheHeaders } from '~/utils/public-cache.server';
import { entryFeeLabel, LIST_FILTERS, listFilterOf, phaseOf, registrationStateWords } from '~/utils/tournament';
import { loadTournamentList } from '~/utils/tournament-list.server';
import '~/styles/screens.css';

export const meta: MetaFunction = () => [
  { title: 'Upcoming Gaming Tournaments | Custom Room' },
  {
    name: 'description',
    content: 'Upcoming BGMI and Free Fire custom-room tournaments with entry fees, prize pools and registration deadlines.',
  },
];

export const headers = loaderCacheHeaders;

export async function loader({ request }: LoaderFunctionArgs) {
  const filter = listFilterOf(new URL(request.url).searchParams.get('show'));
  const now = Date.now();
  const list = await loadTournamentList(
    request,
    (t, timeZone): CardTournament => {
      const phase = phaseOf(t, now);
      return {
        id: t.id,
        name: t.name,
        fee: entryFeeLabel(t.entryFee),
        prize: t.prizePool,
        closes: formatShortDate(t.registrationClose, timeZone),
        phase,
        state: phase === 'registration-open' ? null : registrationStateWords(phase, opensLater(t.registrationOpen, now, timeZone)),
        cover: coverOf(t),
        organiser: organiserLineOf(t),
      };
    },
    filter,
  );
  return data({ ...list.data, filter }, list.init ?? undefined);
}

/** The registration opening as a short date, only while it is still ahead. */
function opensLater(iso: string | null | undefined, now: number, timeZone: string): string {
  return iso && Date.parse(iso) > now ? formatShortDate(iso, timeZone) : '';
}

export default function Tournaments() {
  const { tournaments, unavailable, filter } = useLoaderData<typeof loader>();
  const navigation = useNavigation();
  const loadingHere = navigation.state === 'loading' && navigation.location.pathname === '/tournaments';
  // The first cover is the largest paint on a phone (a card without one is short, so the next cover shows).
  const firstCover = tournaments.findIndex((t) => t.cover);

  return (
    <>
      <h1>Upcoming Gaming Tournaments</h1>
      <ListFilters current={filter} />
      {loadingHere ? (
        <p role="status" className="notice">
          Loading tournaments...
        </p>
      ) : unavailable ? (
        <div className="notice" role="alert">
          <p>We could not load tournaments right now.</p>
          <p>
            <Link to="/tournaments" className="button button-secondary">
              Try again
            </Link>
          </p>
        </div>
      ) : tournaments.length === 0 ? (
        <p className="nothing">
          {filter ? `No ${filterLabel(filter).toLowerCase()} tournaments at the moment.` : 'No tournaments available at the moment.'}
        </p>
      ) : (
        <ul className="tgrid">
          {tournaments.map((t, i) => (
            <li key={t.id}>
              <TournamentCard t={t} priority={i === firstCover} />
            </li>
          ))}
        </ul>
      )}
    </>
  );
}

const filterLabel = (key: string) => LIST_FILTERS.find((f) => f.key === key)?.label ?? key;

/** The status filter: plain links with a query (works without JavaScript; each filtered page is cacheable). */
function ListFilters({ current }: { current: string | null }) {
  const choices = [{ key: null, label: 'All' }, ...LIST_FILTERS.map((f) => ({ key: f.key, label: f.label }))];
  return (
    <nav className="chips" aria-label="Show tournaments">
      <ul>
        {choices.map((c) => (
          <li key={c.label}>
            <Link to={c.key ? `/tournaments?show=${c.key}` : '/tournaments'} aria-current={c.key === current ? 'page' : undefined}>
              {c.label}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
