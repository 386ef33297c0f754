import { Form } from '@remix-run/react';
import { useState, type ChangeEvent, type ReactNode } from 'react';
import { PAYEE_NAME_MAX } from '@custom-room/contract/constants';
import { CoverImage } from '~/components/cover-image';
import { ErrorSummary } from '~/components/ui/error-summary';
import { Field } from '~/components/ui/field';
import { SubmitButton } from '~/components/ui/submit-button';
import { TextAreaField, TextField } from '~/components/ui/text-field';
import type { Cover } from '~/utils/images';
import { COVER_FIELD, COVER_NAME_VALUE, TOURNAMENT_FIELDS, type TournamentFormRules } from '~/utils/tournament-form';

const ORDINALS = ['1st', '2nd', '3rd'];
const ordinal = (n: number) => ORDINALS[n - 1] ?? `${n}th`;

/** "1st 10, 2nd 6, … 8th 1; 9th and below 0" */
export function placementSummary(points: readonly number[]): string {
  const listed = points.map((p, i) => `${ordinal(i + 1)} ${p}`).join(', ');
  return `${listed}; ${ordinal(points.length + 1)} and below 0`;
}

const megabytes = (bytes: number) => `${Math.round(bytes / (1024 * 1024))} MB`;

export interface TournamentFormProps {
  rules: TournamentFormRules;
  values: Record<string, string>;
  fieldErrors?: Record<string, string>;
  formError?: string | null;
  /** The heading of the error summary: the spec's failure message. */
  failedTitle: string;
  /** Update form: the current cover, kept unless a new file is chosen. */
  currentCover?: Cover | null;
  submitLabel: string;
  pendingLabel: string;
}

/** What every section reads: the rules, the values to show again and the errors beside them. */
interface SectionProps {
  rules: TournamentFormRules;
  values: Record<string, string>;
  errors: Record<string, string>;
}

/**
 * The admin tournament form (add and update). Field names are the spec's data fields (§3) plus
 * pointsSystem; dates are datetime-local inputs in the app's time zone. Without JavaScript every
 * check is the server's; with it, a chosen file that is no image (or too large) is refused at once.
 */
export function TournamentForm({
  rules,
  values,
  fieldErrors = {},
  formError,
  failedTitle,
  currentCover,
  submitLabel,
  pendingLabel,
}: TournamentFormProps) {
  const section = { rules, values, errors: fieldErrors };
  const pointsSystem = values.pointsSystem || rules.defaultPointsSystem;
  return (
    <>
      <ErrorSummary
        fieldErrors={fieldErrors}
        formError={formError}
        order={TOURNAMENT_FIELDS}
        title={failedTitle}
        ids={{ pointsSystem: `pointsSystem-${pointsSystem}` }}
      />
      <Form method="post" encType="multipart/form-data" className="form admin-form" noValidate>
        <AboutSection {...section} />
        <DatesSection {...section} />
        <TeamsAndMoneySection {...section} />
        <StatusAndPointsSection {...section} pointsSystem={pointsSystem} />
        <PlayersSection {...section} />
        <CoverSection {...section} currentCover={currentCover} />
        <SubmitButton pendingLabel={pendingLabel}>{submitLabel}</SubmitButton>
      </Form>
    </>
  );
}

function requiredText(
  { rules, values, errors }: SectionProps,
  name: string,
  label: string,
  extra: { hint?: ReactNode; placeholder?: string } = {},
) {
  return (
    <TextField
      name={name}
      label={label}
      error={errors[name]}
      defaultValue={values[name] ?? ''}
      maxLength={rules.maxLength[name]}
      required
      {...extra}
    />
  );
}

function requiredTextArea({ rules, values, errors }: SectionProps, name: string, label: string, hint: string, rows: number) {
  return (
    <TextAreaField
      name={name}
      label={label}
      hint={hint}
      error={errors[name]}
      defaultValue={values[name] ?? ''}
      maxLength={rules.maxLength[name]}
      rows={rows}
      required
    />
  );
}

function AboutSection(props: SectionProps) {
  return (
    <fieldset className="form-group">
      <legend>About</legend>
      {requiredText(props, 'name', 'Name')}
      {requiredText(props, 'game', 'Game', { hint: 'For example BGMI or Free Fire.' })}
      {requiredTextArea(props, 'description', 'Description', 'A line or two for the tournament cards.', 3)}
      {requiredTextArea(props, 'overview', 'Overview', 'Rules, maps, schedule: shown on the tournament page.', 5)}
    </fieldset>
  );
}

