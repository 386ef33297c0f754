import type { ActionFunctionArgs, HeadersFunction, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { data } from '@remix-run/node';
import { Form, Link, useActionData, useLoaderData } from '@remix-run/react';
import { GeneralErrorBoundary } from '~/components/error-page';
import { ErrorSummary } from '~/components/ui/error-summary';
import { SubmitButton } from '~/components/ui/submit-button';
import { pageError } from '~/utils/errors.server';
import { formFailure, UNAVAILABLE_FORM_MESSAGE, type FieldErrors, type FormFailure } from '~/utils/forms.server';
import { gateway, GatewayError } from '~/utils/gateway.server';
import { playerIgns } from '~/utils/admin-registrations.server';
import { parseGroupResultsForm, queryNumber } from '~/utils/stage-admin.server';
import { resultInput } from '~/utils/stage-forms';
import { flash, requireAdmin } from '~/utils/session.server';
import { requireTournamentId } from '~/utils/route-params.server';
import { GROUP_NOT_FOUND, MATCH_DAY_MAX, MATCH_NO_MAX, STAGE_NOT_FOUND } from '@custom-room/contract/constants';
import { lobbyLimits } from '@custom-room/contract';
import '~/styles/screens.css';
import '~/styles/admin-ops.css';
import '~/styles/admin-stages.css';

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
  const sid = params.stageId && /^\d{1,9}$/.test(params.stageId) ? Number(params.stageId) : 0;
  const q = new URL(request.url).searchParams;
  const day = queryNumber(q.get('day'), MATCH_DAY_MAX);
  const match = queryNumber(q.get('match'), MATCH_NO_MAX);
  const groupId = queryNumber(q.get('group'), 2_147_483_647);
  if (!day || !match || !groupId) throw new Response(CHOOSE, { status: 404 });
  const [t, stages] = await Promise.all([gateway.getTournament(request, tid), gateway.listStages(request, tid, { admin: true })]).catch(
    (err) => pageError(err, STAGE_NOT_FOUND),
  );
  const stage = stages.find((s) => s.id === sid);
  if (!stage) throw new Response(STAGE_NOT_FOUND, { status: 404 });
  const group = stage.groups.find((g) => g.id === groupId);
  if (!group) throw new Response(GROUP_NOT_FOUND, { status: 404 });
  // The group's teams in slot order: the order of the room's lobby list.
  const teams = [...group.slots].sort((a, b) => a.slot - b.slot);
  return { tid, t, stage, group, teams, day, match };
}

export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireAdmin(request);
  const { tid, t, stage, group, teams, day, match } = await groupMatchOf(request, params);
  const [results, registrations] = await Promise.all([
    gateway.matchResults(request, tid, day, match, group.id).catch((err) => pageError(err, STAGE_NOT_FOUND)),
    // The IGNs under each name (issue 27): the game's result screen lists players, not teams. Without them the grid still works.
    gateway.tournamentRegistrations(request, tid).catch(() => []),
  ]);
  const ignsOf = new Map(registrations.map((r) => [r.rid, playerIgns(r)]));
  const saved: Record<string, { position: number; finishes: number; absent: boolean; totalPoints: number }> = {};
  for (const r of results)
    saved[r.teamId] = { position: r.position, finishes: r.finishes, absent: r.absent === true, totalPoints: r.totalPoints };
  return data({
    t: { id: t.id, name: t.name },
    stage: { id: stage.id, name: stage.name, completed: stage.state === 'completed' },
    group: { id: group.id, name: group.name },
    groups: stage.groups.map((g) => ({ id: g.id, name: g.name })),
    day,
    match,
    teams: teams.map((s) => ({ teamId: s.teamId, teamName: s.teamName, slot: s.slot, igns: ignsOf.get(s.teamId) ?? [] })),
    saved,
    lobby: lobbyLimits(teams.length, t.format),
  });
}

