import { type ActionFunctionArgs, type HeadersFunction, type LoaderFunctionArgs, type MetaFunction, data } from '@remix-run/node';
import { Form, Link, useActionData, useLoaderData } from '@remix-run/react';
import { lobbyLimits } from '@custom-room/contract';
import { GROUP_NOT_FOUND, idFromText, MATCH_DAY_MAX, MATCH_NO_MAX, STAGE_NOT_FOUND } from '@custom-room/contract/constants';
import { GeneralErrorBoundary } from '~/components/error-page';
import { PlacementOrder } from '~/components/results-entry/placement-order';
import { ResultsGrid } from '~/components/results-entry/results-grid';
import { ErrorSummary } from '~/components/ui/error-summary';
import { SubmitButton } from '~/components/ui/submit-button';
import { playerIgns } from '~/utils/admin-registrations.server';
import { requireDesk } from '~/utils/desk.server';
import { pageError } from '~/utils/errors.server';
import { formFailure, type FormFailure } from '~/utils/forms.server';
import { gateway, GatewayError } from '~/utils/gateway.server';
import {
  isPlacementIntent,
  RESULT_FIELDS,
  resultInput,
  rowKeys,
  savedLists,
  type NumberField,
  type PlacementStep,
} from '~/utils/results-entry';
import { parseResultsForm, placementOrderAction, resultsRefusal, type ResultRow } from '~/utils/results-entry.server';
import { requireTournamentId } from '~/utils/route-params.server';
import { flash } from '~/utils/session.server';
import { queryNumber } from '~/utils/stage-admin.server';
import '~/styles/screens.css';

const SAVE_FAILED = 'Failed to save the results.';
const CHOOSE = 'Choose a group match from the stage page.';

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: `${data ? `Group ${data.group.name} results: ${data.stage.name}` : 'Group results'} | Admin | Custom Room` },
  { name: 'description', content: 'One group match: every team’s position and finishes, saved in one step.' },
];

export const headers: HeadersFunction = () => ({ 'Cache-Control': 'private, no-store' });

/** ?day=&match=&group= and the stage's group; 404 when any does not fit. */
async function groupMatchOf(request: Request, params: Record<string, string | undefined>) {
  const tid = requireTournamentId(params.tournamentId);
  const sid = idFromText(params.stageId) ?? 0;
  const q = new URL(request.url).searchParams;
  const day = queryNumber(q.get('day'), MATCH_DAY_MAX);
  const match = queryNumber(q.get('match'), MATCH_NO_MAX);
  const groupId = queryNumber(q.get('group'), 2_147_483_647);
  if (!day || !match || !groupId) throw new Response(CHOOSE, { status: 404 });
  // Decision 073: ?entry=order types the slots in result order instead of the grid.
  const entry = q.get('entry') === 'order' ? 'order' : 'grid';
  const [t, stages] = await Promise.all([gateway.getTournament(request, tid), gateway.listStages(request, tid, { admin: true })]).catch(
    (err) => pageError(err, STAGE_NOT_FOUND),
  );
  const stage = stages.find((s) => s.id === sid);
  if (!stage) throw new Response(STAGE_NOT_FOUND, { status: 404 });
  const group = stage.groups.find((g) => g.id === groupId);
  if (!group) throw new Response(GROUP_NOT_FOUND, { status: 404 });
  // The group's teams in slot order: the order of the room's lobby list.
  const teams = [...group.slots].sort((a, b) => a.slot - b.slot);
  return { tid, t, stage, group, teams, day, match, entry };
}

