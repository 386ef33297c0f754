// Decisions 084 and 085: the prize table's lines on the tournament page (a special prize names its winner once
// awarded), and the words of a paid prize on the team page.
import { describe, expect, it } from 'vitest';
import { prizePaidWords } from '../../app/utils/payouts';
import { prizeLines } from '../../app/utils/prizes';

describe('prize words', () => {
  it('lists ranks, then special prizes with their winner once named', () => {
    const lines = prizeLines({
      ranks: [
        { rank: 1, amountPaise: 500000 },
        { rank: 2, amountPaise: 150050 },
      ],
      specials: [
        { label: 'Top fragger', amountPaise: 50000, winner: 'Team Soul' },
        { label: 'MVP', amountPaise: 20000, winner: null },
      ],
      totalPaise: 720050,
    });
    expect(lines).toEqual(['1st ₹5,000', '2nd ₹1,500.50', 'Top fragger ₹500: Team Soul', 'MVP ₹200']);
  });

  it('says what was paid, and what was withheld only when tax was', () => {
    const paid = { grossPaise: 500000, tdsPaise: 150000, netPaise: 350000, utr: '123456789012', at: '2026-11-29T10:00:00Z' };
    expect(prizePaidWords(paid, 'Asia/Kolkata')).toBe('Prize ₹5,000 paid on 29 Nov 2026: ₹3,500 sent after ₹1,500 TDS (UTR 123456789012)');
    expect(prizePaidWords({ ...paid, tdsPaise: 0, netPaise: 500000 }, 'Asia/Kolkata')).toBe(
      'Prize ₹5,000 paid on 29 Nov 2026 (UTR 123456789012)',
    );
  });
});
