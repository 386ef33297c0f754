import { data } from '@remix-run/node';
import { ReportSettingsBodySchema, type ReportLobby } from '@custom-room/contract';
import { MATCH_DAY_MAX, MATCH_NO_MAX, TOURNAMENT_NOT_FOUND } from '@custom-room/contract/constants';
import { getEnv } from './env.server';
import { pageError } from './errors.server';
import { formatDateTime } from './format';
import {
  formEntries,
  formFailure,
  safeValues,
  submitToGateway,
  UNAVAILABLE_FORM_MESSAGE,
  zodFieldErrors,
  type FieldErrors,
  type FormValues,
} from './forms.server';
import { call, gateway, GatewayError } from './gateway.server';
import { resultInput } from './results-entry';
import { parseResultsForm, resultsRefusal } from './results-entry.server';
import { requireTournamentId } from './route-params.server';
import { flash } from './session.server';
import { queryNumber } from './stage-admin.server';

/**
 * Issue 30 (decision 075): the staff's side of captains' reports. The lobby view of one group-match (the
 * reports beside their screenshots, conflicts, reused screenshots, missing teams), its one "Confirm lobby"
 * form on the shared results grid (decision 062), closing and reopening reporting. Every gateway call of
 * the staff's report pages is made here.
 */

export const MATCH_NOT_FOUND = 'This group-match was not found.';
export const CONFIRM_FAILED = 'The lobby was not confirmed.';
const REPORTING_FAILED = 'Reporting could not be changed.';

/** The forms of the lobby view; a refusal carries its intent so only that form shows it. */
export const LOBBY_INTENTS = ['confirm', 'reporting'] as const;
export type LobbyIntent = (typeof LOBBY_INTENTS)[number];

export interface LobbyKey {
  tid: number;
  day: number;
  match: number;
  /** The group (?group=); left out, the gateway takes the match's only group. */
  group?: number;
}

/** /admin/:tid/reports/:day/:match?group=, each part checked (a 404 page when one does not fit). */
export function lobbyKeyOf(request: Request, params: Record<string, string | undefined>): LobbyKey {
  const tid = requireTournamentId(params.tournamentId);
  const day = queryNumber(params.day ?? null, MATCH_DAY_MAX);
  const match = queryNumber(params.match ?? null, MATCH_NO_MAX);
  const rawGroup = new URL(request.url).searchParams.get('group');
  const group = queryNumber(rawGroup, 2_147_483_647) ?? undefined;
  if (!day || !match || (rawGroup !== null && rawGroup !== '' && !group)) throw data({ message: MATCH_NOT_FOUND }, { status: 404 });
  return { tid, day, match, ...(group ? { group } : {}) };
}

export const lobbyPath = ({ tid, day, match, group }: LobbyKey) => `/admin/${tid}/reports/${day}/${match}${group ? `?group=${group}` : ''}`;

const lobbyCall = ({ tid, day, match, group }: LobbyKey) => ({ params: { id: tid, day, match }, query: group ? { group } : {} });

