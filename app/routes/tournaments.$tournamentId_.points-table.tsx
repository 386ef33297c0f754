// The trailing "_" keeps /tournaments/:id/points-table out of the detail page's layout (Remix flat routes): a page of its own.
import { data, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node';
import { Link, useLoaderData } from '@remix-run/react';
import { TOURNAMENT_NOT_FOUND } from '@custom-room/contract/constants';
import { GeneralErrorBoundary } from '~/components/error-page';
import { MatchBreakdown, ShareLinks, TableTabs } from '~/components/points-extras';
import { PointsTable, type PointsTableRow } from '~/components/points-table';
import { PlayersView, ProvisionalNotes } from '~/components/top-fraggers';
import { getEnv } from '~/utils/env.server';
import { pageError } from '~/utils/errors.server';
import { gateway, GatewayError } from '~/utils/gateway.server';
import { linkPreviewMeta } from '~/utils/link-preview';
import { publicOrigin, tournamentFacts } from '~/utils/link-preview.server';
import { dayLabel, INVALID_DAY, OVERALL, offeredDays, parseDay } from '~/utils/points-day';
import {
  breakdownView,
  parsePointsView,
  playersImage,
  playersQuery,
  playersWhatsAppLink,
  tableQuery,
  whatsAppLink,
} from '~/utils/points-extras';
import { shareUrl, viewerTeamId } from '~/utils/points-extras.server';
import { playersOf, pointsDaysAnswer, provisionalPage } from '~/utils/points-players.server';
import { isProvisional } from '~/utils/points-provisional';
import { loaderCacheHeaders } from '~/utils/public-cache.server';
import { historyEntry, notPlayedLine, type HistoryEntry, type NotPlayedLine } from '~/utils/result-history';
import { currentStage, publicStages, queryId, type StageSummary } from '~/utils/stages.server';
import { parseTournamentId } from '~/utils/tournament';
import '~/styles/screens.css';
import '~/styles/stages.css';

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

/** Corrections shown on the page, newest first (the gateway keeps them all). */
const HISTORY_ON_PAGE = 50;

/** The result history (issue 20, public, cached); a refusal only leaves the section out, the table still shows. */
async function historyOf(
  request: Request,
  id: number,
): Promise<{ entries: HistoryEntry[]; more: boolean; notPlayed: NotPlayedLine[] } | null> {
  try {
    const { changes, nextBefore, notPlayed } = await gateway.resultHistory(request, id, { limit: HISTORY_ON_PAGE });
    const timeZone = getEnv().APP_TIME_ZONE;
    return {
      entries: changes.map((c) => historyEntry(c, timeZone)),
      more: nextBefore !== null,
      notPlayed: (notPlayed ?? []).map((m) => notPlayedLine(m, timeZone)),
    };
  } catch (err) {
    if (err instanceof GatewayError && !err.unavailable) return null;
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
  // Issue 20: ?view=matches shows each team per match (one call instead of the standings'); the viewer's own team is marked.
  // Issue 30: ?view=players shows Top fraggers of the scope asked for (none: the whole tournament) instead of a table.
  const view = parsePointsView(search.get('view'));
  const [t, table, stages, history, mine, daysAnswer] = await Promise.all([
    gateway.getTournament(request, id),
    view === 'players'
      ? playersOf(request, id, scope).then((players) => ({ breakdown: null, points: [], players }))
      : view === 'matches'
        ? gateway.pointsBreakdown(request, id, day, scope).then((b) => ({ breakdown: b, points: b.rows, players: null }))
        : gateway.pointsTable(request, id, day, scope).then((points) => ({ breakdown: null, points, players: null })),
    stagesOf(request, id),
    historyOf(request, id),
    viewerTeamId(request, id),
    // Issue 27: the days this table has matches or results on; only those are offered. Issue 30: and its provisional matches.
    pointsDaysAnswer(request, id, scope),
  ]).catch((err) => pageError(err, err instanceof GatewayError && err.message ? err.message : TOURNAMENT_NOT_FOUND));
  const matchDays = daysAnswer.days;
  const provisional = provisionalPage(request, daysAnswer, day);
  // A day asked for by URL without matches says so, rather than ranking every team of a stage at 0.
  const noMatches = day !== OVERALL && !matchDays.includes(day);
  const points = noMatches ? [] : table.points;
  const rows: PointsTableRow[] = points.map((r) => ({
    rank: r.rank,
    teamName: r.teamName,
    positionPoints: r.positionPoints,
    finishes: r.finishes,
    wins: r.wins,
    totalPoints: r.totalPoints,
    ...(r.groupName !== undefined ? { groupName: r.groupName } : {}),
    ...(r.slot !== undefined ? { slot: r.slot } : {}),
    ...(mine !== null && r.teamId === mine ? { mine: true } : {}),
  }));
  // Which stage (and group) this table is: the one asked for, else the current stage. None without stages.
  const stage =
    (stageId
      ? stages.find((s) => s.id === stageId)
      : groupId
        ? stages.find((s) => s.groups.some((g) => g.id === groupId))
        : currentStage(stages)) ?? null;
  const group = stage && groupId ? (stage.groups.find((g) => g.id === groupId) ?? null) : null;
  const scopeName = stage ? (group ? `${stage.name} · Group ${group.name}` : stage.name) : null;
  // Top fraggers without a stage asked for are the whole tournament's, not the current stage's.
  const playersScope = scope.stage || scope.group ? scopeName : null;
  const query = (v: 'standings' | 'matches') => (stages.length > 0 ? tableQuery({ day, ...scope, view: v }) : tableQuery({ day, view: v }));
  const breakdown =
    table.breakdown && !noMatches
      ? breakdownView(table.breakdown, day, {
          mine,
          slots: stages.length === 0 || !points.some((r) => r.slot !== undefined) ? 'none' : group ? 'slot' : 'group',
          provisional: (m) => isProvisional(provisional.notes, m),
        })
      : null;
  // Link preview (issue 20): this table's canonical address and its 1200×630 card (the top 3), absolute.
  const origin = publicOrigin(request);
  const ogQuery = new URLSearchParams();
  if (day !== OVERALL) ogQuery.set('day', String(day));
  if (stageId) ogQuery.set('stage', String(stageId));
  if (groupId) ogQuery.set('group', String(groupId));
  const rest = ogQuery.toString() ? `?${ogQuery}` : '';
  return data(
    {
      t: { id: t.id, name: t.name },
      og: {
        url: `${origin}/tournaments/${t.id}/points-table${rest}`,
        image: `${origin}/tournaments/${t.id}/points-card.png${rest}`,
        description: tournamentFacts(t).join(' · '),
      },
      day,
      days: offeredDays(matchDays),
      noMatches,
      invalidDay: !valid,
      view,
      // One view's rows only: the per-match view's are in breakdown.
      rows: breakdown ? [] : rows,
      breakdown,
      tabs: { standings: query('standings'), matches: query('matches'), players: playersQuery(scope) },
      whatsApp:
        view === 'players'
          ? playersWhatsAppLink(t.name, shareUrl(request, `/tournaments/${t.id}/points-table`, playersQuery(scope)), playersScope)
          : whatsAppLink(t.name, day, shareUrl(request, `/tournaments/${t.id}/points-table`, query(view)), scopeName),
      history,
      ...(stages.length > 0 ? { stages: { all: stages, stage, group, asked: scope } } : {}),
      // Left out of the team table's data when empty: its page stays as it was.
      ...(table.players ? { players: { rows: table.players, scope: playersScope, image: playersImage(t.id, scope) } } : {}),
      ...(provisional.notes.length > 0 ? { provisional: provisional.notes } : {}),
    },
    { headers: provisional.headers },
  );
}

export const meta: MetaFunction<typeof loader> = (args) => {
  const data = args.data;
  if (!data) return [{ title: 'Points table | Custom Room' }, { name: 'description', content: 'Tournament points table.' }];
  // Issue 30: Top fraggers has a title, scope (none asked: the whole tournament) and description of its own.
  const players = 'players' in data ? data.players : undefined;
  const which = players ? 'Top fraggers' : data.day === OVERALL ? 'Overall standings' : `${dayLabel(data.day)} standings`;
  const tableScope = data.stages?.stage ? `${data.stages.stage.name}${data.stages.group ? ` · Group ${data.stages.group.name}` : ''}` : '';
  const scope = (players ? (players.scope ?? '') : tableScope) || null;
  const title = `${scope ? `${scope} · ` : ''}${which}: ${data.t.name}`;
  const describes = players
    ? "each player's finishes in the teams' confirmed reports."
    : 'placement points, finishes, wins and total per team.';
  return [
    { title: `${which}: ${data.t.name} | Custom Room` },
    { name: 'description', content: `${which} of ${data.t.name}: ${describes}` },
    ...linkPreviewMeta({
      title,
      description: data.og.description,
      url: data.og.url,
      image: data.og.image,
      imageAlt: `${title}: the top 3 teams`,
    }),
  ];
};

export default function PointsTablePage() {
  const loaded = useLoaderData<typeof loader>();
  const { t, day, days, noMatches, invalidDay, view, rows, breakdown, tabs, whatsApp, stages, history } = loaded;
  // Issue 30: absent from the data when there is nothing to show (the team table's page as before).
  const players = 'players' in loaded ? loaded.players : null;
  const provisional = ('provisional' in loaded ? loaded.provisional : undefined) ?? [];
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
      {players ? (
        <p className="td-sub">{players.scope ?? 'The whole tournament'}</p>
      ) : scopeName ? (
        <p className="td-sub">
          {finalStandings ? `${scopeName}: the last stage, completed. Its table is the tournament's final standings.` : scopeName}
        </p>
      ) : null}
      <div className="pt-filters">
        {stages ? (
          <StageLinks
            tid={t.id}
            stages={stages.all}
            stage={stage}
            group={group}
            players={players ? { scoped: Boolean(stages.asked.stage || stages.asked.group) } : undefined}
          />
        ) : null}
        {view === 'players' ? null : (
          <nav aria-label="Points table day" className="days">
            <ul>
              {days.map((d) => (
                <li key={d}>
                  <Link
                    to={stages ? tableQuery({ day: d, ...stages.asked, view }) : tableQuery({ day: d, view })}
                    aria-current={d === day ? 'page' : undefined}
                    preventScrollReset
                  >
                    {dayLabel(d)}
                  </Link>
                </li>
              ))}
            </ul>
          </nav>
        )}
        <TableTabs view={view} standings={tabs.standings} matches={tabs.matches} players={tabs.players} />
      </div>
      {invalidDay ? (
        <p className="notice" role="status">
          {INVALID_DAY}
        </p>
      ) : null}
      <ProvisionalNotes notes={provisional} />
      {players ? (
        <PlayersView players={players} whatsApp={whatsApp} />
      ) : (
        <>
          {noMatches ? (
            <p className="nothing">No matches on {label} yet.</p>
          ) : (breakdown?.rows ?? rows).length === 0 ? (
            <p className="nothing">
              {day === OVERALL ? 'No points yet. The overall table fills in after the first match.' : `No points yet for ${label}.`}
            </p>
          ) : breakdown ? (
            <MatchBreakdown data={breakdown} id="pt-caption" caption={`${stages ? caption : `${label} standings`}: per match`} />
          ) : (
            <PointsTable rows={rows} id="pt-caption" caption={stages ? caption : `${label} standings`} showGroup={!group} />
          )}
          {breakdown && breakdown.rows.length > 0 ? (
            <p className="fine">
              Each match: placement · finishes. “abs”: absent; “–”: no result.
              {breakdown.matches.some((m) => m.provisional) ? ' “*”: provisional, teams may still dispute it.' : null}
            </p>
          ) : null}
          <ShareLinks
            whatsApp={whatsApp}
            image={
              (breakdown?.rows ?? rows).length > 0
                ? `/tournaments/${t.id}/points-table.png${stages ? tableQuery({ day, ...stages.asked }) : `?day=${day}`}`
                : undefined
            }
          />
          <p className="fine">
            Teams level on total points are ranked by wins (chicken dinners), then placement points, then finishes, then team name.
          </p>
        </>
      )}
      {history ? <ResultHistory entries={history.entries} more={history.more} /> : null}
      {history && history.notPlayed.length > 0 ? <NotPlayed lines={history.notPlayed} /> : null}
    </>
  );
}

/** Issue 20: every correction of a result after its first entry, newest first; one item per save. */
function ResultHistory({ entries, more }: { entries: HistoryEntry[]; more: boolean }) {
  return (
    <section aria-labelledby="rh-title" className="result-history">
      <h2 id="rh-title">Result history</h2>
      {entries.length === 0 ? (
        <p className="nothing">No corrections.</p>
      ) : (
        <ol className="rh-list">
          {entries.map((e) => {
            const by = (
              <>
                by {e.by}, <time dateTime={e.at}>{e.when}</time>
              </>
            );
            return (
              <li key={e.changeId}>
                {e.teams.length === 1 ? (
                  <p>
                    {e.match} · {e.teams[0]} · {by}
                  </p>
                ) : (
                  <>
                    <p>
                      {e.match} · {by}, one correction of {e.teams.length} teams:
                    </p>
                    <ul>
                      {e.teams.map((line) => (
                        <li key={line}>{line}</li>
                      ))}
                    </ul>
                  </>
                )}
              </li>
            );
          })}
        </ol>
      )}
      {more ? <p className="fine">The latest {HISTORY_ON_PAGE} corrections are shown.</p> : null}
    </section>
  );
}

/** Issue 27: group matches the organiser marked as not played when completing their stage. */
function NotPlayed({ lines }: { lines: NotPlayedLine[] }) {
  return (
    <section aria-labelledby="np-title" className="result-history">
      <h2 id="np-title">Matches not played</h2>
      <ul className="rh-list">
        {lines.map((l) => (
          <li key={l.key}>
            <p>
              {l.match} · marked not played by {l.by}, <time dateTime={l.at}>{l.when}</time>
            </p>
          </li>
        ))}
      </ul>
    </section>
  );
}

type Summary = { id: number; name: string; final: boolean; groups: { id: number; name: string }[] };

/**
 * Every published stage as a link; the shown stage's groups as links (40 groups: 40 short links, never their rows).
 * players (issue 30): the links lead to Top fraggers of each scope, and the whole tournament is one too (scoped: a stage or group is asked for).
 */
function StageLinks({
  tid,
  stages,
  stage,
  group,
  players,
}: {
  tid: number;
  stages: Summary[];
  stage: Summary | null;
  group: { id: number } | null;
  players?: { scoped: boolean };
}) {
  const to = (query: string, scope: { stage?: number; group?: number }) =>
    `/tournaments/${tid}/points-table${players ? playersQuery(scope) : query}`;
  const scoped = !players || players.scoped;
  return (
    <nav aria-label="Stages and groups" className="pt-scope">
      <ul className="stage-list group-links">
        {players ? (
          <li>
            <Link to={to('', {})} aria-current={scoped ? undefined : 'page'}>
              Whole tournament
            </Link>
          </li>
        ) : null}
        {stages.map((s) => (
          <li key={s.id}>
            <Link to={to(`?stage=${s.id}`, { stage: s.id })} aria-current={scoped && stage?.id === s.id && !group ? 'page' : undefined}>
              {s.name}
            </Link>
          </li>
        ))}
      </ul>
      {stage && stage.groups.length > 1 ? (
        <>
          {/* "Groups:" beside the stage's link, whose name it follows: one row at 360 px. */}
          <p className="fine">Groups:</p>
          <ul className="group-links">
            {stage.groups.map((g) => (
              <li key={g.id}>
                <Link
                  to={to(`?stage=${stage.id}&group=${g.id}`, { stage: stage.id, group: g.id })}
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
      <p className="pt-all">
        <Link to={`/tournaments/${tid}/stages`}>All stages, groups and slots</Link>
      </p>
    </nav>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
