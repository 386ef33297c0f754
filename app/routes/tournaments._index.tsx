import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { data } from '@remix-run/node';
import { Link, useLoaderData, useNavigation } from '@remix-run/react';
import { GeneralErrorBoundary } from '~/components/error-page';
import { TournamentCard, type CardTournament } from '~/components/tournament-card';
import { getEnv } from '~/utils/env.server';
import { isUnavailable, pageError, UNAVAILABLE_INIT } from '~/utils/errors.server';
import { formatShortDate } from '~/utils/format';
import { gateway } from '~/utils/gateway.server';
import { coverOf } from '~/utils/images';
import { loaderCacheHeaders, publicPageHeaders } from '~/utils/public-cache.server';
import { entryFeeLabel, liveFirst } from '~/utils/tournament';
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
  const timeZone = getEnv().APP_TIME_ZONE;
  try {
    const all = await gateway.listTournaments(request);
    // Only the fields a card shows, pre-formatted: Remix serialises this into the page for hydration.
    const tournaments: CardTournament[] = liveFirst(all).map((t) => ({
      id: t.id,
      name: t.name,
      fee: entryFeeLabel(t.entryFee),
      prize: t.prizePool,
      lastDate: formatShortDate(t.registrationClose, timeZone),
      status: t.status,
      cover: coverOf(t),
    }));
    return data({ tournaments, unavailable: false }, { headers: publicPageHeaders(request) });
  } catch (err) {
    if (isUnavailable(err)) {
      return data({ tournaments: [] as CardTournament[], unavailable: true }, UNAVAILABLE_INIT);
    }
    pageError(err);
  }
}

export default function Tournaments() {
  const { tournaments, unavailable } = useLoaderData<typeof loader>();
  const navigation = useNavigation();
  const loadingHere = navigation.state === 'loading' && navigation.location.pathname === '/tournaments';

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
              <TournamentCard t={t} eager={i === 0} />
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
