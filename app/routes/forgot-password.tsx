import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction, redirect } from '@remix-run/node';
import { Form, Link, useActionData, useLoaderData } from '@remix-run/react';
import { RESET_REQUESTED } from '@custom-room/contract/constants';
import { GeneralErrorBoundary } from '~/components/error-page';
import { ErrorSummary } from '~/components/ui/error-summary';
import { SubmitButton } from '~/components/ui/submit-button';
import { TextField } from '~/components/ui/text-field';
import { ForgotPasswordFormSchema } from '~/utils/account-schemas.server';
import { formFailure, parseForm, submitToGateway, type FormFailure } from '~/utils/forms.server';
import { gateway } from '~/utils/gateway.server';

export const meta: MetaFunction = () => [
  { title: 'Forgot password | Custom Room' },
  { name: 'description', content: 'Get a link by email to choose a new password for your Custom Room account.' },
];

const FIELDS = ['email'] as const;
/** The same words whether or not the account exists, so the page does not reveal who has one. */

export async function loader({ request }: LoaderFunctionArgs) {
  return { sent: new URL(request.url).searchParams.get('sent') === '1' };
}

export async function action({ request }: ActionFunctionArgs) {
  const parsed = parseForm(await request.formData(), ForgotPasswordFormSchema);
  if (!parsed.success) return formFailure(parsed);

  const result = await submitToGateway(() => gateway.requestPasswordReset(request, { email: parsed.data.email }), {
    values: parsed.values,
    fields: FIELDS,
    fallback: 'We could not send the link. Please try again.',
  });
  if (!result.ok) return result.failure;
  return redirect('/forgot-password?sent=1');
}

export default function ForgotPassword() {
  const { sent } = useLoaderData<typeof loader>();
  const actionData = useActionData<FormFailure>();
  const values = actionData?.values ?? {};
  const errors = actionData?.fieldErrors ?? {};

  if (sent) {
    return (
      <section className="form-page" aria-labelledby="forgot-title">
        <h1 id="forgot-title">Check your email</h1>
        <p className="form-success" role="status">
          {RESET_REQUESTED}
        </p>
        <p>The link works once, for one hour. No mail after a few minutes? Look in the spam folder, or ask for a new link.</p>
        <p className="form-actions">
          <Link className="button" to="/login">
            Back to log in
          </Link>
          <Link className="button button-secondary" to="/forgot-password">
            Send another link
          </Link>
        </p>
      </section>
    );
  }

  return (
    <section className="form-page" aria-labelledby="forgot-title">
      <h1 id="forgot-title">Forgot your password?</h1>
      <p className="form-intro">Enter the email address of your account and we will send you a link to choose a new password.</p>
      <ErrorSummary fieldErrors={errors} formError={actionData?.formError} order={FIELDS} />
      <Form method="post" className="form" noValidate>
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
        <SubmitButton pendingLabel="Sending…">Send reset link</SubmitButton>
      </Form>
      <p className="form-footer">
        Remembered it? <Link to="/login">Log in</Link>
      </p>
    </section>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
