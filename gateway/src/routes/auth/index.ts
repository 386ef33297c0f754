import crypto from 'node:crypto';
import type { FastifyContextConfig, FastifyInstance, FastifyRequest, onRequestHookHandler } from 'fastify';
import type { RateLimitOptions } from '@fastify/rate-limit';
import { countUnread } from '../../db/notifications.js';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { endpoints, normalizePhone, ROLE_USER } from '@custom-room/contract';
import { isUniqueViolation, type Trx } from '../../db/index.js';
import {
  consumePasswordReset,
  createPasswordReset,
  findClashes,
  findUserByEmail,
  findUserById,
  findUserByPhone,
  insertUser,
  isPasswordResetUsable,
  recordPasswordResetRequest,
  rolesList,
  updateUser,
} from '../../db/users.js';
import { deleteSession, deleteUserSessions } from '../../db/sessions.js';
import {
  confirmFailure,
  deleteUserDevices,
  findUserDevice,
  insertDevice,
  releaseAttempt,
  reserveAttempt,
  touchDevice,
  type FailureKey,
} from '../../db/login-protection.js';
import { dummyPasswordHash, hashPassword, verifyPassword } from '../../lib/passwords.js';
import { signSession } from '../../lib/sessions.js';
import { badRequest, conflict, tooManyRequests, unauthorized, type FieldErrors } from '../../lib/errors.js';
import { currentUser } from '../../plugins/auth.js';

export const MESSAGES = {
  registered: 'Registration successful. Please log in.',
  duplicate: 'An account with these details already exists.',
  duplicateEmail: 'An account with this email already exists.',
  duplicatePhone: 'An account with this phone number already exists.',
  duplicateUsername: 'This username is already taken.',
  badLogin: 'Invalid email/phone or password.',
  resetRequested: 'If an account exists for that email, we have sent a link to reset the password.',
  resetDone: 'Your password has been reset. Please log in.',
  resetInvalid: 'This reset link is invalid or has expired.',
  loggedOut: 'You have been logged out.',
  loggedOutEverywhere: 'You have been logged out on every device.',
} as const;

const RESET_TOKEN_BYTES = 32;
const DEVICE_TOKEN_BYTES = 32;
const oneHourMs = 60 * 60 * 1000;
const oneYearMs = 365 * 24 * oneHourMs;

const sha256 = (value: string) => crypto.createHash('sha256').update(value).digest('hex');

/** The account a login names: an email when it contains "@", otherwise an Indian mobile number in any common form. */
function loginIdentity(emailOrPhone: string): { email: string } | { phone: string } | null {
  const value = emailOrPhone.trim();
  if (value.includes('@')) return { email: value.toLowerCase() };
  const phone = normalizePhone(value);
  return phone ? { phone } : null;
}

function findByIdentity(db: Trx, identity: ReturnType<typeof loginIdentity>) {
  if (!identity) return Promise.resolve(undefined);
  return 'email' in identity ? findUserByEmail(db, identity.email) : findUserByPhone(db, identity.phone);
}

function duplicateError(clashes: { email: boolean; phone: boolean; username: boolean }) {
  const errors: FieldErrors = {};
  if (clashes.email) errors.email = MESSAGES.duplicateEmail;
  if (clashes.phone) errors.phone = MESSAGES.duplicatePhone;
  if (clashes.username) errors.username = MESSAGES.duplicateUsername;
  return conflict(MESSAGES.duplicate, Object.keys(errors).length ? errors : undefined);
}

/** Per-route rate limit; the hook runs after body validation when the key needs the body. */
function rateLimit(
  app: FastifyInstance,
  max: number,
  keyGenerator: (request: FastifyRequest) => string,
  hook: RateLimitOptions['hook'] = 'preHandler',
): FastifyContextConfig {
  if (!app.config.RATE_LIMIT) return {};
  return { rateLimit: { max, timeWindow: app.config.RATE_LIMIT_WINDOW_SECONDS * 1000, keyGenerator, hook } };
}

/**
 * A further limit for a route that already has one: the plugin runs only one of its own hooks per
 * request, so this one counts through createRateLimit and answers 429 itself, in the same words.
 */
function extraRateLimit(app: FastifyInstance, max: number, keyGenerator: (request: FastifyRequest) => string): onRequestHookHandler[] {
  if (!app.config.RATE_LIMIT) return [];
  const count = app.createRateLimit({ max, timeWindow: app.config.RATE_LIMIT_WINDOW_SECONDS * 1000, keyGenerator });
  return [
    async (request, reply) => {
      const result = await count(request);
      if (result.isAllowed || !result.isExceeded) return;
      reply.header('retry-after', result.ttlInSeconds);
      throw tooManyRequests(result.ttlInSeconds);
    },
  ];
}

