import { Form } from '@remix-run/react';
import { CheckInWindowFields } from '~/components/check-in-window';
import { SubmitButton } from '~/components/ui/submit-button';
import { TextField } from '~/components/ui/text-field';
import { CHECK_IN_FIELDS, STAGE_FIELDS } from '~/utils/stage-forms';
import { useIntentState } from './intent-state';
import { IntentSummary, Panel } from './panel';
import type { StagePage } from './stage-page.server';

/** The stage's settings and check-in window, and deleting the stage (behind a tick). */
export function SettingsPanel({ page }: { page: StagePage }) {
  const { stage } = page;
  const settings = useIntentState('settings');
  const sv = (f: (typeof STAGE_FIELDS)[number]) => settings.values[f] ?? String(stage[f]);
  const se = settings.errors;
  return (
    <Panel id="settings" title="Settings">
      <IntentSummary intent="settings" order={[...STAGE_FIELDS, ...CHECK_IN_FIELDS]} />
      <Form method="post" className="form" noValidate key={settings.key(`settings-${JSON.stringify(stage)}`)}>
        <input type="hidden" name="intent" value="settings" />
        <TextField name="name" label="Name" error={se.name} defaultValue={sv('name')} maxLength={40} required />
        <div className="ops-pair">
          <TextField name="lobbySize" label="Lobby size" error={se.lobbySize} defaultValue={sv('lobbySize')} inputMode="numeric" />
          <TextField name="firstSlot" label="First slot" error={se.firstSlot} defaultValue={sv('firstSlot')} inputMode="numeric" />
        </div>
        <div className="ops-pair">
          <TextField
            name="advancePerGroup"
            label="Advance per group"
            error={se.advancePerGroup}
            defaultValue={sv('advancePerGroup')}
            inputMode="numeric"
          />
          <TextField
            name="advanceBest"
            label="Best of the rest"
            error={se.advanceBest}
            defaultValue={sv('advanceBest')}
            inputMode="numeric"
          />
        </div>
        <CheckInWindowFields
          values={{
            checkInOpensAt: settings.values.checkInOpensAt ?? stage.checkInOpensAt,
            checkInClosesAt: settings.values.checkInClosesAt ?? stage.checkInClosesAt,
          }}
          errors={se}
          timeZone={page.timeZone}
        />
        <p className="fine">Changing the lobby size or first slot clears the groups (the stage goes back to draft).</p>
        <SubmitButton pendingLabel="Saving…">Save settings</SubmitButton>
      </Form>
      <DeleteStage name={stage.name} />
    </Panel>
  );
}

function DeleteStage({ name }: { name: string }) {
  const { failed, errors } = useIntentState('delete');
  return (
    <details className="st-details" open={failed}>
      <summary>Delete this stage</summary>
      <IntentSummary intent="delete" order={['confirm']} />
      <Form method="post" noValidate>
        <input type="hidden" name="intent" value="delete" />
        <p className="st-confirm">
          <input
            type="checkbox"
            id="delete-confirm"
            name="confirm"
            value="yes"
            aria-describedby={errors.confirm ? 'confirm-error' : undefined}
          />
          <label htmlFor="delete-confirm">Yes, delete {name} with its groups and matches</label>
        </p>
        <button type="submit" className="button button-danger">
          Delete stage
        </button>
      </Form>
    </details>
  );
}