function DatesSection({ rules, values, errors }: SectionProps) {
  const dateTime = (name: string, label: string) => (
    <TextField name={name} type="datetime-local" label={label} error={errors[name]} defaultValue={values[name] ?? ''} required />
  );
  return (
    <fieldset className="form-group">
      <legend>Dates</legend>
      <p className="field-hint">Dates and times are in {rules.timeZone} time.</p>
      {dateTime('registrationOpen', 'Registration opens')}
      {dateTime('registrationClose', 'Registration closes')}
      {dateTime('startDate', 'Start')}
      {dateTime('endDate', 'End')}
    </fieldset>
  );
}

function TeamsAndMoneySection(props: SectionProps) {
  const { rules, values, errors } = props;
  return (
    <fieldset className="form-group">
      <legend>Teams and money</legend>
      <TextField
        name="maxTeams"
        type="number"
        inputMode="numeric"
        label="Max teams"
        hint={`A whole number from ${rules.maxTeams.min} to ${rules.maxTeams.max}.`}
        error={errors.maxTeams}
        defaultValue={values.maxTeams ?? ''}
        min={rules.maxTeams.min}
        max={rules.maxTeams.max}
        step={1}
        required
      />
      <TextField
        name="entryFee"
        type="number"
        inputMode="numeric"
        label="Entry fee (₹)"
        hint="Whole rupees per team; 0 for a free tournament."
        error={errors.entryFee}
        defaultValue={values.entryFee ?? ''}
        min={0}
        max={rules.maxEntryFee}
        step={1}
        required
      />
      <PaymentDeadlineFields {...props} />
      <PayeeFields {...props} />
      {requiredText(props, 'prizePool', 'Prize pool', { hint: 'As players should read it, for example ₹25,000.' })}
      {requiredText(props, 'format', 'Format', { hint: 'For example Squad (4 players).' })}
      {requiredText(props, 'platform', 'Platform', { hint: 'For example Mobile.' })}
    </fieldset>
  );
}

function PaymentDeadlineFields({ rules, values, errors }: SectionProps) {
  return (
    <fieldset className="form-group payment-deadline">
      <legend>Payment deadline (optional)</legend>
      <p className="field-hint">
        A team whose payment is not verified in time loses its place to the waitlist. Set hours or a fixed time, not both; leave both empty
        for no deadline. Free tournaments have none.
      </p>
      <TextField
        name="paymentDeadlineHours"
        type="number"
        inputMode="numeric"
        label="Hours after registering"
        hint={`For example 6. From 1 to ${rules.maxDeadlineHours}; a promoted team gets its own hours.`}
        error={errors.paymentDeadlineHours}
        defaultValue={values.paymentDeadlineHours ?? ''}
        min={1}
        max={rules.maxDeadlineHours}
        step={1}
      />
      <TextField
        name="paymentDeadlineAt"
        type="datetime-local"
        label="Or a fixed date and time"
        hint={`In ${rules.timeZone} time.`}
        error={errors.paymentDeadlineAt}
        defaultValue={values.paymentDeadlineAt ?? ''}
      />
    </fieldset>
  );
}

function PayeeFields({ rules, values, errors }: SectionProps) {
  // Issue 27: a tournament that takes fees must not send them to the placeholder (as the form stands now).
  const payeeNow = values.payeeUpiId?.trim() || rules.defaultPayee.upiId;
  const paysPlaceholder = Number(values.entryFee || 0) > 0 && payeeNow === rules.placeholderUpiId;
  return (
    <fieldset className="form-group payee">
      <legend>Who players pay (UPI)</legend>
      <p className="field-hint">
        The entry fees go to this UPI ID: the payment page&apos;s QR code and button pay it. Leave both empty to use the site&apos;s default
        {rules.defaultPayee.placeholder ? ' (a placeholder)' : ` (${rules.defaultPayee.upiId})`}.
      </p>
      {paysPlaceholder ? (
        <p className="notice" id="payee-warning" role="status">
          Players would pay {rules.placeholderUpiId}, a placeholder where nobody receives the money. Enter your own UPI ID.
        </p>
      ) : null}
      <TextField
        name="payeeUpiId"
        label="UPI ID"
        hint="handle@provider, for example organiser@okaxis."
        error={errors.payeeUpiId}
        defaultValue={values.payeeUpiId ?? ''}
        autoComplete="off"
        autoCapitalize="none"
        spellCheck={false}
        inputMode="email"
        maxLength={320}
      />
      <TextField
        name="payeeName"
        label="Payee name"
        hint="The name players see in their UPI app before they pay."
        error={errors.payeeName}
        defaultValue={values.payeeName ?? ''}
        autoComplete="off"
        maxLength={PAYEE_NAME_MAX}
      />
    </fieldset>
  );
}

