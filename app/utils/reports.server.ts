import { data } from '@remix-run/node';
import { type MyReports, playersPerTeam, validateReportForm } from '@custom-room/contract';
import {
  MATCH_DAY_MAX,
  MATCH_NO_MAX,
  NOT_IN_LOBBY,
  REPORT_PLAYER_ROWS,
  SCREENSHOT_FIELD,
  SCREENSHOT_MESSAGES,
  reportFinishesField,
  reportPlayerField,
  TOURNAMENT_NOT_FOUND,
} from '@custom-room/contract/constants';
import { reportKey, type ReportLineView } from '~/components/reports/report-lines';
import { getEnv } from './env.server';
import { pageError } from './errors.server';
import { formatDateTime } from './format';
import { formFailure, submitToGateway, type FieldErrors, type FormValues } from './forms.server';
import { call, fetchGatewayImage, gateway, GatewayError } from './gateway.server';
import { requireTournamentId } from './route-params.server';
import { flash, requireUser } from './session.server';
import { readTournamentUpload, type UploadFile } from './tournament-upload.server';

/**
 * Issue 30 (decision 074), the team's side: where each of its group-matches' reports stands, the report
 * form's reading and sending, and the private screenshot proxy. The gateway decides who may report or see.
 */

export type TeamMatch = MyReports['matches'][number];

export const REPORT_SAVED = 'Reported. You can edit the report until the lobby staff confirm the match.';
export const REPORT_FAILED = 'We could not save your report. Please try again.';
/** The field that carries the chosen file's name back, to ask for it again (a browser cannot keep a file). */
export const SCREENSHOT_NAME_VALUE = 'screenshotChosen';
export const REPORT_FORM_FIELDS = [
  'position',
  ...Array.from({ length: REPORT_PLAYER_ROWS }, (_, i) => [reportPlayerField(i + 1), reportFinishesField(i + 1)]).flat(),
  'players',
  SCREENSHOT_FIELD,
] as const;

export const SCREENSHOT_UPLOAD: UploadFile = {
  field: SCREENSHOT_FIELD,
  messages: { wrongType: SCREENSHOT_MESSAGES.unreadable, tooLarge: SCREENSHOT_MESSAGES.tooLarge, tooMany: SCREENSHOT_MESSAGES.tooMany },
};

// --- paths ---

const groupQuery = (groupId: number | undefined | null) => (groupId ? `?${new URLSearchParams({ group: String(groupId) })}` : '');
export const reportPath = (tid: number, m: { day: number; match: number; groupId?: number | null }) =>
  `/team/${tid}/reports/${m.day}/${m.match}${groupQuery(m.groupId)}`;
export const reportScreenshotPath = (tid: number, reportId: number) => `/screenshots/report/${tid}/${reportId}`;
export const disputeScreenshotPath = (tid: number, disputeId: number) => `/screenshots/dispute/${tid}/${disputeId}`;
export function disputeFormPath(tid: number, m: { day: number; match: number; groupId?: number | null }, teamId?: number) {
  const q = new URLSearchParams({ day: String(m.day), match: String(m.match) });
  if (m.groupId) q.set('group', String(m.groupId));
  if (teamId) q.set('team', String(teamId));
  return `/team/${tid}/disputes?${q}`;
}

/** A whole number from a URL (a day, a match, an id) within 1..max, or null. */
export function parseWhole(raw: string | null | undefined, max = 999_999_999): number | null {
  if (!raw || !/^\d{1,9}$/.test(raw)) return null;
  const n = Number(raw);
  return n >= 1 && n <= max ? n : null;
}

/** The group-match a report page names: /team/:id/reports/:day/:match?group= (a 404 page for nonsense). */
export function requireMatchRef(params: { day?: string; match?: string }, request: Request) {
  const day = parseWhole(params.day, MATCH_DAY_MAX);
  const match = parseWhole(params.match, MATCH_NO_MAX);
  const rawGroup = new URL(request.url).searchParams.get('group');
  const group = rawGroup ? parseWhole(rawGroup) : undefined;
  if (day === null || match === null || group === null) throw data({ message: NOT_IN_LOBBY }, { status: 404 });
  return { day, match, group };
}

