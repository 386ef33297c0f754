import type { FastifyInstance, FastifyRequest, onRequestHookHandler, preHandlerHookHandler } from 'fastify';
import { ROLE_ADMIN, endpoints, idFromText, type Access, type StaffRight } from '@custom-room/contract';
import { findSessionUser } from '../db/sessions.js';
import { tournamentOfMatch, tournamentOfRegistration } from '../db/staff.js';
import type { Trx } from '../db/types.js';
import { rolesList } from '../db/users.js';
import { forbidden, unauthorized } from '../lib/errors.js';
import type { TokenClaims } from '../lib/tokens.js';
import { allows, deskRight, standingOn, type Standing } from '../services/standing.js';

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
    /** Set by accessControl on 'admin' and 'staff:*' calls: the caller's standing on the call's tournament (decision 065). */
    standing?: Standing;
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
 * The one way to authorise (decisions 058 and 065). Every route takes its access from the contract's
 * endpoint table when it is registered; a route outside the table must say its own, or the gateway
 * does not start. A protected route's first onRequest hook, before the body is read, parsed or
 * validated, answers 401 to a caller without an open session and 403 to a caller without the right:
 * so a protected call never answers 400 (or 415, or 413) to a caller who may not make it.
 */
export function accessControl(app: FastifyInstance): void {
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    let access: Access | undefined;
    let key = '';
    for (const method of methods) {
      key = `${method === 'HEAD' ? 'GET' : method} ${route.url}`;
      const listed = ACCESS.get(key);
      const own = route.config?.access;
      if (listed && own && own !== listed) throw new Error(`${key}: access ${own} differs from the endpoint table's ${listed}`);
      access = listed ?? own;
      if (!access) throw new Error(`${key} is not in the endpoint table and does not declare its access (config.access)`);
    }
    route.config = { ...route.config, access };
    if (access === 'public' || !access) return;
    // The check runs first among the route's own onRequest hooks (before multipart's 415, say); a
    // public call carries none and pays nothing. Only public calls store answers in the response
    // cache, whose global hook runs before, so no cached answer can skip this check.
    // A HEAD route Fastify derives from a GET comes here with the GET's hooks: the check goes in once.
    const own = [route.onRequest ?? []].flat().filter((hook) => !OUR_HOOKS.has(hook));
    route.onRequest = [checkFor(access, key), ...own];
    const late = lateCheckFor(access, key);
    if (late) route.preHandler = [late, ...[route.preHandler ?? []].flat().filter((hook) => !OUR_HOOKS.has(hook))];
  });
}

/** Where a staff call finds its tournament: a path parameter (of a tournament, a registration or a match), or a body field. */
type Locator = { param: string; of: 'tournament' | 'registration' | 'match' } | { body: string };

/** Calls that name their tournament only in the body: checked once the body is parsed and validated. */
const BODY_TOURNAMENT: Record<string, string> = {
  'POST /matches': 'tid',
  'PUT /registrations/admin/payments': 'tournamentId',
};

function locatorOf(key: string): Locator | null {
  if (BODY_TOURNAMENT[key]) return { body: BODY_TOURNAMENT[key] };
  const url = key.slice(key.indexOf(' ') + 1);
  if (url.includes(':tournamentId')) return { param: 'tournamentId', of: 'tournament' };
  if (url.startsWith('/tournaments/') && url.includes(':id')) return { param: 'id', of: 'tournament' };
  if (url.includes(':rid')) return { param: 'rid', of: 'registration' };
  if (url.startsWith('/matches/:id')) return { param: 'id', of: 'match' };
  return null;
}

const NOT_YOURS = 'You do not run this tournament.';
const ADMINS_ONLY = 'Admins only.';

