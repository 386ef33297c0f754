import { Form } from '@remix-run/react';
import { PlaceBadge } from '~/components/place-badge';
import { BULK_FORM_ID, CONFIRM_REMOVE, INTENT } from './forms';
import type { RegistrationsPage } from './registrations-page.server';

type Team = RegistrationsPage['teams'][number];

/** Badge colours of screens.css per payment status. */
const TONE: Record<string, string> = { pending: 'b-done', submitted: 'b-soon', verified: 'b-open', rejected: 'b-off' };

/** One team: its players and payment, its own Verify/Reject form, and the hidden fields with the reference shown here. */
export function TeamCard({
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
          {compact ? null : <TeamFacts team={team} requireIds={requireIds} />}
          <PaymentFacts team={team} flagId={flagId} />
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
        <TeamActions team={team} action={action} expectedField={expectedField} compact={compact} describedBy={describedBy} />
      </article>
    </li>
  );
}

/** The full card's players, removal state, missing character IDs and captain. */
function TeamFacts({ team, requireIds }: { team: Team; requireIds: boolean }) {
  return (
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
            {team.missingIds === 1 ? '1 player has' : `${team.missingIds} players have`} no character ID yet (registered before you required
            them, or not edited since).
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
  );
}

/** The UTR, and the other teams that sent the same one (decision 029). */
function PaymentFacts({ team, flagId }: { team: Team; flagId: string }) {
  return (
    <>
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
    </>
  );
}

/** Verify, Reject and Release; removing (behind a tick) and allowing a removed team back. */
function TeamActions({
  team,
  action,
  expectedField,
  compact,
  describedBy,
}: {
  team: Team;
  action: string;
  expectedField: string;
  compact: boolean;
  describedBy: string | undefined;
}) {
  return (
    <>
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
      {team.mayRemove && !compact ? <RemoveTeam team={team} action={action} describedBy={describedBy} /> : null}
      {team.rejoin === 'barred' ? (
        <Form method="post" action={action} className="ops-row-actions">
          <input type="hidden" name="rid" value={team.rid} />
          <button type="submit" name="intent" value={INTENT.allowReturn} className="button button-secondary">
            Allow to register again<span className="visually-hidden">: {team.teamName}</span>
          </button>
        </Form>
      ) : null}
    </>
  );
}

function RemoveTeam({ team, action, describedBy }: { team: Team; action: string; describedBy: string | undefined }) {
  return (
    <details className="ops-remove">
      <summary>Remove team…</summary>
      <Form method="post" action={action}>
        <input type="hidden" name="rid" value={team.rid} />
        <p>
          {team.teamName} loses its place, paid or not; a refund is yours to settle. Before the groups are published the first team on the
          waitlist gets the place; after, its slot is left empty for you to fill on the stage page. The team cannot register again unless
          you allow it.
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
  );
}
