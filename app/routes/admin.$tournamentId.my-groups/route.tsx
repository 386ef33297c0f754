import type { ActionFunctionArgs, HeadersFunction, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { Form, Link, useActionData, useLoaderData } from '@remix-run/react';
import { StageRoomsSchema } from '@custom-room/contract';
import { idFromText, ROOM_TEXT_MAX } from '@custom-room/contract/constants';
import { GeneralErrorBoundary } from '~/components/error-page';
import { ErrorSummary } from '~/components/ui/error-summary';
import { SubmitButton } from '~/components/ui/submit-button';
import { requireDesk } from '~/utils/desk.server';
import { formEntries, formFailure, zodFieldErrors, type FieldErrors, type FormFailure } from '~/utils/forms.server';
import { gateway, GatewayError } from '~/utils/gateway.server';
import { requireTournamentId } from '~/utils/route-params.server';
import { flash } from '~/utils/session.server';
import { parseRoomsForm, roomsErrors } from '~/utils/stage-admin.server';
import { roomInput } from '~/utils/stage-forms';
import { loadMyGroups, MATCH_KEY, type GroupCard } from './my-groups.server';
import '~/styles/screens.css';

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: `My groups${data ? `: ${data.t.name}` : ''} | Admin | Custom Room` },
  { name: 'robots', content: 'noindex' },
];

export const headers: HeadersFunction = () => ({ 'Cache-Control': 'private, no-store' });

const SAVE_FAILED = 'Failed to save the room.';

export async function loader({ request, params }: LoaderFunctionArgs) {
  const desk = await requireDesk(request);
  return loadMyGroups(request, requireTournamentId(params.tournamentId), desk.siteAdmin);
}

/** One group's room form: exactly one match's room ID and password, to setStageRooms; the gateway checks the group is the caller's. */
export async function action({ request, params }: ActionFunctionArgs) {
  await requireDesk(request);
  const tid = requireTournamentId(params.tournamentId);
  const formData = await request.formData();
  const entries = formEntries(formData);
  const { rooms, values } = parseRoomsForm(formData);
  const sid = idFromText(entries.stageId);
  const room = rooms[0];
  if (!sid || !room || rooms.length !== 1) return formFailure({ values, formError: SAVE_FAILED });
  const parsed = StageRoomsSchema.safeParse({ rooms });
  if (!parsed.success) return formFailure({ values, fieldErrors: roomFieldErrors(zodFieldErrors(parsed.error).fieldErrors, room.id) });
  let saved;
  try {
    saved = (await gateway.setStageRooms(request, tid, sid, parsed.data)).find((m) => m.id === room.id);
  } catch (err) {
    if (!(err instanceof GatewayError)) throw err;
    const status = err.unavailable ? 503 : err.status >= 400 && err.status < 500 ? err.status : 400;
    return formFailure({ values, ...roomsErrors(err, [room.id]) }, status);
  }
  const group = saved?.groupId ?? 0;
  const pinned = MATCH_KEY.test(entries.pinned ?? '') ? `?group=${group}&match=${entries.pinned}` : '';
  const what = saved ? `Group ${saved.groupName ?? ''}, day ${saved.day} match ${saved.matchNo}` : 'the match';
  return flash(request, `Room saved for ${what}`, `/admin/${tid}/my-groups${pinned}#group-${group}`);
}

/** The schema's "rooms.0.matchId|password" as the form's "room.{id}" / "pw.{id}". */
function roomFieldErrors(errors: FieldErrors, id: number): FieldErrors {
  const out: FieldErrors = {};
  for (const [key, message] of Object.entries(errors)) out[roomInput(key.endsWith('password') ? 'pw' : 'room', id)] ??= message;
  return out;
}

export default function MyGroups() {
  const { t, groups, lobby } = useLoaderData<typeof loader>();
  return (
    <section className="ops-page" aria-labelledby="my-groups-title">
      <p className="crumb">
        <Link to={`/admin/${t.id}`}>{t.name}</Link>
      </p>
      <h1 id="my-groups-title">{lobby ? 'My groups' : 'Groups'}</h1>
      {groups.length === 0 ? (
        <p className="nothing">
          {lobby ? 'None of your groups is in a stage that is still running.' : 'No groups in a running stage yet.'}
        </p>
      ) : (
        groups.map((g) => <GroupPanel key={g.id} group={g} />)
      )}
    </section>
  );
}

