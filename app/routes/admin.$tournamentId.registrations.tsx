import type { ActionFunctionArgs, HeadersFunction, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { Form, Link, useActionData, useLoaderData } from '@remix-run/react';
import { GeneralErrorBoundary } from '~/components/error-page';
import { ErrorSummary } from '~/components/ui/error-summary';
import { SubmitButton } from '~/components/ui/submit-button';
import { byPayment, loadRegistrations, paymentFilterOf, paymentFilterQuery, registeredAt } from '~/utils/admin-registrations.server';
import { pageError } from '~/utils/errors.server';
import { formFailure, gatewayFormErrors, type FormFailure } from '~/utils/forms.server';
import { gateway, GatewayError } from '~/utils/gateway.server';
import { PAYMENT_STATUSES, PaymentStatusBulkUpdateSchema, type PaymentStatus } from '~/utils/payments-form.server';
import { requireSameOrigin } from '~/utils/security.server';
import { flash, requireAdmin } from '~/utils/session.server';
import { paymentWords } from '~/utils/team';
import { requireTournamentId } from '~/utils/route-params.server';
import '~/styles/screens.css';
import '~/styles/admin-ops.css';

const NOT_FOUND = 'Tournament not found.';
const UPDATE_FAILED = 'Failed to update the payment status. Please try again.';
const BULK_FORM_ID = 'bulk-payments';

export const INTENT = {
  verifyOne: 'verify-one',
  rejectOne: 'reject-one',
  verifySelected: 'verify-selected',
  rejectSelected: 'reject-selected',
} as const;

const STATUS_OF: Record<string, { status: PaymentStatus; bulk: boolean }> = {
  [INTENT.verifyOne]: { status: 'verified', bulk: false },
  [INTENT.rejectOne]: { status: 'rejected', bulk: false },
  [INTENT.verifySelected]: { status: 'verified', bulk: true },
  [INTENT.rejectSelected]: { status: 'rejected', bulk: true },
};

/** Badge colours of screens.css per payment status. */
const TONE: Record<string, string> = { pending: 'b-done', submitted: 'b-soon', verified: 'b-open', rejected: 'b-off' };

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: `Registrations${data ? `: ${data.t.name}` : ''} | Admin | Custom Room` },
  { name: 'description', content: 'Teams, players and payments of a tournament; verify or reject payments.' },
];

export const headers: HeadersFunction = () => ({ 'Cache-Control': 'private, no-store' });

export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireAdmin(request);
  const tid = requireTournamentId(params.tournamentId);
  const filter = paymentFilterOf(request);
  const [t, { registrations, counts }] = await Promise.all([gateway.getTournament(request, tid), loadRegistrations(request, tid)]).catch((err) =>
    pageError(err, NOT_FOUND),
  );
  return {
    t: { id: t.id, name: t.name, maxTeams: t.maxTeams },
    filter: filter === 'invalid' ? null : filter,
    invalidFilter: filter === 'invalid',
    query: paymentFilterQuery(filter),
    total: registrations.length,
    counts,
    statuses: PAYMENT_STATUSES,
    teams: byPayment(registrations, filter).map((r) => ({
      rid: r.rid,
      teamName: r.teamName,
      players: [r.player1Username, r.player2Username, r.player3Username, r.player4Username].filter(Boolean),
      substitutes: [r.substitute1Username, r.substitute2Username].filter(Boolean),
      username: r.username,
      registeredAt: registeredAt(r),
      paymentStatus: r.paymentStatus,
      paymentLabel: paymentWords(r.paymentStatus).label,
      paymentReference: r.paymentReference,
    })),
  };
}

const ridOf = (value: FormDataEntryValue) => (typeof value === 'string' && /^\d{1,9}$/.test(value.trim()) ? Number(value) : Number.NaN);

export async function action({ request, params }: ActionFunctionArgs) {
  requireSameOrigin(request);
  await requireAdmin(request);
  const tid = requireTournamentId(params.tournamentId);
  const back = `/admin/${tid}/registrations${paymentFilterQuery(paymentFilterOf(request))}`;
  const formData = await request.formData();
  const intent = STATUS_OF[String(formData.get('intent'))];
  if (!intent) return formFailure({ formError: 'Choose Verify or Reject.' });
  const rids = formData.getAll('rid').map(ridOf);
  const words = paymentWords(intent.status).label.toLowerCase();

  try {
    if (!intent.bulk) {
      const rid = rids[0];
      if (rids.length !== 1 || rid === undefined || Number.isNaN(rid)) return formFailure({ formError: 'Choose one team.' });
      const saved = await gateway.setPaymentStatus(request, rid, intent.status);
      return flash(request, `Payment of ${saved.teamName} marked ${words}.`, back);
    }
    const body = PaymentStatusBulkUpdateSchema.safeParse({ tournamentId: tid, rids, paymentStatus: intent.status });
    if (!body.success) {
      const message = body.error.issues[0]?.message ?? UPDATE_FAILED;
      return formFailure({ fieldErrors: { rid: message } });
    }
    const saved = await gateway.setPaymentStatuses(request, body.data);
    const names = saved.map((r) => r.teamName).join(', ');
    return flash(request, `${saved.length === 1 ? 'Payment' : `${saved.length} payments`} marked ${words}: ${names}.`, back);
  } catch (err) {
    if (!(err instanceof GatewayError)) throw err;
    const failure = gatewayFormErrors(err, { fields: ['rid'], fallback: UPDATE_FAILED, rename: { rids: 'rid' } });
    return formFailure({ fieldErrors: failure.fieldErrors, formError: failure.formError ?? UPDATE_FAILED }, failure.status);
  }
}