export async function action({ request, params }: ActionFunctionArgs) {
  await requireAdmin(request);
  const { tid, stage, group, teams, day, match } = await groupMatchOf(request, params);
  const parsed = parseGroupResultsForm(
    await request.formData(),
    teams.map((s) => s.teamId),
  );
  if (!parsed.ok) return formFailure({ values: parsed.values, fieldErrors: parsed.fieldErrors, formError: SAVE_FAILED });
  try {
    await gateway.saveMatchResults(request, tid, day, match, parsed.rows, group.id);
  } catch (err) {
    if (!(err instanceof GatewayError)) throw err;
    return formFailure({ values: parsed.values, ...resultsRefusal(err) }, err.unavailable ? 503 : err.status);
  }
  return flash(
    request,
    `Group ${group.name} results saved`,
    `/admin/${tid}/stages/${stage.id}/results?day=${day}&match=${match}&group=${group.id}`,
  );
}

/** Row errors arrive keyed `{field}.{teamId}`, the inputs' own names; the rest is said at the top. */
export function resultsRefusal(err: GatewayError): { fieldErrors: FieldErrors; formError: string } {
  if (err.unavailable) return { fieldErrors: {}, formError: UNAVAILABLE_FORM_MESSAGE };
  const fieldErrors: FieldErrors = {};
  const unplaced: string[] = [];
  for (const [key, message] of Object.entries(err.fieldErrors)) {
    if (/^(position|finishes|absent|teamId)\.\d+$/.test(key)) fieldErrors[key] = message;
    else unplaced.push(message);
  }
  if (unplaced.length === 0 && Object.keys(fieldErrors).length === 0) return { fieldErrors, formError: err.message || SAVE_FAILED };
  return { fieldErrors, formError: [SAVE_FAILED, ...unplaced].join(' ') };
}

