import { type ActionFunctionArgs, type HeadersFunction, type LoaderFunctionArgs, type MetaFunction, data } from '@remix-run/node';
import { Form, Link, useActionData, useLoaderData } from '@remix-run/react';
import { lobbyLimits, MatchResultsQuerySchema } from '@custom-room/contract';
import { MATCH_DAY_MAX, MATCH_NO_MAX, TOURNAMENT_NOT_FOUND } from '@custom-room/contract/constants';
import { GeneralErrorBoundary } from '~/components/error-page';
import { ResultsGrid } from '~/components/results-entry/results-grid';
import { ErrorSummary } from '~/components/ui/error-summary';
import { SubmitButton } from '~/components/ui/submit-button';
import { requireRight } from '~/utils/desk.server';
import { pageError } from '~/utils/errors.server';
import { formFailure, type FormFailure } from '~/utils/forms.server';
import { gateway, GatewayError, type AdminRegistration, type Match, type MatchResult } from '~/utils/gateway.server';
import { NUMBER_FIELDS, resultInput, rowKeys, type NumberField } from '~/utils/results-entry';
import { parseResultsForm, resultsRefusal, type RefusalWords } from '~/utils/results-entry.server';
import { flash } from '~/utils/session.server';
import '~/styles/screens.css';

const SUBMITTED = 'Points table submitted successfully!';
const NO_REGISTRATIONS = 'No registrations found for this tournament.';
const UNAUTHORIZED = 'Unauthorized. Please check your access.';
const LOAD_FAILED = 'Failed to load registrations. Please try again.';
const SUBMIT_FAILED = 'Failed to submit points. Please try again.';
const badMatch = (limits: { days: number; matches: number }) =>
  `Choose a day from 1 to ${limits.days} and a match from 1 to ${limits.matches}.`;

type SavedRows = Record<string, Pick<MatchResult, 'position' | 'wins' | 'finishes' | 'positionPoints' | 'totalPoints'>>;

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: `Points entry${data?.t ? `: ${data.t.name}` : ''} | Admin | Custom Room` },
  { name: 'description', content: 'Enter every team’s position and finishes for one match, saved in one step.' },
];

export const headers: HeadersFunction = () => ({ 'Cache-Control': 'private, no-store' });

/** ?day=&match=: absent (choose first), valid, or invalid (choose again, with a note). */
function matchOf(request: Request): { state: 'none' } | { state: 'invalid' } | { state: 'ok'; day: number; match: number } {
  const q = new URL(request.url).searchParams;
  if (!q.has('day') && !q.has('match')) return { state: 'none' };
  const parsed = MatchResultsQuerySchema.safeParse({ day: q.get('day') ?? undefined, match: q.get('match') ?? undefined });
  return parsed.success ? { state: 'ok', ...parsed.data } : { state: 'invalid' };
}

const groupResultsUrl = (tid: number, m: Match) =>
  `/admin/${tid}/stages/${m.stageId}/results?day=${m.day}&match=${m.matchNo}&group=${m.groupId}`;

/** The results page of each group playing this day and match: empty for a match outside the stages. */
function groupResultLinks(tid: number, matches: readonly Match[], day: number, match: number) {
  return matches
    .filter((m) => m.groupId !== undefined && m.day === day && m.matchNo === match)
    .map((m) => ({ key: String(m.id), label: `${m.stageName} · Group ${m.groupName}`, href: groupResultsUrl(tid, m) }));
}

function playedInGroups(matches: readonly Match[], day: number, match: number) {
  const stage = matches.find((m) => m.groupId !== undefined && m.day === day && m.matchNo === match)?.stageName ?? 'a stage';
  return `Day ${day} match ${match} is played in the groups of ${stage}: enter each group's results on its own page.`;
}

/** §8's messages for the registrations call (404, 403, anything else). */
function registrationsError(err: unknown): { message: string; status: number } {
  if (err instanceof Response) throw err;
  if (!(err instanceof GatewayError)) throw err;
  if (err.status === 404) return { message: NO_REGISTRATIONS, status: 404 };
  if (err.status === 403) return { message: UNAUTHORIZED, status: 403 };
  return { message: LOAD_FAILED, status: err.unavailable ? 503 : err.status };
}

