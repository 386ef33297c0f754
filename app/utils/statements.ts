import type { StatementColumnRole } from '@custom-room/contract';

/** Issue 31 (decision 081): what the statement pages and their server module share (paths, field names). */

/** The verify form's one repeated field: "rid:utr" per matched team as shown. */
export const MATCH_FIELD = 'match';
export const columnField = (role: StatementColumnRole) => `column-${role}`;

export const statementsPath = (tid: number) => `/admin/${tid}/statements`;
export const statementPath = (tid: number, sid: number) => `/admin/${tid}/statements/${sid}`;
