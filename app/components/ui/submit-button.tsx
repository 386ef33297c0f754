import { useLocation, useNavigation } from '@remix-run/react';
import type { ButtonHTMLAttributes, ReactNode } from 'react';

type Props = Omit<ButtonHTMLAttributes<HTMLButtonElement>, 'type'> & {
  children: ReactNode;
  /** Shown while the form is being sent (only with JavaScript; without it the browser shows its own progress). */
  pendingLabel?: ReactNode;
  /** The path the form posts to when it is not this page (e.g. "/logout"). */
  formPath?: string;
};

/** A submit button that says it is working while its form is sent, and refuses a second click meanwhile. */
export function SubmitButton({ children, pendingLabel, formPath, className = 'button', ...props }: Props) {
  const navigation = useNavigation();
  const location = useLocation();
  const target = formPath ?? location.pathname;
  const pending =
    navigation.state !== 'idle' &&
    navigation.formMethod != null &&
    navigation.formAction != null &&
    new URL(navigation.formAction, 'http://x').pathname === target;
  return (
    <button {...props} type="submit" className={className} disabled={pending || props.disabled} aria-busy={pending || undefined}>
      {pending && pendingLabel ? pendingLabel : children}
    </button>
  );
}