export async function loader({ request, params }: LoaderFunctionArgs) {
  const { tournamentId: tid } = await requireRight(request, params.tournamentId, 'run');
  const chosen = matchOf(request);
  const [tournament, registrations, results, matches] = await Promise.allSettled([
    gateway.getTournament(request, tid),
    gateway.tournamentRegistrations(request, tid),
    chosen.state === 'ok' ? gateway.matchResults(request, tid, chosen.day, chosen.match) : Promise.resolve([] as MatchResult[]),
    gateway.listMatches(request, tid),
  ]);

  const all = matches.status === 'fulfilled' ? [...matches.value].sort((a, b) => a.day - b.day || a.matchNo - b.matchNo) : [];
  // Issue 27: a match played in a stage's groups is entered group by group on the stage's results page,
  // never here as one form of every team (the gateway would refuse it, or it would land on no group).
  const inGroups = chosen.state === 'ok' ? groupResultLinks(tid, all, chosen.day, chosen.match) : [];
  const base = {
    limits: { days: MATCH_DAY_MAX, matches: MATCH_NO_MAX },
    inGroups,
    day: chosen.state === 'ok' ? chosen.day : null,
    match: chosen.state === 'ok' ? chosen.match : null,
    invalidMatch: chosen.state === 'invalid',
    scheduled: all.map((m) => ({
      key: String(m.id),
      day: m.day,
      matchNo: m.matchNo,
      map: m.map,
      group: m.groupId !== undefined ? `${m.stageName} · Group ${m.groupName}` : null,
      href: m.groupId !== undefined ? groupResultsUrl(tid, m) : `?day=${m.day}&match=${m.matchNo}`,
    })),
  };

  if (registrations.status === 'rejected') {
    const { message, status } = registrationsError(registrations.reason);
    const t = tournament.status === 'fulfilled' ? { id: tournament.value.id, name: tournament.value.name } : { id: tid, name: '' };
    return data(
      {
        ...base,
        t,
        loadError: message,
        teams: [] as { rid: number; teamName: string }[],
        saved: {} as SavedRows,
        lobby: null as ReturnType<typeof lobbyLimits> | null,
      },
      { status },
    );
  }
  if (tournament.status === 'rejected') pageError(tournament.reason, TOURNAMENT_NOT_FOUND);
  // A group match asked without its group is refused: nothing is shown for it here anyway.
  if (results.status === 'rejected' && inGroups.length === 0) pageError(results.reason, TOURNAMENT_NOT_FOUND);

  const teams = registrations.value.map((r: AdminRegistration) => ({ rid: r.rid, teamName: r.teamName }));
  const saved: SavedRows = {};
  for (const r of results.status === 'fulfilled' ? results.value : []) {
    saved[r.teamId] = {
      position: r.position,
      wins: r.wins,
      finishes: r.finishes,
      positionPoints: r.positionPoints,
      totalPoints: r.totalPoints,
    };
  }
  return data({
    ...base,
    t: { id: tournament.value.id, name: tournament.value.name },
    loadError: teams.length === 0 ? NO_REGISTRATIONS : (null as string | null),
    teams,
    saved,
    // The gateway's bounds for this match, said beside the form (it checks them itself).
    lobby: lobbyLimits(teams.length, tournament.value.format) as ReturnType<typeof lobbyLimits> | null,
  });
}

export async function action({ request, params }: ActionFunctionArgs) {
  const { tournamentId: tid } = await requireRight(request, params.tournamentId, 'run');
  const chosen = matchOf(request);
  const formData = await request.formData();
  const parsed = parseResultsForm(formData);
  if (chosen.state !== 'ok')
    return formFailure({ values: parsed.values, formError: badMatch({ days: MATCH_DAY_MAX, matches: MATCH_NO_MAX }) });
  if (!parsed.ok) return formFailure({ values: parsed.values, fieldErrors: parsed.fieldErrors, formError: SUBMIT_FAILED });
  // A post without a single team row (not this page's form) must not clear the match.
  if (Object.keys(parsed.values).length === 0) return formFailure({ formError: SUBMIT_FAILED });
  // Never a write to a group the organiser did not choose. (The gateway also refuses a group match without its group.)
  const scheduled = await gateway.listMatches(request, tid).catch(() => [] as Match[]);
  if (groupResultLinks(tid, scheduled, chosen.day, chosen.match).length > 0)
    return formFailure({ values: parsed.values, formError: playedInGroups(scheduled, chosen.day, chosen.match) });

  try {
    await gateway.saveMatchResults(request, tid, chosen.day, chosen.match, parsed.rows);
  } catch (err) {
    if (!(err instanceof GatewayError)) throw err;
    return formFailure({ values: parsed.values, ...resultsRefusal(err, POINTS_REFUSAL) }, err.unavailable ? 503 : err.status);
  }
  // Post/redirect/get: the page then shows the stored rows with their computed points.
  return flash(request, SUBMITTED, `/admin/add-points/${tid}?day=${chosen.day}&match=${chosen.match}`);
}

/**
 * A refused batch in this page's words (§8): 403 and 404 alone; a 409 (shared placement) keeps the
 * gateway's message, which names every team involved, beside the row errors.
 */
const POINTS_REFUSAL: RefusalWords = {
  failed: SUBMIT_FAILED,
  unavailable: SUBMIT_FAILED,
  whole: (err) => (err.status === 403 ? UNAUTHORIZED : err.status === 404 ? err.message || TOURNAMENT_NOT_FOUND : null),
  gatewaySays: (err) => err.status === 409,
};

type Page = ReturnType<typeof useLoaderData<typeof loader>>;

