/** Input names of the organiser's stage forms (pure: the browser renders them too; a .server module is empty there). */

export const STAGE_FIELDS = ['name', 'lobbySize', 'firstSlot', 'advancePerGroup', 'advanceBest'] as const;
/** The stage's check-in window (issue 19): datetime-local inputs in the app's time zone; both or neither. */
export const CHECK_IN_FIELDS = ['checkInOpensAt', 'checkInClosesAt'] as const;
/** The no-shows form's one input: replace (first stage, draft) or leave. */
export const NO_SHOW_FIELD = 'action';
/** Rows of the "schedule the whole stage" form; blank rows are ignored. */
export const SCHEDULE_ROWS = 4;
export const SCHEDULE_FIELDS = ['day', 'matchNo', 'map', 'time'] as const;
export const scheduleInput = (field: (typeof SCHEDULE_FIELDS)[number], row: number) => `${field}.${row}`;
export const roomInput = (field: 'room' | 'pw', matchId: number) => `${field}.${matchId}`;
export const RESULT_FIELDS = ['position', 'finishes', 'absent'] as const;
export const resultInput = (field: (typeof RESULT_FIELDS)[number], teamId: number) => `${field}.${teamId}`;
