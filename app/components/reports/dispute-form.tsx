import { Form } from '@remix-run/react';
import { DISPUTE_REASON_MAX, SCREENSHOT_FIELD, SCREENSHOT_TYPES } from '@custom-room/contract/constants';
import { ErrorSummary } from '~/components/ui/error-summary';
import { Field } from '~/components/ui/field';
import { SubmitButton } from '~/components/ui/submit-button';
import { TextAreaField } from '~/components/ui/text-field';
import { ChooseAgain } from './field-error';

export interface DisputeFormProps {
  action: string;
  day: number;
  match: number;
  group: number;
  title: string;
  teams: { teamId: number; label: string }[];
  /** The team selected at first (?team=, or the caller's). */
  team: number;
  values?: Record<string, string>;
  fieldErrors?: Record<string, string>;
  formError?: string | null;
  chosenBefore?: string;
  order: readonly string[];
}

/** Dispute one row of a confirmed match (multipart; works without JavaScript). Once per match. */
export function DisputeForm(props: DisputeFormProps) {
  const { values, fieldErrors = {} } = props;
  return (
    <section className="dispute-form" aria-labelledby="dispute-form-title">
      <h2 id="dispute-form-title">Dispute a result: {props.title}</h2>
      <p className="field-hint">Your team can dispute one result of each match, while its results are provisional.</p>
      <ErrorSummary fieldErrors={fieldErrors} formError={props.formError} order={props.order} title="Your dispute was not sent" />
      <Form method="post" action={props.action} encType="multipart/form-data" className="form" noValidate>
        <input type="hidden" name="day" value={props.day} />
        <input type="hidden" name="match" value={props.match} />
        {props.group ? <input type="hidden" name="group" value={props.group} /> : null}
        <Field id="teamId" label="Whose result is wrong" error={fieldErrors.teamId}>
          {(control) => (
            <select name="teamId" defaultValue={values?.teamId ?? String(props.team)} {...control}>
              {props.teams.map((t) => (
                <option key={t.teamId} value={t.teamId}>
                  {t.label}
                </option>
              ))}
            </select>
          )}
        </Field>
        <TextAreaField
          name="reason"
          label="What is wrong"
          hint={`The placement or finishes it should be, and how you know (at most ${DISPUTE_REASON_MAX} characters).`}
          maxLength={DISPUTE_REASON_MAX}
          required
          defaultValue={values?.reason ?? ''}
          error={fieldErrors.reason}
        />
        <Field
          id={SCREENSHOT_FIELD}
          label="Screenshot (optional)"
          hint="Proof, such as the result screen: JPEG, PNG or WebP, at most 5 MB."
          error={fieldErrors[SCREENSHOT_FIELD]}
        >
          {(control) => <input type="file" name={SCREENSHOT_FIELD} accept={SCREENSHOT_TYPES.join(',')} {...control} />}
        </Field>
        <ChooseAgain name={props.chosenBefore} />
        <SubmitButton pendingLabel="Sending…">Send the dispute</SubmitButton>
      </Form>
    </section>
  );
}
