import { Form, Link } from '@remix-run/react';
import { GROUP_GAP_MAX, MAP_MAX } from '@custom-room/contract/constants';
import { NumberedSelect } from '~/components/ui/numbered-select';
import { SubmitButton } from '~/components/ui/submit-button';
import { TextField } from '~/components/ui/text-field';
import type { FieldErrors, FormValues } from '~/utils/forms.server';
import { GROUP_GAP_FIELD, SCHEDULE_FIELDS, scheduleInput } from '~/utils/stage-forms';
import { useIntentState } from './intent-state';
import { IntentSummary, Panel } from './panel';
import type { StagePage } from './stage-page.server';

/** Rows of day, match, map and time: each becomes one match for every group (issue 27: minutes between groups). */
export function SchedulePanel({ page }: { page: StagePage }) {
  const { stage, slots } = page;
  const { errors, values, key } = useIntentState('schedule');
  const rows = Array.from({ length: page.scheduleRows }, (_, r) => r);
  return (
    <Panel id="schedule" title="Schedule the whole stage">
      <p className="fine">
        Each row becomes one match for every group. A row whose day and match exist updates its map and time. Rows without a map and time
        are ignored.
      </p>
      <IntentSummary intent="schedule" order={[GROUP_GAP_FIELD, ...rows.flatMap((r) => SCHEDULE_FIELDS.map((f) => scheduleInput(f, r)))]} />
      <Form method="post" noValidate key={key(`schedule-${slots.length}-${stage.groupGap}`)}>
        <input type="hidden" name="intent" value="schedule" />
        <TextField
          name={GROUP_GAP_FIELD}
          label="Minutes between groups"
          hint={`0: every group plays at the row's time. 90: Group A at 12:00, B at 13:30, C at 15:00 … (at most ${GROUP_GAP_MAX}).`}
          error={errors[GROUP_GAP_FIELD]}
          defaultValue={values[GROUP_GAP_FIELD] ?? String(stage.groupGap)}
          inputMode="numeric"
        />
        {rows.map((r) => (
          <ScheduleRow key={r} row={r} existing={slots[r]} limits={page.limits} errors={errors} values={values} />
        ))}
        <SubmitButton pendingLabel="Scheduling…">Schedule for every group</SubmitButton>
      </Form>
      {page.scheduleRows < 12 ? (
        <p className="fine">
          <Link to="?rows=all#schedule">Show 12 rows</Link>
        </p>
      ) : null}
    </Panel>
  );
}

/** One row of the schedule form, filled with the match it stands for (the row-th), if any. */
function ScheduleRow({
  row: r,
  existing,
  limits,
  errors,
  values,
}: {
  row: number;
  existing: StagePage['slots'][number] | undefined;
  limits: StagePage['limits'];
  errors: FieldErrors;
  values: FormValues;
}) {
  const v = (f: (typeof SCHEDULE_FIELDS)[number], fallback: string) => values[scheduleInput(f, r)] ?? fallback;
  return (
    <fieldset className="st-set">
      <legend>Row {r + 1}</legend>
      <div className="st-row">
        <NumberedSelect
          name={scheduleInput('day', r)}
          label="Day"
          word="Day"
          count={limits.days}
          defaultValue={v('day', String(existing?.day ?? 1))}
          error={errors[scheduleInput('day', r)]}
        />
        <NumberedSelect
          name={scheduleInput('matchNo', r)}
          label="Match"
          word="Match"
          count={limits.matches}
          defaultValue={v('matchNo', String(existing?.matchNo ?? Math.min(r + 1, limits.matches)))}
          error={errors[scheduleInput('matchNo', r)]}
        />
        <TextField
          id={scheduleInput('map', r)}
          name={scheduleInput('map', r)}
          label="Map"
          error={errors[scheduleInput('map', r)]}
          defaultValue={v('map', existing?.map ?? '')}
          maxLength={MAP_MAX}
          autoComplete="off"
        />
        <TextField
          id={scheduleInput('time', r)}
          name={scheduleInput('time', r)}
          type="time"
          label="Time"
          error={errors[scheduleInput('time', r)]}
          defaultValue={v('time', existing?.time ?? '')}
        />
      </div>
    </fieldset>
  );
}
