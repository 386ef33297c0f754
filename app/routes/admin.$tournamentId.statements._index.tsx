import type { ActionFunctionArgs, HeadersFunction, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { Form, Link, useActionData, useLoaderData } from '@remix-run/react';
import { STATEMENT_FIELD } from '@custom-room/contract';
import { GeneralErrorBoundary } from '~/components/error-page';
import { ErrorSummary } from '~/components/ui/error-summary';
import { Field } from '~/components/ui/field';
import { SubmitButton } from '~/components/ui/submit-button';
import { requireRight } from '~/utils/desk.server';
import type { FormFailure } from '~/utils/forms.server';
import { loadStatements, uploadAction } from '~/utils/statements.server';
import '~/styles/screens.css';

/**
 * Issue 31 (decision 081): a tournament's bank and UPI business statements. Upload one (CSV or XLSX), then
 * see its credits matched to the teams' UTRs on its own page. For the owner, co-organisers and payments staff.
 */

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: `Bank statements${data ? `: ${data.t.name}` : ''} | Admin | Custom Room` },
  { name: 'robots', content: 'noindex' },
];

export const headers: HeadersFunction = () => ({ 'Cache-Control': 'private, no-store' });

export async function loader({ request, params }: LoaderFunctionArgs) {
  const { tournamentId } = await requireRight(request, params.tournamentId, 'payments');
  return loadStatements(request, tournamentId);
}

export async function action({ request, params }: ActionFunctionArgs) {
  const { tournamentId } = await requireRight(request, params.tournamentId, 'payments');
  return uploadAction(request, tournamentId);
}

export default function Statements() {
  const { t, statements } = useLoaderData<typeof loader>();
  const failure = useActionData<FormFailure>();
  const errors = failure?.fieldErrors ?? {};
  return (
    <section className="ops-page" aria-labelledby="statements-title">
      <p className="crumb">
        <Link to={`/admin/${t.id}`}>{t.name}</Link> · <Link to={`/admin/${t.id}/registrations`}>Registrations</Link> ·{' '}
        <Link to={`/admin/${t.id}/refunds`}>Refunds</Link>
      </p>
      <h1 id="statements-title">Bank statements</h1>
      <p className="ops-subtitle">
        Upload the statement of the account the entry fees are paid to. Each credit is matched to the UTR a team sent (or to the payment
        note “CR-…” when it sent none); nothing is verified until you say so.
      </p>
      <Form method="post" encType="multipart/form-data" noValidate className="ops-panel">
        <ErrorSummary fieldErrors={errors} formError={failure?.formError} order={[STATEMENT_FIELD]} />
        <Field
          id={STATEMENT_FIELD}
          label="Statement file"
          hint="CSV or XLSX as your bank or PhonePe, Paytm or Google Pay for Business exports it; at most 5 MB and 50,000 rows."
          error={errors[STATEMENT_FIELD]}
        >
          {(control) => (
            <input
              type="file"
              name={STATEMENT_FIELD}
              accept=".csv,.xlsx,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
              required
              {...control}
            />
          )}
        </Field>
        <SubmitButton pendingLabel="Reading…">Upload and match</SubmitButton>
      </Form>
      <h2>Uploaded</h2>
      {statements.length === 0 ? (
        <p className="nothing">No statement uploaded yet.</p>
      ) : (
        <ul className="ops-cards" aria-label="Uploaded statements, newest first">
          {statements.map((s) => (
            <li key={s.id} className="ops-card">
              <h3 className="ops-card-title">
                <Link to={s.path}>{s.fileName}</Link>
              </h3>
              <p className="ops-meta">
                <span>{s.state}</span>
                <span>{s.uploaded}</span>
              </p>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
