import { Form } from '@remix-run/react';
import type { ReactNode } from 'react';
import {
  CHARACTER_ID_OF,
  characterIdDigits,
  characterIdName,
  IGN_FIELDS,
  IGN_FORM_LABELS,
  IGN_MAX,
  TEAM_FORM_FIELDS,
  TEAM_NAME_MAX,
  type IgnField,
} from '@custom-room/contract/constants';
import { ErrorSummary } from './ui/error-summary';
import { SubmitButton } from './ui/submit-button';
import { TextField } from './ui/text-field';
import '~/styles/forms.css';

export interface TeamFormProps {
  values: Record<string, string>;
  fieldErrors?: Record<string, string>;
  formError?: string | null;
  /** Which in-game names are required: all four players when registering, players 1-2 when updating (spec §5). */
  requiredPlayers: 2 | 4;
  /** The tournament's game, which names the character ID and sets its length (decision 046). */
  game: string;
  /** The organiser requires a character ID of every named player. */
  requireCharacterIds: boolean;
  submitLabel: string;
  pendingLabel: string;
  /** Extra hidden inputs or notes inside the form, before the button. */
  children?: ReactNode;
}

const isRequired = (field: IgnField, requiredPlayers: number) => field.startsWith('player') && Number(field.charAt(6)) <= requiredPlayers;

/** The team form of registration and update: team name, four players, two optional substitutes, each with a character ID. */
export function TeamForm({
  values,
  fieldErrors = {},
  formError,
  requiredPlayers,
  game,
  requireCharacterIds,
  submitLabel,
  pendingLabel,
  children,
}: TeamFormProps) {
  const players = IGN_FIELDS.filter((f) => f.startsWith('player'));
  const substitutes = IGN_FIELDS.filter((f) => f.startsWith('substitute'));
  const idName = characterIdName(game);
  const digits = characterIdDigits(game);
  const characterIdField = (field: IgnField) => {
    const name = CHARACTER_ID_OF[field];
    // Required for the four players when registering; otherwise only once the player is named (the server says so).
    const required = requireCharacterIds && isRequired(field, requiredPlayers);
    return (
      <TextField
        name={name}
        label={
          <>
            {IGN_FORM_LABELS[field]}: {idName}{' '}
            <span className="field-optional">{required ? '' : requireCharacterIds ? '(if named)' : '(optional)'}</span>
          </>
        }
        hint={`${digits.min} to ${digits.max} digits, from the player's profile in the game.`}
        error={fieldErrors[name]}
        defaultValue={values[name] ?? ''}
        inputMode="numeric"
        autoComplete="off"
        spellCheck={false}
        maxLength={digits.max + 8}
        required={required}
      />
    );
  };
  const ignField = (field: IgnField) => {
    const required = isRequired(field, requiredPlayers);
    return (
      <div key={field} className="player-fields">
        <TextField
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
        {characterIdField(field)}
      </div>
    );
  };
  return (
    <>
      <ErrorSummary fieldErrors={fieldErrors} formError={formError} order={TEAM_FORM_FIELDS} />
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