/** The team's match of that day and number (in that group, when named). */
export function findTeamMatch(my: MyReports, ref: { day: number; match: number; group?: number }): TeamMatch | undefined {
  return my.matches.find((m) => m.day === ref.day && m.match === ref.match && (ref.group === undefined || m.groupId === ref.group));
}

// --- where a report stands, in words ---

/** "Day 1 · Match 2 · Qualifiers, Group A": a match as a team reads it. */
export function matchName(m: TeamMatch): string {
  const where = [m.stageName, m.groupName ? `Group ${m.groupName}` : null].filter(Boolean).join(', ');
  return `Day ${m.day} · Match ${m.match}${where ? ` · ${where}` : ''}`;
}

/** One line on where the match's report stands (team page, room card, report page). */
export function reportStateWords(m: TeamMatch, timeZone: string): string {
  const r = m.report;
  const reported = r ? `Reported ${formatDateTime(r.reportedAt, timeZone)} by ${r.reportedBy}` : null;
  switch (m.reporting) {
    case 'not-started':
      return m.startsAt
        ? `Reporting opens when the match starts, ${formatDateTime(m.startsAt, timeZone)}.`
        : 'Reporting opens when the match starts.';
    case 'open':
      return reported
        ? `${reported}: you can edit it until the lobby staff confirm the match.`
        : 'Reporting is open: your team has not reported yet.';
    case 'closed':
      return reported
        ? `${reported}. Reporting is closed: the lobby staff are checking the results.`
        : 'Reporting is closed: ask the lobby staff.';
    case 'confirmed': {
      const by = m.confirmedBy ? ` by ${m.confirmedBy}` : '';
      const until = disputeOpen(m) ? `; they may be disputed until ${formatDateTime(m.provisionalUntil, timeZone)}` : '';
      return `Results confirmed${by}${until}.`;
    }
  }
}

/** A confirmed match still inside its dispute window. */
export const disputeOpen = (m: TeamMatch, nowMs = Date.now()) =>
  m.reporting === 'confirmed' && m.provisionalUntil !== null && Date.parse(m.provisionalUntil) > nowMs;

/**
 * The lines the team page and the room cards show: each match with a report due (the link to report),
 * reported or confirmed. Matches not started, or closed without a report, say nothing there.
 */
export function reportLines(tid: number, my: MyReports | null, timeZone: string): ReportLineView[] {
  if (!my) return [];
  // The reports due first, then the others in match order.
  const order = (m: TeamMatch) => (m.due ? 0 : 1) * 10_000 + m.day * 100 + m.match;
  return my.matches
    .filter((m) => m.due || m.report || m.reporting === 'confirmed')
    .sort((a, b) => order(a) - order(b))
    .map((m) => ({
      key: reportKey(m.day, m.match, m.groupId),
      title: matchName(m),
      words: reportStateWords(m, timeZone),
      href: reportPath(tid, m),
      linkText: m.due ? 'Report your result' : m.reporting === 'open' ? 'Edit the report' : 'See the report',
      due: m.due,
    }));
}

/**
 * The caller's team's matches and reports for a page that shows them beside its own content: null when
 * the caller is on no confirmed team there (the gateway's 404) or the gateway refused, so the page shows
 * nothing new. The redirect to log in still passes.
 */
export async function myReportsOrNull(request: Request, id: number): Promise<MyReports | null> {
  try {
    return await call(request, 'myReports', { params: { id } });
  } catch (err) {
    if (err instanceof GatewayError) return null;
    throw err;
  }
}

// --- the report page ---

export interface PlayerRow {
  ign: string;
  finishes: string;
}