export default function AdminGroupResults() {
  const page = useLoaderData<typeof loader>();
  const actionData = useActionData<FormFailure>();
  const errors = actionData?.fieldErrors ?? {};
  const { t, stage, group, day, match } = page;
  const value = (field: 'position' | 'finishes', teamId: number) => {
    if (actionData) return actionData.values[resultInput(field, teamId)] ?? '';
    const row = page.saved[String(teamId)];
    return row && !row.absent ? String(row[field]) : '';
  };
  const absent = (teamId: number) =>
    actionData ? resultInput('absent', teamId) in actionData.values : page.saved[String(teamId)]?.absent === true;
  const order = page.teams.flatMap((s) => [
    `teamId.${s.teamId}`,
    resultInput('position', s.teamId),
    resultInput('finishes', s.teamId),
    resultInput('absent', s.teamId),
  ]);
  const stageUrl = `/admin/${t.id}/stages/${stage.id}`;

  return (
    <section className="ops-page" aria-labelledby="ops-title">
      <p className="crumb">
        <Link to={`${stageUrl}#results`}>{stage.name}</Link>
      </p>
      <h1 id="ops-title">
        Group {group.name} · Day {day} · Match {match}
      </h1>
      <p className="ops-subtitle">
        {t.name} · {stage.name}
      </p>
      <nav aria-label="Groups of this match">
        <ul className="st-groups">
          {page.groups.map((g) => (
            <li key={g.id}>
              <Link to={`?day=${day}&match=${match}&group=${g.id}`} aria-current={g.id === group.id ? 'page' : undefined}>
                {g.name}
                <span className="visually-hidden"> (group)</span>
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      {stage.completed ? (
        <p className="notice" role="status">
          This stage is completed: its results are read-only until it is reopened.
        </p>
      ) : null}
      <ErrorSummary fieldErrors={errors} formError={actionData?.formError} order={order} />
      <p className="fine">
        Pos = position, 1 to {page.lobby.teams}. Fin = finishes, 0 to {page.lobby.maxFinishes}. Empty counts as 0; a team left at 0 and 0
        has no result. Tick Absent for a team that did not play.
      </p>
      <Form method="post" noValidate key={actionData ? 'failed' : `saved-${JSON.stringify(page.saved)}`}>
        <div className="ops-table-wrap" role="region" aria-labelledby="rows-caption" tabIndex={0}>
          <table className="ops-points st-results">
            <caption id="rows-caption" className="visually-hidden">
              Group {group.name}, day {day}, match {match}: one row per team, in slot order
            </caption>
            <thead>
              <tr>
                <th scope="col">
                  <span aria-hidden="true">#</span>
                  <span className="visually-hidden">Slot</span>
                </th>
                <th scope="col">Team</th>
                <th scope="col" id="col-position">
                  <span aria-hidden="true">Pos</span>
                  <span className="visually-hidden">Position</span>
                </th>
                <th scope="col" id="col-finishes">
                  <span aria-hidden="true">Fin</span>
                  <span className="visually-hidden">Finishes</span>
                </th>
                <th scope="col" id="col-absent">
                  Absent
                </th>
                <th scope="col">
                  <span aria-hidden="true">Pts</span>
                  <span className="visually-hidden">Points this match</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {page.teams.map((s) => {
                const keys = [
                  `teamId.${s.teamId}`,
                  resultInput('position', s.teamId),
                  resultInput('finishes', s.teamId),
                  resultInput('absent', s.teamId),
                ];
                const rowErrors = keys.map((k) => errors[k]).filter(Boolean);
                const errorId = `row-error-${s.teamId}`;
                const saved = page.saved[String(s.teamId)];
                const described = rowErrors.length ? errorId : undefined;
                return [
                  <tr key={s.teamId} className={rowErrors.length ? 'has-error' : undefined}>
                    <td>{s.slot}</td>
                    <th scope="row" className="ops-team">
                      {/* The inputs are labelled by the name alone; the IGNs are for the eye, matching the game's screen. */}
                      <span id={`team-${s.teamId}`}>{s.teamName}</span>
                      {s.igns.length > 0 ? <span className="ops-igns">{s.igns.join(' · ')}</span> : null}
                    </th>
                    {(['position', 'finishes'] as const).map((f) => (
                      <td key={f}>
                        <input
                          id={resultInput(f, s.teamId)}
                          name={resultInput(f, s.teamId)}
                          type="text"
                          inputMode="numeric"
                          pattern="[0-9]*"
                          autoComplete="off"
                          maxLength={3}
                          placeholder="0"
                          defaultValue={value(f, s.teamId)}
                          aria-labelledby={`team-${s.teamId} col-${f}`}
                          aria-invalid={errors[resultInput(f, s.teamId)] ? true : undefined}
                          aria-describedby={described}
                        />
                      </td>
                    ))}
                    <td>
                      <input
                        id={resultInput('absent', s.teamId)}
                        name={resultInput('absent', s.teamId)}
                        type="checkbox"
                        defaultChecked={absent(s.teamId)}
                        aria-labelledby={`team-${s.teamId} col-absent`}
                        aria-invalid={errors[resultInput('absent', s.teamId)] ? true : undefined}
                        aria-describedby={described}
                      />
                    </td>
                    <td className="ops-pts">{saved && !actionData ? saved.totalPoints : '—'}</td>
                  </tr>,
                  rowErrors.length ? (
                    <tr key={`${s.teamId}-error`} className="ops-row-error">
                      <td colSpan={6} id={errorId}>
                        {rowErrors.map((message) => (
                          <p key={message} className="field-error">
                            <span aria-hidden="true">⚠ </span>
                            {s.teamName}: {message}
                          </p>
                        ))}
                      </td>
                    </tr>
                  ) : null,
                ];
              })}
            </tbody>
          </table>
        </div>
        <SubmitButton pendingLabel="Saving…">Save group {group.name}</SubmitButton>
      </Form>
      <p>
        <Link to={`${stageUrl}#results`}>Back to {stage.name}</Link>
      </p>
    </section>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
