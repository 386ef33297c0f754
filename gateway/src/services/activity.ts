import type { Activity } from '@custom-room/contract';
import { insertActivity, listActivity } from '../db/activity.js';
import type { Trx } from '../db/types.js';
import { isoAt } from '../lib/clock.js';

/** Issue 29 (decision 065): the activity log. Crew changes are written here, in their own transactions; other staff writes by plugins/activity.ts. */

export const ACTIVITY_LIMIT = 500;

/** What each action reads as on the log ("Verified a payment: Team X"). */
export const ACTION_WORDS: Record<string, string> = {
  'staff-invited': 'Invited to the crew',
  'staff-joined': 'Joined the crew',
  'staff-removed': 'Removed from the crew',
};

export async function recordActivity(
  trx: Trx,
  who: { tournamentId: number; by: { id: number; username: string }; at: number },
  action: string,
  detail: string,
): Promise<void> {
  await insertActivity(
    trx,
    { tournamentId: who.tournamentId, actorId: who.by.id, actorName: who.by.username, action: ACTION_WORDS[action] ?? action, detail },
    isoAt(who.at),
  );
}

export async function activityOf(db: Trx, tournamentId: number): Promise<Activity> {
  const rows = await listActivity(db, tournamentId, ACTIVITY_LIMIT);
  return {
    entries: rows.map((r) => ({ id: Number(r.id), at: r.at, actor: r.actor_name, action: r.action, detail: r.detail })),
  };
}
