import { LATE_PLACEMENT_GRACE_HOURS, mayWithdraw, SETTLED_STATUSES } from '@custom-room/contract';
import type { PlaceRules } from '../../db/places.js';
import { isoAt } from '../../lib/clock.js';

/** The pure rules of a team's place (decision 043): they read no database and no clock. */

const HOUR_MS = 3_600_000;

/**
 * The payment deadline of a team placed at placedMs: none for free tournaments or without a setting.
 * A fixed time holds as it is for a team that registers before it (the organiser's rule, shown when it
 * registers); a team placed at or after it, or placed by the gateway (a promotion, a deadline changed
 * after the fact: `registering` false), has until the fixed time or an hour, whichever is later.
 */
export function payByFor(
  rules: Pick<PlaceRules, 'entry_fee' | 'payment_deadline_hours' | 'payment_deadline_at'>,
  placedMs: number,
  { registering = false }: { registering?: boolean } = {},
) {
  if (Number(rules.entry_fee) <= 0) return null;
  if (rules.payment_deadline_hours) return isoAt(placedMs + Number(rules.payment_deadline_hours) * HOUR_MS);
  if (rules.payment_deadline_at) {
    const fixed = Date.parse(rules.payment_deadline_at);
    if (registering && placedMs < fixed) return isoAt(fixed);
    return isoAt(Math.max(fixed, placedMs + LATE_PLACEMENT_GRACE_HOURS * HOUR_MS));
  }
  return null;
}

/** Over or called off (the contract's SETTLED_STATUSES): places no longer move. */
export const isSettled = (status: string) => (SETTLED_STATUSES as readonly string[]).includes(status);

const WITHDRAW_CLOSED = 'Registration has closed: the team can no longer withdraw. Contact the organiser.';

/**
 * Why the captain of a placed or waitlisted team may not withdraw at nowMs, or null when it may (the
 * contract's mayWithdraw): a placed team until registration closes, a waitlisted one until the tournament
 * is Completed or Cancelled (it holds no place; decision 043).
 */
export function withdrawalRefusal(place: string, tournament: { status: string; registration_close: string }, nowMs: number): string | null {
  if (mayWithdraw(place, { status: tournament.status, registrationClose: tournament.registration_close }, nowMs)) return null;
  if (place === 'waitlist') return `The tournament is ${tournament.status.toLowerCase()}: the team can no longer leave the waitlist.`;
  return WITHDRAW_CLOSED;
}

/** The ordered key of the organiser's list: payments to check first, gone teams last. */
export function listOrder(row: { place: string; paymentStatus: string }, confirmed: boolean): number {
  if (row.place === 'released' || row.place === 'withdrawn') return 4;
  if (row.place === 'waitlist') return 3;
  if (confirmed) return 2;
  return row.paymentStatus === 'submitted' ? 0 : 1;
}
