/** Input names of the organisers' match and points forms (pure: the browser renders them too). */

/** The match form's fields, named as the spec's match fields (§3). */
export const MATCH_FORM_FIELDS = ['day', 'matchNo', 'map', 'matchId', 'password', 'time'] as const;

/**
 * One points row per team: inputs `{field}.{teamId}` (teamId = rid), the keys the gateway's batch errors use too.
 * No wins input: a win is placement 1, derived by the gateway (decision 029).
 */
export const POINTS_FIELDS = ['position', 'finishes'] as const;
export type PointsField = (typeof POINTS_FIELDS)[number];

export const pointsInputName = (field: PointsField, teamId: number) => `${field}.${teamId}`;
