import type { ColumnType, Generated } from 'kysely';
import type { MoneyTables } from './schema-money.js';
import type {
  MatchReportingTable,
  MatchReportsTable,
  ResultDisputesTable,
  ResultPlayersTable,
  ReportLookalikesTable,
  ScreenshotsTable,
} from './schema-reports.js';

/** Dates are ISO 8601 UTC strings (`2026-03-05T13:00:00.000Z`) on both SQLite and PostgreSQL. */
type Timestamp = string;

export interface UsersTable {
  id: Generated<number>;
  email: string;
  phone: string;
  username: string;
  username_lower: string;
  username_key: string; // decision 033: skeleton of the lower-cased username
  username_shape: string; // decision 033: skeleton of the username as typed
  password_hash: string;
  roles: string; // comma-separated: ROLE_USER,ROLE_ADMIN
  created_at: Timestamp;
}

export interface PasswordResetRequestsTable {
  id: Generated<number>;
  email_hash: string;
  requested_at: Timestamp;
}

export interface PasswordResetsTable {
  id: Generated<number>;
  user_id: number;
  token_hash: string;
  expires_at: Timestamp;
  used_at: Timestamp | null;
  created_at: Timestamp;
}

/** One row per token handed out; deleting it ends that token (logout), all of a user's rows end all (decision 019). */
export interface SessionsTable {
  id: string; // the token's sid claim
  user_id: number;
  created_at: Timestamp;
  expires_at: Timestamp; // the token's exp; expired rows are pruned
}

/** A browser that has logged in to the account (decision 022): its attempts skip the account lockout. */
export interface LoginDevicesTable {
  id: string; // SHA-256 of the device token; the token itself is only in the browser's cookie
  user_id: number;
  created_at: Timestamp;
  last_used_at: Timestamp;
  expires_at: Timestamp;
}

/** One failed login, kept for the lockout window (decision 022). */
export interface LoginFailuresTable {
  id: Generated<number>;
  address: string;
  account: string;
  device_id: string | null;
  failed_at: Timestamp;
}

