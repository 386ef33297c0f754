import { detectLayout, findHeaderRow, headerSignature, headerTexts, likelyHeaderRow } from './columns.js';
import { readCredits } from './credits.js';
import { STATEMENT_MAX_ROWS } from './limits.js';
import { readTable } from './read.js';
import { cellText } from './text.js';
import { isRefused, refused, type ColumnMap, type ColumnRole, type StatementRead } from './types.js';

/**
 * Bank and UPI business-app statements (CSV or XLSX) read into their credits (decision 080): a pure library,
 * bytes in, data out. Matching the credits to teams is decision 081's.
 */

export { parseAmount } from './amounts.js';
export { headerSignature } from './columns.js';
export { parseStatementDate } from './dates.js';
export { STATEMENT_MAX_BYTES, STATEMENT_MAX_ROWS } from './limits.js';
export { utrIn } from './references.js';
export type { ColumnMap, ColumnRole, Credit, StatementRead } from './types.js';

const ROLES: ColumnRole[] = ['reference', 'amount', 'credit', 'debit', 'type', 'date', 'payer', 'vpa', 'remarks'];
const SAMPLE_ROWS = 5;

/** The organiser's columns checked against the header row: whole indices within it, and an amount or credit column. */
function chosenColumns(columns: ColumnMap, width: number): ColumnMap | string {
  const chosen: ColumnMap = {};
  for (const [role, col] of Object.entries(columns) as [string, unknown][]) {
    if (col === undefined || col === null) continue;
    if (!ROLES.includes(role as ColumnRole)) return `There is no column part called "${role}".`;
    if (typeof col !== 'number' || !Number.isInteger(col) || col < 0 || col >= width) {
      return `The ${role} column must be one of the header row's ${width} columns.`;
    }
    chosen[role as ColumnRole] = col;
  }
  if (chosen.amount === undefined && chosen.credit === undefined) return 'Pick the amount (or credit) column.';
  return chosen;
}

const blank = (texts: string[]) => texts.every((t) => t === '');

/** The rows after the header that have anything in them. */
function dataRows(texts: string[][], headerIndex: number): number {
  let n = 0;
  for (let i = headerIndex + 1; i < texts.length; i++) if (!blank(texts[i]!)) n++;
  return n;
}

/** Up to 5 data rows after the header, as text (trailing empty cells dropped), for the organiser to pick columns by. */
function sample(texts: string[][], headerIndex: number): string[][] {
  const rows: string[][] = [];
  for (let i = headerIndex + 1; i < texts.length && rows.length < SAMPLE_ROWS; i++) {
    if (blank(texts[i]!)) continue;
    const row = [...texts[i]!];
    while (row.length > 0 && row[row.length - 1] === '') row.pop();
    rows.push(row);
  }
  return rows;
}

/** Reads the file. `columns`, when given, is the organiser's own choice of columns and replaces the detection (the header row is still found). */
export async function readStatement(bytes: Uint8Array, options: { columns?: ColumnMap } = {}): Promise<StatementRead> {
  try {
    const table = await readTable(bytes);
    if (isRefused(table)) return table;
    const texts = table.rows.map((row) => row.map((cell) => cellText(cell)));
    if (texts.every(blank)) return refused('The file has no rows. Export the statement again with the date range that has the payments.');
    const found = findHeaderRow(table.rows);
    const headerIndex = found >= 0 ? found : likelyHeaderRow(table.rows);
    const headers = headerTexts(table.rows[headerIndex]!);
    const count = dataRows(texts, headerIndex);
    if (count > STATEMENT_MAX_ROWS) {
      return refused(
        `The statement has ${count.toLocaleString('en-IN')} rows; the limit is ${STATEMENT_MAX_ROWS.toLocaleString('en-IN')}. Export a shorter date range.`,
      );
    }
    const detected = detectLayout(headers);
    const headerRow = table.lines[headerIndex]!;
    if (options.columns) {
      const chosen = chosenColumns(options.columns, headers.length);
      if (typeof chosen === 'string') return refused(chosen);
      // The organiser's columns replace the detection; a status column (not a choice) still drops failed payments.
      const layout = { columns: chosen, status: detected.status, references: [] };
      return { kind: 'read', format: table.format, headers, headerRow, columns: chosen, ...readCredits(table, texts, headerIndex, layout) };
    }
    if (found < 0) {
      return {
        kind: 'needs-columns',
        format: table.format,
        headers,
        headerRow,
        guess: detected.columns,
        sample: sample(texts, headerIndex),
        signature: headerSignature(headers),
      };
    }
    return {
      kind: 'read',
      format: table.format,
      headers,
      headerRow,
      columns: detected.columns,
      ...readCredits(table, texts, headerIndex, detected),
    };
  } catch (err) {
    return refused(
      `The file could not be read (${cellText((err as Error)?.message ?? String(err)).slice(0, 200)}). Export the statement again as CSV or XLSX.`,
    );
  }
}
