import type { Trx } from './index.js';

/** Counted no further: the nav shows "99+" past 99, and a capped count stays cheap for a long list. */
export const UNREAD_COUNT_CAP = 100;

/** The account's unread notifications, up to UNREAD_COUNT_CAP (the partial index notifications_unread). */
export async function countUnread(db: Trx, userId: number): Promise<number> {
  const row = await db
    .selectFrom((eb) =>
      eb
        .selectFrom('notifications')
        .select('id')
        .where('user_id', '=', userId)
        .where('read_at', 'is', null)
        .limit(UNREAD_COUNT_CAP)
        .as('u'),
    )
    .select((eb) => eb.fn.countAll().as('n'))
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}
