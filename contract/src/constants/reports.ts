// --- Captains' result reports, lobby confirmation and disputes (issue 30, decision 071) ---

/** The screenshot's form field on a report and on a dispute. */
export const SCREENSHOT_FIELD = 'screenshot';
/** A report or dispute's screenshot: one file of these types, at most 5 MB (the cover's limit). */
export const SCREENSHOT_TYPES = ['image/jpeg', 'image/png', 'image/webp'] as const;
export const SCREENSHOT_MESSAGES = {
  required: 'Add a screenshot of the result screen.',
  tooLarge: 'The screenshot must be at most 5 MB.',
  tooMany: 'Send one screenshot.',
  unreadable: 'This file is not a JPEG, PNG or WebP picture we can read.',
  tooSmall: 'The screenshot is too small to read: send the result screen as the phone saved it.',
} as const;

/** Rows of a report's player list: a squad's four and its two substitutes. */
export const REPORT_PLAYER_ROWS = 6;
/** A report's player fields: `player{n}` (the in-game name) and `finishes{n}`, n = 1..REPORT_PLAYER_ROWS. */
export const reportPlayerField = (n: number) => `player${n}`;
export const reportFinishesField = (n: number) => `finishes${n}`;

/** How long a match lasts unless the organiser says otherwise (per stage, or the tournament's). */
export const MATCH_MINUTES_DEFAULT = 30;
export const MATCH_MINUTES_MAX = 240;
/** Results stay provisional this long after a lobby is confirmed, unless the organiser says otherwise. */
export const DISPUTE_MINUTES_DEFAULT = 15;
export const DISPUTE_MINUTES_MAX = 24 * 60;
/** A reminder goes to teams that have not reported this long after the match's expected end. */
export const REPORT_REMINDER_MINUTES = 10;

export const DISPUTE_REASON_MAX = 500;
export const DISPUTE_RESOLUTION_MAX = 500;

/** Where reporting stands for one group-match. */
export const REPORTING_STATES = ['not-started', 'open', 'closed', 'confirmed'] as const;
export type ReportingState = (typeof REPORTING_STATES)[number];

export const DISPUTE_STATES = ['open', 'upheld', 'dismissed'] as const;
export type DisputeState = (typeof DISPUTE_STATES)[number];

/** What the lobby view flags (kinds are stable; messages are for people). */
export const REPORT_CONFLICT_KINDS = [
  'placement-shared',
  'placement-outside',
  'lobby-finishes',
  'team-finishes',
  'player-not-on-team',
  'same-screenshot',
] as const;
export type ReportConflictKind = (typeof REPORT_CONFLICT_KINDS)[number];

export const REPORT_NOT_DUE = 'Reporting for this match opens at its start time.';
export const REPORTING_CLOSED = 'Reporting for this match is closed: ask the lobby staff.';
export const REPORT_CONFIRMED = 'This match’s results are confirmed: dispute a row instead.';
export const NOT_IN_LOBBY = 'Your team does not play in this match.';
export const DISPUTE_WINDOW_CLOSED = 'The time to dispute this match’s results has passed.';
export const DISPUTE_TAKEN = 'Your team has already disputed a result of this match.';
export const DISPUTES_OPEN = (n: number) =>
  `${n === 1 ? 'A dispute is' : `${n} disputes are`} still open in this stage: uphold or dismiss ${n === 1 ? 'it' : 'them'} first.`;