export async function loader({ request, params }: LoaderFunctionArgs) {
  const desk = await requireDesk(request);
  const { tid, t, stage, group, teams, day, match, entry } = await groupMatchOf(request, params);
  // Issue 29 (decision 069): a lobby manager comes from My groups and may open only its groups; it may not read the registrations.
  const lobby = desk.tournaments.find((x) => x.id === tid)?.kind === 'lobby';
  const [results, registrations, scopes] = await Promise.all([
    gateway.matchResults(request, tid, day, match, group.id).catch((err) => pageError(err, STAGE_NOT_FOUND)),
    // The IGNs under each name (issue 27): the game's result screen lists players, not teams. Without them the grid still works.
    lobby ? Promise.resolve([]) : gateway.tournamentRegistrations(request, tid).catch(() => []),
    lobby
      ? gateway.call(request, 'myStanding', { params: { id: tid } }).then(
          (me) => me.scopes.filter((s) => s.stageId === stage.id),
          (err) => pageError(err),
        )
      : Promise.resolve(null),
  ]);
  const mine = (groupId: number) => !scopes || scopes.some((s) => s.groupId === null || s.groupId === groupId);
  const ignsOf = new Map(registrations.map((r) => [r.rid, playerIgns(r)]));
  const saved: Record<string, { position: number; finishes: number; absent: boolean; totalPoints: number }> = {};
  for (const r of results)
    saved[r.teamId] = { position: r.position, finishes: r.finishes, absent: r.absent === true, totalPoints: r.totalPoints };
  return data({
    t: { id: t.id, name: t.name },
    stage: { id: stage.id, name: stage.name, completed: stage.state === 'completed' },
    group: { id: group.id, name: group.name },
    groups: stage.groups.filter((g) => mine(g.id)).map((g) => ({ id: g.id, name: g.name })),
    back: lobby ? { to: `/admin/${tid}/my-groups#group-${group.id}`, label: 'My groups' } : null,
    day,
    match,
    teams: teams.map((s) => ({ teamId: s.teamId, teamName: s.teamName, slot: s.slot, igns: ignsOf.get(s.teamId) ?? [] })),
    saved,
    entry,
    lists: savedLists(teams, (teamId) => saved[teamId]),
    lobby: lobbyLimits(teams.length, t.format),
  });
}

/** "Group B results saved", with the count of teams placed and absent after a placement-order save. */
function savedMessage(group: string, rows?: readonly ResultRow[]) {
  if (!rows) return `Group ${group} results saved`;
  const absent = rows.filter((r) => r.absent).length;
  return `Group ${group} results saved: ${rows.length - absent} placed${absent ? `, ${absent} absent` : ''}`;
}

export async function action({ request, params }: ActionFunctionArgs) {
  await requireDesk(request);
  const { tid, stage, group, teams, day, match } = await groupMatchOf(request, params);
  const formData = await request.formData();
  const here = `/admin/${tid}/stages/${stage.id}/results?day=${day}&match=${match}&group=${group.id}`;
  const intent = formData.get('intent');
  if (isPlacementIntent(intent)) {
    const outcome = await placementOrderAction(formData, intent, {
      teams,
      lobby: `Group ${group.name}`,
      save: (rows) => gateway.saveMatchResults(request, tid, day, match, rows, group.id),
      words: { failed: SAVE_FAILED },
    });
    if ('step' in outcome) return data(outcome.step, { status: outcome.status });
    return flash(request, savedMessage(group.name, outcome.saved), `${here}&entry=order`);
  }
  const parsed = parseResultsForm(formData, { teamIds: teams.map((s) => s.teamId), absent: true });
  if (!parsed.ok) return formFailure({ values: parsed.values, fieldErrors: parsed.fieldErrors, formError: SAVE_FAILED });
  try {
    await gateway.saveMatchResults(request, tid, day, match, parsed.rows, group.id);
  } catch (err) {
    if (!(err instanceof GatewayError)) throw err;
    return formFailure({ values: parsed.values, ...resultsRefusal(err, { failed: SAVE_FAILED }) }, err.unavailable ? 503 : err.status);
  }
  return flash(request, savedMessage(group.name), here);
}

type PageData = ReturnType<typeof useLoaderData<typeof loader>>;

