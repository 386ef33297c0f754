// --- A stage's check-in window (issue 19, decision 043): one rule for the gateway and the web forms ---

export const CHECK_IN_BOTH_ENDS = 'Set both ends of the check-in window, or neither.';
export const CHECK_IN_CLOSES_AFTER_OPENS = 'Check-in must close after it opens.';

/** The input a fault of the check-in window belongs to, and what to say there. */
export interface CheckInWindowFault {
  field: 'checkInOpensAt' | 'checkInClosesAt';
  message: string;
}

/**
 * The check-in window's first fault, or null when it holds. opens and closes: ISO instants, null for no
 * end. Both ends or neither (no window); it must close after it opens.
 */
export function checkInWindowFault(opens: string | null, closes: string | null): CheckInWindowFault | null {
  if ((opens === null) !== (closes === null))
    return { field: opens === null ? 'checkInOpensAt' : 'checkInClosesAt', message: CHECK_IN_BOTH_ENDS };
  if (opens !== null && closes !== null && Date.parse(closes) <= Date.parse(opens)) {
    return { field: 'checkInClosesAt', message: CHECK_IN_CLOSES_AFTER_OPENS };
  }
  return null;
}
