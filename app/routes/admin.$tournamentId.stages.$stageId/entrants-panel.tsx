import { Form } from '@remix-run/react';
import { Field } from '~/components/ui/field';
import { SubmitButton } from '~/components/ui/submit-button';
import { useIntentState } from './intent-state';
import { IntentSummary, Panel } from './panel';
import type { StagePage } from './stage-page.server';

/** Who plays the stage; a later stage's invited teams, and inviting a registered team. */
export function EntrantsPanel({ page }: { page: StagePage }) {
  const { stage, entrants } = page;
  return (
    <Panel id="entrants" title={`Entrants: ${entrants.count}`}>
      <p className="fine">
        {stage.later
          ? `${entrants.qualified} qualified from the previous stage, ${entrants.invited.length} invited.`
          : 'The confirmed teams (verified payment, or every team when the entry is free).'}
      </p>
      {stage.checkedIn !== null ? (
        <p id="entrants-checked-in">
          <strong>
            {stage.checkedIn} of {stage.entrants} checked in
          </strong>
          : only checked-in teams are drawn.
        </p>
      ) : null}
      {stage.later ? (
        <>
          <InvitedTeams invited={entrants.invited} />
          <IntentSummary intent="invite" order={['teamId']} />
          <UninviteSummary />
          <InviteForm invite={page.invite} checkIn={page.checkIn !== null} />
        </>
      ) : null}
    </Panel>
  );
}

function InvitedTeams({ invited }: { invited: StagePage['entrants']['invited'] }) {
  if (invited.length === 0) return null;
  return (
    <ul className="st-qualifiers">
      {invited.map((e) => (
        <li key={e.teamId}>
          {e.teamName}{' '}
          <Form method="post" className="st-inline">
            <input type="hidden" name="intent" value="uninvite" />
            <input type="hidden" name="teamId" value={e.teamId} />
            <button type="submit" className="button button-secondary">
              Withdraw<span className="visually-hidden"> the invite of {e.teamName}</span>
            </button>
          </Form>
        </li>
      ))}
    </ul>
  );
}

function UninviteSummary() {
  return useIntentState('uninvite').failed ? <IntentSummary intent="uninvite" /> : null;
}

/** Few teams: a select of them all; many: a search by name first (GET, works without JavaScript). */
function InviteForm({ invite, checkIn }: { invite: StagePage['invite']; checkIn: boolean }) {
  const state = useIntentState('invite');
  return (
    <>
      {invite.search ? (
        <Form method="get" className="ops-pick" action="#entrants">
          <div>
            <label htmlFor="team-search">Find a team to invite</label>
            <input id="team-search" name="team" type="search" defaultValue={invite.query} autoComplete="off" />
          </div>
          <button type="submit" className="button button-secondary">
            Find
          </button>
        </Form>
      ) : null}
      {invite.search && invite.query && invite.teams.length === 0 ? (
        <p className="fine" role="status">
          No registered team outside this stage has “{invite.query}” in its name.
        </p>
      ) : null}
      {invite.more ? <p className="fine">More teams match: the first {invite.teams.length} are listed.</p> : null}
      {!invite.search || invite.teams.length > 0 ? (
        <Form method="post" className="form" noValidate key={state.key('invite')}>
          <input type="hidden" name="intent" value="invite" />
          <Field id="teamId" label="Invite a registered team" error={state.errors.teamId}>
            {(control) => (
              <select name="teamId" defaultValue={state.values.teamId ?? ''} {...control}>
                <option value="">Choose a team</option>
                {invite.teams.map((r) => (
                  <option key={r.rid} value={r.rid}>
                    {r.teamName}
                  </option>
                ))}
              </select>
            )}
          </Field>
          {checkIn ? (
            <p className="st-confirm">
              <input type="checkbox" id="invite-check-in" name="checkIn" value="yes" />
              <label htmlFor="invite-check-in">Ask the team to check in (left unticked, it counts as checked in)</label>
            </p>
          ) : null}
          <p className="fine">The team is told it is invited.</p>
          <SubmitButton pendingLabel="Inviting…">Invite team</SubmitButton>
        </Form>
      ) : null}
    </>
  );
}
