/**
 * The shapes of a statement as read (decision 080). `index.ts` re-exports the public ones; the rest are the
 * modules' own.
 */

/** Which column plays which part. Indices are 0-based columns of the header row. */
export type ColumnRole = 'reference' | 'amount' | 'credit' | 'debit' | 'type' | 'date' | 'payer' | 'vpa' | 'remarks';
export type ColumnMap = Partial<Record<ColumnRole, number>>;

export type Credit = {
  line: number; // 1-based row number in the file (first sheet for XLSX)
  utr: string | null; // exactly 12 digits (spaces/dashes removed), else null
  amountPaise: number; // integer > 0
  date: string | null; // 'YYYY-MM-DD' or null
  payerName: string; // '' when absent
  payerVpa: string | null; // like 'name@okaxis' when found in the payer/VPA column or the remarks
  remarks: string; // remarks / narration / description text, trimmed ('' when none)
  registrationId: number | null; // from 'CR-<digits>' (case-insensitive, also 'CR <digits>' / 'CR42') in remarks or reference
};

export type StatementRead =
  | {
      kind: 'read';
      format: 'csv' | 'xlsx';
      headers: string[];
      headerRow: number;
      columns: ColumnMap;
      credits: Credit[];
      rows: number;
      skipped: number;
    }
  | {
      kind: 'needs-columns';
      format: 'csv' | 'xlsx';
      headers: string[];
      headerRow: number;
      guess: ColumnMap;
      sample: string[][];
      signature: string;
    }
  | { kind: 'refused'; message: string };

/** A refusal: the file is not read, and the message says why and what to do. */
export type Refused = Extract<StatementRead, { kind: 'refused' }>;

/** A cell as read: text from a CSV; a string, number, boolean or Date from an XLSX; null when empty. */
export type Cell = string | number | boolean | Date | null;

/** The file's rows, each with its 1-based line (CSV: the line its record starts on; XLSX: the sheet row). */
export type Table = { format: 'csv' | 'xlsx'; rows: Cell[][]; lines: number[] };

/**
 * The columns used to read the rows: the public map, plus what only this library uses: a status column
 * (SUCCESS / FAILED…) and the other reference-like columns, searched for a UTR when the reference has none.
 */
export type Layout = { columns: ColumnMap; status?: number; references: number[] };

/** A refusal with its message. */
export function refused(message: string): Refused {
  return { kind: 'refused', message };
}

/** Whether a value is a refusal. */
export function isRefused(value: object): value is Refused {
  return (value as { kind?: unknown }).kind === 'refused';
}
