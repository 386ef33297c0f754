import {
  checkInWindowFault,
  DrawBodySchema,
  MatchBodySchema,
  SlotFillSchema,
  SlotMoveSchema,
  StageCreateSchema,
  StageScheduleSchema,
  StageUpdateSchema,
} from '@custom-room/contract';
import { ID_TEXT } from '@custom-room/contract/constants';
import { getEnv } from './env.server';
import { fromDateTimeLocal } from './format';
import { formEntries, zodFieldErrors, type FieldErrors, type FormValues, UNAVAILABLE_FORM_MESSAGE } from './forms.server';
import { GatewayError } from './gateway.server';
import {
  CHECK_IN_FIELDS,
  roomInput,
  SCHEDULE_FIELDS,
  SCHEDULE_ROWS,
  scheduleInput,
  STAGE_FIELDS,
  GROUP_GAP_FIELD,
  NOT_PLAYED_FIELD,
} from './stage-forms';

export { CHECK_IN_FIELDS, GROUP_GAP_FIELD, NOT_PLAYED_FIELD, roomInput, SCHEDULE_FIELDS, SCHEDULE_ROWS, scheduleInput, STAGE_FIELDS };

/**
 * The organiser's stage forms (issue 18, decision 041): every form posts an `intent`; these read the
 * form into the gateway's body, or into errors keyed by the form's own input names.
 */

type Parsed<T> =
  { ok: true; body: T; values: FormValues } | { ok: false; values: FormValues; fieldErrors: FieldErrors; formError: string | null };

/** A form value, or undefined when blank: the gateway then keeps (update) or defaults (create) it. */
const given = (entries: Record<string, string>, name: string) => {
  const v = (entries[name] ?? '').trim();
  return v === '' ? undefined : v;
};

function stageValues(entries: Record<string, string>): FormValues {
  return Object.fromEntries([...STAGE_FIELDS, ...CHECK_IN_FIELDS].filter((f) => f in entries).map((f) => [f, entries[f]!]));
}

const CHECK_IN_INVALID = 'Enter a date and time, for example 05/03/2026 18:00.';

/** The add-a-stage and settings forms: blank numbers are left out. */
export function parseStageForm(formData: FormData, mode: 'create' | 'update'): Parsed<Record<string, unknown>> {
  const entries = formEntries(formData);
  const values = stageValues(entries);
  const raw: Record<string, string | undefined> = {};
  for (const f of STAGE_FIELDS) raw[f] = given(entries, f);
  // The check-in window, entered in the app's time zone. Left blank: none on create; cleared on update
  // (the settings form shows the current window, so blanking it means "no window"). Not posted: kept.
  const windowErrors: FieldErrors = {};
  const window: Record<string, string | null> = {};
  for (const f of CHECK_IN_FIELDS) {
    if (!(f in entries)) continue;
    const v = given(entries, f);
    if (v === undefined) {
      if (mode === 'update') window[f] = null;
      continue;
    }
    const utc = fromDateTimeLocal(v.slice(0, 16), getEnv().APP_TIME_ZONE);
    if (utc) window[f] = utc;
    else windowErrors[f] = CHECK_IN_INVALID;
  }
  const schema = mode === 'create' ? StageCreateSchema : StageUpdateSchema;
  const result = schema.safeParse(raw);
  if (!result.success || Object.keys(windowErrors).length > 0) {
    const zod = result.success ? { fieldErrors: {}, formError: null } : zodFieldErrors(result.error);
    return { ok: false, values, fieldErrors: { ...zod.fieldErrors, ...windowErrors }, formError: zod.formError };
  }
  // Both ends given: their order (the gateway also asks for both ends or neither, knowing the stored ones).
  const fault = window.checkInOpensAt && window.checkInClosesAt ? checkInWindowFault(window.checkInOpensAt, window.checkInClosesAt) : null;
  if (fault) return { ok: false, values, fieldErrors: { [fault.field]: fault.message }, formError: null };
  return { ok: true, body: { ...result.data, ...window }, values };
}

export function parseDrawForm(
  formData: FormData,
): Parsed<{ method: 'registration' | 'random' | 'seeded'; seed?: string; confirmSplit?: boolean }> {
  const entries = formEntries(formData);
  const confirmSplit = entries.confirmSplit === 'yes';
  const values: FormValues = { method: entries.method ?? '', seed: entries.seed ?? '', ...(confirmSplit ? { confirmSplit: 'yes' } : {}) };
  const result = DrawBodySchema.safeParse({ method: given(entries, 'method'), seed: given(entries, 'seed') });
  if (!result.success) return { ok: false, values, ...zodFieldErrors(result.error) };
  const body = result.data.method === 'random' && result.data.seed ? result.data : { method: result.data.method };
  // Issue 27: the organiser ticked "draw anyway" for a split of a few teams past full lobbies.
  return { ok: true, body: confirmSplit ? { ...body, confirmSplit } : body, values };
}

