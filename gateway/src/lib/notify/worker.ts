import crypto from 'node:crypto';
import { sql } from 'kysely';
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
import type { DatabaseHandle, Trx } from '../../db/index.js';
import { enqueueEvent, type Audience } from '../../db/outbox.js';
import { confirmedTeams } from '../../db/notify-events.js';
import { getTournament, phaseOf } from '../../db/tournaments.js';
import { isoAt, type Clock } from '../clock.js';
import { createMailer, type Mailer } from '../mailer.js';
import { isPushServiceUrl, PushSender, type VapidKeys } from '../push.js';
import { renderMessage, type Recipient } from './messages.js';

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
  events: number;
  notifications: number;
  sent: number;
  retried: number;
  failed: number;
}

interface Claimed {
  id: number;
  notification_id: number;
  user_id: number;
  channel: string;
  subscription_id: number;
  attempts: number;
}

const chunks = <T>(items: T[], size: number) =>
  Array.from({ length: Math.ceil(items.length / size) }, (_, i) => items.slice(i * size, (i + 1) * size));

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
    const result: RoundResult = { reminders: 0, events: 0, notifications: 0, sent: 0, retried: 0, failed: 0 };
    if (now - this.lastSweep >= SWEEP_EVERY_MS || now < this.lastSweep) {
      result.reminders = await this.sweepReminders(now);
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
    const db = this.store.db;
    // Tournaments still running: their end date is at most a week behind (a day N past the end is no match).
    const matches = await db
      .selectFrom('matches as m')
      .innerJoin('tournaments as t', 't.id', 'm.tournament_id')
      .leftJoin('stage_groups as g', 'g.id', 'm.group_id')
      .leftJoin('stages as s', 's.id', 'g.stage_id')
      .select([
        'm.id',
        'm.tournament_id',
        'm.day',
        'm.match_no',
        'm.time',
        'm.group_id',
        't.start_date',
        't.entry_fee',
        'g.name as group_name',
        's.state',
      ])
      .where('t.deleted_at', 'is', null)
      .where('m.room_id', '<>', '')
      .where('t.end_date', '>=', isoAt(now - 8 * 24 * 60 * 60_000))
      .where('t.start_date', '<=', isoAt(now + REMINDER_MS + 24 * 60 * 60_000))
      .execute();
    const due = matches.filter((m) => {
      if (Number(m.group_id) !== 0 && (!m.group_name || m.state === 'draft')) return false;
      const at = matchStartsAt(m.start_date, Number(m.day), m.time, this.config.APP_TIME_ZONE);
      return at !== null && now >= at - REMINDER_MS && now < at;
    });
    if (due.length === 0) return 0;
    const taken = new Set(
      (
        await db
          .selectFrom('notification_events')
          .select('dedupe_key')
          .where(
            'dedupe_key',
            'in',
            due.map((m) => `match-reminder:${m.id}`),
          )
          .execute()
      ).map((r) => r.dedupe_key),
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
    // A read first: an idle round takes no write lock.
    const any = await this.store.db
      .selectFrom('notification_events')
      .select('id')
      .where('fanned_out_at', 'is', null)
      .limit(1)
      .executeTakeFirst();
    if (!any) return { events: 0, notifications: 0 };
    return this.store.writeTransaction(async (trx) => {
      let query = trx.selectFrom('notification_events').selectAll().where('fanned_out_at', 'is', null).orderBy('id').limit(FAN_OUT_BATCH);
      if (this.store.dialect === 'postgres') query = query.forUpdate().skipLocked();
      const events = await query.execute();
      let notifications = 0;
      for (const event of events) notifications += await this.fanOutEvent(trx, event, now);
      if (events.length > 0) {
        await trx
          .updateTable('notification_events')
          .set({ fanned_out_at: isoAt(now) })
          .where(
            'id',
            'in',
            events.map((e) => e.id),
          )
          .execute();
      }
      return { events: events.length, notifications };
    });
  }

  private async fanOutEvent(
    trx: Trx,
    event: { id: number; kind: string; tournament_id: number; audience: string; data: string },
    now: number,
  ): Promise<number> {
    if (!(NOTIFICATION_KINDS as readonly string[]).includes(event.kind)) {
      this.log.error({ eventId: event.id, kind: event.kind }, 'notification event of an unknown kind: skipped');
      return 0;
    }
    const kind = event.kind as NotificationKind;
    const tournament = await trx.selectFrom('tournaments').select(['id', 'name']).where('id', '=', event.tournament_id).executeTakeFirst();
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
    for (const part of chunks(rows, 200)) {
      await trx
        .insertInto('notifications')
        .values(part)
        .onConflict((oc) => oc.columns(['event_id', 'user_id']).doNothing())
        .execute();
    }
    const users = recipients.map((r) => r.userId);
    const lines = await trx.selectFrom('notifications').select(['id', 'user_id']).where('event_id', '=', Number(event.id)).execute();
    const subscriptions = await inChunks(users, (ids) =>
      trx
        .selectFrom('push_subscriptions')
        .select(['id', 'user_id'])
        .where('user_id', 'in', ids)
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .execute(),
    );
    // An account's newest PUSH_SUBSCRIPTIONS_MAX phones only: one event sends at most that many pushes per
    // account, even for an account holding more from before the cap (issue 27).
    const phonesOf = new Map<number, number[]>();
    for (const s of subscriptions) {
      const phones = phonesOf.get(Number(s.user_id)) ?? [];
      if (phones.length < PUSH_SUBSCRIPTIONS_MAX) phonesOf.set(Number(s.user_id), [...phones, Number(s.id)]);
    }
    const deliveries: {
      notification_id: number;
      event_id: number;
      user_id: number;
      tournament_id: number;
      channel: string;
      subscription_id: number;
      next_attempt_at: string;
      created_at: string;
    }[] = [];
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
    for (const part of chunks(deliveries, 200)) {
      await trx
        .insertInto('notification_deliveries')
        .values(part)
        .onConflict((oc) => oc.columns(['event_id', 'user_id', 'channel', 'subscription_id']).doNothing())
        .execute();
    }
    return lines.length;
  }

  /** Claims up to DELIVERY_BATCH due deliveries for LEASE_MS; each claim counts as an attempt. */
  async claimDeliveries(now: number, limit = DELIVERY_BATCH): Promise<Claimed[]> {
    const nowIso = isoAt(now);
    const due = await this.store.db
      .selectFrom('notification_deliveries')
      .select('id')
      .where('state', '=', 'pending')
      .where('next_attempt_at', '<=', nowIso)
      .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<=', nowIso)]))
      .limit(1)
      .executeTakeFirst();
    if (!due) return [];
    const lease = isoAt(now + LEASE_MS);
    const skipLocked = this.store.dialect === 'postgres' ? sql`for update skip locked` : sql``;
    return this.store.writeTransaction(async (trx) => {
      const { rows } = await sql<Claimed>`
        update notification_deliveries set lease_until = ${lease}, attempts = attempts + 1
        where id in (
          select id from notification_deliveries
          where state = 'pending' and next_attempt_at <= ${nowIso} and (lease_until is null or lease_until <= ${nowIso})
          order by id limit ${limit} ${skipLocked}
        )
        returning id, notification_id, user_id, channel, subscription_id, attempts`.execute(trx);
      return rows.map((r) => ({
        id: Number(r.id),
        notification_id: Number(r.notification_id),
        user_id: Number(r.user_id),
        channel: r.channel,
        subscription_id: Number(r.subscription_id),
        attempts: Number(r.attempts),
      }));
    });
  }

  /** Sends claimed deliveries (no transaction open meanwhile) and records each outcome. */
  async deliver(claimed: Claimed[], now: number): Promise<{ sent: number; retried: number; failed: number }> {
    const db = this.store.db;
    const notificationIds = [...new Set(claimed.map((c) => c.notification_id))];
    const userIds = [...new Set(claimed.map((c) => c.user_id))];
    const subscriptionIds = [...new Set(claimed.filter((c) => c.channel === 'push').map((c) => c.subscription_id))];
    const [lines, users, subs] = await Promise.all([
      inChunks(notificationIds, (ids) =>
        db.selectFrom('notifications').select(['id', 'kind', 'title', 'body', 'link', 'tournament_id']).where('id', 'in', ids).execute(),
      ),
      inChunks(userIds, (ids) => db.selectFrom('users').select(['id', 'email', 'username']).where('id', 'in', ids).execute()),
      inChunks(subscriptionIds, (ids) =>
        db.selectFrom('push_subscriptions').select(['id', 'endpoint', 'p256dh', 'auth']).where('id', 'in', ids).execute(),
      ),
    ]);
    const lineOf = new Map(lines.map((l) => [Number(l.id), l]));
    const userOf = new Map(users.map((u) => [Number(u.id), u]));
    const subOf = new Map(subs.map((s) => [Number(s.id), s]));
    const webUrl = this.config.WEB_URL.replace(/\/$/, '');
    const limit = pLimit(SEND_CONCURRENCY);
    const outcomes = await Promise.all(
      claimed.map((c) =>
        limit(async (): Promise<{ c: Claimed; ok: boolean; final: boolean; error?: string }> => {
          await nextTurn();
          const line = lineOf.get(c.notification_id);
          if (!line) return { c, ok: false, final: true, error: 'The notification is gone.' };
          const link = `${webUrl}${line.link}`;
          if (c.channel === 'email') {
            const user = userOf.get(c.user_id);
            if (!this.mailer || !user) return { c, ok: false, final: true, error: !user ? 'The account is gone.' : 'SMTP_URL is not set.' };
            try {
              await this.mailer.send({ to: user.email, subject: line.title, text: `${line.body}\n\n${link}\n\nCustom Room` });
              return { c, ok: true, final: true };
            } catch (err) {
              return { c, ok: false, final: false, error: `Mail not sent: ${(err as Error).message}` };
            }
          }
          const sub = subOf.get(c.subscription_id);
          if (!sub) return { c, ok: false, final: true, error: 'The phone turned notifications off.' };
          // Stored before the gateway checked the host (decision 044): never posted to, dropped.
          if (!isPushServiceUrl(sub.endpoint, { allowLoopbackHttp: this.config.PUSH_ALLOW_HTTP })) {
            await db.deleteFrom('push_subscriptions').where('id', '=', sub.id).execute();
            return { c, ok: false, final: true, error: 'Not a browser push service: the subscription was dropped.' };
          }
          const payload = JSON.stringify({ title: line.title, body: line.body, url: link, tag: `n${line.id}` });
          const outcome = await this.push.send(sub, payload, { ttlSeconds: 6 * 60 * 60, timeoutMs: 10_000 });
          if (outcome.ok) return { c, ok: true, final: true };
          if (outcome.gone) await db.deleteFrom('push_subscriptions').where('id', '=', sub.id).execute();
          return { c, ok: false, final: outcome.gone, error: outcome.error };
        }),
      ),
    );
    // Recorded when the sends end: "now" is the round's time plus what the sends took on the clock.
    const doneAt = isoAt(Math.max(now, this.clock.now()));
    const sent = outcomes.filter((o) => o.ok).map((o) => o.c.id);
    const failed = outcomes.filter((o) => !o.ok && (o.final || o.c.attempts >= MAX_ATTEMPTS));
    const retried = outcomes.filter((o) => !o.ok && !o.final && o.c.attempts < MAX_ATTEMPTS);
    await this.store.writeTransaction(async (trx) => {
      for (const part of chunks(sent, 500)) {
        await trx
          .updateTable('notification_deliveries')
          .set({ state: 'sent', done_at: doneAt, lease_until: null, last_error: null })
          .where('id', 'in', part)
          .where('state', '=', 'pending')
          .execute();
      }
      for (const o of failed) {
        await trx
          .updateTable('notification_deliveries')
          .set({ state: 'failed', done_at: doneAt, lease_until: null, last_error: (o.error ?? '').slice(0, 500) })
          .where('id', '=', o.c.id)
          .where('state', '=', 'pending')
          .execute();
      }
      for (const o of retried) {
        await trx
          .updateTable('notification_deliveries')
          .set({ next_attempt_at: isoAt(now + backoffMs(o.c.attempts)), lease_until: null, last_error: (o.error ?? '').slice(0, 500) })
          .where('id', '=', o.c.id)
          .where('state', '=', 'pending')
          .execute();
      }
    });
    for (const o of failed) this.log.warn({ deliveryId: o.c.id, channel: o.c.channel, error: o.error }, 'notification delivery failed');
    return { sent: sent.length, retried: retried.length, failed: failed.length };
  }
}