function GroupPanel({ group: g }: { group: GroupCard }) {
  return (
    <section className="ops-panel ops-group" id={`group-${g.id}`} aria-labelledby={`group-${g.id}-title`}>
      <h2 id={`group-${g.id}-title`}>
        Group {g.name} <span className="ops-group-stage">· {g.stageName}</span>
      </h2>
      {g.shown ? (
        <>
          <p className="ops-next">
            <strong>{g.shown.what}:</strong> {g.shown.label}
            {g.shown.detail ? ` · ${g.shown.detail}` : ''}
          </p>
          <RoomForm group={g} shown={g.shown} />
          <p className="ops-group-results">
            {g.results.map((r, i) => (
              <Link key={r.href} to={r.href} className={i === 0 ? 'button button-secondary' : undefined}>
                Enter results: {r.label}
              </Link>
            ))}
          </p>
          <p className="ops-group-results">
            {g.reports.map((r) => (
              <Link key={r.href} to={r.href}>
                Reports: {r.label}
              </Link>
            ))}
          </p>
          {g.matches.length > 1 ? (
            <nav aria-label={`Matches of group ${g.name}`} className="ops-chips">
              <ul>
                {g.matches.map((m) => (
                  <li key={m.key}>
                    <Link to={`?group=${g.id}&match=${m.key}#group-${g.id}`} aria-current={m.current ? 'true' : undefined}>
                      {m.label}
                    </Link>
                  </li>
                ))}
              </ul>
            </nav>
          ) : null}
        </>
      ) : (
        <p className="fine">{g.draft ? 'The stage is a draft: no matches yet.' : 'No matches scheduled yet.'}</p>
      )}
      {g.checkIn ? <CheckIn checkIn={g.checkIn} /> : null}
    </section>
  );
}

function RoomForm({ group: g, shown }: { group: GroupCard; shown: NonNullable<GroupCard['shown']> }) {
  const failure = useActionData<FormFailure>();
  const room = roomInput('room', shown.id);
  const pw = roomInput('pw', shown.id);
  const failed = !!failure && (room in failure.values || pw in failure.values);
  const errors = failed ? failure.fieldErrors : {};
  const value = (name: string, saved: string) => (failed ? (failure.values[name] ?? '') : saved);
  return (
    <>
      {failed ? <ErrorSummary fieldErrors={errors} formError={failure.formError} order={[room, pw]} /> : null}
      <Form
        method="post"
        noValidate
        className="ops-room"
        key={failed ? `failed-${JSON.stringify(failure)}` : `${shown.id}-${shown.room}-${shown.pw}`}
      >
        <input type="hidden" name="stageId" value={g.stageId} />
        {g.pinned ? <input type="hidden" name="pinned" value={g.pinned} /> : null}
        <RoomField name={room} label="Room ID" group={g.name} value={value(room, shown.room)} error={errors[room]} numeric />
        <RoomField name={pw} label="Password" group={g.name} value={value(pw, shown.pw)} error={errors[pw]} />
        <SubmitButton>{shown.room ? 'Update room' : 'Save room'}</SubmitButton>
      </Form>
    </>
  );
}

function RoomField(props: { name: string; label: string; group: string; value: string; error?: string; numeric?: boolean }) {
  const { name, label, group, value, error, numeric } = props;
  return (
    <div className={error ? 'field field-invalid' : 'field'}>
      <label htmlFor={name}>
        {label}
        <span className="visually-hidden">, group {group}</span>
      </label>
      <input
        id={name}
        name={name}
        type="text"
        defaultValue={value}
        // Room IDs are digits in BGMI and Free Fire: the number keypad.
        inputMode={numeric ? 'numeric' : undefined}
        maxLength={ROOM_TEXT_MAX}
        autoComplete="off"
        spellCheck={false}
        autoCapitalize="none"
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${name}-error` : undefined}
      />
      {error ? (
        <p className="field-error" id={`${name}-error`}>
          {error}
        </p>
      ) : null}
    </div>
  );
}

function CheckIn({ checkIn }: { checkIn: NonNullable<GroupCard['checkIn']> }) {
  if (!checkIn.known) return <p className="fine">Check-in: the list could not be read.</p>;
  return (
    <div className="ops-group-check-in">
      <h3>
        Check-in: {checkIn.checkedIn.length} of {checkIn.total}
      </h3>
      <p className="fine">
        {checkIn.closed ? 'Closed' : 'Window'}: {checkIn.window}.
      </p>
      {checkIn.checkedIn.length > 0 ? <p>Checked in: {checkIn.checkedIn.join(', ')}.</p> : null}
      {checkIn.closed ? (
        checkIn.noShows.length > 0 ? (
          <p className="ops-attention">No-shows: {checkIn.noShows.join(', ')}.</p>
        ) : (
          <p>No no-shows.</p>
        )
      ) : checkIn.waiting.length > 0 ? (
        <p className="ops-attention">Not checked in yet: {checkIn.waiting.join(', ')}.</p>
      ) : (
        <p>Every team has checked in.</p>
      )}
    </div>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
