/** Words and sizes of the team and payment screens. Pure: safe in the browser bundle. (The team's fields and labels are the contract's.) */
import { placeWords, type PlaceState } from '@custom-room/contract/constants';

/** Payment status in words for players (decision 011). */
export const PAYMENT_STATUS_WORDS: Record<string, { label: string; detail: string }> = {
  pending: { label: 'Pending', detail: 'We have not received your payment details yet.' },
  submitted: { label: 'Submitted', detail: 'You sent your UPI reference. The organiser will verify it soon.' },
  verified: { label: 'Verified', detail: 'The organiser verified your payment. Your slot is confirmed.' },
  rejected: { label: 'Rejected', detail: 'The organiser could not match your payment. Check the UPI reference and send it again.' },
};

export function paymentWords(status: string) {
  return PAYMENT_STATUS_WORDS[status] ?? { label: status, detail: '' };
}

/** What teamStateWords needs of a registration: its payment, and (decision 043) its place when the gateway gives one. */
export interface TeamStateOf extends Partial<Omit<PlaceState, 'paymentStatus'>> {
  paymentStatus: string;
}

export type TeamStateTone = 'wait' | 'ok' | 'bad';

/**
 * A registered team's state in the player's words (issue 19): the one line the tournament page (and
 * any other player page) shows. `free`: the tournament has no entry fee, so registering is confirming.
 * With a place (decision 043) the words are the contract's placeWords ("waitlist #3", "pending payment
 * (pay by 21:00)"…); `time` formats the pay-by in the app's time zone.
 */
export function teamStateWords(
  registration: TeamStateOf,
  { free, time }: { free: boolean; time?: (iso: string) => string },
): { words: string; tone: TeamStateTone } {
  const { place } = registration;
  if (place) {
    const state: PlaceState = {
      place,
      paymentStatus: registration.paymentStatus,
      // The gateway's own verdict, or the same rule read from the fields (an answer without it defaults to false).
      confirmed: registration.confirmed === true || (place === 'placed' && (free || registration.paymentStatus === 'verified')),
      payBy: registration.payBy ?? null,
      waitlistPosition: registration.waitlistPosition ?? null,
      releasedReason: registration.releasedReason ?? null,
      checkIn: registration.checkIn ?? null,
    };
    const words = placeWords(state, time);
    if (place === 'released' || place === 'withdrawn' || state.checkIn === 'no-show') return { words, tone: 'bad' };
    if (state.confirmed || state.checkIn === 'checked-in') return { words, tone: 'ok' };
    if (registration.paymentStatus === 'rejected') return { words: `${words}: send your UPI reference again`, tone: 'bad' };
    return { words, tone: 'wait' };
  }
  if (free) return { words: 'confirmed', tone: 'ok' };
  switch (registration.paymentStatus) {
    case 'verified':
      return { words: 'confirmed', tone: 'ok' };
    case 'submitted':
      return { words: 'payment submitted', tone: 'wait' };
    case 'rejected':
      return { words: 'payment rejected: send your UPI reference again', tone: 'bad' };
    default:
      return { words: 'pending payment', tone: 'wait' };
  }
}

/** Whether the team still has an entry fee to pay or a reference to send again (only a placed team can pay). */
export const paymentDue = (registration: TeamStateOf, { free }: { free: boolean }) =>
  !free &&
  (registration.place === undefined || registration.place === 'placed') &&
  (registration.paymentStatus === 'pending' || registration.paymentStatus === 'rejected');

/** The UPI QR code's size in CSS pixels (spec §9: 250 by 250). */
export const QR_SIZE = 250;
