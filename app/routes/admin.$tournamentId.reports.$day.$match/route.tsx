import type { ActionFunctionArgs, HeadersFunction, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { Form, Link, useActionData, useLoaderData } from '@remix-run/react';
import { GeneralErrorBoundary } from '~/components/error-page';
import { Checking, Conflicts, Missing, ReportCards } from '~/components/lobby-reports/report-cards';
import { ResultsGrid } from '~/components/results-entry/results-grid';
import { ErrorSummary } from '~/components/ui/error-summary';
import { SubmitButton } from '~/components/ui/submit-button';
import { requireRight } from '~/utils/desk.server';
import type { FormFailure } from '~/utils/forms.server';
import { lobbyAction, lobbyKeyOf, loadLobby, type LobbyIntent, type LobbyPage } from '~/utils/lobby-reports.server';
import { RESULT_FIELDS, resultInput, rowKeys, type NumberField } from '~/utils/results-entry';
import '~/styles/screens.css';

/**
 * Issue 30 (decision 075): the lobby view of one group-match for its staff (owner, co-organisers, the
 * group's lobby managers: the gateway refuses a lobby manager another group, shown as its 403 page). The
 * reports beside their screenshots, the conflicts, the teams that have not reported, and one form that
 * confirms the lobby. Works without JavaScript.
 */

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: `Reports${data ? `: ${data.title}` : ''} | Admin | Custom Room` },
  { name: 'robots', content: 'noindex' },
];

export const headers: HeadersFunction = () => ({ 'Cache-Control': 'private, no-store' });

export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireRight(request, params.tournamentId, 'lobby');
  return loadLobby(request, lobbyKeyOf(request, params));
}

export async function action({ request, params }: ActionFunctionArgs) {
  await requireRight(request, params.tournamentId, 'lobby');
  return lobbyAction(request, lobbyKeyOf(request, params));
}

/** This form's share of the action's answer (the failure carries the intent of the form sent). */
function useFailure(intent: LobbyIntent) {
  const failure = useActionData<FormFailure>();
  return failure?.values.intent === intent ? failure : undefined;
}

export default function LobbyReports() {
  const page = useLoaderData<typeof loader>();
  const { t } = page;
  return (
    <section className="ops-page lr-page" aria-labelledby="lr-title">
      <p className="crumb">
        <Link to={`/admin/${t.id}`}>{t.name}</Link>
      </p>
      <h1 id="lr-title">{page.title}</h1>
      <p className="ops-subtitle">
        {t.name}
        {page.stageName ? ` · ${page.stageName}` : ''} · Reports
      </p>
      <ReportingState page={page} />
      {/* Without JavaScript a refused confirm opens at the top of a long page: say so here, and link to the rows. */}
      {useFailure('confirm') ? (
        <p className="notice">
          <a href="#lr-confirm-title">Not confirmed yet: see the rows below.</a>
        </p>
      ) : null}
      <Checking checking={page.checking} here={page.here} />
      <Conflicts conflicts={page.conflicts} />
      <Missing missing={page.missing} />
      <section aria-labelledby="lr-reports-title">
        <h2 id="lr-reports-title">Reports ({page.reports.length})</h2>
        <ReportCards reports={page.reports} />
      </section>
      <ConfirmForm page={page} />
    </section>
  );
}

/** Where reporting stands, and the button that closes it (or reopens it) for every team of the lobby. */
function ReportingState({ page }: { page: LobbyPage }) {
  const failure = useFailure('reporting');
  const open = page.reporting === 'open';
  return (
    <div className="lr-state">
      <p role="status">{page.state}</p>
      {failure?.formError ? (
        <p className="field-error" role="alert">
          {failure.formError}
        </p>
      ) : null}
      {page.reporting === 'confirmed' ? null : (
        <Form method="post">
          <input type="hidden" name="intent" value="reporting" />
          <input type="hidden" name="open" value={open ? 'false' : 'true'} />
          <SubmitButton className="button button-secondary">
            {open ? 'Close reporting' : page.reporting === 'closed' ? 'Reopen reporting' : 'Open reporting now'}
          </SubmitButton>
        </Form>
      )}
    </div>
  );
}

/** Every team's row, prefilled from its report (or the stored result once confirmed), corrected here, then confirmed at once. */
function ConfirmForm({ page }: { page: LobbyPage }) {
  const failure = useFailure('confirm');
  const errors = failure?.fieldErrors ?? {};
  const value = (field: NumberField, teamId: number) =>
    failure ? (failure.values[resultInput(field, teamId)] ?? '') : (page.prefill[teamId]?.[field] ?? '');
  const absent = (teamId: number) => (failure ? resultInput('absent', teamId) in failure.values : page.prefill[teamId]?.absent === true);
  return (
    <section className="lr-confirm" aria-labelledby="lr-confirm-title">
      <h2 id="lr-confirm-title">Confirm lobby</h2>
      <ErrorSummary
        fieldErrors={errors}
        formError={failure?.formError}
        order={page.teams.flatMap((x) => rowKeys(x.teamId, RESULT_FIELDS))}
      />
      <p className="fine">
        In placement order; teams without a report last, to fill in. Pos = position, 1 to {page.lobby.teams}. Fin = finishes, 0 to{' '}
        {page.lobby.maxFinishes}. A team left at 0 and 0 has no result; tick Absent for a team that did not play.
      </p>
      <Form method="post" noValidate key={failure ? `failed-${JSON.stringify(failure)}` : `saved-${JSON.stringify(page.prefill)}`}>
        <input type="hidden" name="intent" value="confirm" />
        <ResultsGrid
          teams={page.teams}
          caption={<>{page.title}: one row per team, in placement order</>}
          errors={errors}
          value={value}
          points={(teamId) => (failure ? null : (page.prefill[teamId]?.points ?? null))}
          absent={absent}
          slots
          tableClassName="ops-points st-results"
        />
        <SubmitButton pendingLabel="Confirming…">Confirm lobby</SubmitButton>
      </Form>
    </section>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
