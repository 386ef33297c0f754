import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction, redirect } from '@remix-run/node';
import { Form, Link, useActionData, useLoaderData } from '@remix-run/react';
import { useEffect, useRef } from 'react';
import { GeneralErrorBoundary } from '~/components/error-page';
import { ErrorSummary } from '~/components/ui/error-summary';
import { SubmitButton } from '~/components/ui/submit-button';
import { TextField } from '~/components/ui/text-field';
import { LoginFormSchema } from '~/utils/account-schemas.server';
import { commitDeviceToken, getDeviceToken } from '~/utils/device.server';
import { formFailure, parseForm, submitToGateway, type FormFailure } from '~/utils/forms.server';
import { gateway } from '~/utils/gateway.server';
import { loginReason } from '~/utils/login-reasons';
import { safeRedirectPath } from '~/utils/redirect';
import { registerTargetName, registerTargetWords } from '~/utils/register-target.server';
import { createUserSession, isAdmin, isAdminPath } from '~/utils/session.server';
import { signedIn } from '~/utils/signed-in.server';

declare module '@remix-run/node' {
  interface AppLoadContext {
    /** The login action ran in this request: its answer (an error, a lockout) is the page, never a redirect. */
    loginAnswered?: boolean;
  }
}

export const meta: MetaFunction = () => [
  { title: 'Log in | Custom Room' },
  { name: 'description', content: 'Log in to Custom Room with your email or phone number to register your squad and see room IDs.' },
];

const FIELDS = ['emailOrPhone', 'password'] as const;
const LOGIN_FAILED = 'Login failed. Please try again.';

/** The ?redirectTo= of a URL as a safe relative path, or "" when there is none. */
function redirectParam(request: Request): string {
  const given = new URL(request.url).searchParams.get('redirectTo');
  return given ? safeRedirectPath(given, '') : '';
}

const AUTH_PAGE = /^\/(login|register)(?=[?#]|$)/;

export async function loader({ request, context }: LoaderFunctionArgs) {
  const redirectTo = redirectParam(request);
  // Signed in only if the gateway accepts the token now: a revoked one would send the visitor away from the form for nothing.
  const [signed, registering] = await Promise.all([signedIn(request), registerTargetName(request, redirectTo)]);
  const user = signed.state === 'accepted' ? signed.user : null;
  // Headed for an organiser page: say so; a signed-in player stays signed in here (going on would loop).
  const organiser = isAdminPath(redirectTo) && !isAdmin(user) ? { signedInAs: user?.username ?? null } : null;
  // Already signed in: straight on (never back to a login or register page, which would loop). Not after
  // this request's login attempt failed: its answer is the page (a form post without JavaScript runs
  // the action and then this loader in one request).
  if (user && !organiser && !context?.loginAnswered) throw redirect(redirectTo && !AUTH_PAGE.test(redirectTo) ? redirectTo : '/');
  return {
    redirectTo,
    ...(organiser ? { organiser } : {}),
    // Came from a tournament's Register button: the notice names the tournament.
    ...(registering !== null ? { registering: registerTargetWords('Log in', registering) } : {}),
  };
}

export async function action({ request, context }: ActionFunctionArgs) {
  if (context) context.loginAnswered = true;
  const formData = await request.formData();
  const parsed = parseForm(formData, LoginFormSchema);
  if (!parsed.success) return formFailure(parsed);

  const { emailOrPhone, password, redirectTo } = parsed.data;
  // This browser's device token spares the owner a lockout that strangers' wrong guesses caused (decision 022).
  const deviceToken = await getDeviceToken(request);
  const result = await submitToGateway(() => gateway.login(request, { emailOrPhone, password, ...(deviceToken ? { deviceToken } : {}) }), {
    values: parsed.values,
    fields: FIELDS,
    fallback: LOGIN_FAILED,
  });
  if (!result.ok) return result.failure;
  const response = await createUserSession(request, result.value.token, result.value.username, safeRedirectPath(redirectTo));
  if (result.value.deviceToken) response.headers.append('Set-Cookie', await commitDeviceToken(request, result.value.deviceToken));
  return response;
}

export default function Login() {
  const { redirectTo, organiser, registering } = useLoaderData<typeof loader>();
  const actionData = useActionData<FormFailure>();
  const values = actionData?.values ?? {};
  const errors = actionData?.fieldErrors ?? {};
  const carried = values.redirectTo !== undefined ? safeRedirectPath(values.redirectTo, '') : redirectTo;
  // Why the user was sent here (e.g. "Please log in to view matches."): an info notice, not an error.
  const reason = loginReason(carried) ?? registering ?? null;
  const registerHref = carried ? `/register?${new URLSearchParams({ redirectTo: carried })}` : '/register';
  const passwordRef = useRef<HTMLInputElement>(null);

  // After a refused login the password is asked for again, with or without JavaScript.
  useEffect(() => {
    if (actionData && passwordRef.current) passwordRef.current.value = '';
  }, [actionData]);

  return (
    <section className="form-page" aria-labelledby="login-title">
      <h1 id="login-title">Log in</h1>
      {organiser ? <OrganiserNotice signedInAs={organiser.signedInAs} /> : reason ? <p className="notice notice-info">{reason}</p> : null}
      <ErrorSummary fieldErrors={errors} formError={actionData?.formError} order={FIELDS} />
      <Form method="post" className="form" noValidate>
        <input type="hidden" name="redirectTo" value={carried} />
        <TextField
          name="emailOrPhone"
          label="Email or phone"
          hint="The email address or mobile number you registered with."
          error={errors.emailOrPhone}
          defaultValue={values.emailOrPhone ?? ''}
          autoComplete="username"
          autoCapitalize="none"
          autoCorrect="off"
          spellCheck={false}
          required
        />
        <TextField
          name="password"
          type="password"
          label="Password"
          error={errors.password}
          autoComplete="current-password"
          required
          ref={passwordRef}
        />
        <p className="form-aside">
          <Link to="/forgot-password">Forgot Password?</Link>
        </p>
        <SubmitButton pendingLabel="Logging in…">Log in</SubmitButton>
      </Form>
      <p className="form-footer">
        New here? <Link to={registerHref}>Create an account</Link>
      </p>
    </section>
  );
}

/** Shown when the page asked for is an organiser (admin) page. */
function OrganiserNotice({ signedInAs }: { signedInAs: string | null }) {
  return (
    <div className="notice" role="status" style={{ margin: '0 0 1.25rem' }}>
      <p>
        {signedInAs ? (
          <>
            You are signed in as <strong>{signedInAs}</strong>, but that page is for organisers.{' '}
          </>
        ) : (
          'That page is for organisers. '
        )}
        Log in with an organiser account to continue.
      </p>
      {signedInAs ? (
        <p>
          <Link to="/">Continue as {signedInAs}</Link>
        </p>
      ) : null}
    </div>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
