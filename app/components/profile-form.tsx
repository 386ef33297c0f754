import { Form, Link } from '@remix-run/react';
import { ErrorSummary } from '~/components/ui/error-summary';
import { Field } from '~/components/ui/field';
import { SubmitButton } from '~/components/ui/submit-button';
import { TextAreaField, TextField } from '~/components/ui/text-field';

/** The profile's fields in form order, named as the spec (§3) and the gateway name them. */
export const PROFILE_FIELDS = ['fullName', 'bio', 'gender', 'dateOfBirth', 'location', 'profilePictureUrl'] as const;

export type ProfileFormValues = Partial<Record<string, string>>;

/** What the form needs from the gateway's rules (handed over by the loader, so the rules stay in one module). */
export interface ProfileFormRules {
  /** The genders one may choose, besides "Prefer not to say" (empty). */
  genders: readonly string[];
  /** Date of birth bounds, YYYY-MM-DD. */
  earliestBirthDate: string;
  latestBirthDate: string;
}

interface ProfileFormProps {
  rules: ProfileFormRules;
  values: ProfileFormValues;
  fieldErrors: Record<string, string>;
  formError?: string | null;
  submitLabel: string;
  pendingLabel: string;
}

/** The create and edit profile form: a plain POST that works without JavaScript. */
export function ProfileForm({ rules, values, fieldErrors: errors, formError, submitLabel, pendingLabel }: ProfileFormProps) {
  return (
    <>
      <ErrorSummary fieldErrors={errors} formError={formError} order={PROFILE_FIELDS} />
      <Form method="post" className="form" noValidate>
        <TextField
          name="fullName"
          label="Full name"
          hint="The name organisers and other players see."
          error={errors.fullName}
          defaultValue={values.fullName ?? ''}
          autoComplete="name"
          required
        />
        <TextAreaField
          name="bio"
          label="Bio (optional)"
          hint="A line or two about you: your game, role or squad."
          error={errors.bio}
          defaultValue={values.bio ?? ''}
          rows={4}
        />
        <Field id="gender" label="Gender (optional)" error={errors.gender}>
          {(control) => (
            <select name="gender" defaultValue={values.gender ?? ''} autoComplete="sex" {...control}>
              <option value="">Prefer not to say</option>
              {rules.genders.map((g) => (
                <option key={g} value={g}>
                  {g}
                </option>
              ))}
            </select>
          )}
        </Field>
        <TextField
          name="dateOfBirth"
          type="date"
          label="Date of birth (optional)"
          error={errors.dateOfBirth}
          defaultValue={values.dateOfBirth ?? ''}
          min={rules.earliestBirthDate}
          max={rules.latestBirthDate}
          autoComplete="bday"
        />
        <TextField
          name="location"
          label="Location (optional)"
          hint="City or state, e.g. Pune, Maharashtra."
          error={errors.location}
          defaultValue={values.location ?? ''}
          autoComplete="address-level2"
        />
        <TextField
          name="profilePictureUrl"
          type="url"
          label="Profile picture URL (optional)"
          hint="A link to an image, starting with https://."
          error={errors.profilePictureUrl}
          defaultValue={values.profilePictureUrl ?? ''}
          inputMode="url"
          autoCapitalize="none"
          autoCorrect="off"
          spellCheck={false}
        />
        <SubmitButton pendingLabel={pendingLabel}>{submitLabel}</SubmitButton>
      </Form>
      <p className="form-footer">
        <Link to="/profile">Back to your profile</Link>
      </p>
    </>
  );
}
