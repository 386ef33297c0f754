import type { ActionFunctionArgs, HeadersFunction, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { Form, Link, useActionData, useLoaderData } from '@remix-run/react';
import { DISPUTE_RESOLUTION_MAX } from '@custom-room/contract/constants';
import { GeneralErrorBoundary } from '~/components/error-page';
import { ErrorSummary } from '~/components/ui/error-summary';
import { SubmitButton } from '~/components/ui/submit-button';
import { TextAreaField, TextField } from '~/components/ui/text-field';
import { requireRight } from '~/utils/desk.server';
import type { FormFailure } from '~/utils/forms.server';
import { loadDisputes, resolveAction, type DisputesPage } from '~/utils/lobby-disputes.server';
import '~/styles/screens.css';

/**
 * Issue 30 (decision 075): the staff's disputes of confirmed results. The open ones first, each upheld (the
 * disputed row corrected, kept in the result history) or dismissed with a reason the team sees. Works
 * without JavaScript.
 */

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: `Disputes${data ? `: ${data.t.name}` : ''} | Admin | Custom Room` },
  { name: 'robots', content: 'noindex' },
];

export const headers: HeadersFunction = () => ({ 'Cache-Control': 'private, no-store' });

export async function loader({ request, params }: LoaderFunctionArgs) {
  const { tournamentId } = await requireRight(request, params.tournamentId, 'lobby');
  return loadDisputes(request, tournamentId);
}

export async function action({ request, params }: ActionFunctionArgs) {
  const { tournamentId } = await requireRight(request, params.tournamentId, 'lobby');
  return resolveAction(request, tournamentId);
}

type DisputeView = DisputesPage['disputes'][number];

export default function Disputes() {
  const { t, open, disputes } = useLoaderData<typeof loader>();
  return (
    <section className="ops-page" aria-labelledby="disputes-title">
      <p className="crumb">
        <Link to={`/admin/${t.id}`}>{t.name}</Link>
      </p>
      <h1 id="disputes-title">Disputes</h1>
      <p className="ops-subtitle">{open === 0 ? 'No open dispute.' : open === 1 ? '1 open dispute.' : `${open} open disputes.`}</p>
      {disputes.length === 0 ? (
        <p className="nothing">No team has disputed a result yet.</p>
      ) : (
        <ol className="lr-disputes" aria-label="Disputes, the open ones first">
          {disputes.map((d) => (
            <DisputeCard key={d.id} dispute={d} />
          ))}
        </ol>
      )}
    </section>
  );
}

function DisputeCard({ dispute: d }: { dispute: DisputeView }) {
  return (
    <li className="ops-card" id={`dispute-${d.id}`}>
      <h2 className="ops-card-title">
        {d.by} disputes {d.by === d.about ? 'its own' : `${d.about}’s`} row
      </h2>
      <p className="ops-meta">
        <span>{d.where}</span>
        <span className={d.open ? 'ops-attention' : undefined}>{d.state}</span>
        <Link to={d.lobby}>Lobby reports</Link>
      </p>
      <blockquote>{d.reason}</blockquote>
      <p className="fine">
        Filed by {d.filed}
        {d.screenshot ? (
          <>
            {' · '}
            <a href={d.screenshot} target="_blank" rel="noreferrer">
              Their screenshot
            </a>
          </>
        ) : null}
      </p>
      {d.open ? (
        <div className="lr-dispute-forms">
          <UpholdForm dispute={d} />
          <DismissForm dispute={d} />
        </div>
      ) : (
        <p>
          {d.resolution ? `“${d.resolution}” ` : ''}
          <span className="fine">({d.resolved})</span>
        </p>
      )}
    </li>
  );
}

/** One form's share of the action's answer: the dispute and the intent it was sent with. */
function useFailure(id: number, intent: 'uphold' | 'dismiss') {
  const failure = useActionData<FormFailure>();
  return failure?.values.disputeId === String(id) && failure.values.intent === intent ? failure : undefined;
}

function UpholdForm({ dispute: d }: { dispute: DisputeView }) {
  const failure = useFailure(d.id, 'uphold');
  const errors = failure?.fieldErrors ?? {};
  const value = (f: 'position' | 'finishes') => (failure ? (failure.values[`${f}-${d.id}`] ?? '') : (d.current?.[f] ?? ''));
  const absent = failure ? `absent-${d.id}` in failure.values : d.current?.absent === true;
  return (
    <Form method="post" noValidate key={failure ? `failed-${JSON.stringify(failure)}` : 'uphold'}>
      <fieldset>
        <legend>Uphold: correct {d.about}’s row</legend>
        <ErrorSummary fieldErrors={errors} formError={failure?.formError} order={[`position-${d.id}`, `finishes-${d.id}`]} />
        <input type="hidden" name="disputeId" value={d.id} />
        <input type="hidden" name="intent" value="uphold" />
        {d.current ? null : <p className="fine">The current result could not be read: enter the corrected row.</p>}
        <div className="lr-inline">
          {(['position', 'finishes'] as const).map((f) => (
            <TextField
              key={f}
              name={`${f}-${d.id}`}
              label={f === 'position' ? 'Placement' : 'Finishes'}
              inputMode="numeric"
              maxLength={3}
              autoComplete="off"
              defaultValue={value(f)}
              error={errors[`${f}-${d.id}`]}
            />
          ))}
          <label className="check">
            <input type="checkbox" name={`absent-${d.id}`} defaultChecked={absent} /> Absent
          </label>
        </div>
        <SubmitButton>Uphold</SubmitButton>
      </fieldset>
    </Form>
  );
}

function DismissForm({ dispute: d }: { dispute: DisputeView }) {
  const failure = useFailure(d.id, 'dismiss');
  const errors = failure?.fieldErrors ?? {};
  return (
    <Form method="post" noValidate key={failure ? `failed-${JSON.stringify(failure)}` : 'dismiss'}>
      <fieldset>
        <legend>Dismiss</legend>
        <ErrorSummary fieldErrors={errors} formError={failure?.formError} order={[`reason-${d.id}`]} />
        <input type="hidden" name="disputeId" value={d.id} />
        <input type="hidden" name="intent" value="dismiss" />
        <TextAreaField
          name={`reason-${d.id}`}
          label="Reason (the team sees it)"
          rows={2}
          maxLength={DISPUTE_RESOLUTION_MAX}
          required
          defaultValue={failure?.values[`reason-${d.id}`] ?? ''}
          error={errors[`reason-${d.id}`]}
        />
        <SubmitButton className="button button-secondary">Dismiss</SubmitButton>
      </fieldset>
    </Form>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
