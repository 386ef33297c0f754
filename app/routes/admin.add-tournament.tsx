import type { ActionFunctionArgs, HeadersFunction, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { useActionData, useLoaderData } from '@remix-run/react';
import { GeneralErrorBoundary } from '~/components/error-page';
import { TournamentForm } from '~/components/tournament-form';
import { requireDesk } from '~/utils/desk.server';
import type { FormFailure } from '~/utils/forms.server';
import { gateway } from '~/utils/gateway.server';
import { flash } from '~/utils/session.server';
import { TOURNAMENT_ADD_FAILED, TOURNAMENT_ADDED } from '~/utils/tournament-form';
import { newTournamentValues, submitTournamentForm, tournamentFormRules } from '~/utils/tournament-form.server';

export const meta: MetaFunction = () => [
  { title: 'Add tournament | Custom Room' },
  { name: 'description', content: 'Organisers: publish a new tournament with its dates, fee, prize pool, points system and cover image.' },
];

export const headers: HeadersFunction = () => ({ 'Cache-Control': 'private, no-store' });

export async function loader({ request }: LoaderFunctionArgs) {
  await requireDesk(request);
  return { rules: tournamentFormRules(), values: newTournamentValues() };
}

export async function action({ request }: ActionFunctionArgs) {
  await requireDesk(request);
  const result = await submitTournamentForm(request, {
    failed: TOURNAMENT_ADD_FAILED,
    send: (form) => gateway.addTournament(request, form),
  });
  if (!result.ok) return result.failure;
  // Issue 27 item 24: the organiser lands on the new tournament's hub, not on a list.
  return flash(request, TOURNAMENT_ADDED, `/admin/${result.value.id}`);
}

export default function AddTournament() {
  const { rules, values } = useLoaderData<typeof loader>();
  const actionData = useActionData<FormFailure>();
  return (
    <section className="admin-page" aria-labelledby="add-tournament-title">
      <h1 id="add-tournament-title">Add tournament</h1>
      <p className="form-intro">Every field is required except the payment deadline, the payee and the cover image.</p>
      <TournamentForm
        rules={rules}
        values={actionData?.values ?? values}
        fieldErrors={actionData?.fieldErrors}
        formError={actionData?.formError}
        failedTitle={TOURNAMENT_ADD_FAILED}
        submitLabel="Add tournament"
        pendingLabel="Adding…"
      />
    </section>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