/** Issue 27: the completion form's ticked "not played" boxes, as match ids. */
export function parseNotPlayed(formData: FormData): number[] {
  return [
    ...new Set(
      formData
        .getAll(NOT_PLAYED_FIELD)
        .map(String)
        .filter((v) => ID_TEXT.test(v))
        .map(Number),
    ),
  ];
}

/** from/to as group id and slot; errors keyed by the inputs (fromGroup, fromSlot, toGroup, toSlot). */
export function parseMoveForm(
  formData: FormData,
): Parsed<{ from: { groupId: number; slot: number }; to: { groupId: number; slot: number } }> {
  const entries = formEntries(formData);
  const values: FormValues = Object.fromEntries(['fromGroup', 'fromSlot', 'toGroup', 'toSlot'].map((k) => [k, entries[k] ?? '']));
  const result = SlotMoveSchema.safeParse({
    from: { groupId: given(entries, 'fromGroup'), slot: given(entries, 'fromSlot') },
    to: { groupId: given(entries, 'toGroup'), slot: given(entries, 'toSlot') },
  });
  if (!result.success) {
    const { fieldErrors, formError } = zodFieldErrors(result.error);
    return { ok: false, values, fieldErrors: renameMoveErrors(fieldErrors), formError };
  }
  return { ok: true, body: result.data, values };
}

/**
 * Decision 052: "fill an empty slot": one select names the slot ("groupId:slot"), one the team. Errors are
 * keyed by the two selects (seat, teamId).
 */
export function parseFillForm(formData: FormData): Parsed<{ groupId: number; slot: number; teamId: number }> {
  const entries = formEntries(formData);
  const values: FormValues = { seat: entries.seat ?? '', teamId: entries.teamId ?? '' };
  const seat = /^(\d{1,9}):(\d{1,4})$/.exec(values.seat!);
  const result = SlotFillSchema.safeParse({ groupId: seat?.[1], slot: seat?.[2], teamId: given(entries, 'teamId') });
  const fieldErrors: FieldErrors = {};
  if (!seat) fieldErrors.seat = 'Choose an empty slot.';
  if (!result.success && result.error.issues.some((i) => i.path[0] === 'teamId')) fieldErrors.teamId = 'Choose a team to seat.';
  if (!result.success || Object.keys(fieldErrors).length > 0) {
    return {
      ok: false,
      values,
      fieldErrors: Object.keys(fieldErrors).length > 0 ? fieldErrors : { seat: 'Choose an empty slot.' },
      formError: null,
    };
  }
  return { ok: true, body: result.data, values };
}

/** The gateway's field names for a fill, as the form's selects. */
export const FILL_RENAME = { groupId: 'seat', slot: 'seat' };

/** "from.groupId" → "fromGroup", "to.slot" → "toSlot"; other keys stay. */
export function renameMoveErrors(errors: FieldErrors): FieldErrors {
  const out: FieldErrors = {};
  for (const [key, message] of Object.entries(errors)) {
    const m = /^(from|to)\.(groupId|slot)$/.exec(key);
    out[m ? `${m[1]}${m[2] === 'groupId' ? 'Group' : 'Slot'}` : key] ??= message;
  }
  return out;
}

const ScheduleRowSchema = MatchBodySchema.pick({ day: true, matchNo: true, map: true, time: true });
export interface ScheduleRow {
  day: number;
  matchNo: number;
  map: string;
  time: string;
}

/**
 * The schedule form: rows day.N, matchNo.N, map.N, time.N. A row with every box blank is ignored;
 * `sent` maps the index of each row sent to the gateway back to its form row (for its errors).
 */