export interface ProfilesTable {
  user_id: number;
  full_name: string;
  bio: string;
  gender: string;
  date_of_birth: string;
  location: string;
  profile_picture_url: string;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface ImagesTable {
  id: string; // content hash of the re-encoded original
  width: number; // the variant's width; one row per variant
  height: number;
  content_type: string;
  data: Buffer;
  created_at: Timestamp;
}

/** The JPEG of a cover's largest variant (link previews), one per image id (decision 032). */
export interface ImageJpegsTable {
  id: string; // images.id
  width: number;
  height: number;
  data: Buffer;
  created_at: Timestamp;
}

export interface TournamentsTable {
  id: Generated<number>;
  name: string;
  game: string;
  description: string;
  start_date: Timestamp;
  end_date: Timestamp;
  registration_open: Timestamp;
  registration_close: Timestamp;
  max_teams: number;
  format: string;
  platform: string;
  entry_fee: number;
  prize_pool: string;
  cover_image_id: string | null;
  status: string;
  overview: string;
  points_system: string;
  /** Decision 043: hours after placement to get the payment verified, or a fixed time (at most one is set). */
  payment_deadline_hours: ColumnType<number | null, number | null | undefined, number | null>;
  payment_deadline_at: ColumnType<string | null, string | null | undefined, string | null>;
  /** Decision 046: 1 when every named player must give a character ID. */
  require_character_ids: ColumnType<number, number | undefined, number>;
  /** Issue 27 (decision 055): the organiser's payee; null = the site's default (UPI_PAYEE_VPA / UPI_PAYEE_NAME). */
  payee_upi_id: ColumnType<string | null, string | null | undefined, string | null>;
  payee_name: ColumnType<string | null, string | null | undefined, string | null>;
  /** Issue 29 (decision 065): who runs it; migration 019 gave every older tournament to the Site organiser. */
  organiser_id: ColumnType<number, number, number>;
  /** Issue 30: a match's length (report reminders) and the dispute window, in minutes. */
  match_minutes: ColumnType<number, number | undefined, number>;
  dispute_minutes: ColumnType<number, number | undefined, number>;
  deleted_at: Timestamp | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface RegistrationsTable {
  id: Generated<number>;
  tournament_id: number;
  user_id: number;
  team_name: string;
  team_name_lower: string;
  team_name_key: string; // decision 033: skeleton of the lower-cased name (unique per tournament)
  team_name_shape: string; // decision 033: skeleton of the name as typed (unique per tournament)
  player1_username: string;
  player2_username: string;
  player3_username: string;
  player4_username: string;
  substitute1_username: string;
  substitute2_username: string;
  payment_status: ColumnType<string, string | undefined, string>; // pending | submitted | verified | rejected
  payment_reference: string;
  /** The UTR while it is this registration's reference; unique, NULL when none (or an older duplicate: decision 029). */
  payment_utr: ColumnType<string | null, string | null | undefined, string | null>;
  created_at: Timestamp;
  updated_at: Timestamp;
  /** Decision 043: placed | waitlist | released | withdrawn. Only placed and waitlisted rows hold the unique keys. */
  place: ColumnType<string, string | undefined, string>;
  /** When the team got its place (registered into one, or promoted); null while waitlisted. */
  placed_at: ColumnType<string | null, string | null | undefined, string | null>;
  /** The payment deadline of a placed team (null: none); released when passed unless verified or submitted. */
  pay_by: ColumnType<string | null, string | null | undefined, string | null>;
  /** When the team was released or withdrew. */
  released_at: ColumnType<string | null, string | null | undefined, string | null>;
  released_reason: ColumnType<string | null, string | null | undefined, string | null>;
  /** Decision 052: 'barred' once the organiser removed the team (it may not register again), 'allowed' once it lets it back. */
  rejoin: ColumnType<string | null, string | null | undefined, string | null>;
}

/** One row per in-game name in a tournament: the unique index stops an IGN playing for two teams. */
export interface RegistrationIgnsTable {
  tournament_id: number;
  registration_id: number;
  ign_lower: string;
  ign_key: string; // decision 033, as team_name_key
  ign_shape: string; // decision 033, as team_name_shape
}

/** Decision 046: one row per in-game character ID in a tournament; the primary key stops it playing for two teams. */
export interface RegistrationCharacterIdsTable {
  tournament_id: number;
  registration_id: number;
  /** The IGN field the ID belongs to (player1Username … substitute2Username). */
  field: string;
  character_id: string;
}

/** Decision 052: the character IDs a team had when it left; kept for the record, claiming nothing. */
export type LeftCharacterIdsTable = RegistrationCharacterIdsTable;

export interface MatchesTable {
  id: Generated<number>;
  tournament_id: number;
  day: number;
  match_no: number;
  map: string;
  room_id: string;
  room_password: string;
  time: string; // HH:MM or HH:MM:SS
  /** Decision 041: 0 = the implicit group (no stages). */
  group_id: ColumnType<number, number | undefined, number>;
  /** Issue 27: a group match the organiser marked as not played when completing its stage (when, and by whom). */
  not_played_at: ColumnType<string | null, string | null | undefined, string | null>;
  not_played_by: ColumnType<string | null, string | null | undefined, string | null>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface MatchResultsTable {
  id: Generated<number>;
  tournament_id: number;
  day: number;
  match_no: number;
  registration_id: number;
  position: number; // 0 = no placement recorded
  wins: number;
  finishes: number;
  position_points: number;
  total_points: number;
  /** Decision 041: 0 = the implicit group (no stages). */
  group_id: ColumnType<number, number | undefined, number>;
  /** 1 = the team did not play: no points, not counted as played. */
  absent: ColumnType<number, number | undefined, number>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** Issue 20 (decision 048): one team's result before and after one change; null old = first entry, null new = removed. */
export interface ResultChangesTable {
  id: Generated<number>;
  tournament_id: number;
  /** Groups the rows of one call (a whole-match save is one change): 1, 2, ... per tournament. */
  change_id: number;
  /** 0 = the implicit group (no stages). */
  group_id: number;
  day: number;
  match_no: number;
  registration_id: number;
  /** The admin's user id, and their username at the time. */
  changed_by: number;
  changed_by_name: string;
  changed_at: Timestamp;
  old_position: number | null;
  old_wins: number | null;
  old_finishes: number | null;
  old_absent: number | null;
  new_position: number | null;
  new_wins: number | null;
  new_finishes: number | null;
  new_absent: number | null;
}

export interface StagesTable {
  id: Generated<number>;
  tournament_id: number;
  name: string;
  ord: number;
  lobby_size: number;
  first_slot: number;
  advance_per_group: number;
  advance_best: number;
  state: string; // draft | published | completed
  draw_method: string | null;
  draw_seed: string | null;
  drawn_at: Timestamp | null;
  /** Decision 043: the check-in window, both set or both null; no_shows: replace | leave once decided. */
  check_in_opens_at: ColumnType<string | null, string | null | undefined, string | null>;
  check_in_closes_at: ColumnType<string | null, string | null | undefined, string | null>;
  no_shows: ColumnType<string | null, string | null | undefined, string | null>;
  /** Issue 27: minutes between one group's start and the next one's (0: every group at the same time). */
  group_gap_minutes: ColumnType<number, number | undefined, number>;
  /** Issue 30: this stage's match length; null: the tournament's. */
  match_minutes: ColumnType<number | null, number | null | undefined, number | null>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface StageGroupsTable {
  id: Generated<number>;
  stage_id: number;
  name: string;
  ord: number;
}

export interface GroupSlotsTable {
  group_id: number;
  stage_id: number;
  registration_id: number;
  slot: number;
}

export interface StageInvitesTable {
  stage_id: number;
  registration_id: number;
}

/** Decision 043: a team checked in for a stage. */
export interface StageCheckInsTable {
  stage_id: number;
  registration_id: number;
  checked_in_at: Timestamp;
}

/** Written when a stage is completed (decision 041): every team's ranks and whether it advanced. */
export interface StageResultsTable {
  stage_id: number;
  registration_id: number;
  group_id: number;
  group_rank: number;
  stage_rank: number;
  qualified: number;
  via: string | null; // group | best
}

/**
 * Issue 19's outbox: one row per event a player must hear about, written in the same transaction as the
 * change it reports. audience and data are JSON (db/outbox.ts); the worker sets fanned_out_at once it has
 * written the event's notifications and deliveries.
 */
export interface NotificationEventsTable {
  id: Generated<number>;
  kind: string; // NotificationKind
  tournament_id: number;
  audience: string; // JSON of an Audience
  data: string; // JSON object
  /** Set when the same event must never be recorded twice (a reminder per match, say); NULLs never clash. */
  dedupe_key: ColumnType<string | null, string | null | undefined, string | null>;
  created_at: Timestamp;
  fanned_out_at: ColumnType<string | null, string | null | undefined, string | null>;
}

/** A line of a player's notifications list (decision 044): one per (event, account). */
export interface NotificationsTable {
  id: Generated<number>;
  user_id: number;
  event_id: number;
  tournament_id: number;
  kind: string; // NotificationKind
  title: string;
  body: string;
  link: string; // a path of the web app
  created_at: Timestamp;
  read_at: ColumnType<string | null, string | null | undefined, string | null>;
}

/** A browser's web push subscription (decision 044). */
export interface PushSubscriptionsTable {
  id: Generated<number>;
  user_id: number;
  endpoint: string;
  p256dh: string;
  auth: string;
  created_at: Timestamp;
}

/** One email or push of a notification (decision 044): claimed under a lease, retried with backoff. */
export interface NotificationDeliveriesTable {
  id: Generated<number>;
  notification_id: number;
  event_id: number;
  user_id: number;
  tournament_id: number;
  channel: string; // email | push
  subscription_id: ColumnType<number, number | undefined, number>; // push_subscriptions.id; 0 for email
  state: ColumnType<string, string | undefined, string>; // pending | sent | failed
  attempts: ColumnType<number, number | undefined, number>;
  next_attempt_at: Timestamp;
  lease_until: ColumnType<string | null, string | null | undefined, string | null>;
  last_error: ColumnType<string | null, string | null | undefined, string | null>;
  created_at: Timestamp;
  done_at: ColumnType<string | null, string | null | undefined, string | null>;
}

/** Decision 023: sum(value) changes with every write that can change a public answer. */
export interface CacheGenerationTable {
  shard: number;
  value: number | string | bigint;
  epoch: string;
}

/** Issue 29 (decision 065): an organiser (pending until a site admin approves it); Site owns the older tournaments. */
export interface OrganisersTable {
  id: Generated<number>;
  slug: string;
  name: string;
  about: ColumnType<string, string | undefined, string>;
  contact: ColumnType<string, string | undefined, string>;
  logo_image_id: ColumnType<string | null, string | null | undefined, string | null>;
  whatsapp: ColumnType<string | null, string | null | undefined, string | null>;
  instagram: ColumnType<string | null, string | null | undefined, string | null>;
  youtube: ColumnType<string | null, string | null | undefined, string | null>;
  discord: ColumnType<string | null, string | null | undefined, string | null>;
  owner_id: number | null;
  status: 'pending' | 'approved' | 'withdrawn';
  is_site: ColumnType<number, number | undefined, number>;
  approved_by: ColumnType<number | null, number | null | undefined, number | null>;
  approved_at: ColumnType<string | null, string | null | undefined, string | null>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** Issue 29: one member of a tournament's crew; `invited` until the invitee accepts. */
export interface TournamentStaffTable {
  id: Generated<number>;
  tournament_id: number;
  user_id: number;
  role: 'co-organiser' | 'payments' | 'lobby';
  status: 'invited' | 'active';
  /** The invitation's random id, in the link sent to the invitee; it works only for the invited account. */
  token: string | null;
  invited_by: number;
  invited_at: Timestamp;
  accepted_at: Timestamp | null;
}

/** Issue 29: a lobby manager's scope: a whole stage (group_id null) or one group of it. */
export interface StaffScopesTable {
  staff_id: number;
  stage_id: number;
  group_id: number | null;
}

/** Issue 29: who did what on a tournament, when; written in the write's own transaction. */
export interface ActivityTable {
  id: Generated<number>;
  tournament_id: number;
  actor_id: number;
  actor_name: string;
  action: string;
  detail: string;
  at: Timestamp;
}

/** Issue 29: a short message to a tournament, a stage or a group. */
export interface AnnouncementsTable {
  id: Generated<number>;
  tournament_id: number;
  stage_id: number | null;
  group_id: number | null;
  author_id: number;
  author_name: string;
  body: string;
  at: Timestamp;
}

/** Issue 31's tables are in schema-money.ts (MoneyTables). */
export interface Database extends MoneyTables {
  users: UsersTable;
  password_resets: PasswordResetsTable;
  password_reset_requests: PasswordResetRequestsTable;
  sessions: SessionsTable;
  login_devices: LoginDevicesTable;
  login_failures: LoginFailuresTable;
  profiles: ProfilesTable;
  images: ImagesTable;
  image_jpegs: ImageJpegsTable;
  tournaments: TournamentsTable;
  registrations: RegistrationsTable;
  registration_igns: RegistrationIgnsTable;
  registration_character_ids: RegistrationCharacterIdsTable;
  left_character_ids: LeftCharacterIdsTable;
  matches: MatchesTable;
  match_results: MatchResultsTable;
  result_changes: ResultChangesTable;
  stages: StagesTable;
  stage_groups: StageGroupsTable;
  group_slots: GroupSlotsTable;
  stage_invites: StageInvitesTable;
  stage_results: StageResultsTable;
  stage_check_ins: StageCheckInsTable;
  cache_generation: CacheGenerationTable;
  notification_events: NotificationEventsTable;
  notifications: NotificationsTable;
  push_subscriptions: PushSubscriptionsTable;
  notification_deliveries: NotificationDeliveriesTable;
  organisers: OrganisersTable;
  tournament_staff: TournamentStaffTable;
  staff_scopes: StaffScopesTable;
  activity: ActivityTable;
  announcements: AnnouncementsTable;
  screenshots: ScreenshotsTable;
  report_lookalikes: ReportLookalikesTable;
  match_reports: MatchReportsTable;
  match_reporting: MatchReportingTable;
  result_players: ResultPlayersTable;
  result_disputes: ResultDisputesTable;
}
