import type { ColumnType, Generated } from 'kysely';

/** ISO 8601 text, as in schema.ts. */
type Timestamp = string;

// Issue 31's tables (decision 081), apart from schema.ts to keep each file readable.

/** An uploaded statement: the file (kept for picking columns), and how it was read. */
export interface StatementsTable {
  id: Generated<number>;
  tournament_id: number;
  sha256: string;
  file_name: string;
  format: string; // csv | xlsx
  data: Buffer;
  state: string; // read | needs-columns
  headers: string; // JSON string[]
  header_row: number;
  columns: string | null; // JSON ColumnMap
  rows: ColumnType<number, number | undefined, number>;
  skipped: ColumnType<number, number | undefined, number>;
  uploaded_by: number;
  uploaded_by_name: string;
  uploaded_at: Timestamp;
}

/** One credit of a statement (debits, footers and blank rows are not kept). */
export interface StatementCreditsTable {
  statement_id: number;
  line: number;
  utr: string | null;
  /** A bigint: PostgreSQL hands it back as text, read it with Number(). */
  amount_paise: ColumnType<number | string, number, number>;
  date: string | null;
  payer_name: string;
  payer_vpa: string | null;
  remarks: string;
  /** The registration id of the payment note ("CR-42 Team Soul") found in the remarks. */
  registration_hint: number | null;
}

/** The columns an organiser picked for a statement layout, remembered by its header row's signature. */
export interface StatementLayoutsTable {
  organiser_id: number;
  signature: string;
  columns: string;
  updated_at: Timestamp;
}

/** The credit that verified a team's payment through a statement. */
export interface StatementVerificationsTable {
  registration_id: number;
  tournament_id: number;
  statement_id: number;
  line: number;
  verified_by: number;
  verified_at: Timestamp;
}

/** Decision 082: a paid team's refund, recorded by the organiser with its UTR (one per registration). */
export interface RefundsTable {
  registration_id: number;
  tournament_id: number;
  amount_paise: ColumnType<number | string, number, number>;
  utr: string;
  recorded_by: number;
  recorded_by_name: string;
  recorded_at: Timestamp;
}

/** Decision 084: one line of a tournament's prize table: a final rank's amount, or a special prize. */
export interface PrizesTable {
  id: Generated<number>;
  tournament_id: number;
  rank: number | null;
  label: string;
  amount_paise: ColumnType<number | string, number, number>;
  sort: number;
}

/** Decision 085: a tournament's prize options (the PAN asked of winners). */
export interface PrizeOptionsTable {
  tournament_id: number;
  ask_pan: ColumnType<number, number | undefined, number>;
}

/** Decision 085: the team that won a special prize, by the prize's name. */
export interface PrizeAwardsTable {
  tournament_id: number;
  label: string;
  registration_id: number;
}

/** Decision 085: where a winning team's prize goes, as its captain gave it. */
export interface PrizePayeesTable {
  registration_id: number;
  tournament_id: number;
  upi_id: string;
  pan: string | null;
  given_at: Timestamp;
}

/** Decision 085: a winning team's payout (one per team, all its prizes), with the TDS withheld. */
export interface PrizePayoutsTable {
  registration_id: number;
  tournament_id: number;
  gross_paise: ColumnType<number | string, number, number>;
  tds_paise: ColumnType<number | string, number, number>;
  upi_id: string;
  utr: string;
  recorded_by: number;
  recorded_by_name: string;
  recorded_at: Timestamp;
}

/** Issue 31's tables, as the Database interface (schema.ts) lists them. */
export interface MoneyTables {
  statements: StatementsTable;
  statement_credits: StatementCreditsTable;
  statement_layouts: StatementLayoutsTable;
  statement_verifications: StatementVerificationsTable;
  refunds: RefundsTable;
  prizes: PrizesTable;
  prize_options: PrizeOptionsTable;
  prize_awards: PrizeAwardsTable;
  prize_payees: PrizePayeesTable;
  prize_payouts: PrizePayoutsTable;
}
