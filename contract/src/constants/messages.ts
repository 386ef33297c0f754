// --- Messages the spec fixes ---
export const TOURNAMENT_NOT_FOUND = 'Tournament not found.';
export const MATCH_NOT_FOUND = 'Match not found.';
export const NO_PROFILE = 'No Profile Found';
export const PROFILE_EXISTS = 'You already have a profile.';

// --- Messages both sides write: the gateway answers them, and the web app says the same words itself ---
// (a page it renders before or without the call, or a flash after it), so a player reads one sentence.

/** POST /api/auth/password-reset/request's answer, whether or not the account exists; the forgot-password page. */
export const RESET_REQUESTED = 'If an account exists for that email, we have sent a link to reset the password.';
/** POST /api/auth/password-reset/confirm's answer; the flash on the login page after it. */
export const PASSWORD_RESET_DONE = 'Your password has been reset. Please log in.';
/** A multipart tournament form the gateway or the web app could not parse. */
export const FORM_UNREADABLE = 'The form could not be read. Please try sending it again.';
/** A text field of the multipart tournament form over its byte limit. */
export const FIELD_TOO_LONG = 'This value is too long.';
/** 404 of a player's own-team calls, and of the team pages, when the player has no team in the tournament. */
export const NO_TEAM_REGISTERED = 'You have not registered a team for this tournament.';
/** The gateway's 500 answer; the web app's error page when nothing more is known. */
export const SERVER_ERROR = 'Something went wrong on our side. Please try again.';
/** DELETE /tournaments/admin/delete{id}'s answer; the flash after deleting. */
export const TOURNAMENT_DELETED = 'Tournament deleted successfully!';
