import { Form, Link } from '@remix-run/react';
import { Field } from '~/components/ui/field';
import { SubmitButton } from '~/components/ui/submit-button';
import { TextField } from '~/components/ui/text-field';
import { useIntentState } from './intent-state';
import { IntentSummary, Panel } from './panel';
import type { StagePage } from './stage-page.server';

/** The drawn groups: one group's slots at a time, the slot list, moving a team, and publishing the draw. */
export function GroupsPanel({ page, base }: { page: StagePage; base: string }) {
  const { stage, groups, shownGroup } = page;
  return (
    <Panel id="groups" title={`Groups: ${groups.length}`}>
      <nav aria-label="Groups">
        <ul className="st-groups">
          {groups.map((g) => (
            <li key={g.id}>
              <Link to={`?group=${g.id}#groups`} aria-current={g.id === shownGroup?.id ? 'true' : undefined}>
                {g.name}
                <span className="visually-hidden"> (group, {g.count} teams)</span>
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      {shownGroup ? <SlotsTable group={shownGroup} empty={page.shownEmpty} /> : null}
      <p>
        <a href={`${base}/slots.csv`} download>
          Download the slot list (CSV)
        </a>
      </p>

      {!stage.hasResults ? <MoveForm page={page} /> : null}

      {stage.state === 'draft' ? (
        <>
          <IntentSummary intent="publish" />
          <Form method="post">
            <input type="hidden" name="intent" value="publish" />
            <p className="fine">Publishing shows the groups and slots to the teams and fixes the draw.</p>
            <SubmitButton pendingLabel="Publishing…">Publish stage</SubmitButton>
          </Form>
        </>
      ) : null}
    </Panel>
  );
}

/** The group's slots in order, its empty ones (decision 052) among them. */
function SlotsTable({ group, empty }: { group: NonNullable<StagePage['shownGroup']>; empty: number[] }) {
  return (
    <table className="st-slots">
      <caption>
        Group {group.name}: {group.slots.length} teams
      </caption>
      <thead>
        <tr>
          <th scope="col" className="num">
            Slot
          </th>
          <th scope="col">Team</th>
        </tr>
      </thead>
      <tbody>
        {[...group.slots, ...empty.map((slot) => ({ slot, teamName: null }))]
          .sort((a, b) => a.slot - b.slot)
          .map((s) => (
            <tr key={s.slot}>
              <td className="num">{s.slot}</td>
              <td>{s.teamName ?? <span className="fine">Empty</span>}</td>
            </tr>
          ))}
      </tbody>
    </table>
  );
}

function MoveForm({ page }: { page: StagePage }) {
  const { groups, shownGroup } = page;
  const { failed, errors, values, key } = useIntentState('move');
  const groupSelect = (name: string, label: string) => (
    <Field id={name} label={label} error={errors[name]}>
      {(control) => (
        <select name={name} defaultValue={values[name] ?? String(shownGroup?.id ?? '')} {...control}>
          {groups.map((g) => (
            <option key={g.id} value={g.id}>
              Group {g.name}
            </option>
          ))}
        </select>
      )}
    </Field>
  );
  return (
    <details className="st-details" open={failed}>
      <summary>Swap or move a team</summary>
      <IntentSummary intent="move" order={['fromGroup', 'fromSlot', 'toGroup', 'toSlot']} />
      <Form method="post" className="form" noValidate key={key('move')}>
        <input type="hidden" name="intent" value="move" />
        <input type="hidden" name="group" value={shownGroup?.id ?? ''} />
        <div className="ops-pair">
          {groupSelect('fromGroup', 'From group')}
          <TextField name="fromSlot" label="From slot" error={errors.fromSlot} defaultValue={values.fromSlot ?? ''} inputMode="numeric" />
        </div>
        <div className="ops-pair">
          {groupSelect('toGroup', 'To group')}
          <TextField name="toSlot" label="To slot" error={errors.toSlot} defaultValue={values.toSlot ?? ''} inputMode="numeric" />
        </div>
        <p className="fine">A slot that holds a team swaps with it; a free slot takes the team.</p>
        <SubmitButton pendingLabel="Moving…">Swap or move</SubmitButton>
      </Form>
    </details>
  );
}
