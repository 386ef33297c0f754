// The security suite's helpers: the gateway suite's (start a gateway, accounts, tournaments, teams),
// plus tools to forge, tamper with and unsign tokens the way an attacker would.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { SignJWT, decodeJwt, decodeProtectedHeader, importPKCS8, type JWTPayload } from 'jose';
import { updateUser } from '../../gateway/src/db/users.js';
import { createUser, type TestGateway } from '../gateway/helpers.js';

export * from '../gateway/helpers.js';

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

/** The gateway's own signing key (generated into its DATA_DIR): what a leaked key would give. */
export async function gatewayKey(gw: TestGateway) {
  return importPKCS8(fs.readFileSync(path.join(gw.config.DATA_DIR, 'jwt-private.pem'), 'utf8'), 'ES256');
}

/** A P-256 key that is not the gateway's. */
export const foreignKey = () => crypto.generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey;

export interface ForgeOptions {
  /** Claims to set over the base token's (undefined removes one). */
  claims?: Record<string, unknown>;
  /** Header fields over { alg: ES256, kid: the base token's, typ: JWT } (undefined removes one). */
  header?: Record<string, unknown>;
  /** Signing key; the gateway's own by default. */
  key?: Parameters<SignJWT['sign']>[0];
}

/**
 * A token with the base token's claims and header, changed as asked, signed with the gateway's key
 * unless another is given. Unchanged, it is accepted: each test changes one thing.
 */
export async function forge(gw: TestGateway, base: string, options: ForgeOptions = {}): Promise<string> {
  const payload: JWTPayload = { ...decodeJwt(base) };
  for (const [name, value] of Object.entries(options.claims ?? {})) {
    if (value === undefined) delete payload[name];
    else payload[name] = value;
  }
  const header: Record<string, unknown> = { alg: 'ES256', kid: decodeProtectedHeader(base).kid, typ: 'JWT' };
  for (const [name, value] of Object.entries(options.header ?? {})) {
    if (value === undefined) delete header[name];
    else header[name] = value;
  }
  return new SignJWT(payload).setProtectedHeader(header as { alg: string }).sign(options.key ?? (await gatewayKey(gw)));
}

/** The base token's claims changed as asked, keeping its original signature. */
export function tamper(base: string, claims: Record<string, unknown>): string {
  const [header, payload, signature] = base.split('.');
  const changed = { ...JSON.parse(Buffer.from(payload!, 'base64url').toString()), ...claims };
  return `${header}.${b64(changed)}.${signature}`;
}

/** The base token's claims (changed as asked) with `alg: none` and no signature. */
export function unsigned(base: string, claims: Record<string, unknown> = {}): string {
  return `${b64({ alg: 'none', typ: 'JWT' })}.${b64({ ...decodeJwt(base), ...claims })}.`;
}

export const nowSeconds = () => Math.floor(Date.now() / 1000);

/** A new account made admin in the database; its token (already issued) is an admin token from now on. */
export async function createAdmin(gw: TestGateway) {
  const user = await createUser(gw.api);
  await updateUser(gw.app.store.db, user.id, { roles: ['ROLE_USER', 'ROLE_ADMIN'] });
  return user;
}

/** A further token for an account (another device). */
export async function loginAgain(gw: TestGateway, user: { email: string; password: string }): Promise<string> {
  const res = await gw.api.post('/api/auth/login', { emailOrPhone: user.email, password: user.password });
  if (res.status !== 200) throw new Error(`login failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.token;
}
