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

const FINISHED = new Set(['Completed', 'Cancelled']);

/**
 * Order for the public lists: tournaments players can still join or watch first, finished ones
 * (Completed, Cancelled) last; otherwise the gateway's order (soonest start first) is kept.
 */
export function liveFirst<T extends { status: string }>(tournaments: T[]): T[] {
  return [...tournaments.filter((t) => !FINISHED.has(t.status)), ...tournaments.filter((t) => FINISHED.has(t.status))];
}

/** "Free" for a zero fee, else rupees with Indian grouping (₹1,00,000). */
export function entryFeeLabel(fee: number): string {
  return fee === 0 ? 'Free' : formatRupees(fee);
}
