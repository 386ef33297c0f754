import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { Link, useLoaderData, useNavigation } from '@remix-run/react';
import { GeneralErrorBoundary } from '~/components/error-page';
import { FeaturedCarousel } from '~/components/featured-carousel';
import type { SlideTournament } from '~/components/tournament-slide';
import { formatLongDate } from '~/utils/format';
import { coverOf, organiserLineOf } from '~/utils/images';
import { loaderCacheHeaders } from '~/utils/public-cache.server';
import { entryFeeLabel } from '~/utils/tournament';
import { loadTournamentList } from '~/utils/tournament-list.server';
import '~/styles/screens.css';

export const meta: MetaFunction = () => [
  { title: 'Custom Room | BGMI and Free Fire custom-room tournaments' },
  {
    name: 'description',
    content: 'Featured BGMI and Free Fire custom-room tournaments: entry fees, prize pools and dates. Register your squad and pay by UPI.',
  },
];

export const headers = loaderCacheHeaders;

export async function loader({ request }: LoaderFunctionArgs) {
  return loadTournamentList(request, (t, timeZone): SlideTournament => ({
    id: t.id,
    name: t.name,
    fee: entryFeeLabel(t.entryFee),
    prize: t.prizePool,
    starts: formatLongDate(t.startDate, timeZone),
    closes: formatLongDate(t.registrationClose, timeZone),
    cover: coverOf(t),
    organiser: organiserLineOf(t),
  }));
}

export default function Home() {
  const { tournaments, unavailable } = useLoaderData<typeof loader>();
  const navigation = useNavigation();
  // With JavaScript, a retry (or any navigation back here) shows the spec's loading line while it runs.
  const loadingHere = navigation.state === 'loading' && navigation.location.pathname === '/';

  return (
    <>
      <header className="hero">
        <h1>Custom Room Esports</h1>
        <p>BGMI and Free Fire custom-room tournaments. Register your squad, pay by UPI, get the room ID and follow the points.</p>
      </header>
      <section className="featured">
        <h2 id="featured-title">Featured Tournaments</h2>
        {loadingHere ? (
          <p role="status" className="notice">
            Loading tournaments...
          </p>
        ) : unavailable ? (
          <div className="notice" role="alert">
            <p>We could not load tournaments right now.</p>
            <p>
              <Link to="/" className="button button-secondary">
                Try again
              </Link>
            </p>
          </div>
        ) : tournaments.length === 0 ? (
          <div className="nothing">
            <p>No tournaments are scheduled yet. New BGMI and Free Fire rooms are announced here first, so check back soon.</p>
            <p>
              <Link to="/about">What is Custom Room?</Link>
            </p>
          </div>
        ) : (
          <>
            <FeaturedCarousel tournaments={tournaments} labelledBy="featured-title" />
            <p className="more">
              <Link to="/tournaments">See all tournaments</Link>
            </p>
          </>
        )}
      </section>
    </>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
