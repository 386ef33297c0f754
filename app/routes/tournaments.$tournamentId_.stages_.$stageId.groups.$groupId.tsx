// /tournaments/:id/stages/:stageId/groups/:groupId: one group's slot list and points table (issue 18).
// "stages_" keeps this page out of the stages page's layout: a page of its own, one group's rows at most.
import { data, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node';
import { Link, useLoaderData } from '@remix-run/react';
import { GROUP_NOT_FOUND, TOURNAMENT_NOT_FOUND } from '@custom-room/contract/constants';
import { AnnouncementList } from '~/components/announcements';
import { GeneralErrorBoundary } from '~/components/error-page';
import { MatchBreakdown, ShareLinks, TableTabs } from '~/components/points-extras';
import { PointsTable, type PointsTableRow } from '~/components/points-table';
import { announcementView, forGroupPage } from '~/utils/announcements';
import { getEnv } from '~/utils/env.server';
import { pageError } from '~/utils/errors.server';
import { gateway } from '~/utils/gateway.server';
import { linkPreviewMeta } from '~/utils/link-preview';
import { publicOrigin, tournamentFacts } from '~/utils/link-preview.server';
import { dayLabel, INVALID_DAY, OVERALL, offeredDays, parseDay } from '~/utils/points-day';
import { breakdownView, parseView, tableQuery, whatsAppLink } from '~/utils/points-extras';
import { shareUrl, viewerTeamId } from '~/utils/points-extras.server';
import { loaderCacheHeaders, publicPageHeaders } from '~/utils/public-cache.server';
import { advanceWords, qualifyingNote } from '~/utils/stages.server';
import { parseTournamentId } from '~/utils/tournament';
import '~/styles/screens.css';
import '~/styles/stages.css';

export const headers = loaderCacheHeaders;

export async function loader({ request, params }: LoaderFunctionArgs) {
  const id = parseTournamentId(params.tournamentId);
  const stageId = parseTournamentId(params.stageId);
  const groupId = parseTournamentId(params.groupId);
  if (id === null) throw data({ message: TOURNAMENT_NOT_FOUND }, { status: 404 });
  if (stageId === null || groupId === null) throw data({ message: GROUP_NOT_FOUND }, { status: 404 });
  const search = new URL(request.url).searchParams;
  const { day, valid } = parseDay(search.get('day'));
  // Issue 20: ?view=matches shows each team per match; the viewer's own team is marked.
  const view = parseView(search.get('view'));
  const [t, stages, mine, announced] = await Promise.all([
    gateway.getTournament(request, id),
    gateway.listStages(request, id),
    viewerTeamId(request, id),
    // Issue 29: a gateway without announcements (or one failing only them) leaves the list out, not the page.
    gateway.announcements(request, id).catch(() => []),
  ]).catch((err) => pageError(err, TOURNAMENT_NOT_FOUND));
  const stage = stages.find((s) => s.id === stageId && s.state !== 'draft');
  const group = stage?.groups.find((g) => g.id === groupId);
  if (!stage || !group) throw data({ message: GROUP_NOT_FOUND }, { status: 404 });
  const scope = { stage: stageId, group: groupId };
  const [loaded, matchDays] = await Promise.all([
    view === 'matches'
      ? gateway.pointsBreakdown(request, id, day, scope).then((b) => ({ breakdown: b, points: b.rows }))
      : gateway.pointsTable(request, id, day, scope).then((points) => ({ breakdown: null, points })),
    // Issue 27: only the days the group has matches or results on are offered.
    gateway.pointsDays(request, id, scope),
  ]).catch((err) => pageError(err, GROUP_NOT_FOUND));
  // A day without the group's matches says so, rather than ranking its teams at 0.
  const noMatches = day !== OVERALL && !matchDays.includes(day);
  const table = noMatches ? { breakdown: null, points: [] } : loaded;
  const rows: PointsTableRow[] = table.breakdown
    ? []
    : table.points.map((r) => ({
        rank: r.rank,
        teamName: r.teamName,
        positionPoints: r.positionPoints,
        finishes: r.finishes,
        wins: r.wins,
        totalPoints: r.totalPoints,
        ...(r.slot !== undefined ? { slot: r.slot } : {}),
        ...(mine !== null && r.teamId === mine ? { mine: true } : {}),
      }));
  const query = (v: 'standings' | 'matches') => tableQuery({ day, view: v, keepOverall: true });
  const path = `/tournaments/${id}/stages/${stage.id}/groups/${group.id}`;
  // Link preview (issue 20): this page's canonical address and the group table's 1200×630 card, absolute.
  const origin = publicOrigin(request);
  const dayQuery = day !== OVERALL ? `day=${day}` : '';
  return data(
    {
      t: { id: t.id, name: t.name },
      og: {
        url: `${origin}/tournaments/${t.id}/stages/${stage.id}/groups/${group.id}${dayQuery ? `?${dayQuery}` : ''}`,
        image: `${origin}/tournaments/${t.id}/points-card.png?${dayQuery ? `${dayQuery}&` : ''}group=${group.id}`,
        description: tournamentFacts(t).join(' · '),
      },
      stage: { id: stage.id, name: stage.name, state: stage.state, advance: advanceWords(stage) },
      // The qualifying places of the group's overall table (issue 27 item 23): the stage's top N of each
      // group, as its share image marks them. A day's table is not what decides who advances: no line there.
      cut:
        day === OVERALL && stage.advancePerGroup > 0 && rows.length > stage.advancePerGroup
          ? { places: stage.advancePerGroup, note: qualifyingNote(stage.advancePerGroup, stage.advanceBest) }
          : null,
      group: { id: group.id, name: group.name, slots: group.slots.map((x) => ({ slot: x.slot, teamName: x.teamName })) },
      announcements: forGroupPage(announced, stage.id, group.id).map((a) => announcementView(a, getEnv().APP_TIME_ZONE)),
      // The other groups of the stage, as links.
      groups: stage.groups.map((g) => ({ id: g.id, name: g.name })),
      day,
      days: offeredDays(matchDays),
      noMatches,
      invalidDay: !valid,
      view,
      rows,
      breakdown: table.breakdown ? breakdownView(table.breakdown, day, { mine, slots: 'slot' }) : null,
      tabs: { standings: query('standings'), matches: query('matches') },
      whatsApp: whatsAppLink(t.name, day, shareUrl(request, path, query(view)), `${stage.name} · Group ${group.name}`),
    },
    { headers: publicPageHeaders(request) },
  );
}

export const meta: MetaFunction<typeof loader> = ({ data }) => {
  if (!data) return [{ title: 'Group | Custom Room' }];
  const name = `${data.stage.name} · Group ${data.group.name}`;
  return [
    { title: `${name}: ${data.t.name} | Custom Room` },
    { name: 'description', content: `${name} of ${data.t.name}: slot list and points table.` },
    ...linkPreviewMeta({
      title: `${name}: ${data.t.name}`,
      description: data.og.description,
      url: data.og.url,
      image: data.og.image,
      imageAlt: `${name} of ${data.t.name}: the top 3 teams`,
    }),
  ];
};

export default function GroupPage() {
  const { t, stage, group, groups, day, days, noMatches, invalidDay, view, rows, breakdown, tabs, whatsApp, cut, announcements } =
    useLoaderData<typeof loader>();
  const base = `/tournaments/${t.id}/stages/${stage.id}/groups`;
  const label = dayLabel(day);
  return (
    <section className="sched" aria-labelledby="group-title">
      <p className="crumb">
        <Link to={`/tournaments/${t.id}`}>{t.name}</Link> › <Link to={`/tournaments/${t.id}/stages`}>Stages</Link>
      </p>
      <h1 id="group-title">
        {stage.name} · Group {group.name}
      </h1>
      <p className="fine">
        {stage.state === 'completed' ? 'Completed' : 'In progress'} · {group.slots.length} teams · {stage.advance}
      </p>
      {announcements.length > 0 ? (
        <section aria-labelledby="ann-title">
          <h2 id="ann-title">Announcements</h2>
          <AnnouncementList items={announcements} showAuthor={false} />
        </section>
      ) : null}
      <section aria-labelledby="slots-title">
        <h2 id="slots-title">Slots</h2>
        {group.slots.length === 0 ? (
          <p className="nothing">No teams in this group.</p>
        ) : (
          <>
            <ol className="slot-list">
              {group.slots.map((x) => (
                <li key={x.slot}>
                  <span className="slot-no">Slot {x.slot}</span> {x.teamName}
                </li>
              ))}
            </ol>
            <p>
              {/* Issue 20: the slot list as a 1080×1350 PNG to post (decision 049). */}
              <a href={`/tournaments/${t.id}/slot-list.png?group=${group.id}`} download>
                Slot list image
              </a>
            </p>
          </>
        )}
      </section>
      <section aria-labelledby="table-title">
        <h2 id="table-title">Points table</h2>
        <nav aria-label="Points table day" className="days">
          <ul>
            {days.map((d) => (
              <li key={d}>
                <Link to={tableQuery({ day: d, view, keepOverall: true })} aria-current={d === day ? 'page' : undefined} preventScrollReset>
                  {dayLabel(d)}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
        {invalidDay ? (
          <p className="notice" role="status">
            {INVALID_DAY}
          </p>
        ) : null}
        <TableTabs view={view} standings={tabs.standings} matches={tabs.matches} />
        {noMatches ? (
          <p className="nothing">No matches on {label} yet.</p>
        ) : (breakdown?.rows ?? rows).length === 0 ? (
          <p className="nothing">
            {day === OVERALL ? 'No points yet. The table fills in after the group’s first match.' : `No points yet for ${label}.`}
          </p>
        ) : breakdown ? (
          <MatchBreakdown data={breakdown} id="pt-caption" caption={`Group ${group.name}: ${label} standings: per match`} />
        ) : (
          <>
            <PointsTable
              rows={rows}
              id="pt-caption"
              caption={`Group ${group.name}: ${label} standings`}
              showGroup={false}
              cut={cut?.places}
            />
            {cut ? <p className="fine">{cut.note}</p> : null}
          </>
        )}
        {breakdown && breakdown.rows.length > 0 ? (
          <p className="fine">Each match: placement · finishes. “abs”: absent; “–”: no result.</p>
        ) : null}
        <ShareLinks
          whatsApp={whatsApp}
          image={
            (breakdown?.rows ?? rows).length > 0
              ? `/tournaments/${t.id}/points-table.png${tableQuery({ day, stage: stage.id, group: group.id })}`
              : undefined
          }
        />
        <p>
          <Link to={`/tournaments/${t.id}/points-table?stage=${stage.id}`}>{stage.name}: the whole stage&apos;s table</Link>
        </p>
      </section>
      {groups.length > 1 ? (
        <nav aria-label={`Groups of ${stage.name}`}>
          <h2>All groups</h2>
          <ul className="group-links">
            {groups.map((g) => (
              <li key={g.id}>
                <Link to={`${base}/${g.id}`} aria-current={g.id === group.id ? 'page' : undefined} aria-label={`Group ${g.name}`}>
                  {g.name}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
      ) : null}
    </section>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
