import crypto from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import pLimit from 'p-limit';
import {
  matchStartsAt,
  matchTimeText,
  NOTIFICATION_KINDS,
  phaseTakesPayments,
  PUSH_SUBSCRIPTIONS_MAX,
  type NotificationKind,
} from '@custom-room/contract';
import type { Config } from '../../config.js';
import {
  claimDue,
  hasDueDelivery,
  hasNewEvents,
  insertDeliveries,
  insertLines,
  markFannedOut,
  matchesWithRooms,
  recordOutcomes,
  sendingContext,
  subscriptionsOf,
  takeNewEvents,
  takenDedupeKeys,
  tournamentName,
  type Claimed,
  type NewDelivery,
  type OutboxRow,
} from '../../db/deliveries.js';
import type { DatabaseHandle, Trx } from '../../db/index.js';
import { confirmedTeams } from '../../db/notify-events.js';
import { enqueueEvent, type Audience } from '../../db/outbox.js';
import { getTournament, phaseOf } from '../../db/tournaments.js';
import { checkOverdueScreenshots } from '../../services/reports/lookalikes.js';
import { enqueueReportReminders } from '../../services/reports/reminders.js';
import { isoAt, type Clock } from '../clock.js';
import { createMailer, type Mailer } from '../mailer.js';
import { PushSender, type VapidKeys } from '../push.js';
import { resolveAudience } from './audience.js';
import { renderMessage } from './messages.js';
import { sendOne } from './send.js';

/** Events fanned out per transaction, and deliveries claimed per round. */
export const FAN_OUT_BATCH = 20;
export const DELIVERY_BATCH = 1000;
/** A claimed delivery is another process's again this long after its claim (a crashed process's claims). */
export const LEASE_MS = 2 * 60_000;
/** Attempts per delivery before it is recorded as failed; waits between them grow 30 s, 2 min, 8 min, 32 min. */
export const MAX_ATTEMPTS = 5;
export const backoffMs = (attempts: number) => Math.min(30_000 * 4 ** (attempts - 1), 60 * 60_000);
/** Reminders go this long before a match whose room is set. */
export const REMINDER_MS = 15 * 60_000;
/** How often the reminder sweep looks at the schedule. */
export const SWEEP_EVERY_MS = 30_000;
/** Sends in flight at once per process. */
const SEND_CONCURRENCY = 128;
/** Each send starts in a turn of the event loop of its own, so requests served by the same process wait for one send's CPU at most. */
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

export interface RoundResult {
  reminders: number;
  /** Reports whose screenshot comparison a stopped process had left (decision 077). */
  screenshots: number;
  events: number;
  notifications: number;
  sent: number;
  retried: number;
  failed: number;
}

/**
 * The notification worker (decision 044). Each round: enqueue due match reminders, fan new outbox events
 * out to the accounts they reach (a list line each, and a delivery per channel), then claim due deliveries
 * under a lease, send them off any transaction, and record each outcome. Any number of processes may run
 * rounds on one database: events are claimed with FOR UPDATE SKIP LOCKED (SQLite: its one writer), and
 * deliveries by a lease that another process takes over once it has run out.
 */
export class Notifier {
  private readonly mailer: Mailer | undefined;
  private readonly push: PushSender;
  private readonly processId = crypto.randomUUID().slice(0, 8);
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<unknown> | undefined;
  private stopped = false;
  private lastSweep = -Infinity;
  /** When the latest round ended, ok or not (the worker process's /healthz); its start before the first. */
  lastRoundEndedAt: number;

  constructor(
    private readonly store: DatabaseHandle,
    private readonly config: Config,
    private readonly clock: Clock,
    private readonly log: FastifyBaseLogger,
    readonly vapid: VapidKeys,
  ) {
    // A pooled transport of its own: a burst reuses a few SMTP connections instead of one per mail.
    this.mailer = config.SMTP_URL ? createMailer({ smtpUrl: config.SMTP_URL, from: config.SMTP_FROM, log, pool: true }) : undefined;
    this.push = new PushSender(vapid);
    this.lastRoundEndedAt = clock.now();
  }

  /** Starts rounds every NOTIFY_POLL_MS (a round that found work is followed by another at once). */
  start(): void {
    const tick = async () => {
      this.timer = undefined;
      if (this.stopped) return;
      let busy = false;
      try {
        this.running = this.runOnce();
        const r = (await this.running) as RoundResult;
        busy = r.events > 0 || r.sent + r.retried + r.failed > 0;
      } catch (err) {
        this.log.error({ err }, 'notification round failed');
      } finally {
        this.running = undefined;
        this.lastRoundEndedAt = this.clock.now();
      }
      if (!this.stopped) this.timer = setTimeout(tick, busy ? 0 : this.config.NOTIFY_POLL_MS);
    };
    this.timer = setTimeout(tick, this.config.NOTIFY_POLL_MS);
  }

