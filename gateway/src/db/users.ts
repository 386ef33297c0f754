import { nameKeys } from '@custom-room/contract';
import { isoAt } from './instant.js';
import type { Trx } from './types.js';

export interface UserRow {
  id: number;
  email: string;
  phone: string;
  username: string;
  password_hash: string;
  roles: string;
}

const USER_COLUMNS = ['id', 'email', 'phone', 'username', 'password_hash', 'roles'] as const;

/** Roles are stored comma-separated; tokens and JSON carry them as a list. */
export const rolesList = (roles: string) =>
  roles
    .split(',')
    .map((r) => r.trim())
    .filter(Boolean);

export function findUserById(db: Trx, id: number): Promise<UserRow | undefined> {
  return db.selectFrom('users').select(USER_COLUMNS).where('id', '=', id).executeTakeFirst();
}

/** email must already be lowercased. */
export function findUserByEmail(db: Trx, email: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').select(USER_COLUMNS).where('email', '=', email).executeTakeFirst();
}

/** phone must already be normalised (+91XXXXXXXXXX). */
export function findUserByPhone(db: Trx, phone: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').select(USER_COLUMNS).where('phone', '=', phone).executeTakeFirst();
}

export interface NewUser {
  email: string; // lowercased
  phone: string; // normalised
  username: string;
  passwordHash: string;
  roles: string[];
}

/** Which of email, phone and username are already taken (usernames: case-insensitively or by look, decision 033). */
export async function findClashes(db: Trx, user: Pick<NewUser, 'email' | 'phone' | 'username'>) {
  const { key, shape } = nameKeys(user.username);
  const rows = await db
    .selectFrom('users')
    .select(['email', 'phone', 'username_key', 'username_shape'])
    .where((eb) =>
      eb.or([eb('email', '=', user.email), eb('phone', '=', user.phone), eb('username_key', '=', key), eb('username_shape', '=', shape)]),
    )
    .execute();
  return {
    email: rows.some((r) => r.email === user.email),
    phone: rows.some((r) => r.phone === user.phone),
    username: rows.some((r) => r.username_key === key || r.username_shape === shape),
  };
}

/** The username's comparison keys as stored (decision 033). */
export function usernameKeys(username: string) {
  const { key, shape } = nameKeys(username);
  return { username_key: key, username_shape: shape };
}

/** Throws the driver's unique-violation error when email, phone or username is taken. at: when (ISO). */
export async function insertUser(db: Trx, user: NewUser, at: string): Promise<number> {
  const row = await db
    .insertInto('users')
    .values({
      email: user.email,
      phone: user.phone,
      username: user.username,
      username_lower: user.username.toLowerCase(),
      ...usernameKeys(user.username),
      password_hash: user.passwordHash,
      roles: user.roles.join(','),
      created_at: at,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(row.id);
}

export async function updateUser(db: Trx, id: number, changes: { passwordHash?: string; roles?: string[] }): Promise<void> {
  await db
    .updateTable('users')
    .set({
      ...(changes.passwordHash !== undefined ? { password_hash: changes.passwordHash } : {}),
      ...(changes.roles !== undefined ? { roles: changes.roles.join(',') } : {}),
    })
    .where('id', '=', id)
    .execute();
}

// Password resets: only the SHA-256 of a token is stored, so a leaked table cannot reset anything.

/** Stores a new reset token for the user, made at `at`, and invalidates the user's earlier unused ones. */
export async function createPasswordReset(db: Trx, userId: number, tokenHash: string, expiresAt: string, at: string): Promise<void> {
  await db.updateTable('password_resets').set({ used_at: at }).where('user_id', '=', userId).where('used_at', 'is', null).execute();
  await db
    .insertInto('password_resets')
    .values({ user_id: userId, token_hash: tokenHash, expires_at: expiresAt, used_at: null, created_at: at })
    .execute();
}

/**
 * Records a reset request, for an account or not (decision 030: both paths cost the same write), and
 * forgets those older than a day, kept meanwhile to answer "I asked and got no mail".
 */
export async function recordPasswordResetRequest(db: Trx, emailHash: string, at: string): Promise<void> {
  await db.insertInto('password_reset_requests').values({ email_hash: emailHash, requested_at: at }).execute();
  await db
    .deleteFrom('password_reset_requests')
    .where('requested_at', '<=', isoAt(Date.parse(at) - 24 * 60 * 60 * 1000))
    .execute();
}

/** True when the token exists, is unused and has not expired at `at`. */
export async function isPasswordResetUsable(db: Trx, tokenHash: string, at: string): Promise<boolean> {
  const row = await db
    .selectFrom('password_resets')
    .select('id')
    .where('token_hash', '=', tokenHash)
    .where('used_at', 'is', null)
    .where('expires_at', '>', at)
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * Marks the token used (at `at`) if it is unused and unexpired then, and returns its user id; undefined otherwise.
 * The conditional update makes a token single-use even when two requests race.
 */
export async function consumePasswordReset(db: Trx, tokenHash: string, at: string): Promise<number | undefined> {
  const row = await db
    .selectFrom('password_resets')
    .select(['id', 'user_id'])
    .where('token_hash', '=', tokenHash)
    .where('used_at', 'is', null)
    .where('expires_at', '>', at)
    .executeTakeFirst();
  if (!row) return undefined;
  const result = await db
    .updateTable('password_resets')
    .set({ used_at: at })
    .where('id', '=', row.id)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) !== 1) return undefined;
  // Any other link still in flight for this user dies with this reset.
  await db.updateTable('password_resets').set({ used_at: at }).where('user_id', '=', row.user_id).where('used_at', 'is', null).execute();
  return row.user_id;
}

/** An account by its username (case-insensitively) or its email (issue 29: staff invitations). */
export function findUserByUsernameOrEmail(db: Trx, who: string): Promise<UserRow | undefined> {
  const lower = who.trim().toLowerCase();
  return db
    .selectFrom('users')
    .select(USER_COLUMNS)
    .where((eb) => eb.or([eb('email', '=', lower), eb('username_lower', '=', lower)]))
    .orderBy('id')
    .limit(1)
    .executeTakeFirst();
}
