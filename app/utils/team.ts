/** The team form's fields in form order (spec §3), with their labels. Pure: safe in the browser bundle. */

export const IGN_FIELDS = [
  'player1Username',
  'player2Username',
  'player3Username',
  'player4Username',
  'substitute1Username',
  'substitute2Username',
] as const;
export type IgnField = (typeof IGN_FIELDS)[number];

export const TEAM_FIELDS = ['teamName', ...IGN_FIELDS] as const;
export type TeamField = (typeof TEAM_FIELDS)[number];

export const IGN_LABELS: Record<IgnField, string> = {
  player1Username: 'Player 1 (IGL)',
  player2Username: 'Player 2',
  player3Username: 'Player 3',
  player4Username: 'Player 4',
  substitute1Username: 'Substitute 1',
  substitute2Username: 'Substitute 2',
};

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

/** The UPI QR code's size in CSS pixels (spec §9: 250 by 250). */
export const QR_SIZE = 250;
