import { Form, useActionData } from '@remix-run/react';
import { ErrorSummary } from '~/components/ui/error-summary';
import { SubmitButton } from '~/components/ui/submit-button';
import { TextField } from '~/components/ui/text-field';
import type { FormFailure } from '~/utils/forms.server';
import { PAYEE_INTENT } from '~/utils/payouts';
import type { PrizeView } from '~/utils/team-prize.server';

/**
 * Decision 085: the team's prize on its team page: what it won, the captain's form for the UPI ID to be paid
 * (and the PAN when the organiser asks for one), changeable until paid; then "Prize ₹5,000 paid on … (UTR …)".
 */
export function TeamPrize({ prize }: { prize: PrizeView }) {
  const failure = useActionData<FormFailure>();
  const mine = failure?.values.intent === PAYEE_INTENT ? failure : undefined;
  const errors = mine?.fieldErrors ?? {};
  if (prize.paid)
    return (
      <section className="team-prize" aria-labelledby="team-prize-title">
        <h3 id="team-prize-title">Prize</h3>
        <p>{prize.paid}.</p>
      </section>
    );
  return (
    <section className="team-prize" aria-labelledby="team-prize-title">
      <h3 id="team-prize-title">Prize</h3>
      <p>{prize.won}.</p>
      {prize.payee ? (
        <p>
          The organiser will pay it to <span className="mono">{prize.payee.upiId}</span>
          {prize.payee.panGiven ? ' (PAN given)' : ''}, as you said on {prize.payee.at}. You can change it until it is paid.
        </p>
      ) : (
        <p>
          Give the UPI ID the organiser should pay it to{prize.askPan ? ', and the PAN of the person paid (for the tax withheld)' : ''}.
        </p>
      )}
      <Form method="post" noValidate key={mine ? `failed-${JSON.stringify(mine)}` : 'payee'}>
        <ErrorSummary fieldErrors={errors} formError={mine?.formError} order={['upiId', 'pan']} />
        <input type="hidden" name="intent" value={PAYEE_INTENT} />
        <TextField
          name="upiId"
          label="UPI ID to be paid"
          hint="For example soulteam@okaxis."
          autoComplete="off"
          autoCapitalize="none"
          spellCheck={false}
          maxLength={100}
          defaultValue={mine?.values.upiId ?? prize.payee?.upiId ?? ''}
          error={errors.upiId}
        />
        {prize.askPan ? (
          <TextField
            name="pan"
            label="PAN of the person paid"
            hint={prize.payee?.panGiven ? 'Given already: enter it again to change the UPI ID.' : '10 characters, for example ABCDE1234F.'}
            autoComplete="off"
            autoCapitalize="characters"
            spellCheck={false}
            maxLength={12}
            defaultValue={mine?.values.pan ?? ''}
            error={errors.pan}
          />
        ) : null}
        <SubmitButton>{prize.payee ? 'Change the UPI ID' : 'Save the UPI ID'}</SubmitButton>
      </Form>
    </section>
  );
}
