/**
 * The contract's plain values: statuses, roles, field lists, limits and the messages the spec fixes.
 * No zod here (and nothing that imports it): the browser bundle imports this module
 * (`@custom-room/contract/constants`) and must not grow by a validation library.
 */

export * from './points-systems.js';

export type FieldErrors = Record<string, string>;

// --- Roles and tokens (decision 019) ---
export const ROLE_USER = 'ROLE_USER';
export const ROLE_ADMIN = 'ROLE_ADMIN';
/** The `iss` of the gateway's tokens; the web app accepts no other. */
export const TOKEN_ISSUER = 'custom-room-gateway';
/** The `aud` of the gateway's tokens. */
export const TOKEN_AUDIENCE = 'custom-room';

// --- Payments (decisions 011, 029) ---
export const PAYMENT_STATUSES = ['pending', 'submitted', 'verified', 'rejected'] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];

// --- Teams (spec §3, §5) ---
/** Every in-game-name field of a team, in form order (players first, then substitutes). */
export const IGN_FIELDS = [
  'player1Username',
  'player2Username',
  'player3Username',
  'player4Username',
  'substitute1Username',
  'substitute2Username',
] as const;
export type IgnField = (typeof IGN_FIELDS)[number];
export const TEAM_FIELDS = ['teamName', ...IGN_FIELDS] as const;
export type TeamField = (typeof TEAM_FIELDS)[number];
/** How messages name each IGN field ("Player 1 IGN is required."). */
export const IGN_LABELS: Record<IgnField, string> = {
  player1Username: 'Player 1 IGN',
  player2Username: 'Player 2 IGN',
  player3Username: 'Player 3 IGN',
  player4Username: 'Player 4 IGN',
  substitute1Username: 'Substitute 1 IGN',
  substitute2Username: 'Substitute 2 IGN',
};
/** The team form's visible labels (spec §3: player 1 is the in-game leader). */
export const IGN_FORM_LABELS: Record<IgnField, string> = {
  player1Username: 'Player 1 (IGL)',
  player2Username: 'Player 2',
  player3Username: 'Player 3',
  player4Username: 'Player 4',
  substitute1Username: 'Substitute 1',
  substitute2Username: 'Substitute 2',
};
export const TEAM_NAME_MIN = 2;
export const TEAM_NAME_MAX = 40;
export const IGN_MIN = 2;
export const IGN_MAX = 30;

// --- Accounts ---
export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 128;

// --- Tournaments ---
export const MAX_TEAMS_RANGE = { min: 2, max: 1000 } as const;
export const MAX_ENTRY_FEE = 1_000_000;
export const LONG_TEXT_MAX = 5000;

// --- Matches and results ---
export const MATCH_DAY_MAX = 7;
export const MATCH_NO_MAX = 6;
/** A match has at most one row per team, and a tournament at most this many teams. */
export const MAX_MATCH_ROWS = MAX_TEAMS_RANGE.max;
export const MAX_BULK_PAYMENTS = 1000;
export const UTR_LENGTH = 12;

// --- Cover images (decision 032) ---
export const MAX_UPLOAD_BYTES = 5 * 1024 * 1024;
export const MAX_INPUT_PIXELS = 40_000_000;
export const MIN_COVER_WIDTH = 200;
export const MIN_COVER_HEIGHT = 100;
/** Nominal widths of the stored WebP renditions (/images/{id}-{width}.webp). */
export const VARIANT_WIDTHS = [400, 800, 1200] as const;
/** At most this many times as tall as wide. */
export const MAX_TALLNESS = 4;
/** The multipart field of the cover image in the tournament form. */
export const COVER_FIELD = 'coverImage';
export const IMAGE_MESSAGES = {
  wrongType: 'Please upload only image files.',
  tooLarge: 'The cover image is larger than 5 MB.',
  tooSmall: `The cover image is too small: at least ${MIN_COVER_WIDTH}×${MIN_COVER_HEIGHT} pixels.`,
  tooTall: `The cover image is too tall: at most ${MAX_TALLNESS} times as tall as it is wide.`,
  tooManyPixels: `The cover image has too many pixels: at most ${MAX_INPUT_PIXELS / 1_000_000} megapixels.`,
  unreadable: 'The cover image could not be read. It may be damaged; please try another file.',
  tooMany: 'Please upload only one cover image.',
  hiddenData: 'The cover image has other data after the picture. Please save it again as an image and upload that.',
} as const;

// --- Messages the spec fixes ---
export const TOURNAMENT_NOT_FOUND = 'Tournament not found.';
export const MATCH_NOT_FOUND = 'Match not found.';
export const NO_PROFILE = 'No Profile Found';
export const PROFILE_EXISTS = 'You already have a profile.';
