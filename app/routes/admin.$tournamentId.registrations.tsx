import type { ActionFunctionArgs, HeadersFunction, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { Form, Link, useActionData, useLoaderData, type ShouldRevalidateFunction } from '@remix-run/react';
import { GeneralErrorBoundary } from '~/components/error-page';
import { ErrorSummary } from '~/components/ui/error-summary';
import { SubmitButton } from '~/components/ui/submit-button';
import {
  byPayment,
  captainWords,
  loadRegistrations,
  paymentFilterOf,
  paymentFilterQuery,
  registeredAt,
  teamPlayers,
} from '~/utils/admin-registrations.server';
import { pageError } from '~/utils/errors.server';
import { formFailure, gatewayFormErrors, type FormFailure } from '~/utils/forms.server';
import { gateway, GatewayError } from '~/utils/gateway.server';
import { PaymentStatusBulkUpdateSchema } from '@custom-room/contract';
import { PAYMENT_STATUSES, type PaymentStatus } from '@custom-room/contract/constants';
import { EXPECTED_REFERENCE_FIELD, expectedReferenceName } from '~/utils/payments-form.server';
import { flash, requireAdmin } from '~/utils/session.server';
import { paymentWords } from '~/utils/team';
import { requireTournamentId } from '~/utils/route-params.server';
import { placeView } from '~/utils/places';
import { PlaceBadge } from '~/components/place-badge';
import { getEnv } from '~/utils/env.server';
import '~/styles/screens.css';
import '~/styles/admin-ops.css';
import '~/styles/places.css';
import { TOURNAMENT_NOT_FOUND as NOT_FOUND } from '@custom-room/contract/constants';

const UPDATE_FAILED = 'Failed to update the payment status. Please try again.';
const BULK_FORM_ID = 'bulk-payments';

export const INTENT = {
  verifyOne: 'verify-one',
  rejectOne: 'reject-one',
  verifySelected: 'verify-selected',
  rejectSelected: 'reject-selected',
  release: 'release',
  remove: 'remove',
  allowReturn: 'allow-return',
} as const;

/** The removal's confirmation tick: a removed team loses its place, paid or not. */
const CONFIRM_REMOVE = 'confirmRemove';

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

/**
 * Issue 27: ?rows=compact shows one short row per team (name, state, UTR, Verify/Reject) instead of the full card;
 * ?select=all ticks every placed team shown (with the filter), without JavaScript too. Both are links (GET).
 */
const compactOf = (request: Request) => new URL(request.url).searchParams.get('rows') === 'compact';
const selectAllOf = (request: Request) => new URL(request.url).searchParams.get('select') === 'all';
/** The list's own query (filter and rows), kept by every form and redirect; never the selection. */
function listQuery(filter: PaymentStatus | null | 'invalid', compact: boolean, extra: Record<string, string> = {}) {
  const q = new URLSearchParams();
  if (filter && filter !== 'invalid') q.set('payment', filter);
  if (compact) q.set('rows', 'compact');
  for (const [k, v] of Object.entries(extra)) q.set(k, v);
  const s = q.toString();
  return s ? `?${s}` : '';
}
/** More names than this and the success message gives the count only ("90 payments verified."). */
const NAMES_IN_MESSAGE = 3;

// A refused verify or reject (409: a team changed its UPI reference meanwhile) must show the new
// reference at once, also with JavaScript, where Remix would otherwise keep the page it had.
export const shouldRevalidate: ShouldRevalidateFunction = ({ actionStatus, defaultShouldRevalidate }) =>
  actionStatus === 409 ? true : defaultShouldRevalidate;

export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireAdmin(request);
  const tid = requireTournamentId(params.tournamentId);
  const filter = paymentFilterOf(request);
  const [t, { registrations, counts }] = await Promise.all([gateway.getTournament(request, tid), loadRegistrations(request, tid)]).catch(
    (err) => pageError(err, NOT_FOUND),
  );
  const timeZone = getEnv().APP_TIME_ZONE;
  const nowMs = Date.now();
  const free = t.entryFee <= 0;
  const places = { placed: 0, waitlist: 0, gone: 0 };
  for (const r of registrations) places[r.place === 'placed' ? 'placed' : r.place === 'waitlist' ? 'waitlist' : 'gone'] += 1;
  // Decision 043's order: payments to check first, then unpaid, confirmed, the waitlist, and teams that left
  // (a stable sort: the gateway's order within each).
  const ordered = [...byPayment(registrations, filter)].sort((a, b) => a.listOrder - b.listOrder);
  const compact = compactOf(request);
  const selectAll = selectAllOf(request);
  const selectable = ordered.filter((r) => r.place === 'placed').length;
  return {
    compact,
    selectAll,
    selectable,
    // Links of the list's own: the other row style, and ticking every placed team shown (or none).
    links: {
      rows: listQuery(filter, !compact, selectAll ? { select: 'all' } : {}),
      selectAll: listQuery(filter, compact, { select: 'all' }),
      clear: listQuery(filter, compact),
    },
    t: { id: t.id, name: t.name, maxTeams: t.maxTeams, requireCharacterIds: t.requireCharacterIds },
    places,
    expectedField: EXPECTED_REFERENCE_FIELD,
    filter: filter === 'invalid' ? null : filter,
    invalidFilter: filter === 'invalid',
    query: listQuery(filter, compact),
    csvQuery: paymentFilterQuery(filter),
    total: registrations.length,
    counts,
    statuses: PAYMENT_STATUSES,
    teams: ordered.map((r) => ({
      rid: r.rid,
      teamName: r.teamName,
      ...teamPlayers(r, t.game),
      // Decision 046: the organiser's ways to reach the captain (the admin-only list carries them).
      captain: captainWords(r, t.name),
      username: r.username,
      registeredAt: registeredAt(r),
      paymentStatus: r.paymentStatus,
      paymentLabel: paymentWords(r.paymentStatus).label,
      paymentReference: r.paymentReference,
      place: r.place,
      state: placeView(r, { timeZone, free, nowMs }),
      // Decision 043: release a placed team that is not confirmed (a rejected payment); remove any team that holds or waits for a place.
      mayRelease: r.place === 'placed' && !placeView(r, { timeZone, free, nowMs }).confirmed,
      mayRemove: r.place === 'placed' || r.place === 'waitlist',
      // Decision 052: a removed team cannot register again until the organiser allows it.
      rejoin: r.rejoin ?? null,
      // Older registrations may share a UTR (decision 029): the organiser must see which.
      sameReferenceAs: r.sameReferenceAs.map((o) => ({ ...o, here: o.tid === t.id })),
    })),
  };
}