/** The onRequest check of a protected call: 401 without an open session, 403 without the right. Callback style, as every protected call runs it. */
function checkFor(access: Exclude<Access, 'public'>, key: string): onRequestHookHandler {
  if (access === 'user') return CHECK_USER;
  if (access === 'admin') return CHECK_ADMIN;
  const right = access.slice('staff:'.length) as StaffRight;
  const locator = right === 'desk' || right === 'organise' ? null : locatorOf(key);
  if (right !== 'desk' && right !== 'organise' && !locator)
    throw new Error(`${key}: a staff call must name its tournament in its path or body`);
  const hook: onRequestHookHandler = (request, _reply, done) => {
    authenticate(request)
      .then(async (user) => {
        if (!user) throw unauthorized();
        if (isAdmin(user)) return void (request.standing = { kind: 'site-admin' });
        const db = request.server.store.db;
        if (!locator || 'body' in locator) {
          // desk, organise, or a body-named tournament: refuse here whoever has no desk at all
          if (await deskRight(db, user.id, right === 'organise' ? 'organise' : 'desk')) return;
          // No desk at all: a player, answered as before organisers existed (an unapproved organiser asks to organise).
          throw right === 'organise' ? await refusal(db, user.id, 'Only approved organisers create tournaments.') : forbidden(ADMINS_ONLY);
        }
        const tournamentId = await tournamentOfCall(db, key, request.params, undefined);
        const standing = tournamentId == null ? null : await standingOn(db, user.id, tournamentId);
        if (!standing || !allows(standing, right as TournamentRight)) throw await refusal(db, user.id, NOT_YOURS);
        request.standing = standing;
      })
      .then(() => done(), done);
  };
  OUR_HOOKS.add(hook);
  return hook;
}

/** A body-named tournament's check, after the body is validated (403 without the right there). */
function lateCheckFor(access: Access, key: string): preHandlerHookHandler | null {
  if (!access.startsWith('staff:')) return null;
  const locator = locatorOf(key);
  if (!locator || !('body' in locator)) return null;
  const right = access.slice('staff:'.length) as TournamentRight;
  const hook: preHandlerHookHandler = (request, _reply, done) => {
    if (request.standing?.kind === 'site-admin') return done();
    const user = request.user;
    const tournamentId = Number((request.body as Record<string, unknown>)[locator.body]);
    if (!user) return done(unauthorized());
    standingOn(request.server.store.db, user.id, tournamentId).then((standing) => {
      if (!standing || !allows(standing, right)) return done(forbidden(NOT_YOURS)); // the first check let only a desk through
      request.standing = standing;
      done();
    }, done);
  };
  OUR_HOOKS.add(hook);
  return hook;
}

/**
 * The tournament a staff call is about, as its locator finds it (undefined when the id is malformed or
 * names nothing): what the check reads, and what the activity log records the call under.
 */
export async function tournamentOfCall(db: Trx, key: string, params: unknown, body: unknown): Promise<number | undefined> {
  const locator = locatorOf(key);
  if (!locator) return undefined;
  if ('body' in locator) {
    const id = (body as Record<string, unknown> | null)?.[locator.body];
    return typeof id === 'number' && Number.isInteger(id) && id > 0 ? id : undefined;
  }
  // Raw text before validation (the access check), a number after it (the activity log).
  const raw = (params as Record<string, unknown>)[locator.param];
  const id = typeof raw === 'number' ? (Number.isInteger(raw) && raw > 0 ? raw : null) : idFromText(raw);
  return id == null ? undefined : tournamentOf(db, locator.of, id);
}

/**
 * 403: "Admins only." to a caller with no desk at all (a player: the answer every such call gave before
 * organisers existed), else why this organiser or crew member may not.
 */
async function refusal(db: Trx, userId: number, message: string) {
  return forbidden((await deskRight(db, userId, 'desk')) ? message : ADMINS_ONLY);
}

function tournamentOf(db: Trx, of: 'tournament' | 'registration' | 'match', id: number): Promise<number | undefined> {
  if (of === 'registration') return tournamentOfRegistration(db, id);
  if (of === 'match') return tournamentOfMatch(db, id);
  return Promise.resolve(id);
}

type TournamentRight = Exclude<StaffRight, 'desk' | 'organise'>;

/** 401 without an open session; for admin calls, 403 to a signed-in non-admin. */
function check(needAdmin: boolean): onRequestHookHandler {
  return (request, _reply, done) => {
    authenticate(request).then((user) => {
      if (!user) return done(unauthorized());
      if (needAdmin && !isAdmin(user)) return done(forbidden(ADMINS_ONLY));
      if (needAdmin) request.standing = { kind: 'site-admin' };
      done();
    }, done);
  };
}
const CHECK_USER = check(false);
const CHECK_ADMIN = check(true);
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- hooks of every kind, compared by identity
const OUR_HOOKS = new Set<any>([CHECK_USER, CHECK_ADMIN]);
