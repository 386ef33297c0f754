import { Form } from '@remix-run/react';
import { SubmitButton } from '~/components/ui/submit-button';
import { NO_SHOW_FIELD } from '~/utils/stage-forms';
import { useIntentState } from './intent-state';
import { IntentSummary, Panel } from './panel';
import type { StagePage } from './stage-page.server';

type CheckIn = NonNullable<StagePage['checkIn']>;

/** Decision 047: who has checked in, and once the window closes, what happens to the no-shows. */
export function CheckInPanel({ checkIn }: { checkIn: CheckIn }) {
  return (
    <Panel id="check-in" title={`Check-in: ${checkIn.checkedIn} of ${checkIn.total}`}>
      <p className="fine">
        {checkIn.closed ? 'Closed' : 'Window'}: {checkIn.window}.
      </p>
      {!checkIn.closed ? (
        checkIn.waiting.length > 0 ? (
          <p>Not checked in yet: {checkIn.waiting.join(', ')}.</p>
        ) : (
          <p>Every team has checked in.</p>
        )
      ) : checkIn.noShows.length === 0 && !checkIn.decided ? (
        <p>No no-shows: every team checked in.</p>
      ) : (
        <NoShows checkIn={checkIn} />
      )}
    </Panel>
  );
}

function NoShows({ checkIn }: { checkIn: CheckIn }) {
  return (
    <>
      {/* Replaced no-shows are released and leave the list: the decision below still says what happened. */}
      {checkIn.noShows.length > 0 ? (
        <>
          <h3>No-shows ({checkIn.noShows.length})</h3>
          <ul className="st-qualifiers">
            {checkIn.noShows.map((n) => (
              <li key={n.teamId}>{n.teamName}</li>
            ))}
          </ul>
        </>
      ) : null}
      {checkIn.decided ? (
        <p role="status">
          {checkIn.decided === 'replace'
            ? 'Replaced: the no-shows were released and waitlisted teams took their places.'
            : 'Left: their slots stay empty.'}
        </p>
      ) : (
        <NoShowsForm actions={checkIn.actions} />
      )}
    </>
  );
}

function NoShowsForm({ actions }: { actions: CheckIn['actions'] }) {
  const error = useIntentState('no-shows').errors[NO_SHOW_FIELD];
  return (
    <>
      <IntentSummary intent="no-shows" order={[NO_SHOW_FIELD]} />
      <Form method="post" noValidate>
        <input type="hidden" name="intent" value="no-shows" />
        <fieldset className="st-radios" id={NO_SHOW_FIELD} aria-describedby={error ? `${NO_SHOW_FIELD}-error` : undefined}>
          <legend>What to do with them</legend>
          {actions.includes('replace') ? (
            <label>
              <input type="radio" name={NO_SHOW_FIELD} value="replace" defaultChecked={actions.length === 1} /> Replace them from the
              waitlist (they lose their place)
            </label>
          ) : null}
          <label>
            {/* Issue 27: a form with one choice has it selected. */}
            <input type="radio" name={NO_SHOW_FIELD} value="leave" defaultChecked={actions.length === 1} /> Leave their slots empty
          </label>
          {error ? (
            <p className="field-error" id={`${NO_SHOW_FIELD}-error`}>
              {error}
            </p>
          ) : null}
        </fieldset>
        {actions.includes('replace') ? null : <p className="fine">Replacing is only for the first stage, before it is published.</p>}
        <SubmitButton className="button" pendingLabel="Saving…">
          Settle the no-shows
        </SubmitButton>
      </Form>
    </>
  );
}
