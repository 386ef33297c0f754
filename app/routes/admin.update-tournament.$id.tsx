import type { ActionFunctionArgs, HeadersFunction, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { Link, useActionData, useLoaderData } from '@remix-run/react';
import { TOURNAMENT_NOT_FOUND } from '@custom-room/contract/constants';
import { GeneralErrorBoundary } from '~/components/error-page';
import { TournamentForm } from '~/components/tournament-form';
import { requireRight } from '~/utils/desk.server';
import { getEnv } from '~/utils/env.server';
import { pageError } from '~/utils/errors.server';
import type { FormFailure } from '~/utils/forms.server';
import { gateway } from '~/utils/gateway.server';
import { coverOf } from '~/utils/images';
import { flash } from '~/utils/session.server';
import { TOURNAMENT_UPDATE_FAILED, TOURNAMENT_UPDATED } from '~/utils/tournament-form';
import { submitTournamentForm, tournamentFormRules, tournamentValues } from '~/utils/tournament-form.server';

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data ? `Edit ${data.name} | Custom Room` : 'Edit tournament | Custom Room' },
  { name: 'description', content: 'Organisers: change a tournament’s details, dates, status, points system or cover image.' },
];

export const headers: HeadersFunction = () => ({ 'Cache-Control': 'private, no-store' });

export async function loader({ request, params }: LoaderFunctionArgs) {
  const { tournamentId: id } = await requireRight(request, params.id, 'run');
  const t = await gateway.getTournament(request, id).catch((err) => pageError(err, TOURNAMENT_NOT_FOUND));
  return { id: t.id, name: t.name, values: tournamentValues(t, getEnv().APP_TIME_ZONE), cover: coverOf(t), rules: tournamentFormRules() };
}

export async function action({ request, params }: ActionFunctionArgs) {
  const { tournamentId: id } = await requireRight(request, params.id, 'run');
  const result = await submitTournamentForm(request, {
    failed: TOURNAMENT_UPDATE_FAILED,
    send: (form) => gateway.updateTournament(request, id, form),
  });
  if (!result.ok) return result.failure;
  return flash(request, TOURNAMENT_UPDATED, '/admin/manage-tournaments');
}

export default function UpdateTournament() {
  const { id, name, values, cover, rules } = useLoaderData<typeof loader>();
  const actionData = useActionData<FormFailure>();
  return (
    <section className="admin-page" aria-labelledby="update-tournament-title">
      <h1 id="update-tournament-title">Edit tournament</h1>
      <p className="form-intro">
        <strong>{name}</strong> · <Link to={`/tournaments/${id}`}>View public page</Link>
      </p>
      <TournamentForm
        rules={rules}
        values={actionData?.values ?? values}
        fieldErrors={actionData?.fieldErrors}
        formError={actionData?.formError}
        failedTitle={TOURNAMENT_UPDATE_FAILED}
        currentCover={cover}
        submitLabel="Save changes"
        pendingLabel="Saving…"
      />
    </section>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
