/** The registrations page's forms: the intents their buttons post, and the names both sides read. */

export const INTENT = {
  verifyOne: 'verify-one',
  rejectOne: 'reject-one',
  verifySelected: 'verify-selected',
  rejectSelected: 'reject-selected',
  release: 'release',
  remove: 'remove',
  allowReturn: 'allow-return',
} as const;

/** The ticked-teams form: its buttons above the list, its checkboxes on the cards (form=). */
export const BULK_FORM_ID = 'bulk-payments';

/** The removal's confirmation tick: a removed team loses its place, paid or not. */
export const CONFIRM_REMOVE = 'confirmRemove';
