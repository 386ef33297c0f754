import { Form } from '@remix-run/react';
import { SubmitButton } from '~/components/ui/submit-button';
import { NOT_PLAYED_FIELD } from '~/utils/stage-forms';
import { useIntentState } from './intent-state';
import { IntentSummary } from './panel';
import type { StagePage } from './stage-page.server';

/** Issue 27: completing a stage, with the matches without results ticked as not played. */
export function CompleteForm({ stage, missing }: { stage: StagePage['stage']; missing: NonNullable<StagePage['advance']>['missing'] }) {
  const { errors, values, key } = useIntentState('complete');
  const error = errors[NOT_PLAYED_FIELD];
  const ticked = (values[NOT_PLAYED_FIELD] ?? '').split(',');
  return (
    <>
      <IntentSummary intent="complete" order={['confirm', NOT_PLAYED_FIELD]} />
      <Form method="post" noValidate key={key('complete')}>
        <input type="hidden" name="intent" value="complete" />
        {stage.resultsLine ? <p id="complete-results-count">{stage.resultsLine}.</p> : null}
        {missing.length > 0 ? (
          <fieldset className="st-radios" id={NOT_PLAYED_FIELD} aria-describedby={error ? `${NOT_PLAYED_FIELD}-error` : undefined}>
            <legend>Matches without results: tick those that were not played</legend>
            {missing.map((m) => (
              <label key={m.id}>
                <input type="checkbox" name={NOT_PLAYED_FIELD} value={m.id} defaultChecked={m.notPlayed || ticked.includes(String(m.id))} />{' '}
                {m.label}: not played
              </label>
            ))}
            {error ? (
              <p className="field-error" id={`${NOT_PLAYED_FIELD}-error`}>
                {error}
              </p>
            ) : null}
          </fieldset>
        ) : null}
        <p className="st-confirm">
          <input type="checkbox" id="complete-confirm" name="confirm" value="yes" />
          <label htmlFor="complete-confirm">Complete {stage.name}: every match has results or is marked not played</label>
        </p>
        <SubmitButton pendingLabel="Completing…">Complete stage</SubmitButton>
      </Form>
    </>
  );
}
