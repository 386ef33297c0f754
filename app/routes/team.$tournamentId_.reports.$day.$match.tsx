import type { ActionFunctionArgs, HeadersFunction, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { Link, useActionData, useLoaderData } from '@remix-run/react';
import { Dashboard } from '~/components/dashboard-nav';
import { GeneralErrorBoundary } from '~/components/error-page';
import { ReportForm } from '~/components/reports/report-form';
import { ReportSummary } from '~/components/reports/report-summary';
import type { FormFailure } from '~/utils/forms.server';
import { loadReportPage, REPORT_FORM_FIELDS, requireMatchRef, SCREENSHOT_NAME_VALUE, submitReport } from '~/utils/reports.server';
import { requireTournamentId } from '~/utils/route-params.server';
import { requireUser } from '~/utils/session.server';
import '~/styles/screens.css';
import '~/styles/reports.css';

/** Issue 30 (decision 074): a team member reports the team's result of one group-match, with a screenshot. */

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data ? `Report: ${data.match.title} | ${data.t.name} | Custom Room` : 'Report your result | Custom Room' },
  { name: 'robots', content: 'noindex' },
];

export const headers: HeadersFunction = () => ({ 'Cache-Control': 'private, no-store' });

export async function loader({ request, params }: LoaderFunctionArgs) {
  const id = requireTournamentId(params.tournamentId);
  await requireUser(request);
  return loadReportPage(request, id, requireMatchRef(params, request));
}

export async function action({ request, params }: ActionFunctionArgs) {
  const id = requireTournamentId(params.tournamentId);
  await requireUser(request);
  return submitReport(request, id, requireMatchRef(params, request));
}

export default function ReportPage() {
  const page = useLoaderData<typeof loader>();
  const failure = useActionData<FormFailure>();
  const { t, match, report } = page;
  return (
    <Dashboard>
      <section className="report-page" aria-labelledby="report-title">
        <p className="crumb">
          <Link to={`/team/${t.id}`}>{page.teamName}</Link> · <Link to={`/tournaments/${t.id}`}>{t.name}</Link>
        </p>
        <h1 id="report-title">{match.editable ? 'Report your result' : 'Your result'}</h1>
        <p className="report-match">{match.title}</p>
        <p className={`report-state report-state-${match.state}`}>{match.words}</p>
        {failure?.formError && !match.editable ? (
          // Refused because the match moved on meanwhile (closed, confirmed): the form is gone, the reason stays.
          <p className="notice" role="alert">
            {failure.formError}
          </p>
        ) : null}
        {report ? <ReportSummary report={report} /> : null}
        {match.editable ? (
          <>
            {page.captain === false ? <p className="fine">The captain is told when you report.</p> : null}
            <ReportForm
              action={page.action}
              editing={report !== null}
              perTeam={page.perTeam}
              rows={page.rows}
              position={report ? String(report.position) : ''}
              values={failure?.values}
              fieldErrors={failure?.fieldErrors}
              formError={failure?.formError}
              chosenBefore={failure?.values[SCREENSHOT_NAME_VALUE]}
              order={REPORT_FORM_FIELDS}
            />
          </>
        ) : null}
        {page.dispute ? (
          <p className="form-actions">
            <Link className="button button-secondary" to={page.dispute}>
              Dispute a result of this match
            </Link>
          </p>
        ) : null}
        <p>
          <Link to={`/team/${t.id}/disputes`}>Your team’s disputes</Link>
        </p>
      </section>
    </Dashboard>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
