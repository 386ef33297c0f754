import { REGISTRATION_OPEN_STATUS } from '@custom-room/contract/constants';
import { formatRupees } from './format';

/** Small rules about tournaments shared by the public screens (pure: safe in the browser bundle). */

/** The only status that lets players register (spec §4, §9) is the contract's REGISTRATION_OPEN_STATUS. */
export const canRegister = (status: string) => status === REGISTRATION_OPEN_STATUS;

export type StatusTone = 'open' | 'soon' | 'live' | 'closed' | 'done' | 'off';

/** A colour family for a status badge; unknown statuses (another gateway's) get the neutral one. */
export function statusTone(status: string): StatusTone {
  switch (status) {
    case 'Registration Ongoing':
      return 'open';
    case 'Upcoming':
      return 'soon';
    case 'Ongoing':
      return 'live';
    case 'Registration Closed':
      return 'closed';
    case 'Completed':
      return 'done';
    default:
      return 'off';
  }
}

/** A tournament id from the URL: a positive whole number (no signs, no exponents), else null. */
export function parseTournamentId(raw: string | undefined): number | null {
  if (!raw || !/^\d{1,9}$/.test(raw)) return null;
  const id = Number(raw);
  return id > 0 ? id : null;
}

/** The status filter of the public list (?show=): one group of statuses each, in the list's order. */
export const LIST_FILTERS = [
  { key: 'open', label: 'Open', statuses: ['Registration Ongoing'] },
  { key: 'upcoming', label: 'Upcoming', statuses: ['Upcoming', 'Registration Closed'] },
  { key: 'ongoing', label: 'Ongoing', statuses: ['Ongoing'] },
  { key: 'completed', label: 'Completed', statuses: ['Completed'] },
] as const;
export type ListFilter = (typeof LIST_FILTERS)[number]['key'];

/** A ?show= value as a filter, or null (everything) for none or one we do not know. */
export function listFilterOf(raw: string | null | undefined): ListFilter | null {
  return LIST_FILTERS.find((f) => f.key === raw)?.key ?? null;
}

/**
 * Where a status sits in the public lists: open for registration first, then upcoming (registration
 * not open yet, or closed before the start), ongoing, another gateway's unknown statuses, completed,
 * and cancelled last.
 */
function listRank(status: string): number {
  const group = LIST_FILTERS.findIndex((f) => (f.statuses as readonly string[]).includes(status));
  if (group >= 0) return group < 3 ? group : group + 1;
  return status === 'Cancelled' ? 5 : 3;
}

/**
 * The public lists' order (home carousel, /tournaments): by listRank, the gateway's order (soonest
 * start first) kept within a rank. With a filter, only that group's tournaments.
 */
export function listOrder<T extends { status: string }>(tournaments: T[], filter: ListFilter | null = null): T[] {
  const statuses: readonly string[] | null = filter ? LIST_FILTERS.find((f) => f.key === filter)!.statuses : null;
  return tournaments
    .map((t, i) => ({ t, i, rank: listRank(t.status) }))
    .filter(({ t }) => !statuses || statuses.includes(t.status))
    .sort((a, b) => a.rank - b.rank || a.i - b.i)
    .map(({ t }) => t);
}

/**
 * Where registration stands, in words, for a tournament that is not open (cards and the detail page show
 * this instead of a Register button). `opens`: the registration opening, already formatted, or ''.
 */
export function registrationStateWords(status: string, opens = ''): string {
  switch (status) {
    case 'Registration Ongoing':
      return 'Registration open';
    case 'Upcoming':
      return opens ? `Registration opens ${opens}` : 'Registration opens soon';
    case 'Registration Closed':
      return 'Registration closed';
    case 'Ongoing':
      return 'Registration closed: matches under way';
    case 'Completed':
      return 'Completed: see the final points';
    case 'Cancelled':
      return 'Cancelled';
    default:
      return status;
  }
}

/** "Free" for a zero fee, else rupees with Indian grouping (₹1,00,000). */
export function entryFeeLabel(fee: number): string {
  return fee === 0 ? 'Free' : formatRupees(fee);
}
