import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction, redirect } from '@remix-run/node';
import { useActionData, useLoaderData } from '@remix-run/react';
import { ProfileBodySchema } from '@custom-room/contract';
import { GeneralErrorBoundary } from '~/components/error-page';
import { PROFILE_FIELDS, ProfileForm } from '~/components/profile-form';
import { pageError } from '~/utils/errors.server';
import { formFailure, parseForm, submitToGateway, type FormFailure } from '~/utils/forms.server';
import { gateway, GatewayError } from '~/utils/gateway.server';
import { PROFILE_UPDATE_FAILED, profileFormRules } from '~/utils/profile-schemas.server';
import { flash, requireUser } from '~/utils/session.server';

export const meta: MetaFunction = () => [
  { title: 'Edit your profile | Custom Room' },
  { name: 'description', content: 'Change your Custom Room player profile: your name, bio and details.' },
];

const NO_PROFILE = 'You have no profile yet. Create one here.';

const isNotFound = (err: unknown) => err instanceof GatewayError && err.status === 404 && !err.unavailable;

export async function loader({ request }: LoaderFunctionArgs) {
  await requireUser(request);
  try {
    const profile = await gateway.getProfile(request);
    return { rules: profileFormRules(), profile };
  } catch (err) {
    if (isNotFound(err)) throw redirect('/profile/create');
    pageError(err);
  }
}

export async function action({ request }: ActionFunctionArgs) {
  await requireUser(request);
  const parsed = parseForm(await request.formData(), ProfileBodySchema);
  if (!parsed.success) return formFailure(parsed);

  const result = await submitToGateway(
    () =>
      gateway.updateProfile(request, parsed.data).catch(async (err) => {
        if (isNotFound(err)) throw await flash(request, NO_PROFILE, '/profile/create');
        throw err;
      }),
    { values: parsed.values, fields: PROFILE_FIELDS, fallback: PROFILE_UPDATE_FAILED },
  );
  if (!result.ok) return result.failure;
  return flash(request, 'Profile updated.', '/profile');
}

export default function EditProfile() {
  const { rules, profile } = useLoaderData<typeof loader>();
  const actionData = useActionData<FormFailure>();
  return (
    <section className="form-page" aria-labelledby="edit-profile-title">
      <h1 id="edit-profile-title">Edit your profile</h1>
      <ProfileForm
        rules={rules}
        values={actionData?.values ?? profile}
        fieldErrors={actionData?.fieldErrors ?? {}}
        formError={actionData?.formError}
        submitLabel="Save changes"
        pendingLabel="Saving…"
      />
    </section>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
