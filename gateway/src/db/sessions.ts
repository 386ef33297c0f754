import type { Trx } from './types.js';

export interface SessionUser {
  user_id: number;
  username: string;
  roles: string;
}

/**
 * The user a live session belongs to, or undefined when the session was ended (logout, reset) or the
 * user is gone (the row is deleted with the user). One primary-key read joined to users by primary key.
 */
export function findSessionUser(db: Trx, sessionId: string): Promise<SessionUser | undefined> {
  return db
    .selectFrom('sessions')
    .innerJoin('users', 'users.id', 'sessions.user_id')
    .select(['sessions.user_id', 'users.username', 'users.roles'])
    .where('sessions.id', '=', sessionId)
    .executeTakeFirst();
}

/** Records a new session, made at `at` (ISO), and drops the user's sessions expired by then, so the table holds only live tokens. */
export async function insertSession(db: Trx, session: { id: string; userId: number; expiresAt: string }, at: string): Promise<void> {
  await db.deleteFrom('sessions').where('user_id', '=', session.userId).where('expires_at', '<=', at).execute();
  await db
    .insertInto('sessions')
    .values({ id: session.id, user_id: session.userId, created_at: at, expires_at: session.expiresAt })
    .execute();
}

/** Ends one token. */
export async function deleteSession(db: Trx, sessionId: string): Promise<void> {
  await db.deleteFrom('sessions').where('id', '=', sessionId).execute();
}

/** Ends every token of the user: "log out everywhere", a password reset, a changed admin password. */
export async function deleteUserSessions(db: Trx, userId: number): Promise<void> {
  await db.deleteFrom('sessions').where('user_id', '=', userId).execute();
}

/** Drops every session expired at `at` (ISO; at start; logins prune their own user's). */
export async function deleteExpiredSessions(db: Trx, at: string): Promise<void> {
  await db.deleteFrom('sessions').where('expires_at', '<=', at).execute();
}
