import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction, redirect } from '@remix-run/node';
import { Form, Link, useActionData, useLoaderData } from '@remix-run/react';
import { PASSWORD_MIN } from '@custom-room/contract/constants';
import { GeneralErrorBoundary } from '~/components/error-page';
import { ErrorSummary } from '~/components/ui/error-summary';
import { SubmitButton } from '~/components/ui/submit-button';
import { TextField } from '~/components/ui/text-field';
import { RegisterFormSchema } from '~/utils/account-schemas.server';
import { commitDeviceToken } from '~/utils/device.server';
import { formFailure, parseForm, submitToGateway, type FormFailure } from '~/utils/forms.server';
import { gateway, GatewayError } from '~/utils/gateway.server';
import { safeRedirectPath } from '~/utils/redirect';
import { registerTargetName, registerTargetWords } from '~/utils/register-target.server';
import { createUserSession, flash, getUser } from '~/utils/session.server';

export const meta: MetaFunction = () => [
  { title: 'Create an account | Custom Room' },
  {
    name: 'description',
    content: 'Create a free Custom Room account to register your squad for BGMI and Free Fire custom-room tournaments.',
  },
];

const FIELDS = ['email', 'phone', 'username', 'password'] as const;
const REGISTRATION_FAILED = 'Registration failed! Please try again.';

const AUTH_PAGE = /^\/(login|register)(?=[?#]|$)/;

export async function loader({ request }: LoaderFunctionArgs) {
  const given = new URL(request.url).searchParams.get('redirectTo');
  const redirectTo = given ? safeRedirectPath(given, '') : '';
  // Already signed in: straight on (never back to a login or register page, which would loop).
  const [user, registering] = await Promise.all([getUser(request), registerTargetName(request, redirectTo)]);
  if (user) throw redirect(redirectTo && !AUTH_PAGE.test(redirectTo) ? redirectTo : '/');
  return {
    redirectTo,
    passwordMin: PASSWORD_MIN,
    ...(registering !== null ? { registering: registerTargetWords('Create an account', registering) } : {}),
  };
}

export async function action({ request }: ActionFunctionArgs) {
  const formData = await request.formData();
  const parsed = parseForm(formData, RegisterFormSchema);
  if (!parsed.success) return formFailure(parsed);

  const { redirectTo, ...account } = parsed.data;
  const result = await submitToGateway(() => gateway.register(request, account), {
    values: parsed.values,
    fields: FIELDS,
    fallback: REGISTRATION_FAILED,
  });
  if (!result.ok) return result.failure;

  const given = safeRedirectPath(redirectTo, '');
  const next = AUTH_PAGE.test(given) ? '' : given;
  // Signed in at once with what was just typed, and back to the page the player came from (issue 19).
  const login = await gateway.login(request, { emailOrPhone: account.email, password: account.password }).catch((err) => {
    if (err instanceof GatewayError) return null;
    throw err;
  });
  if (!login) {
    // The account exists; only the automatic login failed (a limit, the gateway gone): log in by hand.
    return flash(request, 'Account created. Please log in.', next ? `/login?${new URLSearchParams({ redirectTo: next })}` : '/login');
  }
  const response = await createUserSession(
    request,
    login.token,
    login.username,
    next || '/',
    `Account created. You are logged in as ${login.username}.`,
  );
  if (login.deviceToken) response.headers.append('Set-Cookie', await commitDeviceToken(request, login.deviceToken));
  return response;
}

export default function Register() {
  const { redirectTo, passwordMin, registering } = useLoaderData<typeof loader>();
  const actionData = useActionData<FormFailure>();
  const values = actionData?.values ?? {};
  const errors = actionData?.fieldErrors ?? {};
  const carried = values.redirectTo !== undefined ? safeRedirectPath(values.redirectTo, '') : redirectTo;
  const loginHref = carried ? `/login?${new URLSearchParams({ redirectTo: carried })}` : '/login';

  return (
    <section className="form-page" aria-labelledby="register-title">
      <h1 id="register-title">Create an account</h1>
      {registering ? <p className="notice notice-info">{registering}</p> : null}
      <p className="form-intro">
        One account for every tournament: register your squad, pay the entry fee and get the room ID. You are logged in as soon as it is
        created.
      </p>
      <ErrorSummary fieldErrors={errors} formError={actionData?.formError} order={FIELDS} />
      <Form method="post" className="form" noValidate>
        <input type="hidden" name="redirectTo" value={carried} />
        <TextField
          name="email"
          type="email"
          label="Email"
          error={errors.email}
          defaultValue={values.email ?? ''}
          autoComplete="email"
          inputMode="email"
          autoCapitalize="none"
          spellCheck={false}
          required
        />
        <TextField
          name="phone"
          type="tel"
          label="Mobile number"
          hint="Indian mobile number, 10 digits, e.g. 98765 43210 (+91 optional)."
          error={errors.phone}
          defaultValue={values.phone ?? ''}
          autoComplete="tel"
          inputMode="tel"
          required
        />
        <TextField
          name="username"
          label="Username"
          hint="3–20 letters, digits, _ . or - (no spaces). Other players see it."
          error={errors.username}
          defaultValue={values.username ?? ''}
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
          hint={`At least ${passwordMin} characters.`}
          error={errors.password}
          autoComplete="new-password"
          required
        />
        <SubmitButton pendingLabel="Creating account…">Create account</SubmitButton>
      </Form>
      <p className="form-footer">
        Already have an account? <Link to={loginHref}>Log in</Link>
      </p>
    </section>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
