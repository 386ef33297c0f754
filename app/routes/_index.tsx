import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { data } from '@remix-run/node';
import { Link, useLoaderData, useNavigation } from '@remix-run/react';
import { GeneralErrorBoundary } from '~/components/error-page';
import { FeaturedCarousel } from '~/components/featured-carousel';
import type { SlideTournament } from '~/components/tournament-slide';
import { getEnv } from '~/utils/env.server';
import { isUnavailable, pageError, UNAVAILABLE_INIT } from '~/utils/errors.server';
import { formatLongDate } from '~/utils/format';
import { gateway } from '~/utils/gateway.server';
import { coverOf } from '~/utils/images';
import { loaderCacheHeaders, publicPageHeaders } from '~/utils/public-cache.server';
import { entryFeeLabel, liveFirst } from '~/utils/tournament';
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
  const timeZone = getEnv().APP_TIME_ZONE;
  try {
    const all = await gateway.listTournaments(request);
    // Only what a slide shows, formatted here: the page's hydration data stays small.
    const tournaments: SlideTournament[] = liveFirst(all).map((t) => ({
      id: t.id,
      name: t.name,
      fee: entryFeeLabel(t.entryFee),
      prize: t.prizePool,
      starts: formatLongDate(t.startDate, timeZone),
      closes: formatLongDate(t.registrationClose, timeZone),
      cover: coverOf(t),
    }));
    return data({ tournaments, unavailable: false }, { headers: publicPageHeaders(request) });
  } catch (err) {
    // The home page still renders without the gateway: a notice and a retry link, not an empty list.
    if (isUnavailable(err)) {
      return data({ tournaments: [] as SlideTournament[], unavailable: true }, UNAVAILABLE_INIT);
    }
    pageError(err);
  }
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
