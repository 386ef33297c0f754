import { Form, Link } from '@remix-run/react';
import { ROOM_TEXT_MAX } from '@custom-room/contract/constants';
import { SubmitButton } from '~/components/ui/submit-button';
import { roomInput } from '~/utils/stage-forms';
import { useIntentState } from './intent-state';
import { IntentSummary, Panel } from './panel';
import type { StagePage } from './stage-page.server';

type RoomSlot = StagePage['rooms']['slots'][number];

/** Room ID and password per group and match: all in one form, or one match at a time when many. */
export function RoomsPanel({ page }: { page: StagePage }) {
  const { slots, rooms } = page;
  const { failed, key } = useIntentState('rooms');
  return (
    <Panel id="rooms" title="Rooms">
      {!rooms.inline ? (
        <nav aria-label="Rooms of one match">
          <ul className="st-chips">
            {slots.map((s) => (
              <li key={`${s.day}-${s.matchNo}`}>
                <Link
                  to={`?rooms=${s.day}-${s.matchNo}#rooms`}
                  aria-current={rooms.chosen === `${s.day}-${s.matchNo}` ? 'true' : undefined}
                >
                  D{s.day} M{s.matchNo}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
      ) : null}
      {rooms.slots.length > 0 ? (
        <>
          <IntentSummary intent="rooms" />
          <Form method="post" noValidate key={key(`rooms-${JSON.stringify(rooms.slots)}`)}>
            <input type="hidden" name="intent" value="rooms" />
            {rooms.inline ? null : <input type="hidden" name="rooms" value={rooms.chosen ?? ''} />}
            {rooms.slots.map((s) => (
              <details
                key={`${s.day}-${s.matchNo}`}
                className="st-details"
                open={rooms.slots.length === 1 || s.groups.some((g) => !g.room) || failed}
              >
                <summary>
                  Day {s.day} · Match {s.matchNo} · {s.map} {s.time}
                </summary>
                <RoomsTable slot={s} />
              </details>
            ))}
            <SubmitButton pendingLabel="Saving…">Save rooms</SubmitButton>
          </Form>
        </>
      ) : (
        <p className="fine">Choose a match to set its rooms.</p>
      )}
    </Panel>
  );
}

function RoomsTable({ slot: s }: { slot: RoomSlot }) {
  return (
    <table className="st-rooms">
      <thead>
        <tr>
          <th scope="col">Group</th>
          <th scope="col" id={`rc-room-${s.day}-${s.matchNo}`}>
            Room ID
          </th>
          <th scope="col" id={`rc-pw-${s.day}-${s.matchNo}`}>
            Password
          </th>
        </tr>
      </thead>
      <tbody>
        {s.groups.map((g) => (
          <tr key={g.id}>
            <th scope="row" id={`rg-${g.id}`}>
              <span className="visually-hidden">
                Day {s.day} match {s.matchNo} group{' '}
              </span>
              {g.groupName}
            </th>
            <RoomCell field="room" value={g.room} matchId={g.id} slot={s} />
            <RoomCell field="pw" value={g.pw} matchId={g.id} slot={s} />
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** One box of a group's row: labelled by its group and column, as the points form's cells are. */
function RoomCell({ field, value, matchId, slot }: { field: 'room' | 'pw'; value: string; matchId: number; slot: RoomSlot }) {
  const { errors, values } = useIntentState('rooms');
  const name = roomInput(field, matchId);
  const error = errors[name];
  return (
    <td>
      <input
        id={name}
        name={name}
        type="text"
        defaultValue={values[name] ?? value}
        // Room IDs are digits in BGMI and Free Fire: bring up the number keypad.
        inputMode={field === 'room' ? 'numeric' : undefined}
        maxLength={ROOM_TEXT_MAX}
        autoComplete="off"
        spellCheck={false}
        autoCapitalize="none"
        aria-labelledby={`rg-${matchId} rc-${field}-${slot.day}-${slot.matchNo}`}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${name}-error` : undefined}
      />
      {error ? (
        <p className="field-error" id={`${name}-error`}>
          {error}
        </p>
      ) : null}
    </td>
  );
}
