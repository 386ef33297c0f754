import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { Form, Link, useActionData, useLoaderData } from '@remix-run/react';
import { PASSWORD_MIN, PASSWORD_RESET_DONE } from '@custom-room/contract/constants';
import { GeneralErrorBoundary } from '~/components/error-page';
import { ErrorSummary } from '~/components/ui/error-summary';
import { SubmitButton } from '~/components/ui/submit-button';
import { TextField } from '~/components/ui/text-field';
import { ResetPasswordFormSchema } from '~/utils/account-schemas.server';
import { formFailure, parseForm, submitToGateway, type FormFailure } from '~/utils/forms.server';
import { gateway } from '~/utils/gateway.server';
import { flash } from '~/utils/session.server';

export const meta: MetaFunction = () => [
  { title: 'Choose a new password | Custom Room' },
  { name: 'description', content: 'Set a new password for your Custom Room account with the link we emailed you.' },
];

const FIELDS = ['password', 'confirmPassword'] as const;

export async function loader({ request }: LoaderFunctionArgs) {
  return { token: new URL(request.url).searchParams.get('token')?.trim() ?? '', passwordMin: PASSWORD_MIN };
}

export async function action({ request }: ActionFunctionArgs) {
  const parsed = parseForm(await request.formData(), ResetPasswordFormSchema);
  if (!parsed.success) return formFailure(parsed);

  const { token, password } = parsed.data;
  const result = await submitToGateway(() => gateway.confirmPasswordReset(request, { token, password }), {
    values: parsed.values,
    fields: [...FIELDS, 'token'],
    fallback: 'We could not reset the password. Please try again.',
  });
  if (!result.ok) return result.failure;
  return flash(request, PASSWORD_RESET_DONE, '/login');
}

function NewLinkPrompt({ title, message }: { title: string; message: string }) {
  return (
    <section className="form-page" aria-labelledby="reset-title">
      <h1 id="reset-title">{title}</h1>
      <p className="notice" role="alert">
        {message}
      </p>
      <p className="form-actions">
        <Link className="button" to="/forgot-password">
          Request a new link
        </Link>
      </p>
    </section>
  );
}

export default function ResetPassword() {
  const { token, passwordMin } = useLoaderData<typeof loader>();
  const actionData = useActionData<FormFailure>();
  const errors = actionData?.fieldErrors ?? {};

  if (!token) {
    return (
      <NewLinkPrompt
        title="Reset link incomplete"
        message="This page needs the link from the password reset email. Open the link from the email again, or ask for a new one."
      />
    );
  }
  if (errors.token) {
    return <NewLinkPrompt title="Reset link not valid" message={errors.token} />;
  }

  return (
    <section className="form-page" aria-labelledby="reset-title">
      <h1 id="reset-title">Choose a new password</h1>
      <ErrorSummary fieldErrors={errors} formError={actionData?.formError} order={FIELDS} />
      <Form method="post" className="form" noValidate>
        <input type="hidden" name="token" value={token} />
        <TextField
          name="password"
          type="password"
          label="New password"
          hint={`At least ${passwordMin} characters.`}
          error={errors.password}
          autoComplete="new-password"
          required
        />
        <TextField
          name="confirmPassword"
          type="password"
          label="Confirm new password"
          error={errors.confirmPassword}
          autoComplete="new-password"
          required
        />
        <SubmitButton pendingLabel="Saving…">Set new password</SubmitButton>
      </Form>
    </section>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
