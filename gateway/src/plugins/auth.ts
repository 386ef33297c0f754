import type { FastifyReply, FastifyRequest } from 'fastify';
import type { TokenClaims } from '../lib/tokens.js';
import { forbidden, unauthorized } from '../lib/errors.js';
import { findSessionUser } from '../db/sessions.js';
import { rolesList } from '../db/users.js';
import { ROLE_ADMIN } from '@custom-room/contract';

/** The caller as the database knows them now: username and roles come from the users row, not the token. */
export type AuthUser = TokenClaims;

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by requireUser / requireAdmin; null on routes that do not ask who is calling. */
    user: AuthUser | null;
  }
}

export const isAdmin = (user: AuthUser | null) => !!user?.roles.includes(ROLE_ADMIN);

const BEARER = /^Bearer\s+(\S+)\s*$/i;

/**
 * The caller of a valid bearer token whose session is still open, or null. Only routes that need a
 * user pay for the session read, so public reads carrying a token cost nothing extra.
 * A database failure is thrown, not read as "logged out": an outage must not end every session.
 */
async function authenticate(request: FastifyRequest): Promise<AuthUser | null> {
  if (request.user) return request.user;
  const token = BEARER.exec(request.headers.authorization ?? '')?.[1];
  if (!token) return null;
  const { tokens, store } = request.server;
  let claims: TokenClaims;
  try {
    claims = await tokens.verify(token);
  } catch {
    return null;
  }
  const row = await findSessionUser(store.db, claims.sid);
  if (!row || Number(row.user_id) !== claims.id) return null;
  request.user = { id: claims.id, sid: claims.sid, username: row.username, roles: rolesList(row.roles) };
  return request.user;
}

/** The caller when the request carries a valid token of an open session, else null (public reads that show admins more). */
export const optionalUser = (request: FastifyRequest): Promise<AuthUser | null> => authenticate(request);

/** onRequest/preHandler: a valid bearer token of an open session is required. */
export async function requireUser(request: FastifyRequest, _reply: FastifyReply) {
  if (!(await authenticate(request))) throw unauthorized();
}

/** onRequest/preHandler: as requireUser, and the user must hold ROLE_ADMIN now. */
export async function requireAdmin(request: FastifyRequest, _reply: FastifyReply) {
  const user = await authenticate(request);
  if (!user) throw unauthorized();
  if (!isAdmin(user)) throw forbidden('Admins only.');
}

/** Signed-in user, or throws 401; for handlers behind requireUser. */
export function currentUser(request: FastifyRequest): AuthUser {
  if (!request.user) throw unauthorized();
  return request.user;
}
