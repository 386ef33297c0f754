import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { Link, useLoaderData } from '@remix-run/react';
import { GeneralErrorBoundary } from '~/components/error-page';
import { Fact } from '~/components/fact';
import { PlaceBadge } from '~/components/place-badge';
import { PlacementFact } from '~/components/placements';
import { StatusBadge } from '~/components/tournament-card';
import { getEnv } from '~/utils/env.server';
import { pageError } from '~/utils/errors.server';
import { formatShortDate } from '~/utils/format';
import { gateway, GatewayError } from '~/utils/gateway.server';
import { placeView } from '~/utils/places';
import { requireUser } from '~/utils/session.server';
import { placementViews } from '~/utils/stages';
import { paymentWords } from '~/utils/team';
import { summaryPhase } from '~/utils/tournament';
import '~/styles/player.css';
import '~/styles/places.css';
import '~/styles/stages.css';

export const meta: MetaFunction = () => [
  { title: 'My Tournaments | Custom Room' },
  { name: 'description', content: 'The tournaments your teams are registered for, with payment status, team, matches and points.' },
];

const LOAD_FAILED = 'Failed to load tournaments';

export async function loader({ request }: LoaderFunctionArgs) {
  await requireUser(request);
  const timeZone = getEnv().APP_TIME_ZONE;
  try {
    const registrations = await gateway.myRegistrations(request);
    const nowMs = Date.now();
    return {
      failed: false,
      cards: registrations.map((r) => ({
        rid: r.rid,
        tid: r.tid,
        name: r.tournament?.name ?? `Tournament ${r.tid}`,
        game: r.tournament?.game ?? '',
        phase: r.tournament ? summaryPhase(r.tournament, nowMs) : null,
        starts: formatShortDate(r.tournament?.startDate, timeZone),
        teamName: r.teamName,
        payment: paymentWords(r.paymentStatus).label,
        free: r.tournament?.entryFee === 0,
        state: placeView(r, { timeZone, free: r.tournament?.entryFee === 0, nowMs }),
        // Left out without stages, as the gateway leaves it out.
        ...(r.placements?.length ? { placements: placementViews(r.placements) } : {}),
      })),
    };
  } catch (err) {
    // Unreachable gateway: the 503 page; a refusal (not 401, which is a redirect already): the spec's message.
    if (!(err instanceof GatewayError) || err.unavailable) pageError(err);
    return { failed: true, cards: [] };
  }
}

export default function MyTournaments() {
  const { failed, cards } = useLoaderData<typeof loader>();
  return (
    <section className="player-page" aria-labelledby="my-title">
      <h1 id="my-title">My Tournaments</h1>
      {failed ? (
        <p className="notice" role="alert">
          {LOAD_FAILED}. <a href="/my-tournaments">Try again</a>
        </p>
      ) : cards.length === 0 ? (
        <div className="notice">
          <p>You have not registered for any tournaments.</p>
          <p>
            <Link className="button" to="/tournaments">
              Browse tournaments
            </Link>
          </p>
        </div>
      ) : (
        <ul className="my-cards">
          {cards.map((c) => (
            <li key={c.rid}>
              <article className="my-card" aria-labelledby={`my-${c.rid}`}>
                <h2 id={`my-${c.rid}`}>{c.name}</h2>
                {c.phase ? (
                  <p className="my-status">
                    <span className="visually-hidden">Status: </span>
                    <StatusBadge phase={c.phase} />
                  </p>
                ) : null}
                <dl className="kv">
                  <Fact label="Game">{c.game || '—'}</Fact>
                  <Fact label="Team">{c.teamName}</Fact>
                  <Fact label="State">
                    <PlaceBadge view={c.state} />
                  </Fact>
                  {c.placements ? <PlacementFact placements={c.placements} /> : null}
                  <Fact label="Starts">{c.starts || '—'}</Fact>
                  <Fact label="Payment">{c.free ? 'Free entry' : c.payment}</Fact>
                </dl>
                <Link className="button" to={`/my-tournaments/${c.tid}/info`} aria-label={`View Details: ${c.name}`}>
                  View Details
                </Link>
              </article>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