/** The form's player rows: the report's players first, then the roster's others, then empty rows (someone unregistered may play). */
export function playerRows(roster: readonly string[], report: TeamMatch['report']): PlayerRow[] {
  const rows: PlayerRow[] = (report?.players ?? []).map((p) => ({ ign: p.ign, finishes: String(p.finishes) }));
  const listed = new Set(rows.map((r) => r.ign.toLowerCase()));
  for (const ign of roster) if (!listed.has(ign.toLowerCase())) rows.push({ ign, finishes: '' });
  while (rows.length < REPORT_PLAYER_ROWS) rows.push({ ign: '', finishes: '' });
  return rows.slice(0, REPORT_PLAYER_ROWS);
}

/** Everything the report page shows; its gateway refusals become the error page (404: not this team's match). */
export async function loadReportPage(request: Request, id: number, ref: { day: number; match: number; group?: number }) {
  const [tournament, mine] = await Promise.allSettled([gateway.getTournament(request, id), call(request, 'myReports', { params: { id } })]);
  if (tournament.status === 'rejected') pageError(tournament.reason, TOURNAMENT_NOT_FOUND);
  if (mine.status === 'rejected') pageError(mine.reason, NOT_IN_LOBBY);
  const m = findTeamMatch(mine.value, ref);
  if (!m) throw data({ message: NOT_IN_LOBBY }, { status: 404 });
  const timeZone = getEnv().APP_TIME_ZONE;
  const r = m.report;
  return {
    t: { id: tournament.value.id, name: tournament.value.name },
    teamName: mine.value.teamName,
    perTeam: playersPerTeam(tournament.value.format),
    match: { title: matchName(m), state: m.reporting, words: reportStateWords(m, timeZone), editable: m.reporting === 'open' },
    report: r
      ? {
          position: r.position,
          finishes: r.finishes,
          players: r.players,
          screenshot: reportScreenshotPath(id, r.id),
          updated: r.updatedAt !== r.reportedAt ? formatDateTime(r.updatedAt, timeZone) : null,
        }
      : null,
    rows: playerRows(mine.value.igns, r),
    captain: mine.value.captain,
    dispute: disputeOpen(m) ? disputeFormPath(id, m) : null,
    action: reportPath(id, m),
  };
}

/** The form's text values to show again: the placement and the player rows, and the chosen file's name. */
function keptValues(fields: Record<string, string>, chosenName: string): FormValues {
  const values: FormValues = {};
  for (const name of REPORT_FORM_FIELDS) if (typeof fields[name] === 'string') values[name] = fields[name];
  if (chosenName) values[SCREENSHOT_NAME_VALUE] = chosenName;
  return values;
}

/**
 * The report form's post: checked with the contract's rules, then sent to the gateway as a new report
 * (POST) or an edit of the team's report (PUT), the group passed on. Success: back to the page, told so.
 */
export async function submitReport(request: Request, id: number, ref: { day: number; match: number; group?: number }) {
  const upload = await readTournamentUpload(request, SCREENSHOT_UPLOAD);
  const [tournament, mine] = await Promise.all([gateway.getTournament(request, id), call(request, 'myReports', { params: { id } })]).catch(
    (err) => pageError(err, NOT_IN_LOBBY),
  );
  const m = findTeamMatch(mine, ref);
  if (!m) throw data({ message: NOT_IN_LOBBY }, { status: 404 });
  const values = keptValues(upload.fields, upload.coverName);
  const checked = validateReportForm(upload.fields, playersPerTeam(tournament.format));
  const { form: formError, ...uploadErrors } = upload.errors;
  const fieldErrors: FieldErrors = { ...('errors' in checked ? checked.errors : {}), ...uploadErrors };
  if (!m.report && !upload.cover && !fieldErrors[SCREENSHOT_FIELD]) fieldErrors[SCREENSHOT_FIELD] = SCREENSHOT_MESSAGES.required;
  if (formError || Object.keys(fieldErrors).length > 0) {
    return formFailure({ values, fieldErrors, formError: formError ?? null }, uploadStatus(uploadErrors));
  }
  // The rows as typed (the gateway reads them with the same rules), so its errors name the same rows.
  const body = new FormData();
  for (const name of REPORT_FORM_FIELDS)
    if (name !== SCREENSHOT_FIELD && upload.fields[name] !== undefined) body.append(name, upload.fields[name]);
  if (upload.cover) body.append(SCREENSHOT_FIELD, upload.cover, upload.cover.name);
  const input = { params: { id, day: ref.day, match: ref.match }, query: { group: m.groupId || undefined }, body };
  const sent = await submitToGateway(() => (m.report ? call(request, 'editReport', input) : call(request, 'fileReport', input)), {
    values,
    fields: REPORT_FORM_FIELDS,
    fallback: REPORT_FAILED,
  });
  if (!sent.ok) return screenshotRefusal(sent.failure);
  return flash(request, REPORT_SAVED, reportPath(id, m));
}

