// The trailing "_" keeps /tournaments/:id/points-table out of the detail page's layout (Remix flat routes): a page of its own.
import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { data } from '@remix-run/node';
import { Link, useLoaderData } from '@remix-run/react';
import { GeneralErrorBoundary } from '~/components/error-page';
import { PointsTable, type PointsTableRow } from '~/components/points-table';
import { pageError } from '~/utils/errors.server';
import { gateway, GatewayError } from '~/utils/gateway.server';
import { currentStage, publicStages, queryId, type StageSummary } from '~/utils/stages.server';
import { dayLabel, OVERALL, parseDay, POINTS_DAYS } from '~/utils/points-day';
import { loaderCacheHeaders, publicPageHeaders } from '~/utils/public-cache.server';
import { parseTournamentId } from '~/utils/tournament';
import { publicOrigin, tournamentFacts } from '~/utils/link-preview.server';
import { linkPreviewMeta } from '~/utils/link-preview';
import '~/styles/screens.css';
import '~/styles/stages.css';
import { TOURNAMENT_NOT_FOUND } from '@custom-room/contract/constants';

export const headers = loaderCacheHeaders;

/** The published stages (public, cached); a refusal only leaves the stage links out, the table still shows. */
async function stagesOf(request: Request, id: number): Promise<StageSummary[]> {
  try {
    return publicStages(await gateway.listStages(request, id));
  } catch (err) {
    if (err instanceof GatewayError && !err.unavailable) return [];
    throw err;
  }
}

export async function loader({ request, params }: LoaderFunctionArgs) {
  const id = parseTournamentId(params.tournamentId);
  if (id === null) throw data({ message: TOURNAMENT_NOT_FOUND }, { status: 404 });
  const search = new URL(request.url).searchParams;
  // An unknown day (?day=9, ?day=x) shows Overall with a note rather than an error page.
  const { day, valid } = parseDay(search.get('day'));
  // ?stage= and ?group= (issue 18) go to the gateway as they are; anything but an id is a missing page.
  const stageId = queryId(search.get('stage'));
  const groupId = queryId(search.get('group'));
  if (stageId === null || groupId === null) throw data({ message: 'Stage not found.' }, { status: 404 });
  const scope = { ...(stageId ? { stage: stageId } : {}), ...(groupId ? { group: groupId } : {}) };
  const [t, points, stages] = await Promise.all([
    gateway.getTournament(request, id),
    gateway.pointsTable(request, id, day, scope),
    stagesOf(request, id),
  ]).catch((err) => pageError(err, err instanceof GatewayError && err.message ? err.message : TOURNAMENT_NOT_FOUND));
  const rows: PointsTableRow[] = points.map((r) => ({
    rank: r.rank,
    teamName: r.teamName,
    positionPoints: r.positionPoints,
    finishes: r.finishes,
    wins: r.wins,
    totalPoints: r.totalPoints,
    ...(r.groupName !== undefined ? { groupName: r.groupName } : {}),
    ...(r.slot !== undefined ? { slot: r.slot } : {}),
  }));
  // Which stage (and group) this table is: the one asked for, else the current stage. None without stages.
  const stage =
    (stageId
      ? stages.find((s) => s.id === stageId)
      : groupId
        ? stages.find((s) => s.groups.some((g) => g.id === groupId))
        : currentStage(stages)) ?? null;
  const group = stage && groupId ? (stage.groups.find((g) => g.id === groupId) ?? null) : null;
  // Link preview (issue 20): this table's canonical address and its 1200×630 card (the top 3), absolute.
  const origin = publicOrigin(request);
  const query = new URLSearchParams();
  if (day !== OVERALL) query.set('day', String(day));
  if (stageId) query.set('stage', String(stageId));
  if (groupId) query.set('group', String(groupId));
  const rest = query.toString() ? `?${query}` : '';
  return data(
    {
      t: { id: t.id, name: t.name },
      og: {
        url: `${origin}/tournaments/${t.id}/points-table${rest}`,
        image: `${origin}/tournaments/${t.id}/points-card.png${rest}`,
        description: tournamentFacts(t).join(' · '),
      },
      day,
      invalidDay: !valid,
      rows,
      ...(stages.length > 0 ? { stages: { all: stages, stage, group, asked: scope } } : {}),
    },
    { headers: publicPageHeaders(request) },
  );
}

