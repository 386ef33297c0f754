import type { ActionFunctionArgs, HeadersFunction, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { Form, Link, useActionData, useLoaderData } from '@remix-run/react';
import { defaultLobbySize, LOBBY_MAX, LOBBY_MIN, TOURNAMENT_NOT_FOUND } from '@custom-room/contract/constants';
import { CheckInWindowFields } from '~/components/check-in-window';
import { GeneralErrorBoundary } from '~/components/error-page';
import { ErrorSummary } from '~/components/ui/error-summary';
import { SubmitButton } from '~/components/ui/submit-button';
import { TextField } from '~/components/ui/text-field';
import { requireRight } from '~/utils/desk.server';
import { getEnv } from '~/utils/env.server';
import { pageError } from '~/utils/errors.server';
import { formFailure, gatewayFormErrors, type FormFailure } from '~/utils/forms.server';
import { gateway, GatewayError } from '~/utils/gateway.server';
import { flash } from '~/utils/session.server';
import { parseStageForm } from '~/utils/stage-admin.server';
import { CHECK_IN_FIELDS, STAGE_FIELDS } from '~/utils/stage-forms';
import '~/styles/screens.css';
import { advanceWords, stateTone } from '~/utils/stage-words';

const ADD_FAILED = 'Failed to add the stage.';

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: `Stages${data ? `: ${data.t.name}` : ''} | Admin | Custom Room` },
  { name: 'description', content: 'The stages of a tournament: groups, slots and who advances.' },
];

export const headers: HeadersFunction = () => ({ 'Cache-Control': 'private, no-store' });

export async function loader({ request, params }: LoaderFunctionArgs) {
  const { tournamentId: tid } = await requireRight(request, params.tournamentId, 'run');
  const [t, stages] = await Promise.all([gateway.getTournament(request, tid), gateway.listStages(request, tid, { admin: true })]).catch(
    (err) => pageError(err, TOURNAMENT_NOT_FOUND),
  );
  return {
    timeZone: getEnv().APP_TIME_ZONE,
    t: { id: t.id, name: t.name, game: t.game },
    lobbyDefault: defaultLobbySize(t.game) ?? null,
    stages: stages.map((s) => ({
      id: s.id,
      order: s.order,
      name: s.name,
      state: s.state,
      lobbySize: s.lobbySize,
      groups: s.groups.length,
      entrants: s.entrants,
      advance: advanceWords(s),
    })),
  };
}

export async function action({ request, params }: ActionFunctionArgs) {
  const { tournamentId: tid } = await requireRight(request, params.tournamentId, 'run');
  const parsed = parseStageForm(await request.formData(), 'create');
  if (!parsed.ok) return formFailure({ values: parsed.values, fieldErrors: parsed.fieldErrors, formError: parsed.formError ?? ADD_FAILED });
  let stage;
  try {
    stage = await gateway.createStage(request, tid, parsed.body as never);
  } catch (err) {
    if (!(err instanceof GatewayError)) throw err;
    const failure = gatewayFormErrors(err, { fields: [...STAGE_FIELDS, ...CHECK_IN_FIELDS], fallback: ADD_FAILED });
    return formFailure({ values: parsed.values, fieldErrors: failure.fieldErrors, formError: failure.formError }, failure.status);
  }
  return flash(request, `Stage “${stage.name}” added`, `/admin/${tid}/stages/${stage.id}`);
}

export default function AdminStages() {
  const { t, lobbyDefault, stages, timeZone } = useLoaderData<typeof loader>();
  const actionData = useActionData<FormFailure>();
  const errors = actionData?.fieldErrors ?? {};
  const values = actionData?.values ?? {};
  return (
    <section className="ops-page" aria-labelledby="ops-title">
      <p className="crumb">
        <Link to="/admin/tournament-list">Tournament list</Link>
      </p>
      <h1 id="ops-title">Stages</h1>
      <p className="ops-subtitle">
        {t.name} · {t.game}
      </p>

      <section aria-labelledby="stage-list-title">
        <h2 id="stage-list-title">Stages in order</h2>
        {stages.length === 0 ? (
          <p className="nothing">No stages yet: the tournament is played as one lobby. Add a stage to split it into groups.</p>
        ) : (
          <ol className="ops-cards st-list">
            {stages.map((s) => (
              <li key={s.id} className="ops-card">
                <h3 className="ops-card-title">
                  <Link to={`/admin/${t.id}/stages/${s.id}`}>
                    {s.order}. {s.name}
                  </Link>
                </h3>
                <p className="ops-meta">
                  <span className={`badge ${stateTone(s.state)}`}>{s.state}</span>
                  <span>Lobby {s.lobbySize}</span>
                  <span>
                    {s.groups} {s.groups === 1 ? 'group' : 'groups'}
                  </span>
                  <span>
                    {s.entrants} {s.entrants === 1 ? 'entrant' : 'entrants'}
                  </span>
                </p>
                <p className="fine">{s.advance}</p>
              </li>
            ))}
          </ol>
        )}
      </section>

      <section className="ops-panel" aria-labelledby="add-stage-title">
        <h2 id="add-stage-title">Add a stage</h2>
        <p className="fine">It comes after the last stage. Later stages take the previous stage’s qualifiers and any teams you invite.</p>
        <ErrorSummary fieldErrors={errors} formError={actionData?.formError} order={[...STAGE_FIELDS, ...CHECK_IN_FIELDS]} />
        <Form method="post" className="form" noValidate key={actionData ? JSON.stringify(actionData) : `add-${stages.length}`}>
          <TextField
            name="name"
            label="Name"
            hint="Qualifiers, Semi-finals, Grand Final …"
            error={errors.name}
            defaultValue={values.name ?? ''}
            maxLength={40}
            required
          />
          <div className="ops-pair">
            <TextField
              name="lobbySize"
              label="Lobby size"
              hint={`Teams per group, ${LOBBY_MIN}–${LOBBY_MAX}`}
              error={errors.lobbySize}
              defaultValue={values.lobbySize ?? (lobbyDefault ? String(lobbyDefault) : '')}
              inputMode="numeric"
              required={lobbyDefault === null}
            />
            <TextField
              name="firstSlot"
              label="First slot"
              hint="Usually 1"
              error={errors.firstSlot}
              defaultValue={values.firstSlot ?? '1'}
              inputMode="numeric"
            />
          </div>
          <div className="ops-pair">
            <TextField
              name="advancePerGroup"
              label="Advance per group"
              hint="Top N of each group (0 for a final)"
              error={errors.advancePerGroup}
              defaultValue={values.advancePerGroup ?? '0'}
              inputMode="numeric"
            />
            <TextField
              name="advanceBest"
              label="Best of the rest"
              hint="Plus the best M others"
              error={errors.advanceBest}
              defaultValue={values.advanceBest ?? '0'}
              inputMode="numeric"
            />
          </div>
          <CheckInWindowFields values={values} errors={errors} timeZone={timeZone} />
          <SubmitButton pendingLabel="Adding…">Add stage</SubmitButton>
        </Form>
      </section>
    </section>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
