// --- Messages the spec fixes ---
export const TOURNAMENT_NOT_FOUND = 'Tournament not found.';
export const MATCH_NOT_FOUND = 'Match not found.';
export const NO_PROFILE = 'No Profile Found';
export const PROFILE_EXISTS = 'You already have a profile.';