export const meta: MetaFunction<typeof loader> = (args) => {
  const data = args.data;
  if (!data) return [{ title: 'Points table | Custom Room' }, { name: 'description', content: 'Tournament points table.' }];
  const which = data.day === OVERALL ? 'Overall standings' : `${dayLabel(data.day)} standings`;
  const scope = data.stages?.stage ? `${data.stages.stage.name}${data.stages.group ? ` · Group ${data.stages.group.name}` : ''} · ` : '';
  const title = `${scope}${which}: ${data.t.name}`;
  return [
    { title: `${which}: ${data.t.name} | Custom Room` },
    { name: 'description', content: `${which} of ${data.t.name}: placement points, finishes, wins and total per team.` },
    ...linkPreviewMeta({
      title,
      description: data.og.description,
      url: data.og.url,
      image: data.og.image,
      imageAlt: `${title}: the top 3 teams`,
    }),
  ];
};

/** The query of a table link: the day, and the stage and group when they are named. */
function tableQuery(day: number, stage?: number, group?: number): string {
  const q = new URLSearchParams();
  if (day !== OVERALL || (!stage && !group)) q.set('day', String(day));
  if (stage) q.set('stage', String(stage));
  if (group) q.set('group', String(group));
  return `?${q}`;
}

export default function PointsTablePage() {
  const { t, day, invalidDay, rows, stages } = useLoaderData<typeof loader>();
  const label = dayLabel(day);
  const stage = stages?.stage ?? null;
  const group = stages?.group ?? null;
  const scopeName = stage ? (group ? `${stage.name} · Group ${group.name}` : stage.name) : null;
  const finalStandings = Boolean(stage && !group && stage.final);
  const caption = `${scopeName ? `${scopeName}: ` : ''}${label} standings`;
  return (
    <>
      <p className="crumb">
        <Link to={`/tournaments/${t.id}`}>{t.name}</Link>
      </p>
      <h1>{finalStandings ? 'Final standings' : 'Points table'}</h1>
      {scopeName ? (
        <p className="td-sub">
          {finalStandings ? `${scopeName}: the last stage, completed. Its table is the tournament's final standings.` : scopeName}
        </p>
      ) : null}
      {stages ? <StageLinks tid={t.id} stages={stages.all} stage={stage} group={group} /> : null}
      <nav aria-label="Points table day" className="days">
        <ul>
          {POINTS_DAYS.map((d) => (
            <li key={d}>
              <Link
                to={stages ? tableQuery(d, stages.asked.stage, stages.asked.group) : `?day=${d}`}
                aria-current={d === day ? 'page' : undefined}
                preventScrollReset
              >
                {dayLabel(d)}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      {invalidDay ? (
        <p className="notice" role="status">
          That day does not exist: the points table has Overall and Day 1 to Day 5. Showing Overall.
        </p>
      ) : null}
      {rows.length === 0 ? (
        <p className="nothing">
          {day === OVERALL ? 'No points yet. The overall table fills in after the first match.' : `No points yet for ${label}.`}
        </p>
      ) : (
        <>
          <PointsTable rows={rows} id="pt-caption" caption={stages ? caption : `${label} standings`} showGroup={!group} />
          <p>
            {/* Issue 20: the same table as a 1080×1350 PNG to post (decision 049). */}
            <a
              href={`/tournaments/${t.id}/points-table.png${stages ? tableQuery(day, stages.asked.stage, stages.asked.group) : `?day=${day}`}`}
              download
            >
              Download image
            </a>
          </p>
        </>
      )}
      <p className="fine">
        Teams level on total points are ranked by wins (chicken dinners), then placement points, then finishes, then team name.
      </p>
    </>
  );
}

type Summary = { id: number; name: string; final: boolean; groups: { id: number; name: string }[] };

/** Every published stage as a link; the shown stage's groups as links (40 groups: 40 short links, never their rows). */
function StageLinks({
  tid,
  stages,
  stage,
  group,
}: {
  tid: number;
  stages: Summary[];
  stage: Summary | null;
  group: { id: number } | null;
}) {
  return (
    <nav aria-label="Stages and groups">
      <ul className="stage-list group-links">
        {stages.map((s) => (
          <li key={s.id}>
            <Link to={`/tournaments/${tid}/points-table?stage=${s.id}`} aria-current={stage?.id === s.id && !group ? 'page' : undefined}>
              {s.name}
            </Link>
          </li>
        ))}
      </ul>
      {stage && stage.groups.length > 1 ? (
        <>
          <p className="fine">Groups of {stage.name}:</p>
          <ul className="group-links">
            {stage.groups.map((g) => (
              <li key={g.id}>
                <Link
                  to={`/tournaments/${tid}/points-table?stage=${stage.id}&group=${g.id}`}
                  aria-current={group?.id === g.id ? 'page' : undefined}
                  aria-label={`Group ${g.name}`}
                >
                  {g.name}
                </Link>
              </li>
            ))}
          </ul>
        </>
      ) : null}
      <p>
        <Link to={`/tournaments/${tid}/stages`}>All stages, groups and slots</Link>
      </p>
    </nav>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
