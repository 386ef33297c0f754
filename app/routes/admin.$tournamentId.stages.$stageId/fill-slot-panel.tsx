import { Form } from '@remix-run/react';
import { ErrorSummary } from '~/components/ui/error-summary';
import { Field } from '~/components/ui/field';
import { SubmitButton } from '~/components/ui/submit-button';
import { useIntentState } from './intent-state';
import { Panel } from './panel';
import type { StagePage } from './stage-page.server';

type Fill = NonNullable<StagePage['fill']>;

/**
 * Decision 052: after publishing, places no longer move by themselves. A team that leaves leaves its slot
 * empty; the organiser seats a waitlisted team, or a confirmed team without a slot, in it (one POST).
 */
export function FillSlotPanel({ fill }: { fill: Fill }) {
  return (
    <Panel id="fill-slot" title="Fill an empty slot">
      {fill.slots.length === 0 ? (
        <p className="fine">Every slot has a team.</p>
      ) : fill.teams.length === 0 ? (
        <p className="fine">
          {fill.slots.length === 1 ? 'One slot is empty' : `${fill.slots.length} slots are empty`}, and no team can take one: the waitlist
          is empty and every confirmed team has a slot.
        </p>
      ) : (
        <FillSlotForm fill={fill} />
      )}
    </Panel>
  );
}

function FillSlotForm({ fill }: { fill: Fill }) {
  const { errors, formError, values, key } = useIntentState('fill-slot');
  return (
    <>
      <ErrorSummary fieldErrors={errors} formError={formError} order={['seat', 'teamId']} ids={{ teamId: 'fill-team' }} />
      <Form method="post" className="form" noValidate key={key('fill-slot')}>
        <input type="hidden" name="intent" value="fill-slot" />
        <p className="fine">
          Registration closed when the first stage was published, so nobody moves up by themselves. The team you seat is told its group and
          slot.
        </p>
        <Field id="seat" label="Empty slot" error={errors.seat}>
          {(control) => (
            <select name="seat" defaultValue={values.seat ?? fill.slots[0]!.value} {...control}>
              {fill.slots.map((s) => (
                <option key={s.value} value={s.value}>
                  {s.label}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field id="fill-team" label="Team" error={errors.teamId}>
          {(control) => (
            <select name="teamId" defaultValue={values.teamId ?? fill.teams[0]!.value} {...control}>
              {fill.teams.map((t) => (
                <option key={t.value} value={t.value}>
                  {t.label}
                </option>
              ))}
            </select>
          )}
        </Field>
        <SubmitButton pendingLabel="Seating…">Seat the team</SubmitButton>
      </Form>
    </>
  );
}
