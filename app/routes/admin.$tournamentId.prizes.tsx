import type { ActionFunctionArgs, HeadersFunction, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { Form, Link, useActionData, useLoaderData } from '@remix-run/react';
import { ordinal } from '@custom-room/contract/constants';
import { GeneralErrorBoundary } from '~/components/error-page';
import { ErrorSummary } from '~/components/ui/error-summary';
import { SubmitButton } from '~/components/ui/submit-button';
import { TextField } from '~/components/ui/text-field';
import { requireRight } from '~/utils/desk.server';
import type { FormFailure } from '~/utils/forms.server';
import { rankField, specialField } from '~/utils/prizes';
import { loadPrizes, prizeAction } from '~/utils/prizes.server';
import '~/styles/screens.css';

/** Decision 084: the prize table, an amount per final rank and up to five special prizes, shown on the tournament page. */

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: `Prizes${data ? `: ${data.t.name}` : ''} | Admin | Custom Room` },
  { name: 'robots', content: 'noindex' },
];

export const headers: HeadersFunction = () => ({ 'Cache-Control': 'private, no-store' });

export async function loader({ request, params }: LoaderFunctionArgs) {
  const { tournamentId } = await requireRight(request, params.tournamentId, 'run');
  return loadPrizes(request, tournamentId);
}

export async function action({ request, params }: ActionFunctionArgs) {
  const { tournamentId } = await requireRight(request, params.tournamentId, 'run');
  return prizeAction(request, tournamentId);
}

export default function Prizes() {
  const { t, values, rankRows, specialRows } = useLoaderData<typeof loader>();
  const failure = useActionData<FormFailure>();
  const shown = failure?.values ?? values;
  const errors = failure?.fieldErrors ?? {};
  const order = [
    ...Array.from({ length: rankRows }, (_, i) => rankField(i + 1)),
    ...Array.from({ length: specialRows }, (_, i) => [specialField(i, 'label'), specialField(i, 'amount')]).flat(),
  ];
  return (
    <section className="ops-page" aria-labelledby="prizes-title">
      <p className="crumb">
        <Link to={`/admin/${t.id}`}>{t.name}</Link> · <Link to={`/tournaments/${t.id}`}>Public page</Link> ·{' '}
        <Link to={`/admin/${t.id}/payouts`}>Prize payouts</Link>
      </p>
      <h1 id="prizes-title">Prizes</h1>
      <p className="ops-subtitle">
        The amount for each final rank, in rupees, and special prizes such as Top fragger. Empty rows are left out; the tournament page
        lists the table beside the prize pool ({t.prizePool}).
      </p>
      <Form method="post" noValidate className="ops-panel" key={failure ? `failed-${JSON.stringify(failure)}` : 'prizes'}>
        <ErrorSummary fieldErrors={errors} formError={failure?.formError} order={order} />
        <fieldset>
          <legend>By final rank</legend>
          {Array.from({ length: rankRows }, (_, i) => (
            <TextField
              key={i}
              name={rankField(i + 1)}
              label={`${ordinal(i + 1)} place (₹)`}
              inputMode="decimal"
              autoComplete="off"
              maxLength={12}
              defaultValue={shown[rankField(i + 1)] ?? ''}
              error={errors[rankField(i + 1)]}
            />
          ))}
        </fieldset>
        <fieldset>
          <legend>Special prizes</legend>
          {Array.from({ length: specialRows }, (_, i) => (
            <div key={i}>
              <TextField
                name={specialField(i, 'label')}
                label={`Special prize ${i + 1}: name`}
                maxLength={40}
                autoComplete="off"
                defaultValue={shown[specialField(i, 'label')] ?? ''}
                error={errors[specialField(i, 'label')]}
              />
              <TextField
                name={specialField(i, 'amount')}
                label={`Special prize ${i + 1}: amount (₹)`}
                inputMode="decimal"
                autoComplete="off"
                maxLength={12}
                defaultValue={shown[specialField(i, 'amount')] ?? ''}
                error={errors[specialField(i, 'amount')]}
              />
            </div>
          ))}
        </fieldset>
        <fieldset>
          <legend>Paying the winners</legend>
          <div className="field">
            <label className="check-row" htmlFor="askPan">
              <input
                type="checkbox"
                id="askPan"
                name="askPan"
                value="on"
                defaultChecked={shown.askPan === 'on'}
                aria-describedby="ask-pan-hint"
              />{' '}
              Ask the winners for the PAN of the person paid
            </label>
            <p className="field-hint" id="ask-pan-hint">
              For the TDS you withhold on prizes: each winning captain gives it with the UPI ID to be paid.
            </p>
          </div>
        </fieldset>
        <SubmitButton>Save the prizes</SubmitButton>
      </Form>
    </section>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
