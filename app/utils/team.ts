/** Words and sizes of the team and payment screens. Pure: safe in the browser bundle. (The team's fields and labels are the contract's.) */

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

/** What teamStateWords needs of a registration (the contract's Registration has it; more states add fields here). */
export interface TeamStateOf {
  paymentStatus: string;
}

export type TeamStateTone = 'wait' | 'ok' | 'bad';

/**
 * A registered team's state in the player's words (issue 19): the one line the tournament page (and
 * any other player page) shows. `free`: the tournament has no entry fee, so registering is confirming.
 * New states (waitlist, released, withdrawn, checked in…) become new cases here.
 */
export function teamStateWords(registration: TeamStateOf, { free }: { free: boolean }): { words: string; tone: TeamStateTone } {
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

/** Whether the team still has an entry fee to pay or a reference to send again. */
export const paymentDue = (registration: TeamStateOf, { free }: { free: boolean }) =>
  !free && (registration.paymentStatus === 'pending' || registration.paymentStatus === 'rejected');

/** The UPI QR code's size in CSS pixels (spec §9: 250 by 250). */
export const QR_SIZE = 250;