function StatusAndPointsSection({ rules, values, errors, pointsSystem }: SectionProps & { pointsSystem: string }) {
  return (
    <fieldset className="form-group">
      <legend>Status and points</legend>
      <Field id="status" label="Status" hint="Only Registration Ongoing lets players register." error={errors.status}>
        {(control) => (
          <select name="status" defaultValue={values.status ?? ''} required {...control}>
            <option value="" disabled>
              Choose a status
            </option>
            {rules.statuses.map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </select>
        )}
      </Field>
      <fieldset
        className={`points-systems${errors.pointsSystem ? ' field-invalid' : ''}`}
        aria-describedby={errors.pointsSystem ? 'pointsSystem-error' : undefined}
      >
        <legend>Points system</legend>
        <p className="field-hint">Placement points per match; every finish adds 1.</p>
        {rules.pointsSystems.map((system) => (
          <label key={system.id} className="points-system" htmlFor={`pointsSystem-${system.id}`}>
            <input
              type="radio"
              id={`pointsSystem-${system.id}`}
              name="pointsSystem"
              value={system.id}
              defaultChecked={system.id === pointsSystem}
              required
            />
            <span>
              <span className="points-system-name">{system.id}</span>
              <span className="points-system-points">{placementSummary(system.points)}</span>
            </span>
          </label>
        ))}
        <FieldError id="pointsSystem-error" message={errors.pointsSystem} />
      </fieldset>
    </fieldset>
  );
}

function FieldError({ id, message }: { id: string; message: string | undefined }) {
  if (!message) return null;
  return (
    <p className="field-error" id={id}>
      <span aria-hidden="true">⚠ </span>
      {message}
    </p>
  );
}

function PlayersSection({ values, errors }: SectionProps) {
  return (
    <fieldset className="form-group">
      <legend>Players</legend>
      <label className="points-system" htmlFor="requireCharacterIds">
        <input
          type="checkbox"
          id="requireCharacterIds"
          name="requireCharacterIds"
          value="on"
          defaultChecked={values.requireCharacterIds === 'on' || values.requireCharacterIds === 'true'}
          aria-describedby={`requireCharacterIds-hint${errors.requireCharacterIds ? ' requireCharacterIds-error' : ''}`}
        />
        <span>
          <span className="points-system-name">Require character IDs</span>
          <span className="points-system-points" id="requireCharacterIds-hint">
            Every player gives their in-game character ID (BGMI) or UID (Free Fire) when the team registers.
          </span>
        </span>
      </label>
      <FieldError id="requireCharacterIds-error" message={errors.requireCharacterIds} />
    </fieldset>
  );
}

function CoverSection({ rules, values, errors, currentCover }: SectionProps & { currentCover?: Cover | null }) {
  // Once a file is chosen here, the browser's check replaces the server's verdict on the old one.
  const [cover, setCover] = useState<{ error: string | null } | null>(null);
  const error = cover ? (cover.error ?? undefined) : errors[COVER_FIELD];

  function checkCover(event: ChangeEvent<HTMLInputElement>) {
    const input = event.currentTarget;
    const files = input.files ? [...input.files] : [];
    let problem: string | null = null;
    if (files.length > 1) problem = rules.cover.tooMany;
    else if (files[0] && !files[0].type.startsWith('image/')) problem = rules.cover.wrongType;
    else if (files[0] && files[0].size > rules.cover.maxBytes) problem = rules.cover.tooLarge;
    // A refused file is not sent: the field is emptied, the message stays until another choice.
    if (problem) input.value = '';
    setCover({ error: problem });
  }

  const chosenBefore = values[COVER_NAME_VALUE];
  return (
    <fieldset className="form-group">
      <legend>Cover image</legend>
      {currentCover ? (
        <figure className="admin-cover">
          <CoverImage cover={currentCover} alt="Current cover image" sizes="(min-width: 40rem) 20rem, 90vw" />
          <figcaption className="field-hint">The current cover stays unless you choose a new image.</figcaption>
        </figure>
      ) : null}
      <Field
        id={COVER_FIELD}
        label={currentCover ? 'New cover image (optional)' : 'Cover image (optional)'}
        hint={`An image file (JPEG, PNG, WebP, GIF or AVIF) of at most ${megabytes(rules.cover.maxBytes)}; a wide 16:9 banner looks best.`}
        error={error}
      >
        {(control) => <input type="file" name={COVER_FIELD} accept="image/*" onChange={checkCover} {...control} />}
      </Field>
      {chosenBefore ? (
        <p className="notice cover-again">
          You had chosen <strong>{chosenBefore}</strong>, but a browser cannot keep a chosen file when a form comes back: please choose the
          image again.
        </p>
      ) : null}
      <p className="visually-hidden" aria-live="assertive">
        {cover?.error ?? ''}
      </p>
    </fieldset>
  );
}
