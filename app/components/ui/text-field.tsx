import { forwardRef, type InputHTMLAttributes, type ReactNode, type TextareaHTMLAttributes } from 'react';
import { Field } from './field';

interface FieldBase {
  name: string;
  /** Defaults to name; the error summary links to #id. */
  id?: string;
  label: ReactNode;
  hint?: ReactNode;
  error?: string | null;
}

type InputProps = Omit<InputHTMLAttributes<HTMLInputElement>, 'id' | 'name' | 'aria-invalid' | 'aria-describedby'>;

/** A labelled <input> with its hint and error wired up. */
export const TextField = forwardRef<HTMLInputElement, FieldBase & InputProps>(function TextField(
  { name, id = name, label, hint, error, type = 'text', ...inputProps },
  ref,
) {
  return (
    <Field id={id} label={label} hint={hint} error={error}>
      {(control) => <input ref={ref} name={name} type={type} {...inputProps} {...control} />}
    </Field>
  );
});

type TextAreaProps = Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, 'id' | 'name' | 'aria-invalid' | 'aria-describedby'>;

/** A labelled <textarea> with its hint and error wired up. */
export const TextAreaField = forwardRef<HTMLTextAreaElement, FieldBase & TextAreaProps>(function TextAreaField(
  { name, id = name, label, hint, error, ...textareaProps },
  ref,
) {
  return (
    <Field id={id} label={label} hint={hint} error={error}>
      {(control) => <textarea ref={ref} name={name} {...textareaProps} {...control} />}
    </Field>
  );
});
