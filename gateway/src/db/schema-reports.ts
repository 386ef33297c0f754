import type { Generated } from 'kysely';

/** ISO 8601 text, as in schema.ts. */
type Timestamp = string;

// Issue 30's tables (decision 071), apart from schema.ts to keep each file readable.

/** Issue 30 (decision 071): a report's or a dispute's screenshot, kept once, with its perceptual hash. */
export interface ScreenshotsTable {
  id: string;
  content_type: string;
  width: number;
  height: number;
  data: Buffer;
  hash: string;
  created_at: Timestamp;
}

export interface ReportLookalikesTable {
  report_id: number;
  other_report_id: number;
  distance: number;
}

/** A team's report of one group-match (group 0 outside groups). */
export interface MatchReportsTable {
  id: Generated<number>;
  tournament_id: number;
  group_id: number;
  day: number;
  match_no: number;
  registration_id: number;
  position: number;
  finishes: number;
  players: string; // JSON [{ ign, finishes }]
  screenshot_id: string;
  reported_by: number;
  reported_by_name: string;
  created_at: Timestamp;
  updated_at: Timestamp;
  /** When its screenshot was compared with earlier reports (decision 077); null while that is still to do. */
  screenshot_checked_at: string | null;
}

export interface MatchReportingTable {
  tournament_id: number;
  group_id: number;
  day: number;
  match_no: number;
  closed_at: string | null;
  confirmed_at: string | null;
  confirmed_by_name: string | null;
  provisional_until: string | null;
  reminded_at: string | null;
}

export interface ResultPlayersTable {
  tournament_id: number;
  group_id: number;
  day: number;
  match_no: number;
  registration_id: number;
  ign: string;
  finishes: number;
}

export interface ResultDisputesTable {
  id: Generated<number>;
  tournament_id: number;
  group_id: number;
  day: number;
  match_no: number;
  by_registration_id: number;
  about_registration_id: number;
  reason: string;
  screenshot_id: string | null;
  state: 'open' | 'upheld' | 'dismissed';
  resolution: string | null;
  resolved_by_name: string | null;
  resolved_at: string | null;
  filed_by: number;
  filed_by_name: string;
  created_at: Timestamp;
}