export function parseScheduleForm(formData: FormData): Parsed<{ matches: ScheduleRow[]; groupGap?: number }> & { sent: number[] } {
  const entries = formEntries(formData);
  const values: FormValues = {};
  const fieldErrors: FieldErrors = {};
  // Issue 27: minutes between groups' starts; blank keeps the stage's.
  let groupGap: number | undefined;
  if (GROUP_GAP_FIELD in entries) {
    values[GROUP_GAP_FIELD] = entries[GROUP_GAP_FIELD]!;
    const raw = given(entries, GROUP_GAP_FIELD);
    if (raw !== undefined) {
      const gap = StageScheduleSchema.shape.groupGap.safeParse(raw);
      if (gap.success) groupGap = gap.data;
      else fieldErrors[GROUP_GAP_FIELD] = gap.error.issues[0]?.message ?? 'Enter the minutes between groups.';
    }
  }
  const matches: ScheduleRow[] = [];
  const sent: number[] = [];
  for (let row = 0; row < SCHEDULE_ROWS; row++) {
    const raw = Object.fromEntries(SCHEDULE_FIELDS.map((f) => [f, (entries[scheduleInput(f, row)] ?? '').trim()]));
    for (const f of SCHEDULE_FIELDS) values[scheduleInput(f, row)] = entries[scheduleInput(f, row)] ?? '';
    // The day and match selects always send a value: a row counts once it has a map or a time.
    if (!raw.map && !raw.time) continue;
    const result = ScheduleRowSchema.safeParse(raw);
    if (!result.success) {
      for (const [f, message] of Object.entries(zodFieldErrors(result.error).fieldErrors)) fieldErrors[`${f}.${row}`] ??= message;
      continue;
    }
    matches.push(result.data);
    sent.push(row);
  }
  if (Object.keys(fieldErrors).length) return { ok: false, values, fieldErrors, formError: null, sent };
  if (matches.length === 0) return { ok: false, values, fieldErrors: {}, formError: 'Fill in at least one match: its map and time.', sent };
  return { ok: true, body: groupGap === undefined ? { matches } : { matches, groupGap }, values, sent };
}

/** The gateway's "matches.{i}.{field}" errors as the form's "{field}.{row}". */
export function scheduleErrors(err: GatewayError, sent: number[]): { fieldErrors: FieldErrors; formError: string | null } {
  const placed = placeErrors(
    new GatewayError(
      err.status,
      err.message,
      Object.fromEntries(Object.entries(err.fieldErrors).filter(([k]) => k !== GROUP_GAP_FIELD)),
      err.unavailable,
    ),
    /^matches\.(\d+)\.(day|matchNo|map|time)$/,
    (i, f) => (sent[i] === undefined ? null : scheduleInput(f as never, sent[i]!)),
  );
  const gap = err.fieldErrors[GROUP_GAP_FIELD];
  return gap ? { fieldErrors: { ...placed.fieldErrors, [GROUP_GAP_FIELD]: gap }, formError: placed.formError } : placed;
}

/**
 * The rooms form: room.{matchId} and pw.{matchId} for every group match shown. Every row is sent (a
 * blank box clears that room), so the form is the whole truth for the matches it shows.
 */
export function parseRoomsForm(formData: FormData): { rooms: { id: number; matchId: string; password: string }[]; values: FormValues } {
  const entries = formEntries(formData);
  const ids: number[] = [];
  const values: FormValues = {};
  for (const [name, value] of Object.entries(entries)) {
    const m = /^(room|pw)\.(\d{1,9})$/.exec(name);
    if (!m) continue;
    // Room passwords are handed to every team of the group: kept on a refusal like the match form keeps them.
    values[name] = value;
    const id = Number(m[2]);
    if (!ids.includes(id)) ids.push(id);
  }
  const rooms = ids.map((id) => ({
    id,
    matchId: (entries[roomInput('room', id)] ?? '').trim(),
    password: (entries[roomInput('pw', id)] ?? '').trim(),
  }));
  return { rooms, values };
}

/** The gateway's "rooms.{i}.matchId|password" errors as "room.{id}" / "pw.{id}". */
export function roomsErrors(err: GatewayError, ids: number[]): { fieldErrors: FieldErrors; formError: string | null } {
  return placeErrors(err, /^rooms\.(\d+)\.(matchId|password|id)$/, (i, f) =>
    ids[i] === undefined ? null : roomInput(f === 'password' ? 'pw' : 'room', ids[i]!),
  );
}

function placeErrors(
  err: GatewayError,
  pattern: RegExp,
  name: (index: number, field: string) => string | null,
): { fieldErrors: FieldErrors; formError: string | null } {
  if (err.unavailable) return { fieldErrors: {}, formError: UNAVAILABLE_FORM_MESSAGE };
  const fieldErrors: FieldErrors = {};
  const unplaced: string[] = [];
  for (const [key, message] of Object.entries(err.fieldErrors)) {
    const m = pattern.exec(key);
    const input = m ? name(Number(m[1]), m[2]!) : null;
    if (input) fieldErrors[input] ??= message;
    else unplaced.push(message);
  }
  const formError = unplaced.length
    ? unplaced.join(' ')
    : Object.keys(fieldErrors).length
      ? null
      : err.message || 'The server refused this.';
  return { fieldErrors, formError };
}

/** A whole number from the query string within 1..max, else null. */
export function queryNumber(raw: string | null, max: number): number | null {
  if (!raw || !ID_TEXT.test(raw)) return null;
  const n = Number(raw);
  return n >= 1 && n <= max ? n : null;
}