export default function AdminAddPoints() {
  const page = useLoaderData<typeof loader>();
  const { t, day, match } = page;
  const entering = day !== null && match !== null && !page.loadError && page.inGroups.length === 0;

  return (
    <section className="ops-page" aria-labelledby="ops-title">
      <p className="crumb">
        <Link to="/admin/tournament-list">Tournament list</Link>
      </p>
      <h1 id="ops-title">Points entry</h1>
      {t.name ? <p className="ops-subtitle">{t.name}</p> : null}

      {page.loadError ? (
        <p className="notice" role="alert">
          {page.loadError}
        </p>
      ) : null}

      <MatchPicker page={page} entering={entering} />
      {entering ? <PointsRows page={page} day={day} match={match} /> : null}
    </section>
  );
}

/** The day and match chosen by a GET form (works without JavaScript), the groups' pages, the scheduled matches. */
function MatchPicker({ page, entering }: { page: Page; entering: boolean }) {
  const { limits, day, match } = page;
  return (
    <section className="ops-panel" aria-labelledby="pick-title">
      <h2 id="pick-title">{entering ? `Day ${day}, match ${match}` : 'Choose the match'}</h2>
      {page.invalidMatch ? (
        <p className="notice" role="status">
          {badMatch(limits)}
        </p>
      ) : null}
      <Form method="get" className="ops-pick" key={`${day}-${match}`}>
        <NumberPick name="day" label="Day" count={limits.days} value={day} />
        <NumberPick name="match" label="Match" count={limits.matches} value={match} />
        <button type="submit" className="button button-secondary">
          Open
        </button>
      </Form>
      {page.inGroups.length > 0 ? (
        <div className="notice" role="status">
          <p>
            Day {day} match {match} is played in groups: each group&apos;s results are entered on its own page, so that none lands on a
            group you did not choose.
          </p>
          <ul>
            {page.inGroups.map((g) => (
              <li key={g.key}>
                <Link to={g.href}>Enter results: {g.label}</Link>
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      {page.scheduled.length > 0 ? (
        <nav aria-label="Scheduled matches" className="ops-chips">
          <ul>
            {page.scheduled.map((m) => (
              <li key={m.key}>
                <Link to={m.href} aria-current={!m.group && m.day === day && m.matchNo === match ? 'page' : undefined}>
                  D{m.day} M{m.matchNo}
                  {m.group ? <span className="ops-chip-group"> · {m.group}</span> : null}
                  <span className="ops-chip-map"> {m.map}</span>
                </Link>
              </li>
            ))}
          </ul>
        </nav>
      ) : null}
    </section>
  );
}

/** A select of 1 to count ("Day 1", "Day 2", …), on the current value or 1. */
function NumberPick({ name, label, count, value }: { name: string; label: string; count: number; value: number | null }) {
  return (
    <div>
      <label htmlFor={`pick-${name}`}>{label}</label>
      <select id={`pick-${name}`} name={name} defaultValue={value ?? 1}>
        {Array.from({ length: count }, (_, i) => i + 1).map((n) => (
          <option key={n} value={n}>
            {label} {n}
          </option>
        ))}
      </select>
    </div>
  );
}

/** One match's rows: every registered team, saved in one step. */
function PointsRows({ page, day, match }: { page: Page; day: number; match: number }) {
  const actionData = useActionData<FormFailure>();
  const errors = actionData?.fieldErrors ?? {};
  const savedCount = Object.keys(page.saved).length;
  const valueOf = (field: NumberField, rid: number) => {
    if (actionData) return actionData.values[resultInput(field, rid)] ?? '';
    const row = page.saved[String(rid)];
    return row ? String(row[field]) : '';
  };
  const order = page.teams.flatMap((team) => rowKeys(team.rid, NUMBER_FIELDS));

  return (
    <section aria-labelledby="rows-title">
      <h2 id="rows-title" className="visually-hidden">
        Results
      </h2>
      <ErrorSummary fieldErrors={errors} formError={actionData?.formError} order={order} />
      <p className="fine">
        Pos = finishing position{page.lobby ? `, 1 to ${page.lobby.teams}` : ''} (0 = not placed). Fin = finishes
        {page.lobby ? `, 0 to ${page.lobby.maxFinishes}` : ''}. The win (chicken dinner) goes to the team placed 1st. An empty box counts as
        0. A team left at 0 and 0 is not saved: it did not play this match.
      </p>
      <Form
        method="post"
        className="ops-points-form"
        noValidate
        key={actionData ? 'failed' : `saved-${day}-${match}-${JSON.stringify(page.saved)}`}
      >
        <ResultsGrid
          teams={page.teams.map((team) => ({ teamId: team.rid, teamName: team.teamName }))}
          caption={
            <>
              Day {day}, match {match}: one row per team
            </>
          }
          errors={errors}
          value={valueOf}
          points={(rid) => (actionData ? null : (page.saved[String(rid)]?.totalPoints ?? null))}
          win
          teamColumnId="col-team"
          describe="field"
        />
        <SubmitButton pendingLabel="Saving…">
          Save day {day}, match {match}
        </SubmitButton>
      </Form>
      <p className="fine" role="status">
        {savedCount === 0
          ? 'Nothing saved for this match yet.'
          : `${savedCount} ${savedCount === 1 ? 'team has' : 'teams have'} a saved result in this match.`}
      </p>
      <p>
        <Link to={`/tournaments/${page.t.id}/points-table`}>View the public points table</Link>
      </p>
    </section>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
