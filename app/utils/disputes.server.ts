import { DisputeFormSchema, type Dispute, type MyReports } from '@custom-room/contract';
import {
  DISPUTE_TAKEN,
  DISPUTE_WINDOW_CLOSED,
  NOT_IN_LOBBY,
  SCREENSHOT_FIELD,
  TOURNAMENT_NOT_FOUND,
} from '@custom-room/contract/constants';
import { getEnv } from './env.server';
import { pageError } from './errors.server';
import { formatDateTime } from './format';
import { formFailure, submitToGateway, type FieldErrors, type FormValues } from './forms.server';
import { call, gateway, GatewayError } from './gateway.server';
import {
  disputeOpen,
  disputeScreenshotPath,
  findTeamMatch,
  parseWhole,
  SCREENSHOT_NAME_VALUE,
  SCREENSHOT_UPLOAD,
  screenshotRefusal,
  type TeamMatch,
  uploadStatus,
} from './reports.server';
import { flash } from './session.server';
import { readTournamentUpload } from './tournament-upload.server';

/**
 * Issue 30 (decision 074): a team's disputes (filed by it or about it) and the form to dispute a row of a
 * confirmed group-match of its own within the dispute window. The gateway decides; this only words it.
 */

export const NO_TEAM_HERE = 'Only the players of a confirmed team of this tournament can see or file its disputes.';
export const NOT_CONFIRMED_YET = 'You can dispute a result of this match once the lobby staff confirm it.';
export const DISPUTE_SENT = 'Dispute sent: the tournament staff will uphold or dismiss it, and you will be told.';
export const DISPUTE_FAILED = 'We could not send your dispute. Please try again.';
export const DISPUTE_FIELDS = ['teamId', 'reason', SCREENSHOT_FIELD, 'day', 'match', 'group'] as const;

const STATE_WORDS = { open: 'Open', upheld: 'Upheld', dismissed: 'Dismissed' } as const;

/** The match a ?day=&match=&group=&team= query names (null without day and match, or with nonsense). */
function disputeRef(url: URL) {
  const q = url.searchParams;
  if (!q.get('day') && !q.get('match')) return null;
  const day = parseWhole(q.get('day'));
  const match = parseWhole(q.get('match'));
  const group = q.get('group') ? parseWhole(q.get('group')) : undefined;
  const team = q.get('team') ? parseWhole(q.get('team')) : undefined;
  if (day === null || match === null || group === null) return { invalid: true as const };
  return { day, match, group, team: team ?? undefined };
}

/** A dispute as the team's list shows it. */
function disputeView(d: Dispute, my: MyReports, timeZone: string) {
  const m = my.matches.find((x) => x.day === d.day && x.match === d.match && x.groupId === d.groupId);
  const ours = d.byTeamId === my.teamId;
  return {
    id: d.id,
    state: d.state,
    stateWords: STATE_WORDS[d.state],
    title: `Day ${d.day} · Match ${d.match}${m?.groupName ? ` · Group ${m.groupName}` : ''}`,
    about: d.aboutTeamId === my.teamId ? 'your team’s result' : `${d.aboutTeamName}’s result`,
    by: ours ? `your team (${d.filedBy})` : d.byTeamName,
    filedAt: formatDateTime(d.filedAt, timeZone),
    reason: d.reason,
    resolution: d.resolution,
    resolved: d.resolvedAt ? `${d.resolvedBy ? `${d.resolvedBy}, ` : ''}${formatDateTime(d.resolvedAt, timeZone)}` : null,
    // The gateway shows a dispute's screenshot to the disputing team and the staff only.
    screenshot: d.screenshotUrl && ours ? disputeScreenshotPath(d.tournamentId, d.id) : null,
  };
}
export type DisputeView = ReturnType<typeof disputeView>;

/** The teams of the match's results (its table's column for that match), for the "whose row" select. */
async function matchTeams(request: Request, id: number, m: TeamMatch, my: MyReports) {
  try {
    const table = await gateway.pointsBreakdown(request, id, m.day, m.groupId ? { group: m.groupId } : {});
    const column = table.matches.findIndex((c) => c.day === m.day && c.match === m.match);
    const rows = column < 0 ? [] : table.rows.filter((r) => r.results[column]);
    const teams = rows.map((r) => {
      const cell = r.results[column]!;
      const result = cell.absent
        ? 'did not play'
        : `#${cell.position || '–'}, ${cell.finishes} ${cell.finishes === 1 ? 'finish' : 'finishes'}`;
      return { teamId: r.teamId, label: `${r.teamName} (${result})` };
    });
    if (teams.length > 0) return teams.sort((a, b) => a.label.localeCompare(b.label));
  } catch (err) {
    if (!(err instanceof GatewayError)) throw err;
  }
  // The table could not say: the team's own row at least.
  return [{ teamId: my.teamId, label: my.teamName }];
}

