import type { ActionFunctionArgs, HeadersFunction, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { Form, Link, useActionData, useLoaderData } from '@remix-run/react';
import { GeneralErrorBoundary } from '~/components/error-page';
import { ErrorSummary } from '~/components/ui/error-summary';
import { Field } from '~/components/ui/field';
import { SubmitButton } from '~/components/ui/submit-button';
import { TextField } from '~/components/ui/text-field';
import { pageError } from '~/utils/errors.server';
import { formEntries, formFailure, gatewayFormErrors, type FieldErrors, type FormFailure, type FormValues } from '~/utils/forms.server';
import { gateway, GatewayError } from '~/utils/gateway.server';
import type { StageAdvance } from '~/utils/gateway.server';
import { formatMatchTime } from '~/utils/format';
import type { EmptySlots, StageCheckIns } from '~/utils/gateway.server';
import {
  FILL_RENAME,
  parseDrawForm,
  parseFillForm,
  parseNotPlayed,
  parseMoveForm,
  parseRoomsForm,
  parseScheduleForm,
  parseStageForm,
  queryNumber,
  roomsErrors,
  scheduleErrors,
} from '~/utils/stage-admin.server';
import { advanceWords, stateTone } from '~/utils/stage-words';
import {
  CHECK_IN_FIELDS,
  NO_SHOW_FIELD,
  roomInput,
  SCHEDULE_FIELDS,
  GROUP_GAP_FIELD,
  NOT_PLAYED_FIELD,
  scheduleInput,
  scheduleRowsShown,
  STAGE_FIELDS,
} from '~/utils/stage-forms';
import { CheckInWindowFields } from '~/components/check-in-window';
import { getEnv } from '~/utils/env.server';
import { formatDateTime, toDateTimeLocal } from '~/utils/format';
import { NO_SHOW_ACTIONS, type NoShowAction } from '@custom-room/contract/constants';
import { flash, requireAdmin } from '~/utils/session.server';
import { requireTournamentId } from '~/utils/route-params.server';
import {
  DRAW_METHOD_LABELS,
  DRAW_METHODS,
  GROUP_GAP_MAX,
  resultsInWords,
  splitWarning,
  MAP_MAX,
  MATCH_DAY_MAX,
  MATCH_NO_MAX,
  ROOM_TEXT_MAX,
  SEED_MAX,
  STAGE_NOT_FOUND,
} from '@custom-room/contract/constants';
import '~/styles/screens.css';
import '~/styles/admin-ops.css';
import '~/styles/admin-stages.css';

/** Room rows shown in one form; past this (many groups), one day/match at a time, to keep the page small. */
const ROOM_ROWS_INLINE = 60;
/** Registered teams listed in the invite select at once; more, and the organiser searches by name first. */
const INVITE_LIST_MAX = 40;
/** Up to this many groups, "Who advances" lists every group's qualifiers and cut line. */
const ADVANCE_ALL_GROUPS = 8;

const INTENTS = [
  'settings',
  'delete',
  'invite',
  'uninvite',
  'draw',
  'move',
  'publish',
  'schedule',
  'rooms',
  'complete',
  'reopen',
  'no-shows',
  'fill-slot',
] as const;
type Intent = (typeof INTENTS)[number];

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

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: `${data ? `${data.stage.name}: ${data.t.name}` : 'Stage'} | Admin | Custom Room` },
  { name: 'description', content: 'One stage: settings, entrants, groups and slots, schedule, rooms, results and who advances.' },
];

export const headers: HeadersFunction = () => ({ 'Cache-Control': 'private, no-store' });

function stageIdOf(raw: string | undefined): number {
  const id = raw && /^\d{1,9}$/.test(raw) ? Number(raw) : 0;
  if (!id) throw new Response(STAGE_NOT_FOUND, { status: 404 });
  return id;
}

