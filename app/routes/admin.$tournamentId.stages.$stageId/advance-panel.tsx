import { Form, Link } from '@remix-run/react';
import { SubmitButton } from '~/components/ui/submit-button';
import { CompleteForm } from './complete-form';
import { IntentSummary, Panel } from './panel';
import type { StagePage } from './stage-page.server';

type Advance = NonNullable<StagePage['advance']>;

/** Who advances and the cut lines; completing the stage, or reopening it once completed. */
export function AdvancePanel({ page, advance }: { page: StagePage; advance: Advance }) {
  const { t, stage } = page;
  return (
    <Panel id="advance" title="Who advances">
      {advance.onlyGroup ? (
        <p className="fine">
          {advance.total} teams advance. Listed: group {advance.onlyGroup} and the best of the rest; choose another group under Groups.
        </p>
      ) : null}
      {advance.qualifiers.length === 0 ? (
        <p className="fine">{stage.advancePerGroup + stage.advanceBest === 0 ? 'A final: nobody advances.' : 'Nobody yet.'}</p>
      ) : (
        <ol className="st-qualifiers">
          {advance.qualifiers.map((q) => (
            <li key={q.teamId}>{q.line}</li>
          ))}
        </ol>
      )}
      {advance.cuts.length > 0 ? (
        <>
          <h3>Cut lines</h3>
          <ul className="st-cuts">
            {advance.cuts.map((c) => (
              <li key={c.scope}>
                <strong>{c.scope}</strong>: {c.line}
              </li>
            ))}
          </ul>
        </>
      ) : null}
      {stage.state === 'completed' ? (
        <>
          {advance.nextStage ? (
            <p>
              Next: <Link to={`/admin/${t.id}/stages/${advance.nextStage.id}`}>{advance.nextStage.name}</Link>
            </p>
          ) : null}
          <IntentSummary intent="reopen" />
          <Form method="post">
            <input type="hidden" name="intent" value="reopen" />
            <SubmitButton pendingLabel="Reopening…">Reopen stage</SubmitButton>
          </Form>
        </>
      ) : (
        <CompleteForm stage={stage} missing={advance.missing} />
      )}
    </Panel>
  );
}
