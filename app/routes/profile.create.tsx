import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction, redirect } from '@remix-run/node';
import { useActionData, useLoaderData } from '@remix-run/react';
import { ProfileBodySchema } from '@custom-room/contract';
import { GeneralErrorBoundary } from '~/components/error-page';
import { PROFILE_FIELDS, ProfileForm } from '~/components/profile-form';
import { pageError } from '~/utils/errors.server';
import { formFailure, parseForm, submitToGateway, type FormFailure } from '~/utils/forms.server';
import { gateway, GatewayError } from '~/utils/gateway.server';
import { PROFILE_CREATE_FAILED, profileFormRules } from '~/utils/profile-schemas.server';
import { flash, requireUser } from '~/utils/session.server';

export const meta: MetaFunction = () => [
  { title: 'Create your profile | Custom Room' },
  { name: 'description', content: 'Create your Custom Room player profile: your name, a short bio and where you play from.' },
];

const PROFILE_EXISTS = 'You already have a profile. Make your changes here.';

export async function loader({ request }: LoaderFunctionArgs) {
  await requireUser(request);
  try {
    await gateway.getProfile(request);
  } catch (err) {
    // No profile yet (404) is what this page is for; anything else is the error page.
    if (err instanceof GatewayError && err.status === 404 && !err.unavailable) return { rules: profileFormRules() };
    pageError(err);
  }
  // One profile per player: there is one already, so this is an edit.
  throw redirect('/profile/edit');
}

export async function action({ request }: ActionFunctionArgs) {
  await requireUser(request);
  const parsed = parseForm(await request.formData(), ProfileBodySchema);
  if (!parsed.success) return formFailure(parsed);

  const result = await submitToGateway(
    () =>
      gateway.createProfile(request, parsed.data).catch(async (err) => {
        // Made meanwhile (another tab, a second submit): edit that one instead.
        if (err instanceof GatewayError && err.status === 409) throw await flash(request, PROFILE_EXISTS, '/profile/edit');
        throw err;
      }),
    { values: parsed.values, fields: PROFILE_FIELDS, fallback: PROFILE_CREATE_FAILED },
  );
  if (!result.ok) return result.failure;
  return flash(request, 'Profile created.', '/profile');
}

export default function CreateProfile() {
  const { rules } = useLoaderData<typeof loader>();
  const actionData = useActionData<FormFailure>();
  return (
    <section className="form-page" aria-labelledby="create-profile-title">
      <h1 id="create-profile-title">Create your profile</h1>
      <p className="form-intro">Only your full name is needed; everything else is up to you.</p>
      <ProfileForm
        rules={rules}
        values={actionData?.values ?? {}}
        fieldErrors={actionData?.fieldErrors ?? {}}
        formError={actionData?.formError}
        submitLabel="Create profile"
        pendingLabel="Creating profile…"
      />
    </section>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
