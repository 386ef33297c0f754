// /tournaments/:id/stages: every published stage and its groups (issue 18). The trailing "_" keeps it out of the detail page's layout.
import { data, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node';
import { Link, useLoaderData } from '@remix-run/react';
import { TOURNAMENT_NOT_FOUND } from '@custom-room/contract/constants';
import { GeneralErrorBoundary } from '~/components/error-page';
import { pageError } from '~/utils/errors.server';
import { gateway } from '~/utils/gateway.server';
import { loaderCacheHeaders, publicPageHeaders } from '~/utils/public-cache.server';
import { publicStages } from '~/utils/stages.server';
import { parseTournamentId } from '~/utils/tournament';
import '~/styles/screens.css';
import '~/styles/stages.css';

export const headers = loaderCacheHeaders;

/** Up to this many groups, a stage's slot lists are on this page; beyond it, its groups are links (HTML budget). */
export const INLINE_GROUPS = 4;

export async function loader({ request, params }: LoaderFunctionArgs) {
  const id = parseTournamentId(params.tournamentId);
  if (id === null) throw data({ message: TOURNAMENT_NOT_FOUND }, { status: 404 });
  const [t, stages] = await Promise.all([gateway.getTournament(request, id), gateway.listStages(request, id)]).catch((err) =>
    pageError(err, TOURNAMENT_NOT_FOUND),
  );
  const slotLists = new Map(stages.flatMap((s) => s.groups.map((g) => [g.id, g.slots] as const)));
  return data(
    {
      t: { id: t.id, name: t.name },
      // Only what the page shows: a 40-group stage's 1,000 slots never reach the HTML (nor its hydration data).
      stages: publicStages(stages).map((s) => ({
        ...s,
        groups: s.groups.map((g) => ({
          ...g,
          slots: s.groups.length <= INLINE_GROUPS ? (slotLists.get(g.id) ?? []).map((x) => ({ slot: x.slot, teamName: x.teamName })) : null,
        })),
      })),
    },
    { headers: publicPageHeaders(request) },
  );
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data ? `Stages: ${data.t.name} | Custom Room` : 'Stages | Custom Room' },
  { name: 'description', content: 'Stages, groups and slot lists of the tournament, with each group’s points table.' },
];

const STATE_WORDS: Record<string, string> = { published: 'In progress', completed: 'Completed' };

export default function StagesPage() {
  const { t, stages } = useLoaderData<typeof loader>();
  return (
    <section className="sched" aria-labelledby="stages-title">
      <p className="crumb">
        <Link to={`/tournaments/${t.id}`}>{t.name}</Link>
      </p>
      <h1 id="stages-title">Stages and groups</h1>
      {stages.length === 0 ? (
        <p className="nothing">No stages yet. The groups and slots appear here once the organiser publishes them.</p>
      ) : (
        stages.map((s) => (
          <section key={s.id} className="stage-card" aria-labelledby={`stage-${s.id}`}>
            <h2 id={`stage-${s.id}`}>{s.name}</h2>
            <p className="fine">
              {STATE_WORDS[s.state] ?? s.state} · {s.groups.length} {s.groups.length === 1 ? 'group' : 'groups'} · {s.advance}
            </p>
            <p>
              <Link to={`/tournaments/${t.id}/points-table?stage=${s.id}`}>
                {s.final ? `${s.name} table: the final standings` : `${s.name} points table`}
              </Link>
            </p>
            {s.groups.some((g) => g.slots) ? (
              s.groups.map((g) => (
                <section key={g.id} className="group-sched" aria-labelledby={`group-${g.id}`}>
                  <h3 id={`group-${g.id}`}>
                    <Link to={`/tournaments/${t.id}/stages/${s.id}/groups/${g.id}`}>Group {g.name}</Link>
                  </h3>
                  <ol className="slot-list" aria-label={`Slots of Group ${g.name}`}>
                    {(g.slots ?? []).map((x) => (
                      <li key={x.slot}>
                        <span className="slot-no">Slot {x.slot}</span> {x.teamName}
                      </li>
                    ))}
                  </ol>
                </section>
              ))
            ) : (
              <ul className="group-links" aria-label={`Groups of ${s.name}`}>
                {s.groups.map((g) => (
                  <li key={g.id}>
                    <Link to={`/tournaments/${t.id}/stages/${s.id}/groups/${g.id}`} aria-label={`Group ${g.name} (${g.teams} teams)`}>
                      {g.name}
                    </Link>
                  </li>
                ))}
              </ul>
            )}
          </section>
        ))
      )}
    </section>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
