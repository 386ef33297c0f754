// The check-in window rule both sides use (contract/src/constants/check-in.ts, issue 28).
import { describe, expect, it } from 'vitest';
import { CHECK_IN_BOTH_ENDS, CHECK_IN_CLOSES_AFTER_OPENS, checkInWindowFault } from '@custom-room/contract';

const opens = '2026-12-10T12:00:00.000Z';
const later = '2026-12-10T12:20:00.000Z';

describe('checkInWindowFault', () => {
  it('accepts no window, and a window that closes after it opens', () => {
    expect(checkInWindowFault(null, null)).toBeNull();
    expect(checkInWindowFault(opens, later)).toBeNull();
  });

  it('asks for both ends, on the missing one', () => {
    expect(checkInWindowFault(null, later)).toEqual({ field: 'checkInOpensAt', message: CHECK_IN_BOTH_ENDS });
    expect(checkInWindowFault(opens, null)).toEqual({ field: 'checkInClosesAt', message: CHECK_IN_BOTH_ENDS });
  });

  it('refuses a window that closes when or before it opens, on its closing end', () => {
    const fault = { field: 'checkInClosesAt', message: CHECK_IN_CLOSES_AFTER_OPENS };
    expect(checkInWindowFault(opens, opens)).toEqual(fault);
    expect(checkInWindowFault(later, opens)).toEqual(fault);
  });
});
