import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { redirect } from '@remix-run/node';
import { Form, Link, useActionData, useLoaderData } from '@remix-run/react';
import { GeneralErrorBoundary } from '~/components/error-page';
import { ErrorSummary } from '~/components/ui/error-summary';
import { SubmitButton } from '~/components/ui/submit-button';
import { TextField } from '~/components/ui/text-field';
import { PASSWORD_MIN } from '@custom-room/contract/constants';
import { RegisterFormSchema } from '~/utils/account-schemas.server';
import { formFailure, parseForm, submitToGateway, type FormFailure } from '~/utils/forms.server';
import { gateway } from '~/utils/gateway.server';
import { safeRedirectPath } from '~/utils/redirect';
import { flash, getUser } from '~/utils/session.server';

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
  if (await getUser(request)) throw redirect(redirectTo && !AUTH_PAGE.test(redirectTo) ? redirectTo : '/');
  return { redirectTo, passwordMin: PASSWORD_MIN };
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

  const next = safeRedirectPath(redirectTo, '');
  return flash(request, 'Account created. Please log in.', next ? `/login?${new URLSearchParams({ redirectTo: next })}` : '/login');
}

export default function Register() {
  const { redirectTo, passwordMin } = useLoaderData<typeof loader>();
  const actionData = useActionData<FormFailure>();
  const values = actionData?.values ?? {};
  const errors = actionData?.fieldErrors ?? {};
  const carried = values.redirectTo !== undefined ? safeRedirectPath(values.redirectTo, '') : redirectTo;
  const loginHref = carried ? `/login?${new URLSearchParams({ redirectTo: carried })}` : '/login';

  return (
    <section className="form-page" aria-labelledby="register-title">
      <h1 id="register-title">Create an account</h1>
      <p className="form-intro">One account for every tournament: register your squad, pay the entry fee and get the room ID.</p>
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