/** A refused form's status: 413 or 415 when the screenshot was the problem (as the gateway answers), else 400. */
export function uploadStatus(uploadErrors: FieldErrors): number {
  const shot = uploadErrors[SCREENSHOT_FIELD];
  return shot === SCREENSHOT_MESSAGES.tooLarge ? 413 : shot === SCREENSHOT_MESSAGES.unreadable ? 415 : 400;
}

/** The gateway's 413 and 415 are about the file: their message goes beside the file input. */
export function screenshotRefusal(failure: ReturnType<typeof formFailure>) {
  const status = failure.init?.status ?? 400;
  if ((status === 413 || status === 415) && failure.data.formError) {
    failure.data.fieldErrors[SCREENSHOT_FIELD] ??= failure.data.formError;
    failure.data.formError = null;
  }
  return failure;
}

// --- the screenshot proxy ---

const plain = (status: number, text: string) =>
  new Response(text, {
    status,
    headers: { 'Content-Type': 'text/plain; charset=utf-8', 'X-Content-Type-Options': 'nosniff', 'Cache-Control': 'private, no-store' },
  });

/** The proxy routes' loader: /screenshots/{report|dispute}/:tournamentId/:id for a signed-in caller. */
export async function screenshotRoute(
  request: Request,
  tournamentId: string | undefined,
  rawId: string | undefined,
  kind: 'report' | 'dispute',
) {
  const id = requireTournamentId(tournamentId);
  await requireUser(request);
  const itemId = parseWhole(rawId);
  if (itemId === null) return plain(404, 'Not found');
  return proxyScreenshot(request, `/tournaments/${id}/${kind === 'report' ? 'reports' : 'disputes'}/${itemId}/screenshot`);
}

/**
 * A report's or dispute's screenshot from the gateway with the caller's token: it decides who may see it
 * (the team and the staff). Private: never kept by a shared cache or the browser's.
 */
export async function proxyScreenshot(request: Request, path: string): Promise<Response> {
  let upstream: Response;
  try {
    upstream = await fetchGatewayImage(request, path, 'image/*', { auth: true });
  } catch (err) {
    if (err instanceof GatewayError && err.unavailable) return plain(503, 'Screenshot temporarily unavailable');
    throw err;
  }
  const type = upstream.headers.get('content-type') ?? '';
  if (upstream.ok && type.startsWith('image/')) {
    const headers = new Headers({ 'Content-Type': type, 'Cache-Control': 'private, no-store', 'X-Content-Type-Options': 'nosniff' });
    const length = upstream.headers.get('content-length');
    if (length && !upstream.headers.get('content-encoding')) headers.set('Content-Length', length);
    return new Response(upstream.body, { status: 200, headers });
  }
  await upstream.body?.cancel();
  if (upstream.status === 401 || upstream.status === 403) return plain(403, 'This screenshot is for its team and the tournament staff.');
  if (upstream.status === 404 || upstream.status === 400) return plain(404, 'Not found');
  return plain(503, 'Screenshot temporarily unavailable');
}
