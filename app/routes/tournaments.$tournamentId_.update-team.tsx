// The trailing "_" keeps /tournaments/:id/update-team out of the detail page's layout (Remix flat routes): a page of its own.
import { type ActionFunctionArgs, data, type HeadersFunction, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node';
import { Link, useActionData, useLoaderData, useLocation } from '@remix-run/react';
import { TeamUpdateSchema } from '@custom-room/contract';
import { NO_TEAM_REGISTERED, TEAM_FORM_FIELDS, TOURNAMENT_NOT_FOUND as NOT_FOUND } from '@custom-room/contract/constants';
import { Dashboard } from '~/components/dashboard-nav';
import { GeneralErrorBoundary } from '~/components/error-page';
import { TeamForm } from '~/components/team-form';
import { pageError } from '~/utils/errors.server';
import { formFailure, parseForm, submitToGateway, type FormFailure } from '~/utils/forms.server';
import { gateway, GatewayError } from '~/utils/gateway.server';
import { requireTournamentId } from '~/utils/route-params.server';
import { flash, requireUser } from '~/utils/session.server';
import '~/styles/screens.css';

const LOAD_FAILED = 'Failed to fetch team data.';
const UPDATE_FAILED = 'Failed to update team. Please try again.';
const TEAM_UPDATED = 'Team updated successfully!';

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data ? `Edit team: ${data.t.name} | Custom Room` : 'Edit team | Custom Room' },
  { name: 'description', content: 'Change your team name, players and substitutes before the tournament starts.' },
];

export const headers: HeadersFunction = () => ({ 'Cache-Control': 'private, no-store' });

type EditState =
  { status: 'ok'; values: Record<string, string> } | { status: 'none'; message: string } | { status: 'failed'; message: string };

export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireUser(request);
  const id = requireTournamentId(params.tournamentId);
  const [tournament, team] = await Promise.allSettled([gateway.getTournament(request, id), gateway.myTeam(request, id)]);
  if (tournament.status === 'rejected') pageError(tournament.reason, NOT_FOUND);
  const t = {
    id: tournament.value.id,
    name: tournament.value.name,
    game: tournament.value.game,
    requireCharacterIds: tournament.value.requireCharacterIds,
  };
  if (team.status === 'fulfilled') {
    const values = Object.fromEntries(TEAM_FORM_FIELDS.map((f) => [f, team.value[f]]));
    return { t, state: { status: 'ok', values } as EditState };
  }
  const err: unknown = team.reason;
  if (!(err instanceof GatewayError) || err.unavailable) pageError(err);
  if (err.status === 404) return data({ t, state: { status: 'none', message: NO_TEAM_REGISTERED } as EditState }, { status: 404 });
  return { t, state: { status: 'failed', message: LOAD_FAILED } as EditState };
}

export async function action({ request, params }: ActionFunctionArgs) {
  await requireUser(request);
  const id = requireTournamentId(params.tournamentId);
  const parsed = parseForm(await request.formData(), TeamUpdateSchema);
  if (!parsed.success) return formFailure(parsed);

  // Refusals (a name or IGN taken in this tournament, a team frozen once the tournament started) come back beside the field or above the form.
  const result = await submitToGateway(() => gateway.updateTeam(request, id, parsed.data), {
    values: parsed.values,
    fields: TEAM_FORM_FIELDS,
    fallback: UPDATE_FAILED,
  });
  if (!result.ok) return result.failure;
  return flash(request, TEAM_UPDATED, `/team/${id}`);
}

export default function UpdateTeamPage() {
  const { t, state } = useLoaderData<typeof loader>();
  const actionData = useActionData<FormFailure>();
  const location = useLocation();
  return (
    <Dashboard>
      <section className="form-page team-edit" aria-labelledby="team-edit-title">
        <p className="crumb">
          <Link to={`/tournaments/${t.id}`}>{t.name}</Link>
        </p>
        <h1 id="team-edit-title">Edit team</h1>
        {state.status === 'ok' ? (
          <>
            <p className="form-intro">Team name, player 1 and player 2 are required. Changes are allowed until the tournament starts.</p>
            <TeamForm
              requiredPlayers={2}
              game={t.game}
              requireCharacterIds={t.requireCharacterIds}
              values={actionData?.values ?? state.values}
              fieldErrors={actionData?.fieldErrors}
              formError={actionData?.formError}
              submitLabel="Save team"
              pendingLabel="Saving…"
            />
            <p className="form-footer">
              <Link to={`/team/${t.id}`}>Back to your team</Link>
            </p>
          </>
        ) : state.status === 'none' ? (
          <>
            <p className="notice" role="alert">
              {state.message}
            </p>
            <p className="form-actions">
              <Link className="button" to={`/tournaments/${t.id}`}>
                Go to the tournament
              </Link>
            </p>
          </>
        ) : (
          <p className="notice" role="alert">
            {state.message} <a href={location.pathname}>Try again</a>
          </p>
        )}
      </section>
    </Dashboard>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
