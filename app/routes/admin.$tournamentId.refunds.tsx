import type { ActionFunctionArgs, HeadersFunction, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { Form, Link, useActionData, useLoaderData } from '@remix-run/react';
import { GeneralErrorBoundary } from '~/components/error-page';
import { ErrorSummary } from '~/components/ui/error-summary';
import { SubmitButton } from '~/components/ui/submit-button';
import { TextField } from '~/components/ui/text-field';
import { requireRight } from '~/utils/desk.server';
import type { FormFailure } from '~/utils/forms.server';
import { loadRefunds, refundAction, type RefundsPage } from '~/utils/refunds.server';
import '~/styles/screens.css';

/**
 * Decision 082: the paid teams owed their fee, with the payer's UPI ID from the bank statement, and a form per
 * team to record the refund's UTR (the team is told). For the owner, co-organisers and payments staff.
 */

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: `Refunds${data ? `: ${data.t.name}` : ''} | Admin | Custom Room` },
  { name: 'robots', content: 'noindex' },
];

export const headers: HeadersFunction = () => ({ 'Cache-Control': 'private, no-store' });

export async function loader({ request, params }: LoaderFunctionArgs) {
  const { tournamentId } = await requireRight(request, params.tournamentId, 'payments');
  return loadRefunds(request, tournamentId);
}

export async function action({ request, params }: ActionFunctionArgs) {
  const { tournamentId } = await requireRight(request, params.tournamentId, 'payments');
  return refundAction(request, tournamentId);
}

type Row = RefundsPage['owed'][number];

export default function Refunds() {
  const { t, owed, done } = useLoaderData<typeof loader>();
  return (
    <section className="ops-page" aria-labelledby="refunds-title">
      <p className="crumb">
        <Link to={`/admin/${t.id}`}>{t.name}</Link> · <Link to={`/admin/${t.id}/statements`}>Bank statements</Link>
      </p>
      <h1 id="refunds-title">Refunds</h1>
      <p className="ops-subtitle">
        Teams that paid and then withdrew or were removed, or every paid team when the tournament is cancelled. Pay each back from your UPI
        app, then record the refund’s UTR here: the team is told.
      </p>
      <h2>To refund ({owed.length})</h2>
      {owed.length === 0 ? (
        <p className="nothing">No team is waiting for a refund.</p>
      ) : (
        <ul className="ops-cards" aria-label="Teams to refund">
          {owed.map((r) => (
            <RefundCard key={r.rid} row={r} />
          ))}
        </ul>
      )}
      <h2>Refunded ({done.length})</h2>
      {done.length === 0 ? (
        <p className="nothing">None yet.</p>
      ) : (
        <ul className="ops-cards" aria-label="Refunded teams">
          {done.map((r) => (
            <li key={r.rid} className="ops-card">
              <h3 className="ops-card-title">{r.team}</h3>
              <p className="ops-meta">
                <span>{r.reason}</span>
                <span>{r.refunded}</span>
              </p>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function RefundCard({ row: r }: { row: Row }) {
  const failure = useActionData<FormFailure>();
  const mine = failure?.values.rid === String(r.rid) ? failure : undefined;
  const errors = mine?.fieldErrors ?? {};
  const id = (f: string) => `${f}-${r.rid}`;
  return (
    <li className="ops-card" id={`refund-${r.rid}`}>
      <h3 className="ops-card-title">{r.team}</h3>
      <p className="ops-meta">
        <span>
          {r.reason}
          {r.left ? `, ${r.left}` : ''}
        </span>
        <span className="mono">Paid {r.paid}</span>
      </p>
      <p>{r.payer ? <>Pay back to: {r.payer}</> : 'The bank statement does not name the payer: ask the team for its UPI ID.'}</p>
      <Form method="post" noValidate key={mine ? `failed-${JSON.stringify(mine)}` : 'refund'}>
        <ErrorSummary
          fieldErrors={Object.fromEntries(Object.entries(errors).map(([k, v]) => [id(k), v]))}
          formError={mine?.formError}
          order={[id('upiReference'), id('amount')]}
        />
        <input type="hidden" name="rid" value={r.rid} />
        <div>
          <TextField
            id={id('upiReference')}
            name="upiReference"
            label={`UTR of the refund to ${r.team}`}
            inputMode="numeric"
            autoComplete="off"
            maxLength={40}
            defaultValue={mine?.values.upiReference ?? ''}
            error={errors.upiReference}
          />
          <TextField
            id={id('amount')}
            name="amount"
            label="Amount (₹)"
            hint={`Leave empty for the whole fee, ₹${r.fee}.`}
            inputMode="decimal"
            autoComplete="off"
            maxLength={12}
            defaultValue={mine?.values.amount ?? ''}
            error={errors.amount}
          />
        </div>
        <SubmitButton>Record the refund</SubmitButton>
      </Form>
    </li>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
