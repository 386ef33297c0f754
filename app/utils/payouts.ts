import { formatPaise, formatShortDate } from './format';

/** Decision 085: the payout page's field names and the words of a paid prize (shared by pages and components). */

export const PAYOUT_FIELDS = ['upiReference', 'tds'] as const;
export const PAYEE_FIELDS = ['upiId', 'pan'] as const;
export const PAYEE_INTENT = 'prize-payee';
export const payoutsPath = (tid: number) => `/admin/${tid}/payouts`;
export const awardField = (i: number) => `award-${i}`;
export const awardLabelField = (i: number) => `award-label-${i}`;

/** "Prize ₹5,000 paid on 29 Nov (UTR 123456789012)", and what was withheld when tax was. */
export function prizePaidWords(p: { grossPaise: number; tdsPaise: number; netPaise: number; utr: string; at: string }, timeZone: string) {
  const tax = p.tdsPaise > 0 ? `: ${formatPaise(p.netPaise)} sent after ${formatPaise(p.tdsPaise)} TDS` : '';
  return `Prize ${formatPaise(p.grossPaise)} paid on ${formatShortDate(p.at, timeZone)}${tax} (UTR ${p.utr})`;
}
