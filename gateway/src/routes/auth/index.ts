import crypto from 'node:crypto';
import type { FastifyContextConfig, FastifyInstance, FastifyRequest, onRequestHookHandler } from 'fastify';
import type { RateLimitOptions } from '@fastify/rate-limit';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ErrorSchema, MessageSchema, normalizePhone } from '../../schemas/common.js';
import {
  LoginBodySchema,
  LoginResponseSchema,
  MeResponseSchema,
  PasswordResetConfirmBodySchema,
  PasswordResetRequestBodySchema,
  RegisterBodySchema,
  RegisterResponseSchema,
} from '../../schemas/auth.js';
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
  rolesList,
  updateUser,
} from '../../db/users.js';
import { deleteSession, deleteUserSessions } from '../../db/sessions.js';
import { dummyPasswordHash, hashPassword, verifyPassword } from '../../lib/passwords.js';
import { startSession } from '../../lib/sessions.js';
import { badRequest, conflict, tooManyRequests, unauthorized, type FieldErrors } from '../../lib/errors.js';
import { currentUser, requireUser, ROLE_USER } from '../../plugins/auth.js';

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
const oneHourMs = 60 * 60 * 1000;

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
function rateLimit(app: FastifyInstance, max: number, keyGenerator: (request: FastifyRequest) => string, hook: RateLimitOptions['hook'] = 'preHandler'): FastifyContextConfig {
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

function resetLink(app: FastifyInstance, token: string) {
  return `${app.config.WEB_URL.replace(/\/+$/, '')}/reset-password?token=${encodeURIComponent(token)}`;
}

const routes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.store;
  await dummyPasswordHash(); // computed once up front so the first unknown-account login is not measurably slower

  app.post(
    '/api/auth/register',
    {
      schema: {
        tags: ['auth'],
        summary: 'Create a player account',
        description: 'Email, phone (Indian mobile) and username (case-insensitive) must each be unused. Rate-limited per IP address.',
        body: RegisterBodySchema,
        response: { 201: RegisterResponseSchema, 400: ErrorSchema, 409: ErrorSchema, 429: ErrorSchema },
      },
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
    '/api/auth/login',
    {
      schema: {
        tags: ['auth'],
        summary: 'Log in with email or phone and password',
        description: 'emailOrPhone containing "@" is an email, otherwise an Indian mobile number (+91 and spaces allowed). Rate-limited per IP address and account.',
        body: LoginBodySchema,
        response: { 200: LoginResponseSchema, 400: ErrorSchema, 401: ErrorSchema, 429: ErrorSchema },
      },
      config: rateLimit(app, app.config.RATE_LIMIT_LOGIN_MAX, (request) => {
        const { emailOrPhone } = request.body as { emailOrPhone: string };
        const identity = loginIdentity(emailOrPhone);
        const account = identity ? ('email' in identity ? identity.email : identity.phone) : emailOrPhone.trim().toLowerCase();
        return `login:${request.ip}:${account}`;
      }),
    },
    async (request) => {
      const { emailOrPhone, password } = request.body;
      const user = await findByIdentity(db, loginIdentity(emailOrPhone));
      if (!user) {
        await verifyPassword(await dummyPasswordHash(), password); // same work as a real check
        throw unauthorized(MESSAGES.badLogin);
      }
      if (!(await verifyPassword(user.password_hash, password))) throw unauthorized(MESSAGES.badLogin);
      const roles = rolesList(user.roles);
      const { token, expiresAt } = await startSession(db, app.tokens, { id: user.id, username: user.username, roles });
      return { token, username: user.username, roles, expiresAt };
    },
  );

  app.post(
    '/api/auth/logout',
    {
      onRequest: requireUser,
      schema: {
        tags: ['auth'],
        summary: 'End this token',
        description: 'Ends the session of the bearer token: from now on it gets 401 everywhere. Other logins of the same account stay. No body.',
        security: [{ bearerAuth: [] }],
        response: { 200: MessageSchema, 401: ErrorSchema },
      },
    },
    async (request) => {
      await deleteSession(db, currentUser(request).sid);
      return { message: MESSAGES.loggedOut };
    },
  );

  app.post(
    '/api/auth/logout-all',
    {
      onRequest: requireUser,
      schema: {
        tags: ['auth'],
        summary: 'Log out everywhere',
        description: 'Ends every session of the account, this one included: every token issued so far gets 401. No body.',
        security: [{ bearerAuth: [] }],
        response: { 200: MessageSchema, 401: ErrorSchema },
      },
    },
    async (request) => {
      await deleteUserSessions(db, currentUser(request).id);
      return { message: MESSAGES.loggedOutEverywhere };
    },
  );

  app.get(
    '/api/auth/me',
    {
      onRequest: requireUser,
      schema: {
        tags: ['auth'],
        summary: 'The signed-in account',
        security: [{ bearerAuth: [] }],
        response: { 200: MeResponseSchema, 401: ErrorSchema },
      },
    },
    async (request) => {
      const user = await findUserById(db, currentUser(request).id);
      if (!user) throw unauthorized(); // the account is gone; the token no longer stands for anyone
      return { id: user.id, username: user.username, email: user.email, phone: user.phone, roles: rolesList(user.roles) };
    },
  );

  app.post(
    '/api/auth/password-reset/request',
    {
      schema: {
        tags: ['auth'],
        summary: 'Email a password reset link',
        description:
          'Always 202, whether or not the account exists. The link is valid for one hour and works once. Rate-limited per email (whoever asks) and per client address.',
        body: PasswordResetRequestBodySchema,
        response: { 202: MessageSchema, 400: ErrorSchema, 429: ErrorSchema },
      },
      // Per client, counted before the body is read: one address cannot mail a long list of people.
      onRequest: extraRateLimit(app, app.config.RATE_LIMIT_RESET_CLIENT_MAX, (request) => `reset-client:${request.ip}`),
      // Per email, from any address: rotating addresses cannot flood one mailbox (or keep voiding its link).
      config: rateLimit(app, app.config.RATE_LIMIT_RESET_MAX, (request) => {
        const { email } = request.body as { email: string };
        return `reset:${email}`;
      }),
    },
    async (request, reply) => {
      const user = await findUserByEmail(db, request.body.email);
      if (user) {
        const token = crypto.randomBytes(RESET_TOKEN_BYTES).toString('base64url');
        const expiresAt = new Date(Date.now() + oneHourMs).toISOString();
        await app.store.writeTransaction((trx) => createPasswordReset(trx, user.id, sha256(token), expiresAt));
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
        // Not awaited: the answer must not wait on (or reveal, by its timing) the mail server.
        void (async () => app.mailer.send(mail))().catch((err) => request.log.error({ err }, 'password reset mail failed'));
      }
      return reply.status(202).send({ message: MESSAGES.resetRequested });
    },
  );

  app.post(
    '/api/auth/password-reset/confirm',
    {
      schema: {
        tags: ['auth'],
        summary: 'Set a new password with a reset link token',
        description: 'Also ends every session of the account: tokens issued before the reset get 401.',
        body: PasswordResetConfirmBodySchema,
        response: { 200: MessageSchema, 400: ErrorSchema },
      },
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
        }
        return id;
      });
      if (userId === undefined) throw invalid();
      return { message: MESSAGES.resetDone };
    },
  );
};

export default routes;
