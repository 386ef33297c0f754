// --- Matches and results ---
export const MATCH_DAY_MAX = 7;
export const MATCH_NO_MAX = 6;
export const MAX_BULK_PAYMENTS = 1000;
export const UTR_LENGTH = 12;
/** The longest map name, room ID and room password (characters). */
export const MAP_MAX = 40;
export const ROOM_TEXT_MAX = 40;