export default function AdminRegistrations() {
  const page = useLoaderData<typeof loader>();
  const actionData = useActionData<FormFailure>();
  const action = `/admin/${page.t.id}/registrations${page.query}`;
  const shown = page.filter ? page.counts[page.filter] : page.total;

  return (
    <section className="ops-page" aria-labelledby="ops-title">
      <p className="crumb">
        <Link to="/admin/tournament-list">Tournament list</Link>
      </p>
      <h1 id="ops-title">Registrations</h1>
      <p className="ops-subtitle">
        {page.t.name}: {page.total}/{page.t.maxTeams} teams
      </p>

      <nav aria-label="Filter by payment status" className="ops-chips">
        <ul>
          <li>
            <Link to="." aria-current={page.filter === null ? 'page' : undefined}>
              All ({page.total})
            </Link>
          </li>
          {page.statuses.map((s) => (
            <li key={s}>
              <Link to={`?payment=${s}`} aria-current={page.filter === s ? 'page' : undefined}>
                {paymentWords(s).label} ({page.counts[s]})
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      {page.invalidFilter ? (
        <p className="notice" role="status">
          Unknown payment status: showing every team.
        </p>
      ) : null}

      <p>
        <a className="button button-secondary" href={`/admin/${page.t.id}/registrations.csv${page.query}`} download>
          Download CSV
        </a>
      </p>

      <ErrorSummary fieldErrors={actionData?.fieldErrors} formError={actionData?.formError} ids={{ rid: 'bulk-actions' }} />

      {page.teams.length === 0 ? (
        <p className="nothing">{page.filter ? `No teams with payment ${paymentWords(page.filter).label.toLowerCase()}.` : 'No teams have registered yet.'}</p>
      ) : (
        <>
          <Form method="post" action={action} id={BULK_FORM_ID} className="ops-bulk">
            <fieldset id="bulk-actions" tabIndex={-1}>
              <legend>Ticked teams ({shown} shown)</legend>
              <div className="ops-bulk-buttons">
                <SubmitButton name="intent" value={INTENT.verifySelected} className="button" formPath={`/admin/${page.t.id}/registrations`}>
                  Verify ticked
                </SubmitButton>
                <SubmitButton name="intent" value={INTENT.rejectSelected} className="button button-secondary" formPath={`/admin/${page.t.id}/registrations`}>
                  Reject ticked
                </SubmitButton>
              </div>
            </fieldset>
          </Form>
          <ul className="ops-cards ops-teams">
            {page.teams.map((team) => (
              <li key={team.rid} className="ops-card">
                <article aria-labelledby={`team-${team.rid}`}>
                  <div className="ops-team-head">
                    <input type="checkbox" name="rid" value={team.rid} form={BULK_FORM_ID} id={`tick-${team.rid}`} />
                    <label htmlFor={`tick-${team.rid}`} className="visually-hidden">
                      Tick {team.teamName}
                    </label>
                    <h2 id={`team-${team.rid}`} className="ops-card-title">
                      {team.teamName}
                    </h2>
                    <span className={`badge ${TONE[team.paymentStatus] ?? ''}`}>{team.paymentLabel}</span>
                  </div>
                  <dl className="ops-facts">
                    <div>
                      <dt>Players</dt>
                      <dd>{team.players.join(', ')}</dd>
                    </div>
                    {team.substitutes.length ? (
                      <div>
                        <dt>Substitutes</dt>
                        <dd>{team.substitutes.join(', ')}</dd>
                      </div>
                    ) : null}
                    <div>
                      <dt>UPI reference</dt>
                      <dd className="mono">{team.paymentReference || '—'}</dd>
                    </div>
                    <div>
                      <dt>Registered</dt>
                      <dd>
                        {team.registeredAt} by {team.username}
                      </dd>
                    </div>
                    <div>
                      <dt>Team ID</dt>
                      <dd className="mono">{team.rid}</dd>
                    </div>
                  </dl>
                  <Form method="post" action={action} className="ops-row-actions">
                    <input type="hidden" name="rid" value={team.rid} />
                    {team.paymentStatus !== 'verified' ? (
                      <button type="submit" name="intent" value={INTENT.verifyOne} className="button">
                        Verify<span className="visually-hidden"> payment of {team.teamName}</span>
                      </button>
                    ) : null}
                    {team.paymentStatus !== 'rejected' ? (
                      <button type="submit" name="intent" value={INTENT.rejectOne} className="button button-secondary">
                        Reject<span className="visually-hidden"> payment of {team.teamName}</span>
                      </button>
                    ) : null}
                  </Form>
                </article>
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
