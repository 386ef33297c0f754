import type { ActionFunctionArgs, HeadersFunction, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { Form, Link, useActionData, useLoaderData, type ShouldRevalidateFunction } from '@remix-run/react';
import { GeneralErrorBoundary } from '~/components/error-page';
import { ErrorSummary } from '~/components/ui/error-summary';
import { SubmitButton } from '~/components/ui/submit-button';
import { paymentFilterOf } from '~/utils/admin-registrations.server';
import { requireRight } from '~/utils/desk.server';
import type { FormFailure } from '~/utils/forms.server';
import { paymentWords } from '~/utils/team';
import { BULK_FORM_ID, INTENT } from './forms';
import { registrationsAction } from './payments.server';
import { compactOf, listQuery, loadRegistrationsPage, type RegistrationsPage } from './registrations-page.server';
import { TeamCard } from './team-card';
import '~/styles/screens.css';
import '~/styles/places.css';

export { INTENT };

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: `Registrations${data ? `: ${data.t.name}` : ''} | Admin | Custom Room` },
  { name: 'description', content: 'Teams, players and payments of a tournament; verify or reject payments.' },
];

export const headers: HeadersFunction = () => ({ 'Cache-Control': 'private, no-store' });

// A refused verify or reject (409: a team changed its UPI reference meanwhile) must show the new
// reference at once, also with JavaScript, where Remix would otherwise keep the page it had.
export const shouldRevalidate: ShouldRevalidateFunction = ({ actionStatus, defaultShouldRevalidate }) =>
  actionStatus === 409 ? true : defaultShouldRevalidate;

export async function loader({ request, params }: LoaderFunctionArgs) {
  const { tournamentId } = await requireRight(request, params.tournamentId, 'payments');
  return loadRegistrationsPage(request, tournamentId);
}

export async function action({ request, params }: ActionFunctionArgs) {
  const { tournamentId: tid } = await requireRight(request, params.tournamentId, 'payments');
  const back = `/admin/${tid}/registrations${listQuery(paymentFilterOf(request), compactOf(request))}`;
  return registrationsAction(request, tid, await request.formData(), back);
}

export default function AdminRegistrations() {
  const page = useLoaderData<typeof loader>();
  const actionData = useActionData<FormFailure>();
  const action = `/admin/${page.t.id}/registrations${page.query}`;
  const teamErrors = actionData?.fieldErrors ?? {};
  const order = ['rid', ...page.teams.map((team) => `team.${team.rid}`)];
  const ids = Object.fromEntries([['rid', 'bulk-actions'], ...page.teams.map((team) => [`team.${team.rid}`, `team-${team.rid}-card`])]);

  return (
    <section className="ops-page" aria-labelledby="ops-title">
      <p className="crumb">
        <Link to="/admin/tournament-list">Tournament list</Link>
      </p>
      <h1 id="ops-title">Registrations</h1>
      <p className="ops-subtitle">
        {page.t.name}: {page.places.placed}/{page.t.maxTeams} places taken
        {page.places.waitlist ? ` · ${page.places.waitlist} on the waitlist` : ''}
        {page.places.gone ? ` · ${page.places.gone} released or withdrawn` : ''}
      </p>
      <PaymentFilter page={page} />
      <p className="ops-list-tools">
        <a className="button button-secondary" href={`/admin/${page.t.id}/registrations.csv${page.csvQuery}`} download>
          Download CSV
        </a>
        <Link to={`/admin/${page.t.id}/statements`} className="button button-secondary">
          Match a bank statement
        </Link>
        <Link to={page.links.rows} className="button button-secondary">
          {page.compact ? 'Full cards' : 'Compact rows'}
        </Link>
      </p>

      <ErrorSummary fieldErrors={actionData?.fieldErrors} formError={actionData?.formError} order={order} ids={ids} />

      {page.teams.length === 0 ? (
        <p className="nothing">
          {page.filter ? `No teams with payment ${paymentWords(page.filter).label.toLowerCase()}.` : 'No teams have registered yet.'}
        </p>
      ) : (
        <>
          <BulkForm page={page} action={action} />
          {/* Keyed by the selection: the ticks are the browser's own state, so a new selection starts them afresh. */}
          <ul className={`ops-cards ops-teams${page.compact ? ' ops-compact' : ''}`} key={page.selectAll ? 'all' : 'none'}>
            {page.teams.map((team) => (
              <TeamCard
                key={team.rid}
                team={team}
                action={action}
                expectedField={page.expectedField}
                error={teamErrors[`team.${team.rid}`]}
                requireIds={page.t.requireCharacterIds}
                compact={page.compact}
                ticked={page.selectAll && team.place === 'placed'}
              />
            ))}
          </ul>
        </>
      )}
    </section>
  );
}

/** The payment status chips (links): all teams, or one status with its count. */
function PaymentFilter({ page }: { page: RegistrationsPage }) {
  return (
    <>
      <nav aria-label="Filter by payment status" className="ops-chips">
        <ul>
          <li>
            <Link to="." aria-current={page.filter === null ? 'page' : undefined}>
              All ({page.total})
            </Link>
          </li>
          {page.statuses.map((s) => (
            <li key={s}>
              <Link to={`?payment=${s}`} aria-current={page.filter === s ? 'page' : undefined}>
                {paymentWords(s).label} ({page.counts[s]})
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      {page.invalidFilter ? (
        <p className="notice" role="status">
          Unknown payment status: showing every team.
        </p>
      ) : null}
    </>
  );
}

/** The ticked-teams form: Select all shown (a link), Verify and Reject ticked; the ticks are on the cards. */
function BulkForm({ page, action }: { page: RegistrationsPage; action: string }) {
  const shown = page.filter ? page.counts[page.filter] : page.total;
  return (
    <Form method="post" action={action} id={BULK_FORM_ID} className="ops-bulk">
      <fieldset id="bulk-actions" tabIndex={-1}>
        <legend>Ticked teams ({shown} shown)</legend>
        {page.selectable > 0 ? (
          <p className="ops-select">
            {page.selectAll ? (
              <>
                <span role="status">
                  {page.selectable} {page.selectable === 1 ? 'team' : 'teams'} ticked.
                </span>{' '}
                <Link to={page.links.clear}>Clear the ticks</Link>
              </>
            ) : (
              <Link to={page.links.selectAll}>Select all shown ({page.selectable})</Link>
            )}
          </p>
        ) : null}
        <div className="ops-bulk-buttons">
          <SubmitButton name="intent" value={INTENT.verifySelected} className="button" formPath={`/admin/${page.t.id}/registrations`}>
            Verify ticked
          </SubmitButton>
          <SubmitButton
            name="intent"
            value={INTENT.rejectSelected}
            className="button button-secondary"
            formPath={`/admin/${page.t.id}/registrations`}
          >
            Reject ticked
          </SubmitButton>
        </div>
      </fieldset>
    </Form>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
