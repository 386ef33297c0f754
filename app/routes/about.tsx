import { type LoaderFunctionArgs, type MetaFunction, data } from '@remix-run/node';
import { Link } from '@remix-run/react';
import { GeneralErrorBoundary } from '~/components/error-page';
import { loaderCacheHeaders, publicPageHeaders } from '~/utils/public-cache.server';
import '~/styles/screens.css';

export const meta: MetaFunction = () => [
  { title: 'About | Custom Room' },
  {
    name: 'description',
    content:
      'Custom Room organises and hosts competitive BGMI and Free Fire tournaments with real prizes and a community for casual and pro players.',
  },
];

export const headers = loaderCacheHeaders;

/** Only for the cache headers: the page itself is static. */
export async function loader({ request }: LoaderFunctionArgs) {
  return data(null, { headers: publicPageHeaders(request) });
}

export default function About() {
  return (
    <article className="about prose-page">
      <h1>About Custom Room</h1>
      <p className="lead">
        Custom Room organises and hosts competitive gaming tournaments with real prizes, and brings together a community where casual squads
        and pro teams play side by side.
      </p>
      <h2>What we run</h2>
      <p>
        We host battle-royale custom-room tournaments for games such as BGMI and Free Fire. Every tournament lists its entry fee, prize
        pool, format and dates up front, so you know exactly what you are signing up for before you register.
      </p>
      <h2>How it works</h2>
      <ol>
        <li>Pick a tournament and register your team: four players, plus up to two substitutes.</li>
        <li>
          Pay the entry fee by UPI and send us the 12-digit UTR from your UPI app. Your place is confirmed once the organisers verify the
          payment; in a free tournament, as soon as you register.
        </li>
        <li>Once your place is confirmed, the room ID and password appear on your team&apos;s matches page before each match.</li>
        <li>Follow the day-wise and overall points tables as the results come in.</li>
      </ol>
      <h2>Fair play</h2>
      <p>
        Points are calculated the same way for everyone: placement points plus one point per finish. Teams level on points are separated by
        wins, then placement points, then finishes, and the rules are published on every points table.
      </p>
      <h2>For every kind of player</h2>
      <p>
        Whether you play a few evenings a week or you are building a roster for the big leagues, there is a room for you. Play, improve,
        meet other squads and win prizes along the way.
      </p>
      <p>
        <Link className="button" to="/tournaments">
          Browse tournaments
        </Link>
      </p>
    </article>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
