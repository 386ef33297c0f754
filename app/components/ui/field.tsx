import type { ReactNode } from 'react';
import '~/styles/forms.css';

/** The props a field hands its control: its id and the accessibility wiring to the hint and error. */
export interface ControlProps {
  id: string;
  'aria-invalid'?: true;
  'aria-describedby'?: string;
}

export const hintId = (id: string) => `${id}-hint`;
export const errorId = (id: string) => `${id}-error`;

export interface FieldProps {
  id: string;
  label: ReactNode;
  hint?: ReactNode;
  error?: string | null;
  className?: string;
  /** Renders the control (input, select, textarea) with the given props spread onto it. */
  children: (control: ControlProps) => ReactNode;
}

/**
 * One form field: label, hint, control, then the error right under the control. The control points
 * at the error and hint (aria-describedby) and is marked aria-invalid while in error.
 */
export function Field({ id, label, hint, error, className, children }: FieldProps) {
  const describedBy = [error ? errorId(id) : null, hint ? hintId(id) : null].filter(Boolean).join(' ');
  return (
    <div className={['field', error ? 'field-invalid' : null, className].filter(Boolean).join(' ')}>
      <label htmlFor={id}>{label}</label>
      {hint ? (
        <p className="field-hint" id={hintId(id)}>
          {hint}
        </p>
      ) : null}
      {children({ id, 'aria-invalid': error ? true : undefined, 'aria-describedby': describedBy || undefined })}
      {error ? (
        <p className="field-error" id={errorId(id)}>
          <span aria-hidden="true">⚠ </span>
          {error}
        </p>
      ) : null}
    </div>
  );
}
