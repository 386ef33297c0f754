/** The largest statement file read: 5 MB (the upload's own limit, decision 081). */
export const STATEMENT_MAX_BYTES = 5 * 1024 * 1024;
/** The most data rows (after the header row, blank rows not counted) a statement may have. */
export const STATEMENT_MAX_ROWS = 50_000;
/** The header row is looked for in this many first rows (banks put account details above the table). */
export const HEADER_SEARCH_ROWS = 40;
