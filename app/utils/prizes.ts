import type { PrizeTable } from '@custom-room/contract';
import { ordinal } from '@custom-room/contract/constants';
import { formatPaise } from './format';

/** Decision 084: the prize table as the tournament page lists it: "1st ₹5,000", …, "Top fragger ₹500". */
export function prizeLines(table: PrizeTable): string[] {
  return [
    ...table.ranks.map((r) => `${ordinal(r.rank)} ${formatPaise(r.amountPaise)}`),
    // Decision 085: a special prize names its winner once the organiser has.
    ...table.specials.map((s) => `${s.label} ${formatPaise(s.amountPaise)}${s.winner ? `: ${s.winner}` : ''}`),
  ];
}

/** The prize form's field names (decision 084), shared by the page and its action. */
export const rankField = (rank: number) => `rank-${rank}`;
export const specialField = (i: number, part: 'label' | 'amount') => `special-${i}-${part}`;
