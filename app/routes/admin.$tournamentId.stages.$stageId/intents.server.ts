import { ID_TEXT, NO_SHOW_ACTIONS, type NoShowAction } from '@custom-room/contract/constants';
import { formEntries, formFailure, gatewayFormErrors, type FieldErrors, type FormValues } from '~/utils/forms.server';
import { gateway, GatewayError } from '~/utils/gateway.server';
import { flash } from '~/utils/session.server';
import {
  FILL_RENAME,
  parseDrawForm,
  parseFillForm,
  parseMoveForm,
  parseNotPlayed,
  parseRoomsForm,
  parseScheduleForm,
  parseStageForm,
  roomsErrors,
  scheduleErrors,
} from '~/utils/stage-admin.server';
import { CHECK_IN_FIELDS, NO_SHOW_FIELD, NOT_PLAYED_FIELD, STAGE_FIELDS } from '~/utils/stage-forms';
import type { Intent } from './intent-state';

/**
 * The stage control room's action as a table (decision 061): one handler per form `intent`. Each reads its
 * form, makes one gateway call, and answers a flash and redirect, or the form's errors keyed by its inputs.
 */

/** Said when the gateway refuses without saying why (and tied to no field). */
const FAILED: Record<Intent, string> = {
  settings: 'Failed to save the stage.',
  delete: 'Failed to delete the stage.',
  invite: 'Failed to invite the team.',
  uninvite: 'Failed to withdraw the invite.',
  draw: 'Failed to generate the groups.',
  move: 'Failed to move the team.',
  publish: 'Failed to publish the stage.',
  schedule: 'Failed to schedule the matches.',
  rooms: 'Failed to save the rooms.',
  complete: 'Failed to complete the stage.',
  reopen: 'Failed to reopen the stage.',
  'no-shows': 'Failed to settle the no-shows.',
  'fill-slot': 'Failed to fill the slot.',
};

const MOVE_RENAME = { 'from.groupId': 'fromGroup', 'from.slot': 'fromSlot', 'to.groupId': 'toGroup', 'to.slot': 'toSlot' };

type Failure = ReturnType<typeof formFailure>;
type Placed = { fieldErrors: FieldErrors; formError: string | null };

export interface IntentContext {
  request: Request;
  tid: number;
  sid: number;
  formData: FormData;
  entries: Record<string, string>;
  /** The stage page, and the page with the group the form was sent from still shown. */
  here: string;
  back: string;
  /** This form's refusal: its values (with the intent, so only this form shows it), errors and message. */
  fail: (values: FormValues, fieldErrors: FieldErrors, formError: string | null, status?: number) => Failure;
  /**
   * Runs the gateway call; a refusal becomes this form's errors (fields named as the form's inputs), placed
   * by `place` when given. Null when the call went through.
   */
  run: (
    call: () => Promise<unknown>,
    values: FormValues,
    fields: readonly string[],
    place?: (err: GatewayError) => Placed,
  ) => Promise<Failure | null>;
}

type Handler = (ctx: IntentContext) => Promise<Response | Failure>;

