import type { ActionFunctionArgs, HeadersFunction, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { Form, Link, useActionData, useLoaderData } from '@remix-run/react';
import { GeneralErrorBoundary } from '~/components/error-page';
import { ErrorSummary } from '~/components/ui/error-summary';
import { Field } from '~/components/ui/field';
import { SubmitButton } from '~/components/ui/submit-button';
import { TextField } from '~/components/ui/text-field';
import { requireRight } from '~/utils/desk.server';
import type { FormFailure } from '~/utils/forms.server';
import { awardField, awardLabelField } from '~/utils/payouts';
import { loadPayouts, payoutAction, type PayoutsPage } from '~/utils/payouts.server';
import '~/styles/screens.css';

/**
 * Decision 085: prize payouts. The winners once the final standings are in, where each captain asked to be
 * paid, a form per winner for the payout's UTR and the TDS withheld (the team is told), the special prizes'
 * winners, and a reminder to the winners who have not given a UPI ID. For the owner, co-organisers and
 * payments staff.
 */

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: `Prize payouts${data ? `: ${data.t.name}` : ''} | Admin | Custom Room` },
  { name: 'robots', content: 'noindex' },
];

export const headers: HeadersFunction = () => ({ 'Cache-Control': 'private, no-store' });

export async function loader({ request, params }: LoaderFunctionArgs) {
  const { tournamentId } = await requireRight(request, params.tournamentId, 'payments');
  return loadPayouts(request, tournamentId);
}

export async function action({ request, params }: ActionFunctionArgs) {
  const { tournamentId } = await requireRight(request, params.tournamentId, 'payments');
  return payoutAction(request, tournamentId);
}

type Row = PayoutsPage['toPay'][number];

export default function Payouts() {
  const { t, final, askPan, toPay, paid, waiting, specials, teams } = useLoaderData<typeof loader>();
  const failure = useActionData<FormFailure>();
  const awardsFailure = failure?.values.intent === 'awards' ? failure : undefined;
  return (
    <section className="ops-page" aria-labelledby="payouts-title">
      <p className="crumb">
        <Link to={`/admin/${t.id}`}>{t.name}</Link> · <Link to={`/admin/${t.id}/prizes`}>Prizes</Link> ·{' '}
        <Link to={`/admin/${t.id}/money`}>Money</Link>
      </p>
      <h1 id="payouts-title">Prize payouts</h1>
      <p className="ops-subtitle">
        Each winning team’s captain gives the UPI ID to be paid{askPan ? ' and the PAN of the person paid' : ''} on the team page. Pay from
        your UPI app, then record the payout’s UTR and any TDS withheld: the team is told. The site keeps the amounts for your accountant
        (Money, CSV); it makes no tax decision.
      </p>
      {specials.length > 0 ? (
        <Form method="post" noValidate className="ops-panel" key={awardsFailure ? `failed-${JSON.stringify(awardsFailure)}` : 'awards'}>
          <h2>Special prizes</h2>
          <ErrorSummary fieldErrors={{}} formError={awardsFailure?.formError} order={[]} />
          <input type="hidden" name="intent" value="awards" />
          {specials.map((s) => (
            <div key={s.i}>
              <input type="hidden" name={awardLabelField(s.i)} value={s.label} />
              <Field id={awardField(s.i)} label={`${s.label} (${s.amount}): won by`}>
                {(control) => (
                  <select name={awardField(s.i)} defaultValue={awardsFailure?.values[awardField(s.i)] ?? s.winner} {...control}>
                    <option value="">Nobody yet</option>
                    {teams.map((team) => (
                      <option key={team.value} value={team.value}>
                        {team.label}
                      </option>
                    ))}
                  </select>
                )}
              </Field>
            </div>
          ))}
          <SubmitButton>Save the special prizes</SubmitButton>
        </Form>
      ) : null}
      {!final ? (
        <p className="nothing">
          The final standings are not in yet: the winners appear here once the last stage (or the tournament) is completed.
        </p>
      ) : (
        <>
          <h2>To pay ({toPay.length})</h2>
          {waiting > 0 ? (
            <Form method="post" className="ops-list-tools">
              <input type="hidden" name="intent" value="remind" />
              <p>
                {waiting} {waiting === 1 ? 'winner has' : 'winners have'} not given a UPI ID yet.
              </p>
              <SubmitButton className="button button-secondary">Ask them again</SubmitButton>
            </Form>
          ) : null}
          {toPay.length === 0 ? (
            <p className="nothing">No prize is waiting to be paid.</p>
          ) : (
            <ul className="ops-cards" aria-label="Prizes to pay">
              {toPay.map((r) => (
                <PayoutCard key={r.rid} row={r} askPan={askPan} />
              ))}
            </ul>
          )}
          <h2>Paid ({paid.length})</h2>
          {paid.length === 0 ? (
            <p className="nothing">None yet.</p>
          ) : (
            <ul className="ops-cards" aria-label="Prizes paid">
              {paid.map((r) => (
                <li key={r.rid} className="ops-card">
                  <h3 className="ops-card-title">{r.team}</h3>
                  <p className="ops-meta">
                    <span>{r.prizes}</span>
                    <span>{r.paid}</span>
                  </p>
                </li>
              ))}
            </ul>
          )}
        </>
      )}
    </section>
  );
}

function PayoutCard({ row: r, askPan }: { row: Row; askPan: boolean }) {
  const failure = useActionData<FormFailure>();
  const mine = failure?.values.rid === String(r.rid) ? failure : undefined;
  const errors = mine?.fieldErrors ?? {};
  const id = (f: string) => `${f}-${r.rid}`;
  return (
    <li className="ops-card" id={`payout-${r.rid}`}>
      <h3 className="ops-card-title">{r.team}</h3>
      <p className="ops-meta">
        <span>{r.prizes}</span>
        <span>Total {r.owed}</span>
      </p>
      {r.payee ? (
        <p>
          Pay to: <span className="mono">{r.payee.upiId}</span>
          {r.payee.pan ? (
            <>
              {' '}
              · PAN <span className="mono">{r.payee.pan}</span>
            </>
          ) : askPan ? (
            ' · no PAN given'
          ) : null}
        </p>
      ) : (
        <p>The captain has not given the UPI ID to be paid yet.</p>
      )}
      {r.payee ? (
        <Form method="post" noValidate key={mine ? `failed-${JSON.stringify(mine)}` : 'payout'}>
          <ErrorSummary
            fieldErrors={Object.fromEntries(Object.entries(errors).map(([k, v]) => [id(k), v]))}
            formError={mine?.formError}
            order={[id('upiReference'), id('tds')]}
          />
          <input type="hidden" name="rid" value={r.rid} />
          <div>
            <TextField
              id={id('upiReference')}
              name="upiReference"
              label={`UTR of the payout to ${r.team}`}
              inputMode="numeric"
              autoComplete="off"
              maxLength={40}
              defaultValue={mine?.values.upiReference ?? ''}
              error={errors.upiReference}
            />
            <TextField
              id={id('tds')}
              name="tds"
              label="TDS withheld (₹)"
              hint="Leave empty when no tax was withheld."
              inputMode="decimal"
              autoComplete="off"
              maxLength={12}
              defaultValue={mine?.values.tds ?? ''}
              error={errors.tds}
            />
          </div>
          <SubmitButton>Record the payout</SubmitButton>
        </Form>
      ) : null}
    </li>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
