import { Form } from '@remix-run/react';
import { DRAW_METHOD_LABELS, DRAW_METHODS, SEED_MAX } from '@custom-room/contract/constants';
import { SubmitButton } from '~/components/ui/submit-button';
import { TextField } from '~/components/ui/text-field';
import { useIntentState } from './intent-state';
import { IntentSummary, Panel } from './panel';
import type { StagePage } from './stage-page.server';

/** How the groups were drawn; while the stage is a draft, drawing them (again). */
export function DrawPanel({ page }: { page: StagePage }) {
  const { stage } = page;
  const draft = stage.state === 'draft';
  return (
    <Panel id="draw" title="Generate groups">
      {stage.draw ? (
        <p>
          Drawn by <strong>{DRAW_METHOD_LABELS[stage.draw.method]}</strong>
          {stage.draw.seed ? (
            <>
              {' '}
              · seed <span className="mono">{stage.draw.seed}</span>
            </>
          ) : null}
        </p>
      ) : (
        <p className="fine">No groups yet.</p>
      )}
      {draft && stage.checkedIn !== null ? (
        <p id="draw-checked-in">
          {stage.checkedIn} of {stage.entrants} checked in: only checked-in teams are drawn.
        </p>
      ) : null}
      {draft ? <DrawForm page={page} /> : <p className="fine">Published: the groups are fixed.</p>}
    </Panel>
  );
}

function DrawForm({ page }: { page: StagePage }) {
  const { stage } = page;
  const { errors, values, key } = useIntentState('draw');
  return (
    <>
      <IntentSummary intent="draw" order={['method', 'seed', 'confirmSplit']} />
      <Form method="post" className="form" noValidate key={key(`draw-${stage.draw?.drawnAt ?? ''}`)}>
        <input type="hidden" name="intent" value="draw" />
        <fieldset className="st-radios" aria-describedby={errors.method ? 'method-error' : undefined}>
          <legend>Method</legend>
          {DRAW_METHODS.filter((m) => m !== 'seeded' || stage.later).map((m) => (
            <label key={m}>
              <input type="radio" name="method" value={m} defaultChecked={(values.method ?? stage.draw?.method ?? 'random') === m} />
              {DRAW_METHOD_LABELS[m]}
            </label>
          ))}
          {errors.method ? (
            <p className="field-error" id="method-error">
              {errors.method}
            </p>
          ) : null}
        </fieldset>
        <TextField
          name="seed"
          label="Seed (random only, optional)"
          hint="Left empty, one is picked and shown here."
          error={errors.seed}
          defaultValue={values.seed ?? ''}
          maxLength={SEED_MAX}
          autoComplete="off"
          spellCheck={false}
        />
        {page.split || errors.confirmSplit ? (
          <SplitConfirm split={page.split} checked={values.confirmSplit === 'yes'} error={errors.confirmSplit} />
        ) : null}
        <SubmitButton pendingLabel="Drawing…">{page.groups.length ? 'Draw again' : 'Generate groups'}</SubmitButton>
      </Form>
    </>
  );
}

/** Issue 27: the warning above its box, the refusal under it: one column at 360 px, never a row of three. */
function SplitConfirm({ split, checked, error }: { split: string | null; checked: boolean; error: string | undefined }) {
  return (
    <div className="notice">
      {split ? <p id="split-warning">{split}</p> : null}
      <p className="st-confirm">
        <input
          type="checkbox"
          id="confirmSplit"
          name="confirmSplit"
          value="yes"
          defaultChecked={checked}
          aria-invalid={error ? true : undefined}
          aria-describedby={[split ? 'split-warning' : '', error ? 'confirmSplit-error' : ''].filter(Boolean).join(' ') || undefined}
        />
        <label htmlFor="confirmSplit">Yes, split them into smaller groups</label>
      </p>
      {error ? (
        <p className="field-error" id="confirmSplit-error">
          {error}
        </p>
      ) : null}
    </div>
  );
}
