import {
  DEFAULT_POINTS_SYSTEM,
  MAX_ENTRY_FEE,
  MAX_TEAMS_RANGE,
  PAYMENT_DEADLINE_HOURS_MAX,
  PLACEHOLDER_UPI_ID,
  POINTS_SYSTEMS,
  TOURNAMENT_STATUSES,
  TournamentFormSchema,
  validateTournamentForm,
} from '@custom-room/contract';
import type { Tournament } from '~/utils/gateway.server';
import { getEnv } from './env.server';
import { fromDateTimeLocal, toDateTimeLocal } from './format';
import { formFailure, submitToGateway, type FieldErrors, type FormValues } from './forms.server';
import { COVER_FIELD, COVER_NAME_VALUE, DATE_FIELDS, TOURNAMENT_FIELDS, type TournamentFormRules } from './tournament-form';
import { COVER_MESSAGES, MAX_COVER_BYTES, readTournamentUpload, type TournamentUpload } from './tournament-upload.server';

/**
 * The admin tournament form's rules are the gateway's own (the contract's TournamentFormSchema, points
 * systems and statuses): one source for each rule and
 * its message. The form differs in one way: its dates are datetime-local values in APP_TIME_ZONE,
 * turned into the UTC ISO strings the gateway takes here.
 */

export { TOURNAMENT_ADDED, TOURNAMENT_ADD_FAILED, TOURNAMENT_UPDATED, TOURNAMENT_UPDATE_FAILED } from './tournament-form';

const DATE_REQUIRED: Record<(typeof DATE_FIELDS)[number], string> = {
  registrationOpen: 'Registration opens is required: enter a date and time.',
  registrationClose: 'Registration closes is required: enter a date and time.',
  startDate: 'Start is required: enter a date and time.',
  endDate: 'End is required: enter a date and time.',
};
const STATUS_REQUIRED = 'Choose a status.';
const DATE_INVALID = 'Enter a date and time, for example 05/03/2026 18:30.';

export function tournamentFormRules(): TournamentFormRules {
  const maxLength: Record<string, number> = {};
  for (const [name, schema] of Object.entries(TournamentFormSchema.shape)) {
    const max = (schema as { maxLength?: unknown }).maxLength;
    if (typeof max === 'number') maxLength[name] = max;
  }
  return {
    timeZone: getEnv().APP_TIME_ZONE,
    statuses: [...TOURNAMENT_STATUSES],
    pointsSystems: Object.entries(POINTS_SYSTEMS).map(([id, points]) => ({ id, points: [...points] })),
    defaultPointsSystem: DEFAULT_POINTS_SYSTEM,
    maxTeams: { ...MAX_TEAMS_RANGE },
    maxEntryFee: MAX_ENTRY_FEE,
    maxDeadlineHours: PAYMENT_DEADLINE_HOURS_MAX,
    defaultPayee: {
      upiId: getEnv().UPI_PAYEE_VPA,
      name: getEnv().UPI_PAYEE_NAME,
      placeholder: getEnv().UPI_PAYEE_VPA === PLACEHOLDER_UPI_ID,
    },
    placeholderUpiId: PLACEHOLDER_UPI_ID,
    maxLength,
    cover: { maxBytes: MAX_COVER_BYTES, ...COVER_MESSAGES },
  };
}

/** A datetime-local value ("2026-03-05T18:30", seconds allowed) as UTC ISO; null when it is no such value. */
function localToUtc(value: string, timeZone: string): string | null {
  const trimmed = value.trim();
  const minutes = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,3})?)?$/.test(trimmed) ? trimmed.slice(0, 16) : trimmed;
  return fromDateTimeLocal(minutes, timeZone);
}

export type TournamentCheck = { ok: true; fields: Record<string, string> } | { ok: false; fieldErrors: FieldErrors };

/**
 * Checks the form's text fields with the gateway's rules. On success: the fields as the gateway
 * takes them (dates in UTC, numbers as digits, text trimmed), ready for its multipart body.
 */