export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireAdmin(request);
  const tid = requireTournamentId(params.tournamentId);
  const sid = stageIdOf(params.stageId);
  const [t, stages, matches] = await Promise.all([
    gateway.getTournament(request, tid),
    gateway.listStages(request, tid, { admin: true }),
    gateway.listMatches(request, tid),
  ]).catch((err) => pageError(err, STAGE_NOT_FOUND));
  const stage = stages.find((s) => s.id === sid);
  if (!stage) throw new Response(STAGE_NOT_FOUND, { status: 404 });

  const later = stage.order > 1;
  const [entrants, registrations, advance, checkIns] = await Promise.all([
    gateway.stageEntrants(request, tid, sid),
    later ? gateway.tournamentRegistrations(request, tid) : Promise.resolve([]),
    stage.state === 'draft' ? Promise.resolve(null) : gateway.stageAdvance(request, tid, sid).catch(() => null as StageAdvance | null),
    stage.checkIn ? gateway.stageCheckIns(request, tid, sid).catch(() => null as StageCheckIns | null) : Promise.resolve(null),
  ]).catch((err) => pageError(err, STAGE_NOT_FOUND));
  // Decision 052: once published, a team that leaves leaves its slot empty for the organiser to fill.
  const empty = stage.state === 'published' ? await gateway.emptySlots(request, tid, sid).catch(() => null as EmptySlots | null) : null;
  const timeZone = getEnv().APP_TIME_ZONE;

  const url = new URL(request.url);
  const groupParam = queryNumber(url.searchParams.get('group'), 2_147_483_647);
  const shownGroup = stage.groups.find((g) => g.id === groupParam) ?? stage.groups[0] ?? null;

  const own = matches
    .filter((m) => m.stageId === sid && m.groupId)
    .sort(
      (a, b) => a.day - b.day || a.matchNo - b.matchNo || (a.groupName ?? '').localeCompare(b.groupName ?? '', 'en', { numeric: true }),
    );
  const slots: {
    day: number;
    matchNo: number;
    map: string;
    time: string;
    groups: { id: number; groupId: number; groupName: string; room: string; pw: string }[];
  }[] = [];
  for (const m of own) {
    let slot = slots.find((s) => s.day === m.day && s.matchNo === m.matchNo);
    if (!slot) slots.push((slot = { day: m.day, matchNo: m.matchNo, map: m.map, time: formatMatchTime(m.time), groups: [] }));
    // Group names sort A … Z, AA …: by length first.
    slot.groups.push({ id: m.id, groupId: m.groupId!, groupName: m.groupName ?? '', room: m.matchId ?? '', pw: m.password ?? '' });
  }
  for (const s of slots) s.groups.sort((a, b) => a.groupName.length - b.groupName.length || a.groupName.localeCompare(b.groupName));
  const roomRows = slots.reduce((n, s) => n + s.groups.length, 0);
  const roomsParam = url.searchParams.get('rooms');
  const inline = roomRows <= ROOM_ROWS_INLINE;
  const roomSlots = inline ? slots : slots.filter((s) => `${s.day}-${s.matchNo}` === roomsParam).slice(0, 1);

  const entrantIds = new Set(entrants.map((e) => e.teamId));
  return {
    t: { id: t.id, name: t.name },
    stage: {
      id: stage.id,
      order: stage.order,
      name: stage.name,
      state: stage.state,
      tone: stateTone(stage.state),
      lobbySize: stage.lobbySize,
      firstSlot: stage.firstSlot,
      advancePerGroup: stage.advancePerGroup,
      advanceBest: stage.advanceBest,
      advance: advanceWords(stage),
      draw: stage.draw,
      hasResults: stage.hasResults,
      entrants: stage.entrants,
      later,
      groupGap: stage.groupGap,
      // Issue 27: "3 of 16 group-matches have results" (null before any match is scheduled).
      resultsLine: stage.groupMatches.scheduled > 0 ? resultsInWords(stage.groupMatches) : null,
      checkedIn: stage.checkedIn ?? null,
      checkInOpensAt: toDateTimeLocal(stage.checkIn?.opensAt, timeZone),
      checkInClosesAt: toDateTimeLocal(stage.checkIn?.closesAt, timeZone),
    },
    timeZone,
    checkIn: checkInView(checkIns, timeZone, !later && stage.state === 'draft'),
    split: splitText(stage.checkedIn ?? stage.entrants, stage.lobbySize),
    scheduleRows: scheduleRowsShown(slots.length, url.searchParams.get('rows') === 'all'),
    groups: stage.groups.map((g) => ({ id: g.id, name: g.name, count: g.slots.length })),
    shownGroup,
    shownEmpty: empty && shownGroup ? empty.slots.filter((s) => s.groupId === shownGroup.id).map((s) => s.slot) : [],
    fill: empty && fillChoices(empty),
    entrants: {
      count: entrants.length,
      confirmed: entrants.filter((e) => e.via === 'confirmed').length,
      qualified: entrants.filter((e) => e.via === 'qualified').length,
      invited: entrants.filter((e) => e.via === 'invited').map((e) => ({ teamId: e.teamId, teamName: e.teamName })),
    },
    invite: inviteChoices(
      registrations.filter((r) => !entrantIds.has(r.rid)),
      url.searchParams.get('team'),
    ),
    // The schedule and the result picker need the matches, not their 40 groups each.
    slots: slots.map((s) => ({ day: s.day, matchNo: s.matchNo, map: s.map, time: s.time, groups: s.groups.length })),
    rooms: { inline, chosen: roomsParam, slots: roomSlots },
    limits: { days: MATCH_DAY_MAX, matches: MATCH_NO_MAX },
    // Only what the page says: a 40-group stage has 80+ qualifiers and 40 cut lines, so past a few
    // groups the shown group's qualifiers and cut line are listed, with the best of the rest.
    advance: advance && {
      total: advance.qualifiers.length,
      onlyGroup: stage.groups.length > ADVANCE_ALL_GROUPS ? (shownGroup?.name ?? null) : null,
      qualifiers: advance.qualifiers
        .filter((q) => stage.groups.length <= ADVANCE_ALL_GROUPS || q.via === 'best' || q.groupName === shownGroup?.name)
        .map((q) => ({
          teamId: q.teamId,
          line: `${q.teamName} · ${q.groupName}${q.groupRank} · ${q.totalPoints} pts${q.via === 'best' ? ' · best of the rest' : ''}`,
        })),
      cuts: advance.cuts
        .filter(
          (c) => stage.groups.length <= ADVANCE_ALL_GROUPS || !c.scope.startsWith('Group ') || c.scope === `Group ${shownGroup?.name}`,
        )
        .map((c) => ({
          scope: c.scope,
          line: `${c.lastIn.teamName} in${c.firstOut ? `, ${c.firstOut.teamName} out` : ''} — ${c.decidedBy}`,
        })),
      nextStage: advance.nextStage,
      missing: advance.missing.map((m) => ({
        id: m.id,
        label: `Day ${m.day} · Match ${m.matchNo} · Group ${m.groupName}`,
        notPlayed: m.notPlayed,
      })),
    },
  };
}

/** Issue 27: the draw's warning before it adds a group for a few teams past full lobbies; null when none. */
function splitText(teams: number, lobby: number): string | null {
  const split = splitWarning(teams, lobby);
  if (!split) return null;
  const full = split.groups - 1;
  return `${teams} teams are ${split.over} more than ${full === 1 ? 'one lobby' : `${full} lobbies`} of ${lobby}: the draw makes ${split.groups} smaller groups.`;
}

/** Decision 047: the stage's check-in list for the organiser, and the no-show choices the gateway allows. */
function checkInView(list: StageCheckIns | null, timeZone: string, mayReplace: boolean) {
  if (!list) return null;
  const checkedIn = list.teams.filter((t) => t.state === 'checked-in');
  const noShows = list.teams.filter((t) => t.state === 'no-show');
  return {
    window: `${formatDateTime(list.opensAt, timeZone)} to ${formatDateTime(list.closesAt, timeZone)}`,
    closed: list.closed,
    decided: list.noShows,
    total: list.teams.length,
    checkedIn: checkedIn.length,
    waiting: list.teams.filter((t) => t.state === 'open' || t.state === 'not-open').map((t) => t.teamName),
    noShows: noShows.map((t) => ({ teamId: t.teamId, teamName: t.teamName })),
    // Replace only in the first stage before it is published (the gateway refuses otherwise).
    actions: NO_SHOW_ACTIONS.filter((a) => a === 'leave' || mayReplace),
  };
}

