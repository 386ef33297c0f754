import { Form } from '@remix-run/react';
import {
  REPORT_PLAYER_ROWS,
  SCREENSHOT_FIELD,
  SCREENSHOT_TYPES,
  reportFinishesField,
  reportPlayerField,
} from '@custom-room/contract/constants';
import { ErrorSummary } from '~/components/ui/error-summary';
import { errorId, Field } from '~/components/ui/field';
import { SubmitButton } from '~/components/ui/submit-button';
import { ChooseAgain, FieldError } from './field-error';

export interface ReportFormProps {
  action: string;
  /** A report exists: the form edits it, and the screenshot may stay. */
  editing: boolean;
  perTeam: number;
  rows: { ign: string; finishes: string }[];
  position: string;
  values?: Record<string, string>;
  fieldErrors?: Record<string, string>;
  formError?: string | null;
  /** The file chosen before the form came back (it must be chosen again). */
  chosenBefore?: string;
  /** Field order for the error summary. */
  order: readonly string[];
}

/** The report form (multipart, works without JavaScript): placement, a row per player, the result screen. */
export function ReportForm({
  action,
  editing,
  perTeam,
  rows,
  position,
  values,
  fieldErrors = {},
  formError,
  chosenBefore,
  order,
}: ReportFormProps) {
  const value = (name: string, fallback: string) => values?.[name] ?? fallback;
  return (
    <>
      <ErrorSummary fieldErrors={rowNamed(fieldErrors)} formError={formError} order={order} title="Your report was not sent" />
      <Form method="post" action={action} encType="multipart/form-data" className="form report-form" noValidate>
        <Field id="position" label="Your team’s placement" hint="1 for the winner (Chicken Dinner / Booyah)." error={fieldErrors.position}>
          {(control) => (
            <input
              name="position"
              type="number"
              inputMode="numeric"
              min={1}
              max={100}
              required
              defaultValue={value('position', position)}
              className="report-position"
              {...control}
            />
          )}
        </Field>
        <fieldset className="form-group report-players" aria-describedby={fieldErrors.players ? errorId('players') : 'players-hint'}>
          <legend>Finishes per player</legend>
          <p className="field-hint" id="players-hint">
            Fix a name if someone else played. Leave the finishes empty for a player who did not play ({perTeam}{' '}
            {perTeam === 1 ? 'player plays' : 'players play'} a match).
          </p>
          <FieldError id="players" error={fieldErrors.players} />
          <div className="report-row report-head" aria-hidden="true">
            <span>In-game name</span>
            <span>Finishes</span>
          </div>
          {Array.from({ length: REPORT_PLAYER_ROWS }, (_, i) => (
            <PlayerRow key={i} n={i + 1} row={rows[i] ?? { ign: '', finishes: '' }} value={value} errors={fieldErrors} />
          ))}
        </fieldset>
        <Field
          id={SCREENSHOT_FIELD}
          label={editing ? 'New screenshot (optional)' : 'Screenshot of the result screen'}
          hint={
            editing
              ? 'Keep the current screenshot, or choose a new one: JPEG, PNG or WebP, at most 5 MB.'
              : 'The game’s result screen as your phone saved it: JPEG, PNG or WebP, at most 5 MB.'
          }
          error={fieldErrors[SCREENSHOT_FIELD]}
        >
          {(control) => <input type="file" name={SCREENSHOT_FIELD} accept={SCREENSHOT_TYPES.join(',')} required={!editing} {...control} />}
        </Field>
        <ChooseAgain name={chosenBefore} />
        <SubmitButton pendingLabel="Sending…">{editing ? 'Save the report' : 'Send the report'}</SubmitButton>
      </Form>
    </>
  );
}

/** The summary's errors say which row they are about ("Player 2, finishes: …"); beside the row they need not. */
function rowNamed(errors: Record<string, string>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(errors).map(([name, message]) => {
      const row = /^(player|finishes)(\d+)$/.exec(name);
      return [name, row ? `Player ${row[2]}, ${row[1] === 'player' ? 'name' : 'finishes'}: ${message}` : message];
    }),
  );
}

function PlayerRow({
  n,
  row,
  value,
  errors,
}: {
  n: number;
  row: { ign: string; finishes: string };
  value: (name: string, fallback: string) => string;
  errors: Record<string, string>;
}) {
  const ign = reportPlayerField(n);
  const finishes = reportFinishesField(n);
  return (
    <div className="field report-row">
      <label className="visually-hidden" htmlFor={ign}>
        Player {n}: in-game name
      </label>
      <input
        id={ign}
        name={ign}
        type="text"
        autoComplete="off"
        maxLength={32}
        defaultValue={value(ign, row.ign)}
        aria-invalid={errors[ign] ? true : undefined}
        aria-describedby={errors[ign] ? errorId(ign) : undefined}
      />
      <label className="visually-hidden" htmlFor={finishes}>
        Player {n}: finishes
      </label>
      <input
        id={finishes}
        name={finishes}
        type="number"
        inputMode="numeric"
        min={0}
        max={99}
        defaultValue={value(finishes, row.finishes)}
        aria-invalid={errors[finishes] ? true : undefined}
        aria-describedby={errors[finishes] ? errorId(finishes) : undefined}
      />
      <FieldError id={ign} error={errors[ign]} />
      <FieldError id={finishes} error={errors[finishes]} />
    </div>
  );
}