/** The key failed logins of an account are counted under: its id, or what was typed when there is no such account. */
function accountKey(user: { id: number } | undefined, identity: ReturnType<typeof loginIdentity>, typed: string): string {
  if (user) return `user:${user.id}`;
  if (!identity) return `typed:${typed.trim().toLowerCase()}`;
  return 'email' in identity ? `email:${identity.email}` : `phone:${identity.phone}`;
}

function resetLink(app: FastifyInstance, token: string) {
  return `${app.config.WEB_URL.replace(/\/+$/, '')}/reset-password?token=${encodeURIComponent(token)}`;
}

const routes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.store;
  await dummyPasswordHash(); // computed once up front so the first unknown-account login is not measurably slower

  app.post(
    endpoints.register.url,
    {
      schema: endpoints.register.schema,
      config: rateLimit(app, app.config.RATE_LIMIT_REGISTER_MAX, (request) => `register:${request.ip}`, 'onRequest'),
    },
    async (request, reply) => {
      const { email, phone, username, password } = request.body;
      const clashes = await findClashes(db, { email, phone, username });
      if (clashes.email || clashes.phone || clashes.username) throw duplicateError(clashes);
      const passwordHash = await hashPassword(password);
      try {
        await insertUser(db, { email, phone, username, passwordHash, roles: [ROLE_USER] });
      } catch (err) {
        // Someone took one of them between the check and the insert.
        if (isUniqueViolation(err)) throw duplicateError(await findClashes(db, { email, phone, username }));
        throw err;
      }
      return reply.status(201).send({ message: MESSAGES.registered, username });
    },
  );

  app.post(
    endpoints.login.url,
    {
      schema: endpoints.login.schema,
      // A ceiling on all attempts from one address, counted before the body is read (argon2 work per attempt).
      config: rateLimit(app, app.config.RATE_LIMIT_LOGIN_MAX, (request) => `login:${request.ip}`, 'onRequest'),
    },
    async (request, reply) => {
      const { emailOrPhone, password, deviceToken } = request.body;
      const identity = loginIdentity(emailOrPhone);
      const user = await findByIdentity(db, identity);
      const limited = app.config.RATE_LIMIT;
      const windowMs = app.config.RATE_LIMIT_LOCKOUT_SECONDS * 1000;
      const since = new Date(Date.now() - windowMs).toISOString();
      const account = accountKey(user, identity, emailOrPhone);
      // A device token counts only for the account it was issued to.
      const deviceId = user && deviceToken ? ((await findUserDevice(db, sha256(deviceToken), user.id)) ?? null) : null;

      let reserved: number | undefined;
      if (limited) {
        // With its device token, an attempt has only its own small budget: no stranger can use it up.
        const limits: [FailureKey, number][] = deviceId
          ? [[{ device: deviceId }, app.config.RATE_LIMIT_DEVICE_FAILURES_MAX]]
          : [
              [{ address: request.ip }, app.config.RATE_LIMIT_LOGIN_FAILURES_MAX],
              [{ account }, app.config.RATE_LIMIT_ACCOUNT_FAILURES_MAX],
            ];
        // Checked and reserved before the password is verified, in one step: parallel attempts, on any
        // number of gateway processes, cannot all pass the check before the first failure is counted.
        const reservation = await reserveAttempt(app.store, { address: request.ip, account, deviceId }, limits, since, windowMs);
        if ('lockedUntil' in reservation) {
          const seconds = Math.max(1, Math.ceil((Date.parse(reservation.lockedUntil) - Date.now()) / 1000));
          reply.header('retry-after', seconds);
          throw tooManyRequests(seconds);
        }
        reserved = reservation.reserved;
      }

      const ok = user
        ? await verifyPassword(user.password_hash, password)
        : await verifyPassword(await dummyPasswordHash(), password).then(() => false);
      if (!user || !ok) {
        if (reserved !== undefined) await confirmFailure(db, since);
        throw unauthorized(MESSAGES.badLogin);
      }
      const roles = rolesList(user.roles);
      const known = deviceToken && deviceId ? deviceId : undefined;
      const device = known ? deviceToken! : crypto.randomBytes(DEVICE_TOKEN_BYTES).toString('base64url');
      const session = await signSession(app.tokens, { id: user.id, username: user.username, roles });
      // What a successful login writes, in one transaction: one commit (an fsync on SQLite), not one per row.
      await app.store.writeTransaction(async (trx) => {
        if (reserved !== undefined) await releaseAttempt(trx, reserved);
        if (known) await touchDevice(trx, known);
        else await insertDevice(trx, { id: sha256(device), userId: user.id, expiresAt: new Date(Date.now() + oneYearMs).toISOString() });
        await session.store(trx);
      });
      return { token: session.token, username: user.username, roles, expiresAt: session.expiresAt, deviceToken: device };
    },
  );

  app.post(
    endpoints.logout.url,
    {
      schema: endpoints.logout.schema,
    },
    async (request) => {
      await deleteSession(db, currentUser(request).sid);
      return { message: MESSAGES.loggedOut };
    },
  );

  app.post(
    endpoints.logoutAll.url,
    {
      schema: endpoints.logoutAll.schema,
    },
    async (request) => {
      const { id } = currentUser(request);
      await deleteUserSessions(db, id);
      await deleteUserDevices(db, id); // a device that logged in once (a lost phone) loses its exemption too
      return { message: MESSAGES.loggedOutEverywhere };
    },
  );

  app.get(
    endpoints.me.url,
    {
      schema: endpoints.me.schema,
    },
    async (request) => {
      const id = currentUser(request).id;
      const [user, unread] = await Promise.all([findUserById(db, id), countUnread(db, id)]);
      if (!user) throw unauthorized(); // the account is gone; the token no longer stands for anyone
      return {
        id: user.id,
        username: user.username,
        email: user.email,
        phone: user.phone,
        roles: rolesList(user.roles),
        unreadNotifications: unread,
      };
    },
  );

  app.post(
    endpoints.requestPasswordReset.url,
    {
      schema: endpoints.requestPasswordReset.schema,
      // Per client, counted before the body is read: one address cannot mail a long list of people.
      onRequest: extraRateLimit(app, app.config.RATE_LIMIT_RESET_CLIENT_MAX, (request) => `reset-client:${request.ip}`),
      // Per email, from any address: rotating addresses cannot flood one mailbox (or keep voiding its link).
      config: rateLimit(app, app.config.RATE_LIMIT_RESET_MAX, (request) => {
        const { email } = request.body as { email: string };
        return `reset:${email}`;
      }),
    },
    async (request, reply) => {
      const { email } = request.body;
      // Decision 030: the answer leaves before any work whose cost depends on whether the account exists,
      // and the work after it is the same either way (a token, its hash, one write), bar the mail, so that
      // not even a request right behind this one is slowed differently.
      app.afterAnswer.run(reply, async () => {
        const token = crypto.randomBytes(RESET_TOKEN_BYTES).toString('base64url');
        const tokenHash = sha256(token);
        const expiresAt = new Date(Date.now() + oneHourMs).toISOString();
        const user = await findUserByEmail(db, email);
        await app.store.writeTransaction(async (trx) => {
          await recordPasswordResetRequest(trx, sha256(email));
          if (user) await createPasswordReset(trx, user.id, tokenHash, expiresAt);
        });
        if (!user) return;
        const mail = {
          to: user.email,
          subject: 'Reset your Custom Room password',
          text: [
            `Hello ${user.username},`,
            '',
            'Someone (hopefully you) asked to reset the password of your Custom Room account.',
            'Open this link within one hour to choose a new password:',
            '',
            resetLink(app, token),
            '',
            'The link works once. If you did not ask for this, ignore this mail: your password stays as it is.',
          ].join('\n'),
        };
        await app.mailer.send(mail).catch((err) => request.log.error({ err }, 'password reset mail failed'));
      });
      return reply.status(202).send({ message: MESSAGES.resetRequested });
    },
  );

  app.post(
    endpoints.confirmPasswordReset.url,
    {
      schema: endpoints.confirmPasswordReset.schema,
    },
    async (request) => {
      const { token, password } = request.body;
      const tokenHash = sha256(token);
      const invalid = () => badRequest(MESSAGES.resetInvalid, { token: MESSAGES.resetInvalid });
      // Check before hashing so unknown tokens cost no argon2 work; the transaction checks again.
      if (!(await isPasswordResetUsable(db, tokenHash))) throw invalid();
      const passwordHash = await hashPassword(password);
      const userId = await app.store.writeTransaction(async (trx) => {
        const id = await consumePasswordReset(trx, tokenHash);
        if (id !== undefined) {
          await updateUser(trx, id, { passwordHash });
          await deleteUserSessions(trx, id); // whoever knew the old password is logged out too
          await deleteUserDevices(trx, id); // and the devices they logged in on lose their exemption from the lockout
        }
        return id;
      });
      if (userId === undefined) throw invalid();
      return { message: MESSAGES.resetDone };
    },
  );
};

export default routes;