/** Decision 052: the "fill an empty slot" selects: every empty slot, and the teams that may take one. */
function fillChoices(empty: EmptySlots) {
  return {
    slots: empty.slots.map((s) => ({ value: `${s.groupId}:${s.slot}`, label: `Group ${s.groupName} · slot ${s.slot}` })),
    teams: empty.teams.map((t) => ({
      value: String(t.teamId),
      label:
        t.from === 'waitlist'
          ? `${t.teamName} (waitlist #${t.waitlistPosition}${t.confirmed ? '' : ', pays once seated'})`
          : `${t.teamName} (confirmed, no slot)`,
    })),
  };
}

/** The invite select: every team when there are few, else the teams whose name holds the search (?team=). */
function inviteChoices(teams: { rid: number; teamName: string }[], query: string | null) {
  const q = (query ?? '').trim().toLowerCase();
  const all = teams.length <= INVITE_LIST_MAX;
  const found = all ? teams : q ? teams.filter((t) => t.teamName.toLowerCase().includes(q)) : [];
  return {
    search: !all,
    query: query ?? '',
    teams: found.slice(0, INVITE_LIST_MAX).map((t) => ({ rid: t.rid, teamName: t.teamName })),
    more: found.length > INVITE_LIST_MAX,
  };
}

type ActionFailure = FormFailure & { intent: Intent };

function failure(intent: Intent, values: FormValues, fieldErrors: FieldErrors, formError: string | null, status = 400) {
  return formFailure({ values: { ...values, intent }, fieldErrors, formError }, status) as unknown as ReturnType<typeof formFailure>;
}

export async function action({ request, params }: ActionFunctionArgs) {
  await requireAdmin(request);
  const tid = requireTournamentId(params.tournamentId);
  const sid = stageIdOf(params.stageId);
  const formData = await request.formData();
  const entries = formEntries(formData);
  const intent = entries.intent as Intent;
  if (!INTENTS.includes(intent)) return formFailure({ formError: 'Unknown action.' });
  const here = `/admin/${tid}/stages/${sid}`;
  const back = entries.group && /^\d{1,9}$/.test(entries.group) ? `${here}?group=${entries.group}` : here;

  /** Runs the gateway call; a refusal becomes this form's errors (fields named as the form's inputs). */
  const run = async (
    call: () => Promise<unknown>,
    values: FormValues,
    fields: readonly string[],
    place?: (err: GatewayError) => { fieldErrors: FieldErrors; formError: string | null },
  ) => {
    try {
      await call();
      return null;
    } catch (err) {
      if (!(err instanceof GatewayError)) throw err;
      const status = err.unavailable ? 503 : err.status >= 400 && err.status < 500 ? err.status : 400;
      if (place) {
        const placed = place(err);
        return failure(intent, values, placed.fieldErrors, placed.formError, status);
      }
      const f = gatewayFormErrors(err, { fields, fallback: FAILED[intent] });
      // A refusal tied to no field keeps the gateway's own words (it says why).
      return failure(intent, values, f.fieldErrors, f.formError, f.status);
    }
  };

  switch (intent) {
    case 'settings': {
      const parsed = parseStageForm(formData, 'update');
      if (!parsed.ok) return failure(intent, parsed.values, parsed.fieldErrors, parsed.formError ?? FAILED.settings);
      const refused = await run(() => gateway.updateStage(request, tid, sid, parsed.body as never), parsed.values, [
        ...STAGE_FIELDS,
        ...CHECK_IN_FIELDS,
      ]);
      return refused ?? flash(request, 'Stage saved', here);
    }
    case 'no-shows': {
      const choice = entries[NO_SHOW_FIELD] ?? '';
      if (!(NO_SHOW_ACTIONS as readonly string[]).includes(choice))
        return failure(intent, {}, { [NO_SHOW_FIELD]: 'Choose what to do with the no-shows.' }, null);
      const refused = await run(() => gateway.resolveNoShows(request, tid, sid, choice as NoShowAction), { [NO_SHOW_FIELD]: choice }, [
        NO_SHOW_FIELD,
      ]);
      const done = choice === 'replace' ? 'No-shows replaced from the waitlist' : 'No-shows left out: their slots stay empty';
      return refused ?? flash(request, done, `${here}#check-in`);
    }
    case 'delete': {
      if (entries.confirm !== 'yes') return failure(intent, {}, { confirm: 'Tick the box to confirm the delete.' }, null);
      const refused = await run(() => gateway.deleteStage(request, tid, sid), {}, []);
      return refused ?? flash(request, 'Stage deleted', `/admin/${tid}/stages`);
    }
    case 'invite': {
      const values = { teamId: entries.teamId ?? '' };
      if (!/^\d{1,9}$/.test(values.teamId)) return failure(intent, values, { teamId: 'Choose a team to invite.' }, null);
      const checkIn = entries.checkIn === 'yes';
      const refused = await run(() => gateway.inviteTeam(request, tid, sid, Number(values.teamId), checkIn), values, ['teamId']);
      return refused ?? flash(request, 'Team invited', here);
    }
    case 'uninvite': {
      const teamId = entries.teamId ?? '';
      if (!/^\d{1,9}$/.test(teamId)) return failure(intent, {}, {}, FAILED.uninvite);
      const refused = await run(() => gateway.removeInvite(request, tid, sid, Number(teamId)), {}, []);
      return refused ?? flash(request, 'Invite withdrawn', here);
    }
    case 'draw': {
      const parsed = parseDrawForm(formData);
      if (!parsed.ok) return failure(intent, parsed.values, parsed.fieldErrors, parsed.formError);
      const refused = await run(() => gateway.drawGroups(request, tid, sid, parsed.body), parsed.values, [
        'method',
        'seed',
        'confirmSplit',
      ]);
      return refused ?? flash(request, 'Groups generated', here);
    }
    case 'move': {
      const parsed = parseMoveForm(formData);
      if (!parsed.ok) return failure(intent, parsed.values, parsed.fieldErrors, parsed.formError);
      const refused = await run(
        () => gateway.moveSlot(request, tid, sid, parsed.body),
        parsed.values,
        [],
        (err) => {
          const f = gatewayFormErrors(err, {
            fields: ['fromGroup', 'fromSlot', 'toGroup', 'toSlot'],
            fallback: FAILED.move,
            rename: MOVE_RENAME,
          });
          return { fieldErrors: f.fieldErrors, formError: f.formError };
        },
      );
      return refused ?? flash(request, 'Slots updated', back);
    }
    case 'fill-slot': {
      const parsed = parseFillForm(formData);
      if (!parsed.ok) return failure(intent, parsed.values, parsed.fieldErrors, parsed.formError);
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
        (err) => {
          const f = gatewayFormErrors(err, { fields: ['seat', 'teamId'], fallback: FAILED['fill-slot'], rename: FILL_RENAME });
          return { fieldErrors: f.fieldErrors, formError: f.formError };
        },
      );
      return refused ?? flash(request, seated, `${here}?group=${parsed.body.groupId}#groups`);
    }
    case 'publish': {
      const refused = await run(() => gateway.publishStage(request, tid, sid), {}, []);
      return refused ?? flash(request, 'Stage published', here);
    }
    case 'schedule': {
      const parsed = parseScheduleForm(formData);
      if (!parsed.ok) return failure(intent, parsed.values, parsed.fieldErrors, parsed.formError ?? FAILED.schedule);
      const refused = await run(
        () => gateway.scheduleStage(request, tid, sid, parsed.body),
        parsed.values,
        [],
        (err) => scheduleErrors(err, parsed.sent),
      );
      return refused ?? flash(request, 'Matches scheduled for every group', here);
    }
    case 'rooms': {
      const { rooms, values } = parseRoomsForm(formData);
      if (rooms.length === 0) return failure(intent, values, {}, 'No rooms to save: schedule the matches first.');
      const ids = rooms.map((r) => r.id);
      const refused = await run(
        () => gateway.setStageRooms(request, tid, sid, { rooms }),
        values,
        [],
        (err) => roomsErrors(err, ids),
      );
      return (
        refused ??
        flash(request, `Rooms saved (${rooms.length})`, entries.rooms ? `${here}?rooms=${encodeURIComponent(entries.rooms)}` : here)
      );
    }
    case 'complete': {
      if (entries.confirm !== 'yes')
        return failure(intent, {}, { confirm: 'Tick the box to confirm: the qualifiers move on to the next stage.' }, null);
      const notPlayed = parseNotPlayed(formData);
      const refused = await run(() => gateway.completeStage(request, tid, sid, notPlayed), { [NOT_PLAYED_FIELD]: notPlayed.join(',') }, [
        NOT_PLAYED_FIELD,
      ]);
      return refused ?? flash(request, 'Stage completed', here);
    }
    case 'reopen': {
      const refused = await run(() => gateway.reopenStage(request, tid, sid), {}, []);
      return refused ?? flash(request, 'Stage reopened', here);
    }
  }
}

