import { useEffect, useRef } from 'react';
import '~/styles/forms.css';

export interface ErrorSummaryProps {
  fieldErrors?: Record<string, string> | null;
  formError?: string | null;
  /** Field names in the order the form shows them (errors for other names follow); the link target is #name unless ids says otherwise. */
  order?: readonly string[];
  ids?: Record<string, string>;
  title?: string;
}

/**
 * The list of what went wrong, at the top of the form: role="alert" so it is announced, each field
 * error a link to its field for keyboard users. With JavaScript it also takes focus when it appears.
 */
export function ErrorSummary({ fieldErrors, formError, order = [], ids = {}, title = 'There is a problem' }: ErrorSummaryProps) {
  const ref = useRef<HTMLDivElement>(null);
  const errors = fieldErrors ?? {};
  const names = [...order.filter((n) => errors[n]), ...Object.keys(errors).filter((n) => !order.includes(n))];
  const signature = JSON.stringify([formError, names.map((n) => errors[n])]);
  const shown = Boolean(formError) || names.length > 0;

  useEffect(() => {
    if (shown) ref.current?.focus();
  }, [shown, signature]);

  if (!shown) return null;
  return (
    <div className="error-summary" role="alert" tabIndex={-1} ref={ref} aria-labelledby="error-summary-title">
      <h2 id="error-summary-title" className="error-summary-title">
        {title}
      </h2>
      {formError ? <p className="error-summary-message">{formError}</p> : null}
      {names.length ? (
        <ul>
          {names.map((name) => (
            <li key={name}>
              <a href={`#${ids[name] ?? name}`}>{errors[name]}</a>
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