/** "19:45" in the app's zone: when the provisional results become final. */
export function clockTime(iso: string | null | undefined, timeZone: string): string {
  if (!iso) return '';
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return '';
  return new Intl.DateTimeFormat('en-GB', { timeZone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(at);
}

type SameScreenshot = NonNullable<ReportLobby['reports'][number]['sameScreenshot']>[number];

/** A reused screenshot in words: another report of this tournament is named, another tournament's is not. */
export function sameScreenshotWords(s: SameScreenshot): string {
  if (!s.sameTournament || !s.teamName) return 'The same screenshot as a report in another tournament.';
  const where = s.day && s.match ? ` of day ${s.day} match ${s.match}${s.groupName ? ` (group ${s.groupName})` : ''}` : '';
  return `The same screenshot as ${s.teamName}’s report${where}.`;
}

/** Where reporting stands, as the staff read it. */
function stateWords(lobby: ReportLobby, timeZone: string): string {
  switch (lobby.reporting) {
    case 'not-started':
      return lobby.startsAt
        ? `Reporting opens at the match’s start, ${formatDateTime(lobby.startsAt, timeZone)}.`
        : 'Reporting has not started.';
    case 'open':
      return lobby.endsAt ? `Reporting is open (the match should end ${formatDateTime(lobby.endsAt, timeZone)}).` : 'Reporting is open.';
    case 'closed':
      return 'Reporting is closed: teams cannot report or edit.';
    case 'confirmed': {
      const who = lobby.confirmedBy ? ` by ${lobby.confirmedBy}` : '';
      const when = lobby.confirmedAt ? ` at ${formatDateTime(lobby.confirmedAt, timeZone)}` : '';
      const until = lobby.provisionalUntil ? ` Provisional until ${clockTime(lobby.provisionalUntil, timeZone)}.` : '';
      return `Confirmed${who}${when}.${until}`;
    }
  }
}

interface Prefill {
  position: string;
  finishes: string;
  absent: boolean;
  points: number | null;
}

/**
 * The rows of the confirm form in placement order, as the game's result screen lists them and as the
 * reports above are listed: by the stored position once confirmed, else the reported one; teams with
 * neither follow in slot order. Each row prefilled from the stored result (once confirmed) or the report.
 */
function confirmRows(lobby: ReportLobby) {
  const confirmed = lobby.reporting === 'confirmed';
  const stored = new Map(lobby.results.map((r) => [r.teamId, r]));
  const reported = new Map(lobby.reports.map((r) => [r.teamId, r]));
  const prefill: Record<string, Prefill> = {};
  const place = new Map<number, number>();
  for (const team of lobby.teams) {
    const result = stored.get(team.teamId);
    const report = reported.get(team.teamId);
    if (result && (confirmed || !report)) {
      const absent = result.absent === true;
      prefill[team.teamId] = {
        position: absent ? '' : String(result.position),
        finishes: absent ? '' : String(result.finishes),
        absent,
        points: result.totalPoints,
      };
      if (!absent && result.position > 0) place.set(team.teamId, result.position);
    } else if (report) {
      prefill[team.teamId] = { position: String(report.position), finishes: String(report.finishes), absent: false, points: null };
      place.set(team.teamId, report.position);
    }
  }
  const slotOrder = new Map(lobby.teams.map((t, i) => [t.teamId, i]));
  const rank = (teamId: number) => place.get(teamId) ?? Number.MAX_SAFE_INTEGER;
  const teams = [...lobby.teams].sort((a, b) => rank(a.teamId) - rank(b.teamId) || slotOrder.get(a.teamId)! - slotOrder.get(b.teamId)!);
  return { teams: teams.map((t) => ({ teamId: t.teamId, teamName: t.teamName, slot: t.slot, igns: t.igns })), prefill };
}

export type LobbyPage = Awaited<ReturnType<typeof loadLobby>>;

export async function loadLobby(request: Request, key: LobbyKey) {
  const [t, lobby] = await Promise.all([gateway.getTournament(request, key.tid), call(request, 'reportLobby', lobbyCall(key))]).catch(
    (err) => pageError(err, MATCH_NOT_FOUND),
  );
  const timeZone = getEnv().APP_TIME_ZONE;
  const names = new Map(lobby.teams.map((x) => [x.teamId, x.teamName]));
  const reportedIds = new Set(lobby.reports.map((r) => r.teamId));
  const inConflict = new Set(lobby.conflicts.flatMap((c) => c.teamIds));
  const rows = confirmRows(lobby);
  return {
    t: { id: t.id, name: t.name },
    key,
    here: lobbyPath(key),
    title: `${lobby.groupName ? `Group ${lobby.groupName} · ` : ''}Day ${key.day} · Match ${key.match}`,
    stageName: lobby.stageName ?? '',
    reporting: lobby.reporting,
    state: stateWords(lobby, timeZone),
    lobby: lobby.lobby,
    conflicts: lobby.conflicts.map((c) => ({
      kind: c.kind,
      message: c.message,
      // A team with a report is linked to it, one without to its row of the form.
      teams: c.teamIds.map((id) => ({
        name: names.get(id) ?? `Team ${id}`,
        href: reportedIds.has(id) ? `#report-${id}` : `#${resultInput('position', id)}`,
      })),
    })),
    reports: lobby.reports.map((r) => ({
      id: r.id,
      teamId: r.teamId,
      teamName: r.teamName,
      position: r.position,
      finishes: r.finishes,
      players: r.players,
      by: r.reportedBy,
      at: formatDateTime(r.reportedAt, timeZone),
      edited: r.updatedAt !== r.reportedAt ? formatDateTime(r.updatedAt, timeZone) : null,
      screenshot: `/screenshots/report/${key.tid}/${r.id}`,
      same: (r.sameScreenshot ?? []).map(sameScreenshotWords),
      conflict: inConflict.has(r.teamId),
    })),
    missing: lobby.missing,
    checking: lobby.screenshotChecksPending ?? 0,
    ...rows,
  };
}

type Failure = ReturnType<typeof formFailure>;
const fail = (intent: LobbyIntent, values: FormValues, fieldErrors: FieldErrors, formError: string | null, status = 400): Failure =>
  formFailure({ values: { ...values, intent }, fieldErrors, formError }, status);

/** The lobby view's action: confirm the lobby (the grid's rows) or close / reopen reporting; PRG either way. */
export async function lobbyAction(request: Request, key: LobbyKey): Promise<Response | Failure> {
  const formData = await request.formData();
  const intent = formEntries(formData).intent;
  if (intent === 'reporting') return setReporting(request, key, formData);
  return confirmLobby(request, key, formData);
}

async function confirmLobby(request: Request, key: LobbyKey, formData: FormData): Promise<Response | Failure> {
  // The teams the form names (no second read of the lobby before the confirm): the gateway refuses a team outside the lobby.
  const parsed = parseResultsForm(formData, { absent: true });
  if (!parsed.ok) return fail('confirm', parsed.values, parsed.fieldErrors, CONFIRM_FAILED);
  let confirmed;
  try {
    confirmed = await call(request, 'confirmLobby', { ...lobbyCall(key), body: { results: parsed.rows } });
  } catch (err) {
    if (!(err instanceof GatewayError)) throw err;
    const refusal = resultsRefusal(err, { failed: CONFIRM_FAILED });
    return fail('confirm', parsed.values, refusal.fieldErrors, refusal.formError, err.unavailable ? 503 : err.status);
  }
  const until = clockTime(confirmed.provisionalUntil, getEnv().APP_TIME_ZONE);
  return flash(request, until ? `Lobby confirmed: results are provisional until ${until}` : 'Lobby confirmed', lobbyPath(key));
}

async function setReporting(request: Request, key: LobbyKey, formData: FormData): Promise<Response | Failure> {
  const open = formEntries(formData).open === 'true';
  try {
    await call(request, 'setReporting', { ...lobbyCall(key), body: { open } });
  } catch (err) {
    if (!(err instanceof GatewayError)) throw err;
    const message = err.unavailable ? UNAVAILABLE_FORM_MESSAGE : err.message || REPORTING_FAILED;
    return fail('reporting', {}, {}, message, err.unavailable ? 503 : err.status);
  }
  return flash(request, open ? 'Reporting reopened' : 'Reporting closed', lobbyPath(key));
}

// --- Report settings (owner and co-organisers): the match length per stage and the dispute window ---

export const SETTINGS_FAILED = 'The report settings were not saved.';
export const stageMinutesInput = (stageId: number) => `stage-${stageId}`;

export async function loadReportSettings(request: Request, tid: number) {
  const [t, settings] = await Promise.all([
    gateway.getTournament(request, tid),
    call(request, 'reportSettings', { params: { id: tid } }),
  ]).catch((err) => pageError(err, TOURNAMENT_NOT_FOUND));
  // Each stage's input is named by the loader: the page's component does not import this module.
  return { t: { id: t.id, name: t.name }, settings, stages: settings.stages.map((s) => ({ ...s, input: stageMinutesInput(s.stageId) })) };
}

/** The settings form as the gateway's body: every field sent (the form shows them all, filled in). */
export async function saveReportSettings(request: Request, tid: number) {
  const formData = await request.formData();
  const values = safeValues(formData);
  const stageIds = Object.keys(values)
    .map((name) => /^stage-(\d{1,9})$/.exec(name)?.[1])
    .filter((id): id is string => !!id)
    .map(Number);
  const parsed = ReportSettingsBodySchema.safeParse({
    matchMinutes: values.matchMinutes ?? '',
    disputeMinutes: values.disputeMinutes ?? '',
    stages: stageIds.map((stageId) => ({ stageId, matchMinutes: values[stageMinutesInput(stageId)] ?? '' })),
  });
  // "stages.2.matchMinutes" is the third stage's input.
  const rename = Object.fromEntries(stageIds.map((id, i) => [`stages.${i}.matchMinutes`, stageMinutesInput(id)]));
  if (!parsed.success) {
    const { fieldErrors, formError } = zodFieldErrors(parsed.error);
    return formFailure({
      values,
      fieldErrors: Object.fromEntries(Object.entries(fieldErrors).map(([k, m]) => [rename[k] ?? k, m])),
      formError,
    });
  }
  const sent = await submitToGateway(() => call(request, 'setReportSettings', { params: { id: tid }, body: parsed.data }), {
    values,
    fields: ['matchMinutes', 'disputeMinutes', ...stageIds.map(stageMinutesInput)],
    fallback: SETTINGS_FAILED,
    rename,
  });
  if (!sent.ok) return sent.failure;
  return flash(request, 'Report settings saved', `/admin/${tid}/reports`);
}