type FormState =
  | { open: false; message: string }
  | { open: true; day: number; match: number; group: number; title: string; teams: { teamId: number; label: string }[]; team: number };

async function formState(request: Request, id: number, url: URL, my: MyReports, disputes: Dispute[]): Promise<FormState | null> {
  const ref = disputeRef(url);
  if (!ref) return null;
  const m = 'invalid' in ref ? undefined : findTeamMatch(my, ref);
  if (!m || 'invalid' in ref) return { open: false, message: NOT_IN_LOBBY };
  if (m.reporting !== 'confirmed') return { open: false, message: NOT_CONFIRMED_YET };
  if (!disputeOpen(m)) return { open: false, message: DISPUTE_WINDOW_CLOSED };
  const taken = disputes.some((d) => d.byTeamId === my.teamId && d.day === m.day && d.match === m.match && d.groupId === m.groupId);
  if (taken) return { open: false, message: DISPUTE_TAKEN };
  const teams = await matchTeams(request, id, m, my);
  const team = teams.some((t) => t.teamId === ref.team) ? ref.team! : my.teamId;
  const title = `Day ${m.day} · Match ${m.match}${m.groupName ? ` · Group ${m.groupName}` : ''}`;
  return { open: true, day: m.day, match: m.match, group: m.groupId, title, teams, team };
}

/** The disputes page: the team's disputes, and the form when the query names a match it may dispute. */
export async function loadDisputesPage(request: Request, id: number) {
  const [tournament, mine, disputes] = await Promise.allSettled([
    gateway.getTournament(request, id),
    call(request, 'myReports', { params: { id } }),
    call(request, 'listDisputes', { params: { id }, query: { state: 'all' } }),
  ]);
  if (tournament.status === 'rejected') pageError(tournament.reason, TOURNAMENT_NOT_FOUND);
  if (mine.status === 'rejected') pageError(mine.reason, NO_TEAM_HERE);
  if (disputes.status === 'rejected') pageError(disputes.reason, NO_TEAM_HERE);
  const timeZone = getEnv().APP_TIME_ZONE;
  const url = new URL(request.url);
  return {
    t: { id: tournament.value.id, name: tournament.value.name },
    teamName: mine.value.teamName,
    disputes: disputes.value.map((d) => disputeView(d, mine.value, timeZone)),
    form: await formState(request, id, url, mine.value, disputes.value),
    action: `${url.pathname}${url.search}`,
  };
}

/** The dispute form's post: checked, then sent to the gateway (multipart, the screenshot optional). */
export async function submitDispute(request: Request, id: number) {
  const upload = await readTournamentUpload(request, SCREENSHOT_UPLOAD);
  const values: FormValues = { teamId: upload.fields.teamId ?? '', reason: upload.fields.reason ?? '' };
  if (upload.coverName) values[SCREENSHOT_NAME_VALUE] = upload.coverName;
  const checked = DisputeFormSchema.safeParse({ ...upload.fields, group: upload.fields.group || undefined });
  const { form: formError, ...uploadErrors } = upload.errors;
  const fieldErrors: FieldErrors = {};
  if (!checked.success) for (const issue of checked.error.issues) fieldErrors[String(issue.path[0] ?? 'reason')] ??= issue.message;
  Object.assign(fieldErrors, uploadErrors);
  if (!checked.success || formError || Object.keys(fieldErrors).length > 0) {
    return formFailure({ values, fieldErrors, formError: formError ?? null }, uploadStatus(uploadErrors));
  }
  const body = new FormData();
  for (const [name, value] of Object.entries(checked.data)) if (value !== undefined) body.append(name, String(value));
  if (upload.cover) body.append(SCREENSHOT_FIELD, upload.cover, upload.cover.name);
  const sent = await submitToGateway(() => call(request, 'fileDispute', { params: { id }, body }), {
    values,
    fields: DISPUTE_FIELDS,
    fallback: DISPUTE_FAILED,
  });
  if (!sent.ok) return screenshotRefusal(sent.failure);
  return flash(request, DISPUTE_SENT, `/team/${id}/disputes`);
}
