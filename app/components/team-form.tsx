import { Form } from '@remix-run/react';
import type { ReactNode } from 'react';
import { ErrorSummary } from './ui/error-summary';
import { SubmitButton } from './ui/submit-button';
import { TextField } from './ui/text-field';
import { IGN_FIELDS, IGN_FORM_LABELS, IGN_MAX, TEAM_FIELDS, TEAM_NAME_MAX, type IgnField } from '@custom-room/contract/constants';
import '~/styles/forms.css';

export interface TeamFormProps {
  values: Record<string, string>;
  fieldErrors?: Record<string, string>;
  formError?: string | null;
  /** Which in-game names are required: all four players when registering, players 1-2 when updating (spec §5). */
  requiredPlayers: 2 | 4;
  submitLabel: string;
  pendingLabel: string;
  /** Extra hidden inputs or notes inside the form, before the button. */
  children?: ReactNode;
}

const isRequired = (field: IgnField, requiredPlayers: number) => field.startsWith('player') && Number(field.charAt(6)) <= requiredPlayers;

/** The team form of registration and update: team name, four players, two optional substitutes. */
export function TeamForm({ values, fieldErrors = {}, formError, requiredPlayers, submitLabel, pendingLabel, children }: TeamFormProps) {
  const players = IGN_FIELDS.filter((f) => f.startsWith('player'));
  const substitutes = IGN_FIELDS.filter((f) => f.startsWith('substitute'));
  const ignField = (field: IgnField) => {
    const required = isRequired(field, requiredPlayers);
    return (
      <TextField
        key={field}
        name={field}
        label={
          <>
            {IGN_FORM_LABELS[field]} <span className="field-optional">{required ? '' : '(optional)'}</span>
          </>
        }
        error={fieldErrors[field]}
        defaultValue={values[field] ?? ''}
        autoComplete="off"
        autoCapitalize="none"
        autoCorrect="off"
        spellCheck={false}
        maxLength={IGN_MAX}
        required={required}
      />
    );
  };
  return (
    <>
      <ErrorSummary fieldErrors={fieldErrors} formError={formError} order={TEAM_FIELDS} />
      <Form method="post" className="form" noValidate>
        <TextField
          name="teamName"
          label="Team name"
          error={fieldErrors.teamName}
          defaultValue={values.teamName ?? ''}
          autoComplete="off"
          maxLength={TEAM_NAME_MAX}
          required
        />
        <fieldset className="form-group">
          <legend>Players: in-game names (IGN)</legend>
          {players.map(ignField)}
        </fieldset>
        <fieldset className="form-group">
          <legend>Substitutes</legend>
          {substitutes.map(ignField)}
        </fieldset>
        {children}
        <SubmitButton pendingLabel={pendingLabel}>{submitLabel}</SubmitButton>
      </Form>
    </>
  );
}
