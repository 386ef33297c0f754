/** Words and sizes of the team and payment screens. Pure: safe in the browser bundle. (The team's fields and labels are the contract's.) */
import { phaseTakesPayments, type Place, type TournamentPhase } from '@custom-room/contract/constants';

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

/** What paymentDue reads of a registration: its payment, and (decision 043) its place when the gateway gives one. */
export interface PaymentDueOf {
  paymentStatus: string;
  place?: Place;
}

/**
 * Whether the team still has an entry fee to pay or a reference to send again (only a placed team can pay, and
 * never in a Completed or Cancelled tournament: decision 051).
 */
export const paymentDue = (registration: PaymentDueOf, { free, phase }: { free: boolean; phase?: TournamentPhase }) =>
  !free &&
  (phase === undefined || phaseTakesPayments(phase)) &&
  (registration.place === undefined || registration.place === 'placed') &&
  (registration.paymentStatus === 'pending' || registration.paymentStatus === 'rejected');

/** The UPI QR code's size in CSS pixels (spec §9: 250 by 250). */
export const QR_SIZE = 250;