  /** Stops the rounds and waits for the one under way (its claims are recorded before the database closes). */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running?.catch(() => {});
    await this.push.close();
    await this.mailer?.close?.();
  }

  /** One round at the given time (tests drive the worker with this). */
  async runOnce(now = this.clock.now()): Promise<RoundResult> {
    const result: RoundResult = { reminders: 0, screenshots: 0, events: 0, notifications: 0, sent: 0, retried: 0, failed: 0 };
    if (now - this.lastSweep >= SWEEP_EVERY_MS || now < this.lastSweep) {
      result.reminders = await this.sweepReminders(now);
      // Issue 30: teams that have not reported a played match.
      result.reminders += await enqueueReportReminders(this.store, now, this.config.APP_TIME_ZONE);
      result.screenshots = await checkOverdueScreenshots({ store: this.store, clock: this.clock }, now);
      this.lastSweep = now;
    }
    for (;;) {
      const { events, notifications } = await this.fanOut(now);
      result.events += events;
      result.notifications += notifications;
      if (events < FAN_OUT_BATCH) break;
    }
    const claimed = await this.claimDeliveries(now);
    if (claimed.length > 0) {
      const outcome = await this.deliver(claimed, now);
      result.sent += outcome.sent;
      result.retried += outcome.retried;
      result.failed += outcome.failed;
    }
    return result;
  }

  /** Enqueues a reminder for each match whose room is set and that starts within REMINDER_MS (once per match). */
  async sweepReminders(now: number): Promise<number> {
    // Tournaments still running: their end date is at most a week behind (a day N past the end is no match).
    const matches = await matchesWithRooms(this.store.db, isoAt(now - 8 * 24 * 60 * 60_000), isoAt(now + REMINDER_MS + 24 * 60 * 60_000));
    const due = matches.filter((m) => {
      if (Number(m.group_id) !== 0 && (!m.group_name || m.state === 'draft')) return false;
      const at = matchStartsAt(m.start_date, Number(m.day), m.time, this.config.APP_TIME_ZONE);
      return at !== null && now >= at - REMINDER_MS && now < at;
    });
    if (due.length === 0) return 0;
    const taken = await takenDedupeKeys(
      this.store.db,
      due.map((m) => `match-reminder:${m.id}`),
    );
    let count = 0;
    for (const m of due.filter((d) => !taken.has(`match-reminder:${d.id}`))) {
      const at = matchStartsAt(m.start_date, Number(m.day), m.time, this.config.APP_TIME_ZONE)!;
      const groupId = Number(m.group_id);
      const added = await this.store.writeTransaction(async (trx) => {
        const audience: Audience =
          groupId === 0
            ? { registrations: await confirmedTeams(trx, Number(m.tournament_id), Number(m.entry_fee)) }
            : { groups: [groupId] };
        return enqueueEvent(
          trx,
          {
            kind: 'match-reminder',
            tournamentId: Number(m.tournament_id),
            audience,
            data: {
              matchId: Number(m.id),
              day: Number(m.day),
              matchNo: Number(m.match_no),
              ...(m.group_name ? { groupName: m.group_name } : {}),
              timeText: matchTimeText(m.time, this.config.APP_TIME_ZONE, at),
            },
            dedupeKey: `match-reminder:${m.id}`,
          },
          now,
        );
      });
      if (added) count += 1;
    }
    return count;
  }

  /** Turns up to FAN_OUT_BATCH new events into list lines and deliveries, in one transaction. */
  async fanOut(now: number): Promise<{ events: number; notifications: number }> {
    if (!(await hasNewEvents(this.store.db))) return { events: 0, notifications: 0 };
    return this.store.writeTransaction(async (trx) => {
      const events = await takeNewEvents(trx, this.store.dialect, FAN_OUT_BATCH);
      let notifications = 0;
      for (const event of events) notifications += await this.fanOutEvent(trx, event, now);
      if (events.length > 0) {
        await markFannedOut(
          trx,
          events.map((e) => e.id),
          isoAt(now),
        );
      }
      return { events: events.length, notifications };
    });
  }

  private async fanOutEvent(trx: Trx, event: OutboxRow, now: number): Promise<number> {
    if (!(NOTIFICATION_KINDS as readonly string[]).includes(event.kind)) {
      this.log.error({ eventId: event.id, kind: event.kind }, 'notification event of an unknown kind: skipped');
      return 0;
    }
    const kind = event.kind as NotificationKind;
    const tournament = await tournamentName(trx, event.tournament_id);
    if (!tournament) return 0;
    // Decision 051: a request to pay is never sent for a Completed or Cancelled tournament.
    if (kind === 'promoted') {
      const row = await getTournament(trx, Number(event.tournament_id));
      if (row && !phaseTakesPayments(phaseOf(row, now))) return 0;
    }
    const data = JSON.parse(event.data) as Record<string, unknown>;
    const recipients = await resolveAudience(trx, JSON.parse(event.audience) as Audience);
    if (recipients.length === 0) return 0;
    const createdAt = isoAt(now);
    const t = { id: Number(tournament.id), name: tournament.name };
    const rows = recipients.map((r) => ({
      user_id: r.userId,
      event_id: Number(event.id),
      tournament_id: t.id,
      kind,
      ...renderMessage(kind, data, t, r, this.config.APP_TIME_ZONE),
      created_at: createdAt,
    }));
    const lines = await insertLines(trx, Number(event.id), rows);
    const subscriptions = await subscriptionsOf(
      trx,
      recipients.map((r) => r.userId),
    );
    // An account's newest PUSH_SUBSCRIPTIONS_MAX phones only: one event sends at most that many pushes per
    // account, even for an account holding more from before the cap (issue 27).
    const phonesOf = new Map<number, number[]>();
    for (const s of subscriptions) {
      const phones = phonesOf.get(Number(s.user_id)) ?? [];
      if (phones.length < PUSH_SUBSCRIPTIONS_MAX) phonesOf.set(Number(s.user_id), [...phones, Number(s.id)]);
    }
    const deliveries: NewDelivery[] = [];
    const base = (line: { id: number; user_id: number }) => ({
      notification_id: Number(line.id),
      event_id: Number(event.id),
      user_id: Number(line.user_id),
      tournament_id: t.id,
      next_attempt_at: createdAt,
      created_at: createdAt,
    });
    for (const line of lines) {
      if (this.mailer) deliveries.push({ ...base(line), channel: 'email', subscription_id: 0 });
      for (const id of phonesOf.get(Number(line.user_id)) ?? []) deliveries.push({ ...base(line), channel: 'push', subscription_id: id });
    }
    await insertDeliveries(trx, deliveries);
    return lines.length;
  }

  /** Claims up to DELIVERY_BATCH due deliveries for LEASE_MS; each claim counts as an attempt. */
  async claimDeliveries(now: number, limit = DELIVERY_BATCH): Promise<Claimed[]> {
    const at = isoAt(now);
    if (!(await hasDueDelivery(this.store.db, at))) return [];
    const leaseUntil = isoAt(now + LEASE_MS);
    return this.store.writeTransaction((trx) => claimDue(trx, this.store.dialect, { at, leaseUntil, limit }));
  }

  /** Sends claimed deliveries (no transaction open meanwhile) and records each outcome. */
  async deliver(claimed: Claimed[], now: number): Promise<{ sent: number; retried: number; failed: number }> {
    const context = await sendingContext(this.store.db, claimed);
    const send = { db: this.store.db, config: this.config, mailer: this.mailer, push: this.push, context };
    const limit = pLimit(SEND_CONCURRENCY);
    const outcomes = await Promise.all(
      claimed.map((c) =>
        limit(async () => {
          await nextTurn();
          return sendOne(c, send);
        }),
      ),
    );
    // Recorded when the sends end: "now" is the round's time plus what the sends took on the clock.
    const doneAt = isoAt(Math.max(now, this.clock.now()));
    const sent = outcomes.filter((o) => o.ok).map((o) => o.c.id);
    const failed = outcomes.filter((o) => !o.ok && (o.final || o.c.attempts >= MAX_ATTEMPTS));
    const retried = outcomes.filter((o) => !o.ok && !o.final && o.c.attempts < MAX_ATTEMPTS);
    await this.store.writeTransaction((trx) =>
      recordOutcomes(trx, {
        doneAt,
        sent,
        failed: failed.map((o) => ({ id: o.c.id, error: o.error ?? '' })),
        retried: retried.map((o) => ({ id: o.c.id, error: o.error ?? '', nextAttemptAt: isoAt(now + backoffMs(o.c.attempts)) })),
      }),
    );
    for (const o of failed) this.log.warn({ deliveryId: o.c.id, channel: o.c.channel, error: o.error }, 'notification delivery failed');
    return { sent: sent.length, retried: retried.length, failed: failed.length };
  }
}