const ridOf = (value: FormDataEntryValue) => (typeof value === 'string' && /^\d{1,9}$/.test(value.trim()) ? Number(value) : Number.NaN);

export async function action({ request, params }: ActionFunctionArgs) {
  await requireAdmin(request);
  const tid = requireTournamentId(params.tournamentId);
  const back = `/admin/${tid}/registrations${listQuery(paymentFilterOf(request), compactOf(request))}`;
  const formData = await request.formData();
  const placeIntent = String(formData.get('intent'));
  if (placeIntent === INTENT.release || placeIntent === INTENT.remove || placeIntent === INTENT.allowReturn)
    return changePlace(request, formData, placeIntent, back);
  const intent = STATUS_OF[String(formData.get('intent'))];
  if (!intent) return formFailure({ formError: 'Choose Verify or Reject.' });
  const rids = formData.getAll('rid').map(ridOf);
  const words = paymentWords(intent.status).label.toLowerCase();
  // The reference the admin was shown next to each team (hidden fields): the gateway refuses if it changed since.
  const seen = (rid: number) => {
    const value = formData.get(intent.bulk ? expectedReferenceName(rid) : EXPECTED_REFERENCE_FIELD);
    return typeof value === 'string' ? value : undefined;
  };

  try {
    if (!intent.bulk) {
      const rid = rids[0];
      if (rids.length !== 1 || rid === undefined || Number.isNaN(rid)) return formFailure({ formError: 'Choose one team.' });
      const saved = await gateway.setPaymentStatus(request, rid, intent.status, seen(rid));
      return flash(request, `Payment of ${saved.teamName} marked ${words}.`, back);
    }
    const expectedUpiReferences: Record<string, string> = {};
    for (const rid of rids) {
      const value = Number.isNaN(rid) ? undefined : seen(rid);
      if (value !== undefined) expectedUpiReferences[String(rid)] = value;
    }
    const body = PaymentStatusBulkUpdateSchema.safeParse({ tournamentId: tid, rids, paymentStatus: intent.status, expectedUpiReferences });
    if (!body.success) {
      const message = body.error.issues[0]?.message ?? UPDATE_FAILED;
      return formFailure({ fieldErrors: { rid: message } });
    }
    const saved = await gateway.setPaymentStatuses(request, body.data);
    const names = saved.map((r) => r.teamName).join(', ');
    // Short when many: "90 payments verified." (issue 27); a few are named, as before.
    const message =
      saved.length > NAMES_IN_MESSAGE
        ? `${saved.length} payments ${words}.`
        : `${saved.length === 1 ? 'Payment' : `${saved.length} payments`} marked ${words}: ${names}.`;
    return flash(request, message, back);
  } catch (err) {
    if (!(err instanceof GatewayError)) throw err;
    // Per-team refusals (expectedUpiReferences.{rid}, or the one team's) go on that team's card.
    const single = intent.bulk ? null : rids[0];
    const rename: Record<string, string> = { rids: 'rid', ...(single ? { expectedUpiReference: `team.${single}` } : {}) };
    for (const key of Object.keys(err.fieldErrors)) {
      const m = /^expectedUpiReferences\.(\d+)$/.exec(key);
      if (m) rename[key] = `team.${m[1]}`;
    }
    const fields = ['rid', ...Object.values(rename).filter((f) => f.startsWith('team.'))];
    const failure = gatewayFormErrors(err, { fields, fallback: UPDATE_FAILED, rename });
    // The gateway's message names the teams and says nothing changed: keep it above the cards (once).
    let formError: string | null = failure.formError ?? (err.status === 409 ? err.message : null) ?? UPDATE_FAILED;
    if (Object.values(failure.fieldErrors).includes(formError)) formError = null;
    return formFailure({ fieldErrors: failure.fieldErrors, formError }, failure.status);
  }
}

