/** Form intents shared by a form and the action of another route (pure: safe in the browser bundle). */

/** /logout with this intent ends every login of the account, not only this one. */
export const LOGOUT_EVERYWHERE = 'everywhere';