export function checkTournamentFields(entries: Record<string, string>, timeZone: string): TournamentCheck {
  const input: Record<string, unknown> = {};
  for (const name of TOURNAMENT_FIELDS) if (name !== COVER_FIELD && name in entries) input[name] = entries[name];
  const ownErrors: FieldErrors = {};
  for (const name of DATE_FIELDS) {
    const raw = entries[name]?.trim() ?? '';
    const utc = raw ? localToUtc(raw, timeZone) : null;
    if (!raw) ownErrors[name] = DATE_REQUIRED[name];
    else if (!utc) ownErrors[name] = DATE_INVALID;
    input[name] = utc ?? undefined;
  }
  // The fixed payment deadline is a datetime-local value too; empty clears it (as an empty hours field does).
  if ('paymentDeadlineAt' in entries) {
    const raw = entries.paymentDeadlineAt?.trim() ?? '';
    const utc = raw ? localToUtc(raw, timeZone) : '';
    if (utc === null) ownErrors.paymentDeadlineAt = DATE_INVALID;
    input.paymentDeadlineAt = utc ?? undefined;
  }
  // An unchosen status reads better as that than as the gateway's list of allowed values.
  if (!entries.status?.trim()) ownErrors.status = STATUS_REQUIRED;
  const result = validateTournamentForm(input);
  const fieldErrors = { ...(result.errors ?? {}), ...ownErrors };
  if (!result.data || Object.keys(fieldErrors).length > 0) return { ok: false, fieldErrors };
  // null is a cleared optional field (the payment deadline): "" tells the gateway "none"; undefined is left out.
  // A checkbox (requireCharacterIds): sent ticked as "on", left out unticked (as a browser posts it).
  const fields = Object.fromEntries(
    Object.entries(result.data)
      .filter(([name, value]) => value !== undefined && !(name === 'requireCharacterIds' && value === false))
      .map(([name, value]) => [name, name === 'requireCharacterIds' ? 'on' : value === null ? '' : String(value)]),
  );
  return { ok: true, fields };
}

/** The multipart body for POST /tournaments/add and PUT /tournaments/admin/update/{id}. */
export function gatewayTournamentForm(fields: Record<string, string>, cover: File | null): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  if (cover) form.append(COVER_FIELD, cover, cover.name);
  return form;
}

/** What a refused submission shows again: every text value as typed, and the chosen file's name. */
export function uploadValues(upload: TournamentUpload): FormValues {
  const values: FormValues = {};
  for (const name of TOURNAMENT_FIELDS) if (name !== COVER_FIELD && name in upload.fields) values[name] = upload.fields[name]!;
  if (upload.coverName) values[COVER_NAME_VALUE] = upload.coverName;
  return values;
}

/** A tournament as the form's values (dates as datetime-local values in timeZone). */
export function tournamentValues(t: Tournament, timeZone: string): FormValues {
  return {
    name: t.name,
    game: t.game,
    description: t.description,
    overview: t.overview,
    registrationOpen: toDateTimeLocal(t.registrationOpen, timeZone),
    registrationClose: toDateTimeLocal(t.registrationClose, timeZone),
    startDate: toDateTimeLocal(t.startDate, timeZone),
    endDate: toDateTimeLocal(t.endDate, timeZone),
    maxTeams: String(t.maxTeams),
    entryFee: String(t.entryFee),
    prizePool: t.prizePool,
    format: t.format,
    platform: t.platform,
    status: t.status,
    pointsSystem: t.pointsSystem,
    requireCharacterIds: t.requireCharacterIds ? 'on' : '',
    paymentDeadlineHours: t.paymentDeadlineHours != null ? String(t.paymentDeadlineHours) : '',
    paymentDeadlineAt: toDateTimeLocal(t.paymentDeadlineAt, timeZone),
    payeeUpiId: t.payeeUpiId ?? '',
    payeeName: t.payeeName ?? '',
  };
}

/**
 * A new tournament's form starts with the site's default payee (the variables are only that default, issue 27);
 * never with the placeholder, which nobody receives money at.
 */
export function newTournamentValues(): FormValues {
  const env = getEnv();
  return env.UPI_PAYEE_VPA === PLACEHOLDER_UPI_ID ? {} : { payeeUpiId: env.UPI_PAYEE_VPA, payeeName: env.UPI_PAYEE_NAME };
}

/**
 * The add and update actions: read the upload (with its limits), check the fields, then send one
 * multipart request to the gateway. Refused: the form's failure (4xx, every value kept, each message
 * by its field). Accepted: what the gateway answered.
 */
export async function submitTournamentForm<T>(
  request: Request,
  options: { failed: string; send: (form: FormData) => Promise<T> },
): Promise<{ ok: true; value: T } | { ok: false; failure: ReturnType<typeof formFailure> }> {
  const upload = await readTournamentUpload(request);
  const values = uploadValues(upload);
  const checked = checkTournamentFields(upload.fields, getEnv().APP_TIME_ZONE);
  const { form: formError, ...uploadErrors } = upload.errors;
  const fieldErrors = { ...(checked.ok ? {} : checked.fieldErrors), ...uploadErrors };
  if (!checked.ok || formError || Object.keys(fieldErrors).length > 0) {
    const cover = uploadErrors[COVER_FIELD];
    const status = cover === COVER_MESSAGES.tooLarge ? 413 : cover === COVER_MESSAGES.wrongType ? 415 : 400;
    return { ok: false, failure: formFailure({ values, fieldErrors, formError: formError ?? null }, status) };
  }
  return submitToGateway(() => options.send(gatewayTournamentForm(checked.fields, upload.cover)), {
    values,
    fields: TOURNAMENT_FIELDS,
    fallback: options.failed,
  });
}