const MOVE_RENAME = { 'from.groupId': 'fromGroup', 'from.slot': 'fromSlot', 'to.groupId': 'toGroup', 'to.slot': 'toSlot' };

function Panel({ id, title, children }: { id: string; title: string; children: React.ReactNode }) {
  return (
    <section className="ops-panel" aria-labelledby={`${id}-title`} id={id}>
      <h2 id={`${id}-title`}>{title}</h2>
      {children}
    </section>
  );
}

export default function AdminStage() {
  const page = useLoaderData<typeof loader>();
  const { t, stage, groups, shownGroup, slots, rooms, advance } = page;
  const actionData = useActionData<ActionFailure>();
  const failed = (actionData?.values as FormValues | undefined)?.intent as Intent | undefined;
  const errorsOf = (intent: Intent) => (failed === intent ? (actionData?.fieldErrors ?? {}) : {});
  const formErrorOf = (intent: Intent) => (failed === intent ? actionData?.formError : null);
  const valuesOf = (intent: Intent): FormValues => (failed === intent ? (actionData?.values ?? {}) : {});
  const keyOf = (intent: Intent, base: string) => (failed === intent ? `failed-${JSON.stringify(actionData)}` : base);
  const summary = (intent: Intent, order: readonly string[] = []) => (
    <ErrorSummary fieldErrors={errorsOf(intent)} formError={formErrorOf(intent)} order={order} />
  );
  const base = `/admin/${t.id}/stages/${stage.id}`;
  const draft = stage.state === 'draft';
  const completed = stage.state === 'completed';
  const days = Array.from({ length: page.limits.days }, (_, i) => i + 1);
  const numbers = Array.from({ length: page.limits.matches }, (_, i) => i + 1);

  const settingsValues = valuesOf('settings');
  const sv = (f: (typeof STAGE_FIELDS)[number]) => settingsValues[f] ?? String(stage[f]);
  const se = errorsOf('settings');
  const moveErrors = errorsOf('move');
  const moveValues = valuesOf('move');
  const drawValues = valuesOf('draw');
  const drawErrors = errorsOf('draw');
  const schedErrors = errorsOf('schedule');
  const schedValues = valuesOf('schedule');
  const roomErrors = errorsOf('rooms');
  const roomValues = valuesOf('rooms');
  const groupSelect = (name: string, label: string, value: string | undefined, error?: string) => (
    <Field id={name} label={label} error={error}>
      {(control) => (
        <select name={name} defaultValue={value ?? String(shownGroup?.id ?? '')} {...control}>
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
    <section className="ops-page" aria-labelledby="ops-title">
      <p className="crumb">
        <Link to={`/admin/${t.id}/stages`}>Stages</Link>
      </p>
      <h1 id="ops-title">{stage.name}</h1>
      <p className="ops-subtitle">
        {t.name} · Stage {stage.order} · <span className={`badge ${stage.tone}`}>{stage.state}</span>
      </p>
      <p className="fine">
        Lobby {stage.lobbySize} · first slot {stage.firstSlot} · {stage.advance}
      </p>

      <Panel id="settings" title="Settings">
        {summary('settings', [...STAGE_FIELDS, ...CHECK_IN_FIELDS])}
        <Form method="post" className="form" noValidate key={keyOf('settings', `settings-${JSON.stringify(stage)}`)}>
          <input type="hidden" name="intent" value="settings" />
          <TextField name="name" label="Name" error={se.name} defaultValue={sv('name')} maxLength={40} required />
          <div className="ops-pair">
            <TextField name="lobbySize" label="Lobby size" error={se.lobbySize} defaultValue={sv('lobbySize')} inputMode="numeric" />
            <TextField name="firstSlot" label="First slot" error={se.firstSlot} defaultValue={sv('firstSlot')} inputMode="numeric" />
          </div>
          <div className="ops-pair">
            <TextField
              name="advancePerGroup"
              label="Advance per group"
              error={se.advancePerGroup}
              defaultValue={sv('advancePerGroup')}
              inputMode="numeric"
            />
            <TextField
              name="advanceBest"
              label="Best of the rest"
              error={se.advanceBest}
              defaultValue={sv('advanceBest')}
              inputMode="numeric"
            />
          </div>
          <CheckInWindowFields
            values={{
              checkInOpensAt: settingsValues.checkInOpensAt ?? stage.checkInOpensAt,
              checkInClosesAt: settingsValues.checkInClosesAt ?? stage.checkInClosesAt,
            }}
            errors={se}
            timeZone={page.timeZone}
          />
          <p className="fine">Changing the lobby size or first slot clears the groups (the stage goes back to draft).</p>
          <SubmitButton pendingLabel="Saving…">Save settings</SubmitButton>
        </Form>
        <details className="st-details" open={failed === 'delete'}>
          <summary>Delete this stage</summary>
          {summary('delete', ['confirm'])}
          <Form method="post" noValidate>
            <input type="hidden" name="intent" value="delete" />
            <p className="st-confirm">
              <input
                type="checkbox"
                id="delete-confirm"
                name="confirm"
                value="yes"
                aria-describedby={errorsOf('delete').confirm ? 'confirm-error' : undefined}
              />
              <label htmlFor="delete-confirm">Yes, delete {stage.name} with its groups and matches</label>
            </p>
            <button type="submit" className="button button-danger">
              Delete stage
            </button>
          </Form>
        </details>
      </Panel>

      {page.checkIn ? (
        <Panel id="check-in" title={`Check-in: ${page.checkIn.checkedIn} of ${page.checkIn.total}`}>
          <p className="fine">
            {page.checkIn.closed ? 'Closed' : 'Window'}: {page.checkIn.window}.
          </p>
          {!page.checkIn.closed ? (
            page.checkIn.waiting.length > 0 ? (
              <p>Not checked in yet: {page.checkIn.waiting.join(', ')}.</p>
            ) : (
              <p>Every team has checked in.</p>
            )
          ) : page.checkIn.noShows.length === 0 && !page.checkIn.decided ? (
            <p>No no-shows: every team checked in.</p>
          ) : (
            <>
              {/* Replaced no-shows are released and leave the list: the decision below still says what happened. */}
              {page.checkIn.noShows.length > 0 ? (
                <>
                  <h3>No-shows ({page.checkIn.noShows.length})</h3>
                  <ul className="st-qualifiers">
                    {page.checkIn.noShows.map((n) => (
                      <li key={n.teamId}>{n.teamName}</li>
                    ))}
                  </ul>
                </>
              ) : null}
              {page.checkIn.decided ? (
                <p role="status">
                  {page.checkIn.decided === 'replace'
                    ? 'Replaced: the no-shows were released and waitlisted teams took their places.'
                    : 'Left: their slots stay empty.'}
                </p>
              ) : (
                <>
                  {summary('no-shows', [NO_SHOW_FIELD])}
                  <Form method="post" noValidate>
                    <input type="hidden" name="intent" value="no-shows" />
                    <fieldset
                      className="st-radios"
                      id={NO_SHOW_FIELD}
                      aria-describedby={errorsOf('no-shows')[NO_SHOW_FIELD] ? `${NO_SHOW_FIELD}-error` : undefined}
                    >
                      <legend>What to do with them</legend>
                      {page.checkIn.actions.includes('replace') ? (
                        <label>
                          <input type="radio" name={NO_SHOW_FIELD} value="replace" defaultChecked={page.checkIn.actions.length === 1} />{' '}
                          Replace them from the waitlist (they lose their place)
                        </label>
                      ) : null}
                      <label>
                        {/* Issue 27: a form with one choice has it selected. */}
                        <input type="radio" name={NO_SHOW_FIELD} value="leave" defaultChecked={page.checkIn.actions.length === 1} /> Leave
                        their slots empty
                      </label>
                      {errorsOf('no-shows')[NO_SHOW_FIELD] ? (
                        <p className="field-error" id={`${NO_SHOW_FIELD}-error`}>
                          {errorsOf('no-shows')[NO_SHOW_FIELD]}
                        </p>
                      ) : null}
                    </fieldset>
                    {page.checkIn.actions.includes('replace') ? null : (
                      <p className="fine">Replacing is only for the first stage, before it is published.</p>
                    )}
                    <SubmitButton className="button" pendingLabel="Saving…">
                      Settle the no-shows
                    </SubmitButton>
                  </Form>
                </>
              )}
            </>
          )}
        </Panel>
      ) : null}

      <Panel id="entrants" title={`Entrants: ${page.entrants.count}`}>
        <p className="fine">
          {stage.later
            ? `${page.entrants.qualified} qualified from the previous stage, ${page.entrants.invited.length} invited.`
            : 'The confirmed teams (verified payment, or every team when the entry is free).'}
        </p>
        {stage.checkedIn !== null ? (
          <p id="entrants-checked-in">
            <strong>
              {stage.checkedIn} of {stage.entrants} checked in
            </strong>
            : only checked-in teams are drawn.
          </p>
        ) : null}
        {stage.later ? (
          <>
            {page.entrants.invited.length > 0 ? (
              <ul className="st-qualifiers">
                {page.entrants.invited.map((e) => (
                  <li key={e.teamId}>
                    {e.teamName}{' '}
                    <Form method="post" className="st-inline">
                      <input type="hidden" name="intent" value="uninvite" />
                      <input type="hidden" name="teamId" value={e.teamId} />
                      <button type="submit" className="button button-secondary">
                        Withdraw<span className="visually-hidden"> the invite of {e.teamName}</span>
                      </button>
                    </Form>
                  </li>
                ))}
              </ul>
            ) : null}
            {summary('invite', ['teamId'])}
            {failed === 'uninvite' ? summary('uninvite') : null}
            {page.invite.search ? (
              <Form method="get" className="ops-pick" action="#entrants">
                <div>
                  <label htmlFor="team-search">Find a team to invite</label>
                  <input id="team-search" name="team" type="search" defaultValue={page.invite.query} autoComplete="off" />
                </div>
                <button type="submit" className="button button-secondary">
                  Find
                </button>
              </Form>
            ) : null}
            {page.invite.search && page.invite.query && page.invite.teams.length === 0 ? (
              <p className="fine" role="status">
                No registered team outside this stage has “{page.invite.query}” in its name.
              </p>
            ) : null}
            {page.invite.more ? <p className="fine">More teams match: the first {page.invite.teams.length} are listed.</p> : null}
            {!page.invite.search || page.invite.teams.length > 0 ? (
              <Form method="post" className="form" noValidate key={keyOf('invite', 'invite')}>
                <input type="hidden" name="intent" value="invite" />
                <Field id="teamId" label="Invite a registered team" error={errorsOf('invite').teamId}>
                  {(control) => (
                    <select name="teamId" defaultValue={valuesOf('invite').teamId ?? ''} {...control}>
                      <option value="">Choose a team</option>
                      {page.invite.teams.map((r) => (
                        <option key={r.rid} value={r.rid}>
                          {r.teamName}
                        </option>
                      ))}
                    </select>
                  )}
                </Field>
                {page.checkIn ? (
                  <p className="st-confirm">
                    <input type="checkbox" id="invite-check-in" name="checkIn" value="yes" />
                    <label htmlFor="invite-check-in">Ask the team to check in (left unticked, it counts as checked in)</label>
                  </p>
                ) : null}
                <p className="fine">The team is told it is invited.</p>
                <SubmitButton pendingLabel="Inviting…">Invite team</SubmitButton>
              </Form>
            ) : null}
          </>
        ) : null}
      </Panel>

      <Panel id="draw" title="Generate groups">
        {stage.draw ? (
          <p>
            Drawn by <strong>{DRAW_METHOD_LABELS[stage.draw.method]}</strong>
            {stage.draw.seed ? (
              <>
                {' '}
                · seed <span className="mono">{stage.draw.seed}</span>
              </>
            ) : null}
          </p>
        ) : (
          <p className="fine">No groups yet.</p>
        )}
        {draft && stage.checkedIn !== null ? (
          <p id="draw-checked-in">
            {stage.checkedIn} of {stage.entrants} checked in: only checked-in teams are drawn.
          </p>
        ) : null}
        {draft ? (
          <>
            {summary('draw', ['method', 'seed', 'confirmSplit'])}
            <Form method="post" className="form" noValidate key={keyOf('draw', `draw-${stage.draw?.drawnAt ?? ''}`)}>
              <input type="hidden" name="intent" value="draw" />
              <fieldset className="st-radios" aria-describedby={drawErrors.method ? 'method-error' : undefined}>
                <legend>Method</legend>
                {DRAW_METHODS.filter((m) => m !== 'seeded' || stage.later).map((m) => (
                  <label key={m}>
                    <input
                      type="radio"
                      name="method"
                      value={m}
                      defaultChecked={(drawValues.method ?? stage.draw?.method ?? 'random') === m}
                    />
                    {DRAW_METHOD_LABELS[m]}
                  </label>
                ))}
                {drawErrors.method ? (
                  <p className="field-error" id="method-error">
                    {drawErrors.method}
                  </p>
                ) : null}
              </fieldset>
              <TextField
                name="seed"
                label="Seed (random only, optional)"
                hint="Left empty, one is picked and shown here."
                error={drawErrors.seed}
                defaultValue={drawValues.seed ?? ''}
                maxLength={SEED_MAX}
                autoComplete="off"
                spellCheck={false}
              />
              {page.split || drawErrors.confirmSplit ? (
                // The warning above its box, the refusal under it: one column at 360 px, never a row of three.
                <div className="notice">
                  {page.split ? <p id="split-warning">{page.split}</p> : null}
                  <p className="st-confirm">
                    <input
                      type="checkbox"
                      id="confirmSplit"
                      name="confirmSplit"
                      value="yes"
                      defaultChecked={drawValues.confirmSplit === 'yes'}
                      aria-invalid={drawErrors.confirmSplit ? true : undefined}
                      aria-describedby={
                        [page.split ? 'split-warning' : '', drawErrors.confirmSplit ? 'confirmSplit-error' : '']
                          .filter(Boolean)
                          .join(' ') || undefined
                      }
                    />
                    <label htmlFor="confirmSplit">Yes, split them into smaller groups</label>
                  </p>
                  {drawErrors.confirmSplit ? (
                    <p className="field-error" id="confirmSplit-error">
                      {drawErrors.confirmSplit}
                    </p>
                  ) : null}
                </div>
              ) : null}
              <SubmitButton pendingLabel="Drawing…">{groups.length ? 'Draw again' : 'Generate groups'}</SubmitButton>
            </Form>
          </>
        ) : (
          <p className="fine">Published: the groups are fixed.</p>
        )}
      </Panel>

      {groups.length > 0 ? (
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
          {shownGroup ? (
            <table className="st-slots">
              <caption>
                Group {shownGroup.name}: {shownGroup.slots.length} teams
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
                {[...shownGroup.slots, ...page.shownEmpty.map((slot) => ({ slot, teamName: null }))]
                  .sort((a, b) => a.slot - b.slot)
                  .map((s) => (
                    <tr key={s.slot}>
                      <td className="num">{s.slot}</td>
                      <td>{s.teamName ?? <span className="fine">Empty</span>}</td>
                    </tr>
                  ))}
              </tbody>
            </table>
          ) : null}
          <p>
            <a href={`${base}/slots.csv`} download>
              Download the slot list (CSV)
            </a>
          </p>

          {!stage.hasResults ? (
            <details className="st-details" open={failed === 'move'}>
              <summary>Swap or move a team</summary>
              {summary('move', ['fromGroup', 'fromSlot', 'toGroup', 'toSlot'])}
              <Form method="post" className="form" noValidate key={keyOf('move', 'move')}>
                <input type="hidden" name="intent" value="move" />
                <input type="hidden" name="group" value={shownGroup?.id ?? ''} />
                <div className="ops-pair">
                  {groupSelect('fromGroup', 'From group', moveValues.fromGroup, moveErrors.fromGroup)}
                  <TextField
                    name="fromSlot"
                    label="From slot"
                    error={moveErrors.fromSlot}
                    defaultValue={moveValues.fromSlot ?? ''}
                    inputMode="numeric"
                  />
                </div>
                <div className="ops-pair">
                  {groupSelect('toGroup', 'To group', moveValues.toGroup, moveErrors.toGroup)}
                  <TextField
                    name="toSlot"
                    label="To slot"
                    error={moveErrors.toSlot}
                    defaultValue={moveValues.toSlot ?? ''}
                    inputMode="numeric"
                  />
                </div>
                <p className="fine">A slot that holds a team swaps with it; a free slot takes the team.</p>
                <SubmitButton pendingLabel="Moving…">Swap or move</SubmitButton>
              </Form>
            </details>
          ) : null}

          {draft ? (
            <>
              {summary('publish')}
              <Form method="post">
                <input type="hidden" name="intent" value="publish" />
                <p className="fine">Publishing shows the groups and slots to the teams and fixes the draw.</p>
                <SubmitButton pendingLabel="Publishing…">Publish stage</SubmitButton>
              </Form>
            </>
          ) : null}
        </Panel>
      ) : null}

      {page.fill ? <FillSlotPanel fill={page.fill} /> : null}

      <Panel id="schedule" title="Schedule the whole stage">
        <p className="fine">
          Each row becomes one match for every group. A row whose day and match exist updates its map and time. Rows without a map and time
          are ignored.
        </p>
        {summary('schedule', [
          GROUP_GAP_FIELD,
          ...Array.from({ length: page.scheduleRows }, (_, r) => SCHEDULE_FIELDS.map((f) => scheduleInput(f, r))).flat(),
        ])}
        <Form method="post" noValidate key={keyOf('schedule', `schedule-${slots.length}-${stage.groupGap}`)}>
          <input type="hidden" name="intent" value="schedule" />
          <TextField
            name={GROUP_GAP_FIELD}
            label="Minutes between groups"
            hint={`0: every group plays at the row's time. 90: Group A at 12:00, B at 13:30, C at 15:00 … (at most ${GROUP_GAP_MAX}).`}
            error={schedErrors[GROUP_GAP_FIELD]}
            defaultValue={schedValues[GROUP_GAP_FIELD] ?? String(stage.groupGap)}
            inputMode="numeric"
          />
          {Array.from({ length: page.scheduleRows }, (_, r) => {
            const existing = slots[r];
            const v = (f: (typeof SCHEDULE_FIELDS)[number], fallback: string) => schedValues[scheduleInput(f, r)] ?? fallback;
            return (
              <fieldset key={r} className="st-set">
                <legend>Row {r + 1}</legend>
                <div className="st-row">
                  <Field id={scheduleInput('day', r)} label="Day" error={schedErrors[scheduleInput('day', r)]}>
                    {(control) => (
                      <select name={scheduleInput('day', r)} defaultValue={v('day', String(existing?.day ?? 1))} {...control}>
                        {days.map((d) => (
                          <option key={d} value={d}>
                            Day {d}
                          </option>
                        ))}
                      </select>
                    )}
                  </Field>
                  <Field id={scheduleInput('matchNo', r)} label="Match" error={schedErrors[scheduleInput('matchNo', r)]}>
                    {(control) => (
                      <select
                        name={scheduleInput('matchNo', r)}
                        defaultValue={v('matchNo', String(existing?.matchNo ?? Math.min(r + 1, page.limits.matches)))}
                        {...control}
                      >
                        {numbers.map((n) => (
                          <option key={n} value={n}>
                            Match {n}
                          </option>
                        ))}
                      </select>
                    )}
                  </Field>
                  <TextField
                    id={scheduleInput('map', r)}
                    name={scheduleInput('map', r)}
                    label="Map"
                    error={schedErrors[scheduleInput('map', r)]}
                    defaultValue={v('map', existing?.map ?? '')}
                    maxLength={MAP_MAX}
                    autoComplete="off"
                  />
                  <TextField
                    id={scheduleInput('time', r)}
                    name={scheduleInput('time', r)}
                    type="time"
                    label="Time"
                    error={schedErrors[scheduleInput('time', r)]}
                    defaultValue={v('time', existing?.time ?? '')}
                  />
                </div>
              </fieldset>
            );
          })}
          <SubmitButton pendingLabel="Scheduling…">Schedule for every group</SubmitButton>
        </Form>
        {page.scheduleRows < 12 ? (
          <p className="fine">
            <Link to="?rows=all#schedule">Show 12 rows</Link>
          </p>
        ) : null}
      </Panel>

      {slots.length > 0 ? (
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
              {summary('rooms')}
              <Form method="post" noValidate key={keyOf('rooms', `rooms-${JSON.stringify(rooms.slots)}`)}>
                <input type="hidden" name="intent" value="rooms" />
                {rooms.inline ? null : <input type="hidden" name="rooms" value={rooms.chosen ?? ''} />}
                {rooms.slots.map((s) => (
                  <details
                    key={`${s.day}-${s.matchNo}`}
                    className="st-details"
                    open={rooms.slots.length === 1 || s.groups.some((g) => !g.room) || failed === 'rooms'}
                  >
                    <summary>
                      Day {s.day} · Match {s.matchNo} · {s.map} {s.time}
                    </summary>
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
                        {s.groups.map((g) => {
                          // One row per group: labelled by its group and column, as the points form's cells are.
                          const cell = (field: 'room' | 'pw', value: string) => {
                            const name = roomInput(field, g.id);
                            const error = roomErrors[name];
                            return (
                              <td>
                                <input
                                  id={name}
                                  name={name}
                                  type="text"
                                  defaultValue={roomValues[name] ?? value}
                                  // Room IDs are digits in BGMI and Free Fire: bring up the number keypad.
                                  inputMode={field === 'room' ? 'numeric' : undefined}
                                  maxLength={ROOM_TEXT_MAX}
                                  autoComplete="off"
                                  spellCheck={false}
                                  autoCapitalize="none"
                                  aria-labelledby={`rg-${g.id} rc-${field}-${s.day}-${s.matchNo}`}
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
                          };
                          return (
                            <tr key={g.id}>
                              <th scope="row" id={`rg-${g.id}`}>
                                <span className="visually-hidden">
                                  Day {s.day} match {s.matchNo} group{' '}
                                </span>
                                {g.groupName}
                              </th>
                              {cell('room', g.room)}
                              {cell('pw', g.pw)}
                            </tr>
                          );
                        })}
                      </tbody>
                    </table>
                  </details>
                ))}
                <SubmitButton pendingLabel="Saving…">Save rooms</SubmitButton>
              </Form>
            </>
          ) : (
            <p className="fine">Choose a match to set its rooms.</p>
          )}
        </Panel>
      ) : null}

      {slots.length > 0 ? (
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
          </Form>
          <p>
            <a href={`${base}/results.csv`} download>
              Download the results (CSV)
            </a>
          </p>
        </Panel>
      ) : null}

      {advance ? (
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
          {completed ? (
            <>
              {advance.nextStage ? (
                <p>
                  Next: <Link to={`/admin/${t.id}/stages/${advance.nextStage.id}`}>{advance.nextStage.name}</Link>
                </p>
              ) : null}
              {summary('reopen')}
              <Form method="post">
                <input type="hidden" name="intent" value="reopen" />
                <SubmitButton pendingLabel="Reopening…">Reopen stage</SubmitButton>
              </Form>
            </>
          ) : (
            <>
              {summary('complete', ['confirm', NOT_PLAYED_FIELD])}
              <Form method="post" noValidate key={keyOf('complete', 'complete')}>
                <input type="hidden" name="intent" value="complete" />
                {stage.resultsLine ? <p id="complete-results-count">{stage.resultsLine}.</p> : null}
                {advance.missing.length > 0 ? (
                  <fieldset
                    className="st-radios"
                    id={NOT_PLAYED_FIELD}
                    aria-describedby={errorsOf('complete')[NOT_PLAYED_FIELD] ? `${NOT_PLAYED_FIELD}-error` : undefined}
                  >
                    <legend>Matches without results: tick those that were not played</legend>
                    {advance.missing.map((m) => (
                      <label key={m.id}>
                        <input
                          type="checkbox"
                          name={NOT_PLAYED_FIELD}
                          value={m.id}
                          defaultChecked={m.notPlayed || (valuesOf('complete')[NOT_PLAYED_FIELD] ?? '').split(',').includes(String(m.id))}
                        />{' '}
                        {m.label}: not played
                      </label>
                    ))}
                    {errorsOf('complete')[NOT_PLAYED_FIELD] ? (
                      <p className="field-error" id={`${NOT_PLAYED_FIELD}-error`}>
                        {errorsOf('complete')[NOT_PLAYED_FIELD]}
                      </p>
                    ) : null}
                  </fieldset>
                ) : null}
                <p className="st-confirm">
                  <input type="checkbox" id="complete-confirm" name="confirm" value="yes" />
                  <label htmlFor="complete-confirm">Complete {stage.name}: every match has results or is marked not played</label>
                </p>
                <SubmitButton pendingLabel="Completing…">Complete stage</SubmitButton>
              </Form>
            </>
          )}
        </Panel>
      ) : null}
    </section>
  );
}

/**
 * Decision 052: after publishing, places no longer move by themselves. A team that leaves leaves its slot
 * empty; the organiser seats a waitlisted team, or a confirmed team without a slot, in it (one POST).
 */
function FillSlotPanel({ fill }: { fill: { slots: { value: string; label: string }[]; teams: { value: string; label: string }[] } }) {
  const actionData = useActionData<ActionFailure>();
  const mine = (actionData?.values as FormValues | undefined)?.intent === 'fill-slot';
  const errors = mine ? (actionData?.fieldErrors ?? {}) : {};
  const values: FormValues = mine ? (actionData?.values ?? {}) : {};
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
        <>
          <ErrorSummary
            fieldErrors={errors}
            formError={mine ? actionData?.formError : null}
            order={['seat', 'teamId']}
            ids={{ teamId: 'fill-team' }}
          />
          <Form method="post" className="form" noValidate key={mine ? `failed-${JSON.stringify(actionData)}` : 'fill-slot'}>
            <input type="hidden" name="intent" value="fill-slot" />
            <p className="fine">
              Registration closed when the first stage was published, so nobody moves up by themselves. The team you seat is told its group
              and slot.
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
      )}
    </Panel>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
