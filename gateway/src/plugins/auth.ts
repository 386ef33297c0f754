import type { FastifyReply, FastifyRequest } from 'fastify';
import type { TokenUser } from '../lib/tokens.js';
import { forbidden, unauthorized } from '../lib/errors.js';

export const ROLE_USER = 'ROLE_USER';
export const ROLE_ADMIN = 'ROLE_ADMIN';

declare module 'fastify' {
  interface FastifyRequest {
    user: TokenUser | null;
  }
}

export const isAdmin = (user: TokenUser | null) => !!user?.roles.includes(ROLE_ADMIN);

/** preHandler: a valid bearer token is required. */
export async function requireUser(request: FastifyRequest, _reply: FastifyReply) {
  if (!request.user) throw unauthorized();
}

/** preHandler: a valid bearer token with ROLE_ADMIN is required. */
export async function requireAdmin(request: FastifyRequest, _reply: FastifyReply) {
  if (!request.user) throw unauthorized();
  if (!isAdmin(request.user)) throw forbidden('Admins only.');
}

/** Signed-in user, or throws 401; for handlers behind requireUser. */
export function currentUser(request: FastifyRequest): TokenUser {
  if (!request.user) throw unauthorized();
  return request.user;
}
