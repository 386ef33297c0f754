import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { Link, useLoaderData, useNavigation } from '@remix-run/react';
import { GeneralErrorBoundary } from '~/components/error-page';
import { TournamentCard, type CardTournament } from '~/components/tournament-card';
import { formatShortDate } from '~/utils/format';
import { coverOf } from '~/utils/images';
import { loaderCacheHeaders } from '~/utils/public-cache.server';
import { entryFeeLabel } from '~/utils/tournament';
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
  return loadTournamentList(request, (t, timeZone): CardTournament => ({
    id: t.id,
    name: t.name,
    fee: entryFeeLabel(t.entryFee),
    prize: t.prizePool,
    lastDate: formatShortDate(t.registrationClose, timeZone),
    status: t.status,
    cover: coverOf(t),
  }));
}

export default function Tournaments() {
  const { tournaments, unavailable } = useLoaderData<typeof loader>();
  const navigation = useNavigation();
  const loadingHere = navigation.state === 'loading' && navigation.location.pathname === '/tournaments';
  // The first cover is the largest paint on a phone (a card without one is short, so the next cover shows).
  const firstCover = tournaments.findIndex((t) => t.cover);

  return (
    <>
      <h1>Upcoming Gaming Tournaments</h1>
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
        <p className="nothing">No tournaments available at the moment.</p>
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

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
