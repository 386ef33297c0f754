/**
 * The gateway's time (issue 19): deadlines, waitlist promotions, check-in windows and reminders read it
 * from here, never from Date directly, so tests move time instead of sleeping. buildApp takes one
 * (BuildOptions.clock); production uses systemClock.
 */
export interface Clock {
  /** Milliseconds since the epoch, like Date.now(). */
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

// ISO 8601 in UTC, the form every timestamp column holds: defined beside the queries, which take it as text.
export { isoAt } from '../db/instant.js';

/** A clock that stands still until told to move: for tests only. */
export class FakeClock implements Clock {
  /** Starts at start (ms), by default the real time of its making: tournaments made "for tomorrow" stay so. */
  constructor(private ms: number = Date.now()) {}
  now(): number {
    return this.ms;
  }
  /** Moves time forward by ms (never back). */
  advance(ms: number): void {
    if (ms < 0) throw new Error('a FakeClock only moves forward');
    this.ms += ms;
  }
  /** Sets the time to an instant (ISO text or ms), forward only. */
  set(at: string | number): void {
    const ms = typeof at === 'string' ? Date.parse(at) : at;
    if (ms < this.ms) throw new Error('a FakeClock only moves forward');
    this.ms = ms;
  }
}