/** Release or remove one team (decision 043), or let a removed one back (decision 052); a refusal goes on that team's card. */
async function changePlace(request: Request, formData: FormData, intent: 'release' | 'remove' | 'allow-return', back: string) {
  const rids = formData.getAll('rid').map(ridOf);
  const rid = rids[0];
  if (rids.length !== 1 || rid === undefined || Number.isNaN(rid)) return formFailure({ formError: 'Choose one team.' });
  if (intent === INTENT.remove && formData.get(CONFIRM_REMOVE) !== 'yes') {
    return formFailure({ fieldErrors: { [`team.${rid}`]: 'Tick “Yes, remove this team” to remove it.' } });
  }
  try {
    if (intent === INTENT.allowReturn) {
      const allowed = await gateway.allowReturn(request, rid);
      return flash(request, `${allowed.teamName} may register again.`, back);
    }
    const saved = intent === INTENT.release ? await gateway.releaseTeam(request, rid) : await gateway.removeTeam(request, rid);
    const done = intent === INTENT.release ? 'released' : 'removed: it cannot register again unless you allow it';
    return flash(request, `${saved.teamName} ${done}.`, back);
  } catch (err) {
    if (!(err instanceof GatewayError)) throw err;
    const failure = gatewayFormErrors(err, { fields: [], fallback: UPDATE_FAILED });
    return formFailure({ fieldErrors: { [`team.${rid}`]: failure.formError ?? UPDATE_FAILED } }, failure.status);
  }
}

