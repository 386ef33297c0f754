/** Input names of the organiser's stage forms (pure: the browser renders them too; a .server module is empty there). */

export const STAGE_FIELDS = ['name', 'lobbySize', 'firstSlot', 'advancePerGroup', 'advanceBest'] as const;
/** The stage's check-in window (issue 19): datetime-local inputs in the app's time zone; both or neither. */
export const CHECK_IN_FIELDS = ['checkInOpensAt', 'checkInClosesAt'] as const;
/** The no-shows form's one input: replace (first stage, draft) or leave. */
export const NO_SHOW_FIELD = 'action';
/** Rows the "schedule the whole stage" form may carry (the gateway's limit per call); blank rows are ignored. */
export const SCHEDULE_ROWS = 12;
/**
 * Rows shown (issue 27: a 6-match stage needed two submits with 4): 8, or the scheduled matches and 2
 * blank ones, at most SCHEDULE_ROWS; ?rows=all shows every row.
 */
export const scheduleRowsShown = (scheduled: number, all = false) =>
  all ? SCHEDULE_ROWS : Math.min(SCHEDULE_ROWS, Math.max(8, scheduled + 2));
/** The schedule form's minutes between groups (issue 27). */
export const GROUP_GAP_FIELD = 'groupGap';
/** The completion form's boxes: one per group match without results, its match id as the value (issue 27). */
export const NOT_PLAYED_FIELD = 'notPlayed';
export const SCHEDULE_FIELDS = ['day', 'matchNo', 'map', 'time'] as const;
export const scheduleInput = (field: (typeof SCHEDULE_FIELDS)[number], row: number) => `${field}.${row}`;
export const roomInput = (field: 'room' | 'pw', matchId: number) => `${field}.${matchId}`;
