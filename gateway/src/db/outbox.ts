import type { NotificationKind } from '@custom-room/contract';
import { isoAt } from './instant.js';
import type { Trx } from './types.js';

/**
 * Who an event is for, as the write knew it. The worker resolves it to accounts when it fans the event
 * out: a registration's account is its captain's (registrations.user_id).
 */
export type Audience =
  | { registrations: number[] }
  | { users: number[] }
  /** Every team placed in these groups (stage published, room posted for a group). */
  | { groups: number[] }
  /** Every placed team ranked in this completed stage, each with its rank (the last stage's final standings). */
  | { standings: number };

export interface OutboxEvent {
  kind: NotificationKind;
  tournamentId: number;
  audience: Audience;
  /** What the message needs besides the audience (team name, stage and group names, match, deadline…); JSON. */
  data?: Record<string, unknown>;
  /** When set, a second event with the same key is not recorded (the first one stands). */
  dedupeKey?: string;
}

/**
 * Records an event in the outbox. Call it inside the transaction of the write it reports, so the event
 * exists exactly when the change does; delivery happens later, off the request (issue 19).
 * Returns false when dedupeKey was already recorded.
 */
export async function enqueueEvent(db: Trx, event: OutboxEvent, nowMs: number): Promise<boolean> {
  const result = await db
    .insertInto('notification_events')
    .values({
      kind: event.kind,
      tournament_id: event.tournamentId,
      audience: JSON.stringify(event.audience),
      data: JSON.stringify(event.data ?? {}),
      dedupe_key: event.dedupeKey ?? null,
      created_at: isoAt(nowMs),
    })
    .onConflict((oc) => oc.column('dedupe_key').doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0n) > 0;
}

/** Records several events (no dedupe keys) in as few statements as SQLite's bound-value limit allows. */
export async function enqueueEvents(db: Trx, events: readonly OutboxEvent[], nowMs: number): Promise<void> {
  const at = isoAt(nowMs);
  for (let i = 0; i < events.length; i += 500) {
    await db
      .insertInto('notification_events')
      .values(
        events.slice(i, i + 500).map((event) => ({
          kind: event.kind,
          tournament_id: event.tournamentId,
          audience: JSON.stringify(event.audience),
          data: JSON.stringify(event.data ?? {}),
          dedupe_key: null,
          created_at: at,
        })),
      )
      .execute();
  }
}