/** Runs a query per slice of ids (SQLite's limit on bound values), concatenating the rows. */
async function inChunks<T>(ids: number[], query: (ids: number[]) => Promise<T[]>): Promise<T[]> {
  if (ids.length === 0) return [];
  const parts = await Promise.all(chunks(ids, 500).map(query));
  return parts.flat();
}

/** The accounts an audience reaches, one each, with their team's names. */
export async function resolveAudience(trx: Trx, audience: Audience): Promise<Recipient[]> {
  let found: Recipient[] = [];
  if ('users' in audience) {
    found = audience.users.map((id) => ({ userId: Number(id) }));
  } else if ('registrations' in audience) {
    const rows = await inChunks(audience.registrations.map(Number), (ids) =>
      trx.selectFrom('registrations').select(['user_id', 'team_name']).where('id', 'in', ids).orderBy('id').execute(),
    );
    found = rows.map((r) => ({ userId: Number(r.user_id), teamName: r.team_name }));
  } else if ('groups' in audience) {
    const rows = await inChunks(audience.groups.map(Number), (ids) =>
      trx
        .selectFrom('group_slots as gs')
        .innerJoin('stage_groups as g', 'g.id', 'gs.group_id')
        .innerJoin('registrations as r', 'r.id', 'gs.registration_id')
        .select(['r.user_id', 'r.team_name', 'g.name as group_name', 'gs.slot'])
        .where('gs.group_id', 'in', ids)
        .where('r.place', '=', 'placed') // decision 043: a team that left keeps its published slot, not its news
        .orderBy('gs.group_id')
        .orderBy('gs.slot')
        .execute(),
    );
    found = rows.map((r) => ({ userId: Number(r.user_id), teamName: r.team_name, groupName: r.group_name, slot: Number(r.slot) }));
  } else if ('standings' in audience) {
    const stageId = Number(audience.standings);
    const ranked = await trx
      .selectFrom('stage_results as sr')
      .innerJoin('registrations as r', 'r.id', 'sr.registration_id')
      .select(['r.user_id', 'r.team_name', 'r.place', 'sr.stage_rank'])
      .where('sr.stage_id', '=', stageId)
      .orderBy('sr.stage_rank')
      .execute();
    // "of 16": every team the stage ranked, also one that left since; only placed teams are told.
    found = ranked
      .filter((r) => r.place === 'placed')
      .map((r) => ({ userId: Number(r.user_id), teamName: r.team_name, rank: Number(r.stage_rank), of: ranked.length }));
  }
  const seen = new Set<number>();
  return found.filter((r) => !seen.has(r.userId) && seen.add(r.userId));
}