export default function AdminGroupResults() {
  const page = useLoaderData<typeof loader>();
  const actionData = useActionData<FormFailure | PlacementStep>();
  const { t, stage, group, day, match } = page;
  const stageUrl = `/admin/${t.id}/stages/${stage.id}`;
  const back = page.back ?? { to: `${stageUrl}#results`, label: stage.name };
  const query = (groupId: number, entry = page.entry) =>
    `?day=${day}&match=${match}&group=${groupId}${entry === 'order' ? '&entry=order' : ''}`;

  return (
    <section className="ops-page" aria-labelledby="ops-title">
      <p className="crumb">
        <Link to={back.to}>{back.label}</Link>
      </p>
      <h1 id="ops-title">
        Group {group.name} · Day {day} · Match {match}
      </h1>
      <p className="ops-subtitle">
        {t.name} · {stage.name}
      </p>
      {/* A lobby manager of one group has no other group to go to. */}
      {page.groups.length > 1 ? (
        <nav aria-label="Groups of this match">
          <ul className="st-groups">
            {page.groups.map((g) => (
              <li key={g.id}>
                <Link to={query(g.id)} aria-current={g.id === group.id ? 'page' : undefined}>
                  {g.name}
                  <span className="visually-hidden"> (group)</span>
                </Link>
              </li>
            ))}
          </ul>
        </nav>
      ) : null}
      {stage.completed ? (
        <p className="notice" role="status">
          This stage is completed: its results are read-only until it is reopened.
        </p>
      ) : null}
      {/* Decision 073: two ways to type the same results; each is a page of its own (a link), so both work without JavaScript. */}
      <nav aria-label="How to enter the results" className="po-modes">
        <ul className="st-groups">
          <li>
            <Link to={query(group.id, 'grid')} aria-current={page.entry === 'grid' ? 'page' : undefined}>
              Slot grid
            </Link>
          </li>
          <li>
            <Link to={query(group.id, 'order')} aria-current={page.entry === 'order' ? 'page' : undefined}>
              Result order
            </Link>
          </li>
        </ul>
      </nav>
      {page.entry === 'order' ? (
        <PlacementOrder
          teams={page.teams}
          lobby={`Group ${group.name}`}
          maxFinishes={page.lobby.maxFinishes}
          saved={page.lists}
          answer={actionData && 'step' in actionData ? actionData : null}
        />
      ) : (
        <GridEntry page={page} failure={actionData && !('step' in actionData) ? actionData : undefined} />
      )}
      <p>
        <Link to={back.to}>Back to {back.label}</Link>
      </p>
    </section>
  );
}

/** The grid in slot order: each team's position, finishes and Absent box (decision 062). */
function GridEntry({ page, failure }: { page: PageData; failure: FormFailure | undefined }) {
  const { group, day, match } = page;
  const errors = failure?.fieldErrors ?? {};
  const value = (field: NumberField, teamId: number) => {
    if (failure) return failure.values[resultInput(field, teamId)] ?? '';
    const row = page.saved[String(teamId)];
    return row && !row.absent ? String(row[field]) : '';
  };
  const absent = (teamId: number) =>
    failure ? resultInput('absent', teamId) in failure.values : page.saved[String(teamId)]?.absent === true;
  const order = page.teams.flatMap((s) => rowKeys(s.teamId, RESULT_FIELDS));
  return (
    <>
      <ErrorSummary fieldErrors={errors} formError={failure?.formError} order={order} />
      <p className="fine">
        Pos = position, 1 to {page.lobby.teams}. Fin = finishes, 0 to {page.lobby.maxFinishes}. Empty counts as 0; a team left at 0 and 0
        has no result. Tick Absent for a team that did not play.
      </p>
      <Form method="post" noValidate key={failure ? 'failed' : `saved-${JSON.stringify(page.saved)}`}>
        <ResultsGrid
          teams={page.teams}
          caption={
            <>
              Group {group.name}, day {day}, match {match}: one row per team, in slot order
            </>
          }
          errors={errors}
          value={value}
          points={(teamId) => (failure ? null : (page.saved[String(teamId)]?.totalPoints ?? null))}
          absent={absent}
          slots
          tableClassName="ops-points st-results"
        />
        <SubmitButton pendingLabel="Saving…">Save group {group.name}</SubmitButton>
      </Form>
    </>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
