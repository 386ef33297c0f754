/** Input names of the organisers' match form (pure: the browser renders them too). */

/** The match form's fields, named as the spec's match fields (§3). */
export const MATCH_FORM_FIELDS = ['day', 'matchNo', 'map', 'matchId', 'password', 'time'] as const;
