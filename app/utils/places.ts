import { mayWithdraw, placeWords, type CheckInState, type Place, type ReleaseReason } from '@custom-room/contract/constants';

/**
 * A team's place in words for the player's pages (decisions 043, 047): the contract's placeWords with
 * the pay-by time in the app's time zone. Pure: safe in the browser bundle.
 */

export interface PlaceFields {
  place: Place;
  paymentStatus: string;
  /** Absent on the original gateway: then decided here from the payment and the fee, as the gateway does. */
  confirmed?: boolean;
  payBy: string | null;
  waitlistPosition: number | null;
  releasedReason: ReleaseReason | null;
  checkIns?: { stageId: number; state: CheckInState }[];
}

/** ok: plays; due: must pay; wait: on the waitlist or waiting for the organiser; gone: released or withdrawn. */
export type PlaceTone = 'ok' | 'due' | 'wait' | 'gone';

export interface PlaceView {
  place: Place;
  words: string;
  tone: PlaceTone;
  confirmed: boolean;
  /** Still holds or waits for a place (placed or waitlist). */
  active: boolean;
}

const hourMinute = new Map<string, Intl.DateTimeFormat>();
function parts(iso: string, timeZone: string): Record<string, string> {
  let f = hourMinute.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-GB', {
      timeZone,
      day: 'numeric',
      month: 'short',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    });
    hourMinute.set(timeZone, f);
  }
  return Object.fromEntries(f.formatToParts(new Date(iso)).map((p) => [p.type, p.value]));
}

/** A deadline as players read it: "21:00" today, else "5 Mar, 21:00" (24-hour, the app's time zone). */
export function formatDeadline(iso: string, timeZone: string, nowMs: number): string {
  if (Number.isNaN(Date.parse(iso))) return iso;
  const at = parts(iso, timeZone);
  const now = parts(new Date(nowMs).toISOString(), timeZone);
  const time = `${at.hour}:${at.minute}`;
  return at.day === now.day && at.month === now.month ? time : `${at.day} ${at.month?.replace('Sept', 'Sep')}, ${time}`;
}

/** The check-in that speaks for the team: the last stage whose window has opened. */
function currentCheckIn(checkIns: PlaceFields['checkIns']): CheckInState | null {
  const seen = (checkIns ?? []).filter((c) => c.state !== 'not-open');
  const last = seen[seen.length - 1];
  return last && last.state !== 'open' ? last.state : null;
}

/** paymentsClosed: a Completed or Cancelled tournament (decision 051): no "pay by" is shown. */
export function placeView(
  r: PlaceFields,
  options: { timeZone: string; free: boolean; nowMs?: number; paymentsClosed?: boolean },
): PlaceView {
  const nowMs = options.nowMs ?? Date.now();
  const confirmed = r.place === 'placed' && (r.confirmed === true || options.free || r.paymentStatus === 'verified');
  const checkIn = r.place === 'placed' ? currentCheckIn(r.checkIns) : null;
  const words = placeWords(
    {
      place: r.place,
      paymentStatus: options.free ? 'verified' : r.paymentStatus,
      confirmed,
      payBy: options.free || options.paymentsClosed ? null : r.payBy,
      waitlistPosition: r.waitlistPosition,
      releasedReason: r.releasedReason,
      checkIn,
    },
    (iso) => formatDeadline(iso, options.timeZone, nowMs),
  );
  const tone: PlaceTone =
    r.place === 'released' || r.place === 'withdrawn' || checkIn === 'no-show'
      ? 'gone'
      : r.place === 'waitlist' || (!confirmed && r.paymentStatus === 'submitted')
        ? 'wait'
        : confirmed
          ? 'ok'
          : 'due';
  return { place: r.place, words, tone, confirmed, active: r.place === 'placed' || r.place === 'waitlist' };
}

/**
 * Whether to offer withdrawal (the contract's rule; the gateway decides again with it, decision 043): a
 * placed team until registration closes, a waitlisted team until the tournament is Completed or Cancelled.
 */
export { mayWithdraw };

/** The link and button that take the team out: a waitlisted team leaves the waitlist, a placed one withdraws. */
export const withdrawLabel = (place: Place) => (place === 'waitlist' ? 'Leave the waitlist' : 'Withdraw team');

/** What a paid team is told when it withdraws: the refund is paid outside the site, and recorded on it (decision 082). */
export const REFUND_NOTE = 'You paid the entry fee: ask the organiser for a refund. Once they record it, your team page shows it.';
