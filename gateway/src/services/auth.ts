import crypto from 'node:crypto';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { normalizePhone, PASSWORD_RESET_DONE, RESET_REQUESTED, ROLE_USER } from '@custom-room/contract';
import { isUniqueViolation, type Trx } from '../db/index.js';
import {
  confirmFailure,
  deleteUserDevices,
  findUserDevice,
  insertDevice,
  releaseAttempt,
  reserveAttempt,
  touchDevice,
  type FailureKey,
} from '../db/login-protection.js';
import { countUnread } from '../db/notifications.js';
import { deleteUserSessions } from '../db/sessions.js';
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
  type UserRow,
} from '../db/users.js';
import { isoAt } from '../lib/clock.js';
import { badRequest, conflict, unauthorized, type FieldErrors } from '../lib/errors.js';
import { dummyPasswordHash, hashPassword, verifyPassword } from '../lib/passwords.js';
import { signSession } from '../lib/sessions.js';
import type { ServiceDeps } from './deps.js';

export const MESSAGES = {
  registered: 'Registration successful. Please log in.',
  duplicate: 'An account with these details already exists.',
  duplicateEmail: 'An account with this email already exists.',
  duplicatePhone: 'An account with this phone number already exists.',
  duplicateUsername: 'This username is already taken.',
  badLogin: 'Invalid email/phone or password.',
  resetRequested: RESET_REQUESTED,
  resetDone: PASSWORD_RESET_DONE,
  resetInvalid: 'This reset link is invalid or has expired.',
  loggedOut: 'You have been logged out.',
  loggedOutEverywhere: 'You have been logged out on every device.',
} as const;

const RESET_TOKEN_BYTES = 32;
const DEVICE_TOKEN_BYTES = 32;
const oneHourMs = 60 * 60 * 1000;
const oneYearMs = 365 * 24 * oneHourMs;

const sha256 = (value: string) => crypto.createHash('sha256').update(value).digest('hex');

type Identity = { email: string } | { phone: string } | null;

/** The account a login names: an email when it contains "@", otherwise an Indian mobile number in any common form. */
function loginIdentity(emailOrPhone: string): Identity {
  const value = emailOrPhone.trim();
  if (value.includes('@')) return { email: value.toLowerCase() };
  const phone = normalizePhone(value);
  return phone ? { phone } : null;
}

function findByIdentity(db: Trx, identity: Identity) {
  if (!identity) return Promise.resolve(undefined);
  return 'email' in identity ? findUserByEmail(db, identity.email) : findUserByPhone(db, identity.phone);
}

/** The key failed logins of an account are counted under: its id, or what was typed when there is no such account. */
function accountKey(user: { id: number } | undefined, identity: Identity, typed: string): string {
  if (user) return `user:${user.id}`;
  if (!identity) return `typed:${typed.trim().toLowerCase()}`;
  return 'email' in identity ? `email:${identity.email}` : `phone:${identity.phone}`;
}

function duplicateError(clashes: { email: boolean; phone: boolean; username: boolean }) {
  const errors: FieldErrors = {};
  if (clashes.email) errors.email = MESSAGES.duplicateEmail;
  if (clashes.phone) errors.phone = MESSAGES.duplicatePhone;
  if (clashes.username) errors.username = MESSAGES.duplicateUsername;
  return conflict(MESSAGES.duplicate, Object.keys(errors).length ? errors : undefined);
}

/** A new player account; 409 naming the fields another account already holds. */
export async function registerAccount(app: FastifyInstance, account: { email: string; phone: string; username: string; password: string }) {
  const { db } = app.store;
  const { email, phone, username, password } = account;
  const clashes = await findClashes(db, { email, phone, username });
  if (clashes.email || clashes.phone || clashes.username) throw duplicateError(clashes);
  const passwordHash = await hashPassword(password);
  try {
    await insertUser(db, { email, phone, username, passwordHash, roles: [ROLE_USER] }, isoAt(app.clock.now()));
  } catch (err) {
    // Someone took one of them between the check and the insert.
    if (isUniqueViolation(err)) throw duplicateError(await findClashes(db, { email, phone, username }));
    throw err;
  }
}

export interface LoginAttempt {
  emailOrPhone: string;
  password: string;
  deviceToken?: string | undefined;
  address: string;
}

export type LoginOutcome =
  { lockedForSeconds: number } | { token: string; username: string; roles: string[]; expiresAt: string; deviceToken: string };

/**
 * A login (decision 022): the attempt is counted against its address and account (or only its device,
 * with a device token of that account) before the password is verified; a right password releases it.
 * 401 on a wrong email, phone or password; a lockout is returned for the route to answer 429.
 */
export async function logIn(app: FastifyInstance, attempt: LoginAttempt): Promise<LoginOutcome> {
  const { db } = app.store;
  const now = app.clock.now();
  const identity = loginIdentity(attempt.emailOrPhone);
  const user = await findByIdentity(db, identity);
  const windowMs = app.config.RATE_LIMIT_LOCKOUT_SECONDS * 1000;
  const since = isoAt(now - windowMs);
  // A device token counts only for the account it was issued to.
  const deviceId =
    user && attempt.deviceToken ? ((await findUserDevice(db, sha256(attempt.deviceToken), user.id, isoAt(now))) ?? null) : null;

  let reserved: number | undefined;
  if (app.config.RATE_LIMIT) {
    const account = accountKey(user, identity, attempt.emailOrPhone);
    const reservation = await reserveLogin(app, { address: attempt.address, account, deviceId }, { since, windowMs, at: isoAt(now) });
    if ('lockedUntil' in reservation) {
      return { lockedForSeconds: Math.max(1, Math.ceil((Date.parse(reservation.lockedUntil) - app.clock.now()) / 1000)) };
    }
    reserved = reservation.reserved;
  }

  const ok = user
    ? await verifyPassword(user.password_hash, attempt.password)
    : await verifyPassword(await dummyPasswordHash(), attempt.password).then(() => false);
  if (!user || !ok) {
    if (reserved !== undefined) await confirmFailure(db, since);
    throw unauthorized(MESSAGES.badLogin);
  }
  const known = deviceId && attempt.deviceToken ? { id: deviceId, token: attempt.deviceToken } : undefined;
  return openSession(app, user, { reserved, known });
}

