// --- Tournaments ---
export const TOURNAMENT_STATUSES = [
  'Upcoming',
  'Registration Ongoing',
  'Registration Closed',
  'Ongoing',
  'Completed',
  'Cancelled',
] as const;
export type TournamentStatus = (typeof TOURNAMENT_STATUSES)[number];
export const REGISTRATION_OPEN_STATUS: TournamentStatus = 'Registration Ongoing';

const MAX_TEAMS = 1000;
export const MAX_TEAMS_RANGE = { min: 2, max: MAX_TEAMS } as const;
/** A match has at most one row per team, and a tournament at most this many teams. */
export const MAX_MATCH_ROWS = MAX_TEAMS;
/** Result history (issue 20): changes per page of GET .../points-table/history, and the most a caller may ask for. */
export const RESULT_HISTORY_LIMIT = 200;
export const MAX_ENTRY_FEE = 1_000_000;
export const LONG_TEXT_MAX = 5000;
