import { Form } from '@remix-run/react';
import { SubmitButton } from './ui/submit-button';

/** One-tap check-in per open window (decision 047): a plain form post, so it works without JavaScript. */
export function CheckInForms({ offers }: { offers: { stageId: number; stageName: string; closes: string }[] }) {
  return (
    <>
      {offers.map((o) => (
        <Form method="post" className="check-in-form" key={o.stageId}>
          <p>
            Check-in for <strong>{o.stageName}</strong> is open until {o.closes}. Teams that do not check in may lose their slot.
          </p>
          <input type="hidden" name="intent" value="check-in" />
          <input type="hidden" name="stageId" value={o.stageId} />
          <SubmitButton pendingLabel="Checking in…">
            Check in<span className="visually-hidden"> for {o.stageName}</span>
          </SubmitButton>
        </Form>
      ))}
    </>
  );
}