export default function AdminRegistrations() {
  const page = useLoaderData<typeof loader>();
  const actionData = useActionData<FormFailure>();
  const action = `/admin/${page.t.id}/registrations${page.query}`;
  const shown = page.filter ? page.counts[page.filter] : page.total;
  const teamErrors = actionData?.fieldErrors ?? {};
  const order = ['rid', ...page.teams.map((team) => `team.${team.rid}`)];
  const ids = Object.fromEntries([['rid', 'bulk-actions'], ...page.teams.map((team) => [`team.${team.rid}`, `team-${team.rid}-card`])]);

  return (
    <section className="ops-page" aria-labelledby="ops-title">
      <p className="crumb">
        <Link to="/admin/tournament-list">Tournament list</Link>
      </p>
      <h1 id="ops-title">Registrations</h1>
      <p className="ops-subtitle">
        {page.t.name}: {page.places.placed}/{page.t.maxTeams} places taken
        {page.places.waitlist ? ` · ${page.places.waitlist} on the waitlist` : ''}
        {page.places.gone ? ` · ${page.places.gone} released or withdrawn` : ''}
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

      <p className="ops-list-tools">
        <a className="button button-secondary" href={`/admin/${page.t.id}/registrations.csv${page.csvQuery}`} download>
          Download CSV
        </a>
        <Link to={page.links.rows} className="button button-secondary">
          {page.compact ? 'Full cards' : 'Compact rows'}
        </Link>
      </p>

      <ErrorSummary fieldErrors={actionData?.fieldErrors} formError={actionData?.formError} order={order} ids={ids} />

      {page.teams.length === 0 ? (
        <p className="nothing">
          {page.filter ? `No teams with payment ${paymentWords(page.filter).label.toLowerCase()}.` : 'No teams have registered yet.'}
        </p>
      ) : (
        <>
          <Form method="post" action={action} id={BULK_FORM_ID} className="ops-bulk">
            <fieldset id="bulk-actions" tabIndex={-1}>
              <legend>Ticked teams ({shown} shown)</legend>
              {page.selectable > 0 ? (
                <p className="ops-select">
                  {page.selectAll ? (
                    <>
                      <span role="status">
                        {page.selectable} {page.selectable === 1 ? 'team' : 'teams'} ticked.
                      </span>{' '}
                      <Link to={page.links.clear}>Clear the ticks</Link>
                    </>
                  ) : (
                    <Link to={page.links.selectAll}>Select all shown ({page.selectable})</Link>
                  )}
                </p>
              ) : null}
              <div className="ops-bulk-buttons">
                <SubmitButton name="intent" value={INTENT.verifySelected} className="button" formPath={`/admin/${page.t.id}/registrations`}>
                  Verify ticked
                </SubmitButton>
                <SubmitButton
                  name="intent"
                  value={INTENT.rejectSelected}
                  className="button button-secondary"
                  formPath={`/admin/${page.t.id}/registrations`}
                >
                  Reject ticked
                </SubmitButton>
              </div>
            </fieldset>
          </Form>
          {/* Keyed by the selection: the ticks are the browser's own state, so a new selection starts them afresh. */}
          <ul className={`ops-cards ops-teams${page.compact ? ' ops-compact' : ''}`} key={page.selectAll ? 'all' : 'none'}>
            {page.teams.map((team) => (
              <TeamCard
                key={team.rid}
                team={team}
                action={action}
                expectedField={page.expectedField}
                error={teamErrors[`team.${team.rid}`]}
                requireIds={page.t.requireCharacterIds}
                compact={page.compact}
                ticked={page.selectAll && team.place === 'placed'}
              />
            ))}
          </ul>
        </>
      )}
    </section>
  );
}

type Team = ReturnType<typeof useLoaderData<typeof loader>>['teams'][number];

