import crypto from 'node:crypto';
import type { Trx } from '../db/index.js';
import { insertSession } from '../db/sessions.js';
import type { TokenService, TokenUser } from './tokens.js';

const SESSION_ID_BYTES = 16;

/** Hands out a token for the user, backed by a new session row that logout can delete. */
export async function startSession(db: Trx, tokens: TokenService, user: TokenUser): Promise<{ token: string; expiresAt: string }> {
  const session = await signSession(tokens, user);
  await session.store(db);
  return { token: session.token, expiresAt: session.expiresAt };
}

/** startSession in two steps: the token signed, then its row stored (inside a caller's transaction, without signing in it). */
export async function signSession(
  tokens: TokenService,
  user: TokenUser,
): Promise<{ token: string; expiresAt: string; store(db: Trx): Promise<void> }> {
  const sid = crypto.randomBytes(SESSION_ID_BYTES).toString('base64url');
  // The row lives on its token's time (lib/tokens.ts): stamped with its iat, pruning what expired by then.
  const { token, issuedAt, expiresAt } = await tokens.sign({ ...user, sid });
  return { token, expiresAt, store: (db) => insertSession(db, { id: sid, userId: user.id, expiresAt }, issuedAt) };
}
