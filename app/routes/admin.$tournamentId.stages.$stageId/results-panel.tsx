import { Form } from '@remix-run/react';
import { Panel } from './panel';
import type { StagePage } from './stage-page.server';

/** How many group-matches have results, and the picker that opens one group's results form (a GET). */
export function ResultsPanel({ page, base }: { page: StagePage; base: string }) {
  const { stage, slots, groups } = page;
  return (
    <Panel id="results" title="Results">
      {stage.resultsLine ? <p id="results-count">{stage.resultsLine}.</p> : null}
      <p className="fine">Enter each group’s results per match: choose the match and the group.</p>
      <Form method="get" action={`${base}/results`} className="ops-pick">
        <div>
          <label htmlFor="pick-day">Day</label>
          <select id="pick-day" name="day">
            {[...new Set(slots.map((s) => s.day))].map((d) => (
              <option key={d} value={d}>
                Day {d}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label htmlFor="pick-match">Match</label>
          <select id="pick-match" name="match">
            {[...new Set(slots.map((s) => s.matchNo))]
              .sort((x, y) => x - y)
              .map((n) => (
                <option key={n} value={n}>
                  Match {n}
                </option>
              ))}
          </select>
        </div>
        <div>
          <label htmlFor="pick-group">Group</label>
          <select id="pick-group" name="group">
            {groups.map((g) => (
              <option key={g.id} value={g.id}>
                Group {g.name}
              </option>
            ))}
          </select>
        </div>
        <button type="submit" className="button button-secondary">
          Enter results
        </button>
        {/* Issue 30 (decision 075): the same match's captains' reports; /admin/:id/reports sends the GET on to its lobby view. */}
        <button type="submit" formAction={`/admin/${page.t.id}/reports`} className="button button-secondary">
          Reports
        </button>
      </Form>
      <p>
        <a href={`${base}/results.csv`} download>
          Download the results (CSV)
        </a>
      </p>
    </Panel>
  );
}