/** One team: its players and payment, its own Verify/Reject form, and the hidden fields with the reference shown here. */
function TeamCard({
  team,
  action,
  expectedField,
  error,
  requireIds,
  compact,
  ticked,
}: {
  team: Team;
  action: string;
  expectedField: string;
  error?: string;
  requireIds: boolean;
  compact: boolean;
  ticked: boolean;
}) {
  const errorId = `team-${team.rid}-error`;
  const flagId = `team-${team.rid}-shared`;
  const describedBy = [error ? errorId : null, team.sameReferenceAs.length ? flagId : null].filter(Boolean).join(' ') || undefined;
  return (
    <li className={`ops-card${error ? ' has-error' : ''}`} id={`team-${team.rid}-card`} tabIndex={-1}>
      <article aria-labelledby={`team-${team.rid}`}>
        <div className="ops-team-head">
          <input
            type="checkbox"
            name="rid"
            value={team.rid}
            form={BULK_FORM_ID}
            id={`tick-${team.rid}`}
            aria-describedby={describedBy}
            defaultChecked={ticked}
          />
          <input type="hidden" name={`${expectedField}.${team.rid}`} value={team.paymentReference} form={BULK_FORM_ID} />
          <label htmlFor={`tick-${team.rid}`} className="visually-hidden">
            Tick {team.teamName}
          </label>
          <h2 id={`team-${team.rid}`} className="ops-card-title">
            {team.teamName}
          </h2>
          <span className={`badge ${TONE[team.paymentStatus] ?? ''}`}>{team.paymentLabel}</span>
        </div>
        <p className="ops-place">
          <span className="visually-hidden">State: </span>
          <PlaceBadge view={team.state} />
        </p>
        <dl className="ops-facts">
          {compact ? null : (
            <>
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
              {team.rejoin === 'barred' ? (
                <div className="ops-flag">
                  <dt>Removed</dt>
                  <dd>Cannot register again in this tournament (its account, name, players and character IDs) unless you allow it.</dd>
                </div>
              ) : team.rejoin === 'allowed' ? (
                <div>
                  <dt>Removed</dt>
                  <dd>You allowed it to register again.</dd>
                </div>
              ) : null}
              {/* Decision 052: a team that left keeps its IDs on record; a missing one matters only while it plays. */}
              {requireIds && team.missingIds > 0 && (team.place === 'placed' || team.place === 'waitlist') ? (
                <div className="ops-flag">
                  <dt>
                    <span aria-hidden="true">⚠ </span>Character IDs
                  </dt>
                  <dd>
                    {team.missingIds === 1 ? '1 player has' : `${team.missingIds} players have`} no character ID yet (registered before you
                    required them, or not edited since).
                  </dd>
                </div>
              ) : null}
              <div>
                <dt>Captain</dt>
                <dd className="ops-contact">
                  {team.captain.phone ? (
                    <a href={`tel:${team.captain.phone}`} className="mono">
                      {team.captain.phone}
                    </a>
                  ) : null}
                  {team.captain.email ? <a href={`mailto:${team.captain.email}`}>{team.captain.email}</a> : null}
                  {team.captain.whatsApp ? (
                    <a href={team.captain.whatsApp} rel="noopener noreferrer" className="ops-whatsapp">
                      WhatsApp<span className="visually-hidden"> the captain of {team.teamName}</span>
                    </a>
                  ) : null}
                  {!team.captain.phone && !team.captain.email ? '—' : null}
                </dd>
              </div>
            </>
          )}
          <div>
            <dt>UPI reference</dt>
            <dd className="mono">{team.paymentReference || '—'}</dd>
          </div>
          {team.sameReferenceAs.length ? (
            <div className="ops-flag" id={flagId}>
              <dt>
                <span aria-hidden="true">⚠ </span>Same UTR as
              </dt>
              <dd>
                {team.sameReferenceAs
                  .map((o) => (o.here ? `${o.teamName} (team ${o.rid})` : `${o.teamName} (team ${o.rid}, tournament ${o.tid})`))
                  .join(', ')}
                . One payment cannot pay for two teams: check both before verifying.
              </dd>
            </div>
          ) : null}
          {compact ? null : (
            <>
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
            </>
          )}
        </dl>
        {error ? (
          <p className="field-error" id={errorId}>
            <span aria-hidden="true">⚠ </span>
            {error}
          </p>
        ) : null}
        <Form method="post" action={action} className="ops-row-actions">
          <input type="hidden" name="rid" value={team.rid} />
          <input type="hidden" name={expectedField} value={team.paymentReference} />
          {team.place === 'placed' && team.paymentStatus !== 'verified' ? (
            <button type="submit" name="intent" value={INTENT.verifyOne} className="button" aria-describedby={describedBy}>
              Verify<span className="visually-hidden"> payment of {team.teamName}</span>
            </button>
          ) : null}
          {team.place === 'placed' && team.paymentStatus !== 'rejected' ? (
            <button type="submit" name="intent" value={INTENT.rejectOne} className="button button-secondary" aria-describedby={describedBy}>
              Reject<span className="visually-hidden"> payment of {team.teamName}</span>
            </button>
          ) : null}
          {/* Compact rows keep to the payment; releasing and removing are on the full cards. */}
          {team.mayRelease && !compact ? (
            <button type="submit" name="intent" value={INTENT.release} className="button button-secondary" aria-describedby={describedBy}>
              Release place<span className="visually-hidden"> of {team.teamName}</span>
            </button>
          ) : null}
        </Form>
        {team.mayRemove && !compact ? (
          <details className="ops-remove">
            <summary>Remove team…</summary>
            <Form method="post" action={action}>
              <input type="hidden" name="rid" value={team.rid} />
              <p>
                {team.teamName} loses its place, paid or not; a refund is yours to settle. Before the groups are published the first team on
                the waitlist gets the place; after, its slot is left empty for you to fill on the stage page. The team cannot register again
                unless you allow it.
              </p>
              <p className="place-confirm">
                <input type="checkbox" id={`remove-${team.rid}`} name={CONFIRM_REMOVE} value="yes" aria-describedby={describedBy} />
                <label htmlFor={`remove-${team.rid}`}>Yes, remove {team.teamName}</label>
              </p>
              <button type="submit" name="intent" value={INTENT.remove} className="button button-danger">
                Remove<span className="visually-hidden"> {team.teamName}</span>
              </button>
            </Form>
          </details>
        ) : null}
        {team.rejoin === 'barred' ? (
          <Form method="post" action={action} className="ops-row-actions">
            <input type="hidden" name="rid" value={team.rid} />
            <button type="submit" name="intent" value={INTENT.allowReturn} className="button button-secondary">
              Allow to register again<span className="visually-hidden">: {team.teamName}</span>
            </button>
          </Form>
        ) : null}
      </article>
    </li>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
