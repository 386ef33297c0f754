import { TextField } from './ui/text-field';

/** A stage's check-in window (issue 19, decision 047): two datetime-local inputs in the app's time zone. */
export function CheckInWindowFields({
  values,
  errors,
  timeZone,
}: {
  values: { checkInOpensAt?: string; checkInClosesAt?: string };
  errors: Record<string, string | undefined>;
  timeZone: string;
}) {
  return (
    <fieldset className="form-group">
      <legend>Check-in window (optional)</legend>
      <p className="field-hint">
        Confirmed teams check in with one tap between these times, for example 30 to 10 minutes before the first match. Teams that do not
        are no-shows. In {timeZone} time; leave both empty for no check-in.
      </p>
      <TextField
        name="checkInOpensAt"
        type="datetime-local"
        label="Check-in opens"
        error={errors.checkInOpensAt}
        defaultValue={values.checkInOpensAt ?? ''}
      />
      <TextField
        name="checkInClosesAt"
        type="datetime-local"
        label="Check-in closes"
        error={errors.checkInClosesAt}
        defaultValue={values.checkInClosesAt ?? ''}
      />
    </fieldset>
  );
}