export const INTENT_HANDLERS: Record<Intent, Handler> = {
  settings: async ({ request, tid, sid, formData, here, fail, run }) => {
    const parsed = parseStageForm(formData, 'update');
    if (!parsed.ok) return fail(parsed.values, parsed.fieldErrors, parsed.formError ?? FAILED.settings);
    const refused = await run(() => gateway.updateStage(request, tid, sid, parsed.body as never), parsed.values, [
      ...STAGE_FIELDS,
      ...CHECK_IN_FIELDS,
    ]);
    return refused ?? flash(request, 'Stage saved', here);
  },
  'no-shows': async ({ request, tid, sid, entries, here, fail, run }) => {
    const choice = entries[NO_SHOW_FIELD] ?? '';
    if (!(NO_SHOW_ACTIONS as readonly string[]).includes(choice))
      return fail({}, { [NO_SHOW_FIELD]: 'Choose what to do with the no-shows.' }, null);
    const refused = await run(() => gateway.resolveNoShows(request, tid, sid, choice as NoShowAction), { [NO_SHOW_FIELD]: choice }, [
      NO_SHOW_FIELD,
    ]);
    const done = choice === 'replace' ? 'No-shows replaced from the waitlist' : 'No-shows left out: their slots stay empty';
    return refused ?? flash(request, done, `${here}#check-in`);
  },
  delete: async ({ request, tid, sid, entries, fail, run }) => {
    if (entries.confirm !== 'yes') return fail({}, { confirm: 'Tick the box to confirm the delete.' }, null);
    const refused = await run(() => gateway.deleteStage(request, tid, sid), {}, []);
    return refused ?? flash(request, 'Stage deleted', `/admin/${tid}/stages`);
  },
  invite: async ({ request, tid, sid, entries, here, fail, run }) => {
    const values = { teamId: entries.teamId ?? '' };
    if (!ID_TEXT.test(values.teamId)) return fail(values, { teamId: 'Choose a team to invite.' }, null);
    const checkIn = entries.checkIn === 'yes';
    const refused = await run(() => gateway.inviteTeam(request, tid, sid, Number(values.teamId), checkIn), values, ['teamId']);
    return refused ?? flash(request, 'Team invited', here);
  },
  uninvite: async ({ request, tid, sid, entries, here, fail, run }) => {
    const teamId = entries.teamId ?? '';
    if (!ID_TEXT.test(teamId)) return fail({}, {}, FAILED.uninvite);
    const refused = await run(() => gateway.removeInvite(request, tid, sid, Number(teamId)), {}, []);
    return refused ?? flash(request, 'Invite withdrawn', here);
  },
  draw: async ({ request, tid, sid, formData, here, fail, run }) => {
    const parsed = parseDrawForm(formData);
    if (!parsed.ok) return fail(parsed.values, parsed.fieldErrors, parsed.formError);
    const refused = await run(() => gateway.drawGroups(request, tid, sid, parsed.body), parsed.values, ['method', 'seed', 'confirmSplit']);
    return refused ?? flash(request, 'Groups generated', here);
  },
  move: async ({ request, tid, sid, formData, back, fail, run }) => {
    const parsed = parseMoveForm(formData);
    if (!parsed.ok) return fail(parsed.values, parsed.fieldErrors, parsed.formError);
    const fields = ['fromGroup', 'fromSlot', 'toGroup', 'toSlot'];
    const refused = await run(
      () => gateway.moveSlot(request, tid, sid, parsed.body),
      parsed.values,
      [],
      (err) => gatewayFormErrors(err, { fields, fallback: FAILED.move, rename: MOVE_RENAME }),
    );
    return refused ?? flash(request, 'Slots updated', back);
  },
  'fill-slot': fillSlot,
  publish: async ({ request, tid, sid, here, run }) => {
    const refused = await run(() => gateway.publishStage(request, tid, sid), {}, []);
    return refused ?? flash(request, 'Stage published', here);
  },
  schedule: async ({ request, tid, sid, formData, here, fail, run }) => {
    const parsed = parseScheduleForm(formData);
    if (!parsed.ok) return fail(parsed.values, parsed.fieldErrors, parsed.formError ?? FAILED.schedule);
    const refused = await run(
      () => gateway.scheduleStage(request, tid, sid, parsed.body),
      parsed.values,
      [],
      (err) => scheduleErrors(err, parsed.sent),
    );
    return refused ?? flash(request, 'Matches scheduled for every group', here);
  },
  rooms: async ({ request, tid, sid, formData, entries, here, fail, run }) => {
    const { rooms, values } = parseRoomsForm(formData);
    if (rooms.length === 0) return fail(values, {}, 'No rooms to save: schedule the matches first.');
    const ids = rooms.map((r) => r.id);
    const refused = await run(
      () => gateway.setStageRooms(request, tid, sid, { rooms }),
      values,
      [],
      (err) => roomsErrors(err, ids),
    );
    const to = entries.rooms ? `${here}?rooms=${encodeURIComponent(entries.rooms)}` : here;
    return refused ?? flash(request, `Rooms saved (${rooms.length})`, to);
  },
  complete: async ({ request, tid, sid, formData, entries, here, fail, run }) => {
    if (entries.confirm !== 'yes') return fail({}, { confirm: 'Tick the box to confirm: the qualifiers move on to the next stage.' }, null);
    const notPlayed = parseNotPlayed(formData);
    const refused = await run(() => gateway.completeStage(request, tid, sid, notPlayed), { [NOT_PLAYED_FIELD]: notPlayed.join(',') }, [
      NOT_PLAYED_FIELD,
    ]);
    return refused ?? flash(request, 'Stage completed', here);
  },
  reopen: async ({ request, tid, sid, here, run }) => {
    const refused = await run(() => gateway.reopenStage(request, tid, sid), {}, []);
    return refused ?? flash(request, 'Stage reopened', here);
  },
};

/** Decision 052: seats a team in an empty slot; the flash names the team, its group and slot. */
async function fillSlot({ request, tid, sid, formData, here, fail, run }: IntentContext) {
  const parsed = parseFillForm(formData);
  if (!parsed.ok) return fail(parsed.values, parsed.fieldErrors, parsed.formError);
  let seated = '';
  const refused = await run(
    async () => {
      const answer = await gateway.fillSlot(request, tid, sid, parsed.body);
      const group = answer.groups.find((g) => g.id === parsed.body.groupId);
      const team = group?.slots.find((s) => s.slot === parsed.body.slot)?.teamName ?? 'The team';
      seated = `${team} is in Group ${group?.name ?? ''}, slot ${parsed.body.slot}`;
    },
    parsed.values,
    [],
    (err) => gatewayFormErrors(err, { fields: ['seat', 'teamId'], fallback: FAILED['fill-slot'], rename: FILL_RENAME }),
  );
  return refused ?? flash(request, seated, `${here}?group=${parsed.body.groupId}#groups`);
}

/** The intent a form names, or null for none of ours (own keys only: "constructor" is no intent). */
export function intentOf(raw: string | undefined): Intent | null {
  return raw !== undefined && Object.hasOwn(INTENT_HANDLERS, raw) ? (raw as Intent) : null;
}

export function intentContext(request: Request, tid: number, sid: number, formData: FormData, intent: Intent): IntentContext {
  const entries = formEntries(formData);
  const here = `/admin/${tid}/stages/${sid}`;
  const fail = (values: FormValues, fieldErrors: FieldErrors, formError: string | null, status = 400) =>
    formFailure({ values: { ...values, intent }, fieldErrors, formError }, status);
  const run: IntentContext['run'] = async (call, values, fields, place) => {
    try {
      await call();
      return null;
    } catch (err) {
      if (!(err instanceof GatewayError)) throw err;
      if (place) {
        const status = err.unavailable ? 503 : err.status >= 400 && err.status < 500 ? err.status : 400;
        const p = place(err);
        return fail(values, p.fieldErrors, p.formError, status);
      }
      // A refusal tied to no field keeps the gateway's own words (it says why).
      const f = gatewayFormErrors(err, { fields, fallback: FAILED[intent] });
      return fail(values, f.fieldErrors, f.formError, f.status);
    }
  };
  return { request, tid, sid, formData, entries, here, back: backTo(here, entries.group), fail, run };
}

/** The stage page with the group the form was sent from (?group=) still shown. */
const backTo = (here: string, group: string | undefined) => (group && ID_TEXT.test(group) ? `${here}?group=${group}` : here);
