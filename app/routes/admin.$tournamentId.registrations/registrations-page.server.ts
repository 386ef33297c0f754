import { TOURNAMENT_NOT_FOUND as NOT_FOUND, PAYMENT_STATUSES, type PaymentStatus } from '@custom-room/contract/constants';
import {
  byPayment,
  captainWords,
  loadRegistrations,
  paymentFilterOf,
  paymentFilterQuery,
  registeredAt,
  teamPlayers,
} from '~/utils/admin-registrations.server';
import { getEnv } from '~/utils/env.server';
import { pageError } from '~/utils/errors.server';
import { gateway, type AdminRegistration } from '~/utils/gateway.server';
import { EXPECTED_REFERENCE_FIELD } from '~/utils/payments-form.server';
import { placeView } from '~/utils/places';
import { paymentWords } from '~/utils/team';

/**
 * Issue 27: ?rows=compact shows one short row per team (name, state, UTR, Verify/Reject) instead of the full card;
 * ?select=all ticks every placed team shown (with the filter), without JavaScript too. Both are links (GET).
 */
export const compactOf = (request: Request) => new URL(request.url).searchParams.get('rows') === 'compact';
const selectAllOf = (request: Request) => new URL(request.url).searchParams.get('select') === 'all';

/** The list's own query (filter and rows), kept by every form and redirect; never the selection. */
export function listQuery(filter: PaymentStatus | null | 'invalid', compact: boolean, extra: Record<string, string> = {}) {
  const q = new URLSearchParams();
  if (filter && filter !== 'invalid') q.set('payment', filter);
  if (compact) q.set('rows', 'compact');
  for (const [k, v] of Object.entries(extra)) q.set(k, v);
  const s = q.toString();
  return s ? `?${s}` : '';
}

export type RegistrationsPage = Awaited<ReturnType<typeof loadRegistrationsPage>>;

export async function loadRegistrationsPage(request: Request, tid: number) {
  const filter = paymentFilterOf(request);
  const [t, { registrations, counts }] = await Promise.all([gateway.getTournament(request, tid), loadRegistrations(request, tid)]).catch(
    (err) => pageError(err, NOT_FOUND),
  );
  const places = { placed: 0, waitlist: 0, gone: 0 };
  for (const r of registrations) places[r.place === 'placed' ? 'placed' : r.place === 'waitlist' ? 'waitlist' : 'gone'] += 1;
  // Decision 043's order: payments to check first, then unpaid, confirmed, the waitlist, and teams that left
  // (a stable sort: the gateway's order within each).
  const ordered = [...byPayment(registrations, filter)].sort((a, b) => a.listOrder - b.listOrder);
  const compact = compactOf(request);
  const selectAll = selectAllOf(request);
  const view = {
    tid: t.id,
    tournamentName: t.name,
    game: t.game,
    timeZone: getEnv().APP_TIME_ZONE,
    free: t.entryFee <= 0,
    nowMs: Date.now(),
  };
  return {
    compact,
    selectAll,
    selectable: ordered.filter((r) => r.place === 'placed').length,
    // Links of the list's own: the other row style, and ticking every placed team shown (or none).
    links: {
      rows: listQuery(filter, !compact, selectAll ? { select: 'all' } : {}),
      selectAll: listQuery(filter, compact, { select: 'all' }),
      clear: listQuery(filter, compact),
    },
    t: { id: t.id, name: t.name, maxTeams: t.maxTeams, requireCharacterIds: t.requireCharacterIds },
    places,
    expectedField: EXPECTED_REFERENCE_FIELD,
    filter: filter === 'invalid' ? null : filter,
    invalidFilter: filter === 'invalid',
    query: listQuery(filter, compact),
    csvQuery: paymentFilterQuery(filter),
    total: registrations.length,
    counts,
    statuses: PAYMENT_STATUSES,
    teams: ordered.map((r) => teamView(r, view)),
  };
}

/** One team's card: what the organiser reads and may do. */
function teamView(
  r: AdminRegistration,
  view: { tid: number; tournamentName: string; game: string; timeZone: string; free: boolean; nowMs: number },
) {
  const state = placeView(r, { timeZone: view.timeZone, free: view.free, nowMs: view.nowMs });
  return {
    rid: r.rid,
    teamName: r.teamName,
    ...teamPlayers(r, view.game),
    // Decision 046: the organiser's ways to reach the captain (the admin-only list carries them).
    captain: captainWords(r, view.tournamentName),
    username: r.username,
    registeredAt: registeredAt(r),
    paymentStatus: r.paymentStatus,
    paymentLabel: paymentWords(r.paymentStatus).label,
    paymentReference: r.paymentReference,
    place: r.place,
    state,
    // Decision 043: release a placed team that is not confirmed (a rejected payment); remove any team that holds or waits for a place.
    mayRelease: r.place === 'placed' && !state.confirmed,
    mayRemove: r.place === 'placed' || r.place === 'waitlist',
    // Decision 052: a removed team cannot register again until the organiser allows it.
    rejoin: r.rejoin ?? null,
    // Older registrations may share a UTR (decision 029): the organiser must see which.
    sameReferenceAs: r.sameReferenceAs.map((o) => ({ ...o, here: o.tid === view.tid })),
  };
}
