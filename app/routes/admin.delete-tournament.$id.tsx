import { type ActionFunctionArgs, type HeadersFunction, type LoaderFunctionArgs, type MetaFunction, data } from '@remix-run/node';
import { Form, Link, useActionData, useLoaderData } from '@remix-run/react';
import { TOURNAMENT_NOT_FOUND } from '@custom-room/contract/constants';
import { GeneralErrorBoundary } from '~/components/error-page';
import { SubmitButton } from '~/components/ui/submit-button';
import { requireRight } from '~/utils/desk.server';
import { pageError } from '~/utils/errors.server';
import { GatewayError, gateway } from '~/utils/gateway.server';
import { DELETE_FAILED, manageReturnPath, TOURNAMENT_DELETED } from '~/utils/manage-tournaments.server';
import { flash } from '~/utils/session.server';

const ALREADY_GONE = 'Tournament not found: it may already have been deleted.';

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data ? `Delete ${data.name}? | Custom Room` : 'Delete tournament | Custom Room' },
  { name: 'robots', content: 'noindex' },
];

export const headers: HeadersFunction = () => ({ 'Cache-Control': 'private, no-store' });

/** The confirmation of a delete (the page without JavaScript; with it, the manage list's dialog posts here). */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const { tournamentId: id } = await requireRight(request, params.id, 'own');
  const t = await gateway.getTournament(request, id).catch((err) => pageError(err, TOURNAMENT_NOT_FOUND));
  const returnTo = manageReturnPath(new URL(request.url).searchParams.get('returnTo'));
  return { id: t.id, name: t.name, status: t.status, teams: `${t.registeredTeams}/${t.maxTeams}`, returnTo };
}

export async function action({ request, params }: ActionFunctionArgs) {
  const { tournamentId: id } = await requireRight(request, params.id, 'own');
  const returnTo = manageReturnPath((await request.formData()).get('returnTo'));
  try {
    await gateway.deleteTournament(request, id);
  } catch (err) {
    if (!(err instanceof GatewayError)) throw err;
    // Deleted already (a second submit, another organiser): the list shows where things stand.
    if (err.status === 404) return flash(request, ALREADY_GONE, returnTo);
    const detail = err.unavailable ? ' We could not reach the server. Please try again.' : err.message ? ` ${err.message}` : '';
    return data({ error: `${DELETE_FAILED}${detail}` }, { status: err.unavailable ? 503 : err.status });
  }
  return flash(request, TOURNAMENT_DELETED, returnTo);
}

export default function DeleteTournament() {
  const t = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  return (
    <section className="admin-page admin-confirm" aria-labelledby="delete-title">
      <h1 id="delete-title">Delete {t.name}?</h1>
      {actionData?.error ? (
        <p className="notice notice-error" role="alert">
          {actionData.error}
        </p>
      ) : null}
      <p>Players will no longer see it. Its registrations ({t.teams} teams), matches and points are kept in the database.</p>
      <Form method="post" className="form-actions">
        <input type="hidden" name="returnTo" value={t.returnTo} />
        <SubmitButton className="button button-danger" pendingLabel="Deleting…">
          Delete tournament
        </SubmitButton>
        <Link className="button button-secondary" to={t.returnTo}>
          Cancel
        </Link>
      </Form>
    </section>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
