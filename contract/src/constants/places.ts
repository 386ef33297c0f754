// --- A team's place in a tournament (issue 19, decision 043) ---
import { REGISTRATION_OPEN_STATUS, type TournamentStatus } from './tournaments.js';

/**
 * placed: holds one of the Max Teams places; waitlist: waits for one; released: lost its place (payment
 * not verified in time, the organiser released or removed it, a no-show replaced); withdrawn: the
 * captain withdrew. Released and withdrawn teams free their place, team name and IGNs.
 */
export const PLACES = ['placed', 'waitlist', 'released', 'withdrawn'] as const;
export type Place = (typeof PLACES)[number];

/** Why a team was released. */
export const RELEASE_REASONS = ['payment-deadline', 'payment-rejected', 'removed', 'no-show'] as const;
export type ReleaseReason = (typeof RELEASE_REASONS)[number];
export const RELEASE_REASON_WORDS: Record<ReleaseReason, string> = {
  'payment-deadline': 'payment not verified in time',
  'payment-rejected': 'payment rejected',
  removed: 'removed by the organiser',
  'no-show': 'no-show',
};

/**
 * Decision 052: a team the organiser removed is barred from registering again in that tournament (its
 * account, team name, IGNs and character IDs) until the organiser allows it back.
 */
export const REJOIN_STATES = ['barred', 'allowed'] as const;
export type RejoinState = (typeof REJOIN_STATES)[number];

/** Decision 052: registration and the waitlist close once a stage is published (the draw stands). */
export const REGISTRATION_CLOSED_AFTER_DRAW = 'Registration has closed: the groups are published.';

/** A team the organiser placed in an empty slot after the draw: where it came from (decision 052). */
export const SEAT_SOURCES = ['waitlist', 'unseated'] as const;
export type SeatSource = (typeof SEAT_SOURCES)[number];

/** A team's check-in for one stage: before the window, in it, done, or missed once it closed. */
export const CHECK_IN_STATES = ['not-open', 'open', 'checked-in', 'no-show'] as const;
export type CheckInState = (typeof CHECK_IN_STATES)[number];

/** What the organiser does with a stage's no-shows once its check-in window has closed. */
export const NO_SHOW_ACTIONS = ['replace', 'leave'] as const;
export type NoShowAction = (typeof NO_SHOW_ACTIONS)[number];

/** Payment deadline "hours after registering": 1 to 30 days. */
export const PAYMENT_DEADLINE_HOURS_MAX = 720;
/**
 * A team placed at or after a fixed payment deadline has this long to pay; a team promoted before it, until the
 * fixed time or this, whichever is later. A team that registers before the fixed time has until the fixed time.
 */
export const LATE_PLACEMENT_GRACE_HOURS = 1;

/** Tournaments whose places no longer move: over or called off (nobody is promoted, released or leaves). */
export const SETTLED_STATUSES: readonly TournamentStatus[] = ['Completed', 'Cancelled'];

/**
 * Whether the captain may withdraw the team at nowMs (decision 043). A placed team: until registration
 * closes (status Upcoming or Registration Ongoing, registrationClose not passed). A waitlisted team holds
 * no place, so it may leave the waitlist until the tournament is Completed or Cancelled (a first stage's
 * check-in replace could still promote it). Released and withdrawn teams have nothing to give up.
 * Pure: the gateway decides with it, the pages offer the link with it.
 */
export function mayWithdraw(place: string, t: { status: string; registrationClose?: string | null }, nowMs: number = Date.now()): boolean {
  if (place === 'waitlist') return !(SETTLED_STATUSES as readonly string[]).includes(t.status);
  if (place !== 'placed') return false;
  if (t.status !== 'Upcoming' && t.status !== REGISTRATION_OPEN_STATUS) return false;
  const close = t.registrationClose ? Date.parse(t.registrationClose) : Number.NaN;
  return Number.isNaN(close) || nowMs <= close;
}

export const NOT_PLACED_MESSAGES = {
  waitlist: 'Your team is on the waitlist: pay once it has a place.',
  released: 'Your team no longer has a place in this tournament.',
  withdrawn: 'Your team has withdrawn from this tournament.',
} as const;

/** The fields of a registration answer that say where the team stands. */
export interface PlaceState {
  place: Place;
  paymentStatus: string;
  /** Placed and paid (or the tournament is free). */
  confirmed: boolean;
  payBy: string | null;
  waitlistPosition: number | null;
  releasedReason: ReleaseReason | null;
  /** The team's check-in for the current stage, when it has a window (left out otherwise). */
  checkIn?: CheckInState | null;
}

/**
 * A registration's state in the product's words, for every page that shows it: "pending payment (pay by
 * 21:00)", "payment submitted", "confirmed", "waitlist #3", "released (payment not verified in time)",
 * "withdrawn", "checked in", "no-show". time formats payBy in the app's time zone (default: the ISO text).
 */
export function placeWords(state: PlaceState, time: (iso: string) => string = (iso) => iso): string {
  switch (state.place) {
    case 'withdrawn':
      return 'withdrawn';
    case 'released':
      return state.releasedReason ? `released (${RELEASE_REASON_WORDS[state.releasedReason]})` : 'released';
    case 'waitlist':
      return state.waitlistPosition ? `waitlist #${state.waitlistPosition}` : 'waitlist';
    default:
      break;
  }
  if (state.checkIn === 'checked-in') return 'checked in';
  if (state.checkIn === 'no-show') return 'no-show';
  if (state.confirmed) return 'confirmed';
  if (state.paymentStatus === 'submitted') return 'payment submitted';
  const payBy = state.payBy ? ` (pay by ${time(state.payBy)})` : '';
  if (state.paymentStatus === 'rejected') return `payment rejected${payBy}`;
  return `pending payment${payBy}`;
}
