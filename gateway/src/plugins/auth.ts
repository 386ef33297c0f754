import type { FastifyInstance, FastifyRequest, onRequestHookHandler } from 'fastify';
import { ROLE_ADMIN, endpoints, type Access } from '@custom-room/contract';
import { findSessionUser } from '../db/sessions.js';
import { rolesList } from '../db/users.js';
import { forbidden, unauthorized } from '../lib/errors.js';
import type { TokenClaims } from '../lib/tokens.js';

/** The caller as the database knows them now: username and roles come from the users row, not the token. */
export type AuthUser = TokenClaims;

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Who may call the route: set from the endpoint table by accessControl, or by the route itself outside it. */
    access?: Access;
  }
  interface FastifyRequest {
    /** Set by accessControl on 'user' and 'admin' calls (and by optionalUser); null on calls that do not ask who is calling. */
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

/** Signed-in user, or throws 401; for handlers of 'user' and 'admin' calls (accessControl has set it). */
export function currentUser(request: FastifyRequest): AuthUser {
  if (!request.user) throw unauthorized();
  return request.user;
}

/** Access of each endpoint of the contract, by "METHOD url" (HEAD answers as GET). */
const ACCESS = new Map<string, Access>(Object.values(endpoints).map((e) => [`${e.method} ${e.url}`, e.access]));

/**
 * The one way to authorise (decision 058). Every route takes its access from the contract's endpoint
 * table when it is registered; a route outside the table must say its own, or the gateway does not
 * start. A protected route's first onRequest hook, before the body is read, parsed or validated, answers 401 to a caller
 * without an open session and 403 to a signed-in non-admin on an admin call: so a protected call
 * never answers 400 (or 415, or 413) to a caller who may not make it.
 */
export function accessControl(app: FastifyInstance): void {
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    let access: Access | undefined;
    for (const method of methods) {
      const key = `${method === 'HEAD' ? 'GET' : method} ${route.url}`;
      const listed = ACCESS.get(key);
      const own = route.config?.access;
      if (listed && own && own !== listed) throw new Error(`${key}: access ${own} differs from the endpoint table's ${listed}`);
      access = listed ?? own;
      if (!access) throw new Error(`${key} is not in the endpoint table and does not declare its access (config.access)`);
    }
    route.config = { ...route.config, access };
    // The check runs first among the route's own onRequest hooks (before multipart's 415, say); a
    // public call carries none and pays nothing. Only public calls store answers in the response
    // cache, whose global hook runs before, so no cached answer can skip this check.
    // A HEAD route Fastify derives from a GET comes here with the GET's hooks: the check goes in once.
    const own = [route.onRequest ?? []].flat().filter((hook) => hook !== CHECKS.user && hook !== CHECKS.admin);
    if (access === 'user' || access === 'admin') route.onRequest = [CHECKS[access], ...own];
  });
}

/** 401 without an open session; for admin calls, 403 to a signed-in non-admin. Callback style, as every protected call runs it. */
function check(needAdmin: boolean): onRequestHookHandler {
  return (request, _reply, done) => {
    authenticate(request).then((user) => {
      if (!user) return done(unauthorized());
      if (needAdmin && !isAdmin(user)) return done(forbidden('Admins only.'));
      done();
    }, done);
  };
}
const CHECKS = { user: check(false), admin: check(true) };
