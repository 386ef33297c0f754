import { DisputeResolveBodySchema, type Dispute } from '@custom-room/contract';
import { idFromText, TOURNAMENT_NOT_FOUND } from '@custom-room/contract/constants';
import { getEnv } from './env.server';
import { isUnavailable, pageError } from './errors.server';
import { formatDateTime } from './format';
import { formEntries, formFailure, safeValues, submitToGateway, zodFieldErrors } from './forms.server';
import { call, gateway, type MatchResult } from './gateway.server';
import { lobbyPath } from './lobby-reports.server';
import { flash } from './session.server';

/**
 * Issue 30 (decision 075): the staff's disputes. Every dispute of the tournament (a lobby manager's
 * groups' only: the gateway keeps them), the open ones first, each with an Uphold form (the disputed
 * row corrected, prefilled from the match's current result) and a Dismiss form (a reason the team sees).
 */

export const RESOLVE_FAILED = 'The dispute was not resolved.';
/** The fields of a resolve form; each dispute's inputs are `{field}-{disputeId}` so the page's ids stay unique. */
export const RESOLVE_FIELDS = ['position', 'finishes', 'absent', 'reason'] as const;

const STATE_WORDS: Record<Dispute['state'], string> = { open: 'Open', upheld: 'Upheld', dismissed: 'Dismissed' };
const matchKey = (d: Pick<Dispute, 'day' | 'match' | 'groupId'>) => `${d.day}-${d.match}-${d.groupId}`;

export type DisputesPage = Awaited<ReturnType<typeof loadDisputes>>;

export async function loadDisputes(request: Request, tid: number) {
  const [t, disputes] = await Promise.all([
    gateway.getTournament(request, tid),
    call(request, 'listDisputes', { params: { id: tid }, query: { state: 'all' } }),
  ]).catch((err) => pageError(err, TOURNAMENT_NOT_FOUND));
  const open = disputes.filter((d) => d.state === 'open');
  const current = await currentResults(request, tid, open);
  const timeZone = getEnv().APP_TIME_ZONE;
  // Open first, the oldest at the top (the next to handle); then the resolved, the latest first.
  const ordered = [
    ...open.sort((a, b) => a.filedAt.localeCompare(b.filedAt)),
    ...disputes.filter((d) => d.state !== 'open').sort((a, b) => (b.resolvedAt ?? '').localeCompare(a.resolvedAt ?? '')),
  ];
  return {
    t: { id: t.id, name: t.name },
    open: open.length,
    disputes: ordered.map((d) => {
      const row = current.get(matchKey(d))?.find((r) => r.teamId === d.aboutTeamId);
      return {
        id: d.id,
        open: d.state === 'open',
        state: STATE_WORDS[d.state],
        by: d.byTeamName,
        about: d.aboutTeamName,
        where: `Day ${d.day} · Match ${d.match}`,
        lobby: lobbyPath({ tid, day: d.day, match: d.match, ...(d.groupId ? { group: d.groupId } : {}) }),
        reason: d.reason,
        filed: `${d.filedBy}, ${formatDateTime(d.filedAt, timeZone)}`,
        screenshot: d.screenshotUrl ? `/screenshots/dispute/${tid}/${d.id}` : null,
        resolution: d.resolution,
        resolved: d.resolvedBy ? `${d.resolvedBy}, ${formatDateTime(d.resolvedAt, timeZone)}` : null,
        current: row
          ? {
              position: row.absent ? '' : String(row.position),
              finishes: row.absent ? '' : String(row.finishes),
              absent: row.absent === true,
            }
          : null,
      };
    }),
  };
}

/** The current results of each match an open dispute is about: one call per match. A refused read leaves its forms empty. */
async function currentResults(request: Request, tid: number, open: Dispute[]): Promise<Map<string, MatchResult[] | null>> {
  const matches = [...new Map(open.map((d) => [matchKey(d), d])).values()];
  const read = (d: Dispute) =>
    gateway.matchResults(request, tid, d.day, d.match, d.groupId || undefined).catch((err) => (isUnavailable(err) ? pageError(err) : null));
  return new Map(await Promise.all(matches.map(async (d) => [matchKey(d), await read(d)] as const)));
}

/** The resolve body from one dispute's form: uphold sends the corrected row (empty is 0), dismiss its reason (the one text field). */
function resolveInput(entries: Record<string, string>, action: 'uphold' | 'dismiss', id: number) {
  const field = (f: string) => (entries[`${f}-${id}`] ?? '').trim();
  if (action === 'dismiss') return { action, reason: field('reason') };
  return {
    action,
    position: field('position') || '0',
    finishes: field('finishes') || '0',
    absent: `absent-${id}` in entries ? 'on' : 'false',
  };
}

/** Uphold or dismiss one dispute; a refusal lands on that dispute's form (its values keep the intent and id). */
export async function resolveAction(request: Request, tid: number) {
  const formData = await request.formData();
  const entries = formEntries(formData);
  const values = safeValues(formData);
  const id = idFromText(entries.disputeId);
  const action = entries.intent;
  if (!id || (action !== 'uphold' && action !== 'dismiss')) return formFailure({ values, formError: RESOLVE_FAILED });
  // The gateway's field names as this dispute's inputs.
  const rename: Record<string, string> = Object.fromEntries(RESOLVE_FIELDS.map((f) => [f, `${f}-${id}`]));
  const named = (errors: Record<string, string>) => Object.fromEntries(Object.entries(errors).map(([k, m]) => [rename[k] ?? k, m]));
  const parsed = DisputeResolveBodySchema.safeParse(resolveInput(entries, action, id));
  if (!parsed.success) {
    const { fieldErrors, formError } = zodFieldErrors(parsed.error);
    return formFailure({ values, fieldErrors: named(fieldErrors), formError: formError ?? RESOLVE_FAILED });
  }
  const sent = await submitToGateway(() => call(request, 'resolveDispute', { params: { id: tid, disputeId: id }, body: parsed.data }), {
    values,
    fields: Object.values(rename),
    fallback: RESOLVE_FAILED,
    rename,
  });
  if (!sent.ok) return sent.failure;
  const what = action === 'uphold' ? `upheld: ${sent.value.aboutTeamName}’s row is corrected` : 'dismissed: the team sees your reason';
  return flash(request, `Dispute ${what}`, `/admin/${tid}/disputes`);
}
