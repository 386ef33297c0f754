/** The admin tournament form's shape, shared by the server and the browser (pure: no server imports). */

/**
 * Form field names: the spec's tournament data fields (§3), plus pointsSystem, requireCharacterIds (decision 046),
 * the payment deadline (issue 19: hours after a team gets its place, or a fixed time) and the payee (issue 27),
 * in the order the form shows them.
 */
export const TOURNAMENT_FIELDS = [
  'name',
  'game',
  'description',
  'overview',
  'registrationOpen',
  'registrationClose',
  'startDate',
  'endDate',
  'maxTeams',
  'entryFee',
  'paymentDeadlineHours',
  'paymentDeadlineAt',
  'payeeUpiId',
  'payeeName',
  'prizePool',
  'format',
  'platform',
  'status',
  'pointsSystem',
  'requireCharacterIds',
  'coverImage',
] as const;

export type TournamentField = (typeof TOURNAMENT_FIELDS)[number];

export const DATE_FIELDS = ['registrationOpen', 'registrationClose', 'startDate', 'endDate'] as const;

export const COVER_FIELD = 'coverImage';

/** The spec's messages (§8); the failures also head the form's error summary, so the browser needs them too. */
export const TOURNAMENT_ADDED = 'Tournament added successfully!';
export const TOURNAMENT_ADD_FAILED = 'Error adding tournament';
export const TOURNAMENT_UPDATED = 'Tournament updated successfully!';
export const TOURNAMENT_UPDATE_FAILED = 'Failed to update tournament.';

/** Not a field of the gateway: the name of the file a refused submission carried, so the form can ask for it again. */
export const COVER_NAME_VALUE = 'coverImageName';

/** What the form needs to render and to check a chosen file in the browser (the server checks again). */
export interface TournamentFormRules {
  timeZone: string;
  statuses: string[];
  pointsSystems: { id: string; points: number[] }[];
  defaultPointsSystem: string;
  maxTeams: { min: number; max: number };
  maxEntryFee: number;
  maxDeadlineHours: number;
  /** Issue 27: the site's default payee (UPI_PAYEE_VPA / UPI_PAYEE_NAME), paid when a tournament has none. */
  defaultPayee: { upiId: string; name: string; placeholder: boolean };
  placeholderUpiId: string;
  maxLength: Record<string, number>;
  cover: { maxBytes: number; wrongType: string; tooLarge: string; tooMany: string };
}