/**
 * With its device token, an attempt has only its own small budget: no stranger can use it up.
 * Checked and reserved before the password is verified, in one step: parallel attempts, on any
 * number of gateway processes, cannot all pass the check before the first failure is counted.
 */
function reserveLogin(
  app: FastifyInstance,
  attempt: { address: string; account: string; deviceId: string | null },
  window: { since: string; windowMs: number; at: string },
) {
  const limits: [FailureKey, number][] = attempt.deviceId
    ? [[{ device: attempt.deviceId }, app.config.RATE_LIMIT_DEVICE_FAILURES_MAX]]
    : [
        [{ address: attempt.address }, app.config.RATE_LIMIT_LOGIN_FAILURES_MAX],
        [{ account: attempt.account }, app.config.RATE_LIMIT_ACCOUNT_FAILURES_MAX],
      ];
  return reserveAttempt(app.store, attempt, limits, window);
}

/** A right password: a session and a device token (the known one, or a new one remembered for a year). */
async function openSession(
  app: FastifyInstance,
  user: UserRow,
  { reserved, known }: { reserved: number | undefined; known: { id: string; token: string } | undefined },
) {
  const roles = rolesList(user.roles);
  const device = known ? known.token : crypto.randomBytes(DEVICE_TOKEN_BYTES).toString('base64url');
  const session = await signSession(app.tokens, { id: user.id, username: user.username, roles });
  const now = app.clock.now();
  // What a successful login writes, in one transaction: one commit (an fsync on SQLite), not one per row.
  await app.store.writeTransaction(async (trx) => {
    if (reserved !== undefined) await releaseAttempt(trx, reserved);
    if (known) await touchDevice(trx, known.id, isoAt(now));
    else await insertDevice(trx, { id: sha256(device), userId: user.id, expiresAt: isoAt(now + oneYearMs) }, isoAt(now));
    await session.store(trx);
  });
  return { token: session.token, username: user.username, roles, expiresAt: session.expiresAt, deviceToken: device };
}

/** Ends every token of the account, and forgets its devices: a device that logged in once (a lost phone) loses its exemption too. */
export async function logOutEverywhere(app: FastifyInstance, userId: number): Promise<void> {
  await deleteUserSessions(app.store.db, userId);
  await deleteUserDevices(app.store.db, userId);
}

/** The signed-in account and its unread notifications; 401 when the account is gone (the token no longer stands for anyone). */
export async function accountOf({ store }: Pick<ServiceDeps, 'store'>, userId: number) {
  const [user, unread] = await Promise.all([findUserById(store.db, userId), countUnread(store.db, userId)]);
  if (!user) throw unauthorized();
  return {
    id: user.id,
    username: user.username,
    email: user.email,
    phone: user.phone,
    roles: rolesList(user.roles),
    unreadNotifications: unread,
  };
}

function resetLink(app: FastifyInstance, token: string) {
  return `${app.config.WEB_URL.replace(/\/+$/, '')}/reset-password?token=${encodeURIComponent(token)}`;
}

/**
 * After the answer (decision 030): the same work for a known and an unknown email (a token, its hash,
 * one write), bar the mail, so that not even a request right behind this one is slowed differently.
 */
export async function sendPasswordReset(app: FastifyInstance, email: string, log: FastifyBaseLogger): Promise<void> {
  const token = crypto.randomBytes(RESET_TOKEN_BYTES).toString('base64url');
  const tokenHash = sha256(token);
  const now = app.clock.now();
  const user = await findUserByEmail(app.store.db, email);
  await app.store.writeTransaction(async (trx) => {
    await recordPasswordResetRequest(trx, sha256(email), isoAt(now));
    if (user) await createPasswordReset(trx, user.id, tokenHash, isoAt(now + oneHourMs), isoAt(now));
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
  await app.mailer.send(mail).catch((err) => log.error({ err }, 'password reset mail failed'));
}

/** Sets the new password of the reset link's account, once; its sessions and devices go. 400 for a used or expired link. */
export async function resetPassword(app: FastifyInstance, token: string, password: string): Promise<void> {
  const tokenHash = sha256(token);
  const invalid = () => badRequest(MESSAGES.resetInvalid, { token: MESSAGES.resetInvalid });
  // Check before hashing so unknown tokens cost no argon2 work; the transaction checks again.
  if (!(await isPasswordResetUsable(app.store.db, tokenHash, isoAt(app.clock.now())))) throw invalid();
  const passwordHash = await hashPassword(password);
  const userId = await app.store.writeTransaction(async (trx) => {
    const id = await consumePasswordReset(trx, tokenHash, isoAt(app.clock.now()));
    if (id !== undefined) {
      await updateUser(trx, id, { passwordHash });
      await deleteUserSessions(trx, id); // whoever knew the old password is logged out too
      await deleteUserDevices(trx, id); // and the devices they logged in on lose their exemption from the lockout
    }
    return id;
  });
  if (userId === undefined) throw invalid();
}
