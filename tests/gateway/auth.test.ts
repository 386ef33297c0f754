import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { SignJWT, createLocalJWKSet, decodeJwt, importPKCS8, jwtVerify } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, createStorage, createUser, startGateway, unique, uniquePhone, type TestGateway } from './helpers.js';

const DUPLICATE = 'An account with these details already exists.';
const BAD_LOGIN = 'Invalid email/phone or password.';

function newAccount(overrides: Record<string, unknown> = {}) {
  const u = unique();
  return {
    email: `acct${u}@test.example`,
    phone: uniquePhone(),
    username: `acct_${u}`.slice(0, 20),
    password: 'a good long password',
    ...overrides,
  };
}

describe('accounts: register, login, me', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startGateway();
  });
  afterAll(() => gw.stop());

  const userRow = (username: string) =>
    gw.app.store.db.selectFrom('users').selectAll().where('username_lower', '=', username.toLowerCase()).executeTakeFirstOrThrow();

  describe('register', () => {
    it('creates a ROLE_USER account with a lowercased email and a normalised phone', async () => {
      const digits = uniquePhone();
      const account = newAccount({ email: `  Mixed.Case${unique()}@Test.Example `, phone: `+91 ${digits.slice(0, 5)} ${digits.slice(5)}` });
      const res = await gw.api.post('/api/auth/register', account);
      expect(res.status).toBe(201);
      expect(res.body).toEqual({ message: 'Registration successful. Please log in.', username: account.username });

      const row = await userRow(account.username);
      expect(row.email).toBe((account.email as string).trim().toLowerCase());
      expect(row.phone).toBe(`+91${digits}`);
      expect(row.roles).toBe('ROLE_USER');
    });

    it('stores the password as an argon2id hash with the OWASP parameters, never the password itself', async () => {
      const account = newAccount();
      expect((await gw.api.post('/api/auth/register', account)).status).toBe(201);
      const row = await userRow(account.username);
      expect(row.password_hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
      expect(row.password_hash).not.toContain(account.password);
    });

    it.each([
      ['email', { email: '' }, 'Email is required.'],
      ['email', { email: 'not-an-email' }, 'Enter a valid email address.'],
      ['email', { email: `${'a'.repeat(250)}@x.in` }, 'Email must be at most 254 characters.'],
      ['phone', { phone: '' }, 'Phone number is required.'],
      ['phone', { phone: '12345' }, 'Enter a 10-digit Indian mobile number, e.g. 98765 43210.'],
      ['phone', { phone: '5876543210' }, 'Enter a 10-digit Indian mobile number, e.g. 98765 43210.'],
      ['phone', { phone: '+1 415 555 0100' }, 'Enter a 10-digit Indian mobile number, e.g. 98765 43210.'],
      ['username', { username: 'ab' }, 'Username must be at least 3 characters.'],
      ['username', { username: 'a'.repeat(21) }, 'Username must be at most 20 characters.'],
      ['username', { username: 'bad name!' }, 'Username may contain only letters, digits, _ . and -.'],
      ['password', { password: 'short12' }, 'Password must be at least 8 characters.'],
      ['password', { password: 'x'.repeat(129) }, 'Password must be at most 128 characters.'],
      ['password', { password: 12345678 }, 'Password must be text.'],
    ])('rejects a bad %s with a field error (%j)', async (field, override, message) => {
      const res = await gw.api.post('/api/auth/register', newAccount(override));
      expect(res.status).toBe(400);
      expect(res.body.errors).toEqual({ [field]: message });
    });

    it('accepts usernames of 3 and 20 characters with . _ and -', async () => {
      const u = unique();
      for (const username of [`a.${u}`.slice(0, 3), `x_y-z.${u}`.padEnd(20, '9').slice(0, 20)]) {
        const res = await gw.api.post('/api/auth/register', newAccount({ username }));
        expect(res.status, username).toBe(201);
      }
    });

    it('names every missing field at once', async () => {
      const res = await gw.api.post('/api/auth/register', {});
      expect(res.status).toBe(400);
      expect(Object.keys(res.body.errors).sort()).toEqual(['email', 'password', 'phone', 'username']);
    });

    it('answers 409 with a field error for a duplicate email, in any letter case', async () => {
      const first = newAccount();
      expect((await gw.api.post('/api/auth/register', first)).status).toBe(201);
      const res = await gw.api.post('/api/auth/register', newAccount({ email: (first.email as string).toUpperCase() }));
      expect(res.status).toBe(409);
      expect(res.body).toEqual({ message: DUPLICATE, errors: { email: 'An account with this email already exists.' } });
    });

    it('answers 409 with a field error for a duplicate phone, however it is written', async () => {
      const first = newAccount();
      expect((await gw.api.post('/api/auth/register', first)).status).toBe(201);
      const res = await gw.api.post('/api/auth/register', newAccount({ phone: `+91-${first.phone}` }));
      expect(res.status).toBe(409);
      expect(res.body).toEqual({ message: DUPLICATE, errors: { phone: 'An account with this phone number already exists.' } });
    });

    it('treats usernames case-insensitively', async () => {
      const first = newAccount({ username: `Shadow_${unique()}`.slice(0, 20) });
      expect((await gw.api.post('/api/auth/register', first)).status).toBe(201);
      const res = await gw.api.post('/api/auth/register', newAccount({ username: (first.username as string).toLowerCase() }));
      expect(res.status).toBe(409);
      expect(res.body).toEqual({ message: DUPLICATE, errors: { username: 'This username is already taken.' } });
    });

    it('reports every field that clashes', async () => {
      const first = newAccount();
      expect((await gw.api.post('/api/auth/register', first)).status).toBe(201);
      const res = await gw.api.post('/api/auth/register', { ...first, password: 'another password' });
      expect(res.status).toBe(409);
      expect(Object.keys(res.body.errors).sort()).toEqual(['email', 'phone', 'username']);
    });

    it('answers 409, never 500, when identical registrations race', async () => {
      const account = newAccount();
      const results = await Promise.all(Array.from({ length: 4 }, () => gw.api.post('/api/auth/register', account)));
      const statuses = results.map((r) => r.status).sort();
      expect(statuses).toEqual([201, 409, 409, 409]);
      for (const r of results.filter((x) => x.status === 409)) {
        expect(r.body.errors).toEqual({
          email: 'An account with this email already exists.',
          phone: 'An account with this phone number already exists.',
          username: 'This username is already taken.',
        });
      }
    });
  });

  describe('login', () => {
    it('logs in by email in any letter case and returns token, username, roles and expiry', async () => {
      const user = await createUser(gw.api);
      const res = await gw.api.post('/api/auth/login', { emailOrPhone: ` ${user.email.toUpperCase()} `, password: user.password });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        token: expect.any(String),
        username: user.username,
        roles: ['ROLE_USER'],
        expiresAt: expect.any(String),
        deviceToken: expect.any(String),
      });
      const claims = decodeJwt(res.body.token);
      expect(new Date(res.body.expiresAt).getTime()).toBe(claims.exp! * 1000);
    });

    it.each([
      ['9876543210', (d: string) => d],
      ['+919876543210', (d: string) => `+91${d}`],
      ['+91 98765 43210', (d: string) => `+91 ${d.slice(0, 5)} ${d.slice(5)}`],
      ['09876543210', (d: string) => `0${d}`],
      ['91-98765-43210', (d: string) => `91-${d.slice(0, 5)}-${d.slice(5)}`],
      ['(+91) 987 654 3210', (d: string) => `(+91) ${d.slice(0, 3)} ${d.slice(3, 6)} ${d.slice(6)}`],
    ])('logs in by phone written like %s', async (_form, write) => {
      const user = await createUser(gw.api);
      const res = await gw.api.post('/api/auth/login', { emailOrPhone: write(user.phone), password: user.password });
      expect(res.status).toBe(200);
      expect(res.body.username).toBe(user.username);
    });

    it('rejects a wrong password with 401 and the same message as an unknown account', async () => {
      const user = await createUser(gw.api);
      const wrong = await gw.api.post('/api/auth/login', { emailOrPhone: user.email, password: 'not the password' });
      expect(wrong.status).toBe(401);
      expect(wrong.body).toEqual({ message: BAD_LOGIN });
      const wrongByPhone = await gw.api.post('/api/auth/login', { emailOrPhone: user.phone, password: 'not the password' });
      expect(wrongByPhone.status).toBe(401);
      expect(wrongByPhone.body).toEqual({ message: BAD_LOGIN });

      for (const emailOrPhone of [`nobody${unique()}@test.example`, uniquePhone(), 'no-such-thing']) {
        const res = await gw.api.post('/api/auth/login', { emailOrPhone, password: user.password });
        expect(res.status, emailOrPhone).toBe(401);
        expect(res.body).toEqual({ message: BAD_LOGIN });
      }
    });

    it('does not trim or case-fold the password', async () => {
      const user = await createUser(gw.api, { password: 'Case Sensitive Pass' });
      for (const password of ['case sensitive pass', ' Case Sensitive Pass']) {
        expect((await gw.api.post('/api/auth/login', { emailOrPhone: user.email, password })).status).toBe(401);
      }
    });

    it('requires both fields', async () => {
      const res = await gw.api.post('/api/auth/login', { emailOrPhone: ' ', password: '' });
      expect(res.status).toBe(400);
      expect(res.body.errors).toEqual({ emailOrPhone: 'Email or phone is required.', password: 'Password is required.' });
    });

    it('issues a token with sub, username and roles that the published JWKS verifies', async () => {
      const user = await createUser(gw.api);
      const claims = decodeJwt(user.token);
      expect(claims.sub).toBe(String(user.id));
      expect(claims.username).toBe(user.username);
      expect(claims.roles).toEqual(['ROLE_USER']);
      expect(claims.exp! - claims.iat!).toBe(gw.config.JWT_TTL_SECONDS);

      const jwks = createLocalJWKSet((await gw.api.get('/.well-known/jwks.json')).body);
      const { payload, protectedHeader } = await jwtVerify(user.token, jwks);
      expect(protectedHeader.alg).toBe('ES256');
      expect(payload.sub).toBe(String(user.id));
    });

    it('logs the ADMIN_* account in with ROLE_ADMIN, by email and by phone', async () => {
      const byEmail = await gw.api.post('/api/auth/login', { emailOrPhone: ADMIN.email, password: ADMIN.password });
      expect(byEmail.status).toBe(200);
      expect(byEmail.body.username).toBe(ADMIN.username);
      expect(byEmail.body.roles).toEqual(['ROLE_USER', 'ROLE_ADMIN']);
      expect(decodeJwt(byEmail.body.token).roles).toContain('ROLE_ADMIN');
      const byPhone = await gw.api.post('/api/auth/login', { emailOrPhone: ADMIN.phone, password: ADMIN.password });
      expect(byPhone.status).toBe(200);
    });

    it('gives new accounts no admin role', async () => {
      const user = await createUser(gw.api);
      const me = await gw.api.get('/api/auth/me', user.token);
      expect(me.body.roles).toEqual(['ROLE_USER']);
    });
  });

  describe('me', () => {
    it('returns the signed-in account', async () => {
      const user = await createUser(gw.api);
      const res = await gw.api.get('/api/auth/me', user.token);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        id: user.id,
        username: user.username,
        email: user.email,
        phone: `+91${user.phone}`,
        roles: ['ROLE_USER'],
        unreadNotifications: 0, // decision 044: the nav's count
      });
    });

    it('answers 401 without a token', async () => {
      const res = await gw.api.get('/api/auth/me');
      expect(res.status).toBe(401);
      expect(res.body.message).toBeTruthy();
    });

    it('answers 401 for a tampered token', async () => {
      const user = await createUser(gw.api);
      const [header, payload, signature] = user.token.split('.');
      const claims = JSON.parse(Buffer.from(payload!, 'base64url').toString());
      const forged = Buffer.from(JSON.stringify({ ...claims, roles: ['ROLE_USER', 'ROLE_ADMIN'] })).toString('base64url');
      expect((await gw.api.get('/api/auth/me', `${header}.${forged}.${signature}`)).status).toBe(401);
      const unsigned = `${Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url')}.${payload}.`;
      expect((await gw.api.get('/api/auth/me', unsigned)).status).toBe(401);
    });

    it('answers 401 for an expired token signed with the right key', async () => {
      const user = await createUser(gw.api);
      const pem = fs.readFileSync(path.join(gw.config.DATA_DIR, 'jwt-private.pem'), 'utf8');
      const key = await importPKCS8(pem, 'ES256');
      const { kid } = (await gw.api.get('/.well-known/jwks.json')).body.keys[0];
      const { iss, aud, sid } = decodeJwt(user.token);
      const sign = (exp: number) =>
        new SignJWT({ username: user.username, roles: ['ROLE_USER'], sid })
          .setProtectedHeader({ alg: 'ES256', kid, typ: 'JWT' })
          .setSubject(String(user.id))
          .setIssuer(iss!)
          .setAudience(aud!)
          .setIssuedAt(exp - 3600)
          .setExpirationTime(exp)
          .sign(key);
      const now = Math.floor(Date.now() / 1000);
      // The same construction is accepted while it is still valid, so the 401 below is about expiry alone.
      expect((await gw.api.get('/api/auth/me', await sign(now + 600))).status).toBe(200);
      expect((await gw.api.get('/api/auth/me', await sign(now - 60))).status).toBe(401);
    });

    it('answers 401 for a token signed by another key', async () => {
      const user = await createUser(gw.api);
      const { privateKey } = crypto.generateKeyPairSync('ec', { namedCurve: 'P-256' });
      const token = await new SignJWT({ username: user.username, roles: ['ROLE_ADMIN'] })
        .setProtectedHeader({ alg: 'ES256' })
        .setSubject(String(user.id))
        .setIssuer(decodeJwt(user.token).iss!)
        .setExpirationTime('1h')
        .sign(privateKey);
      expect((await gw.api.get('/api/auth/me', token)).status).toBe(401);
    });
  });

  it('documents the auth calls in the OpenAPI description', async () => {
    const paths = Object.keys((await gw.api.get('/openapi.json')).body.paths);
    for (const p of [
      '/api/auth/register',
      '/api/auth/login',
      '/api/auth/me',
      '/api/auth/password-reset/request',
      '/api/auth/password-reset/confirm',
      '/api/auth/logout',
      '/api/auth/logout-all',
    ]) {
      expect(paths).toContain(p);
    }
  });
});

describe('the ADMIN_* account across restarts', () => {
  it('takes a changed ADMIN_PASSWORD on the next start and keeps ROLE_ADMIN', async () => {
    const storage = await createStorage();
    const first = await startGateway({}, storage);
    await first.stop();
    const second = await startGateway({ ADMIN_PASSWORD: 'a rotated admin password' }, storage);
    try {
      expect((await second.api.post('/api/auth/login', { emailOrPhone: ADMIN.email, password: ADMIN.password })).status).toBe(401);
      const res = await second.api.post('/api/auth/login', { emailOrPhone: ADMIN.email, password: 'a rotated admin password' });
      expect(res.status).toBe(200);
      expect(res.body.roles).toContain('ROLE_ADMIN');
    } finally {
      await second.stop();
    }
  });

  it('refuses to start when ADMIN_USERNAME belongs to another account, instead of running without an admin', async () => {
    const storage = await createStorage();
    const first = await startGateway({}, storage);
    const player = await createUser(first.api);
    await first.stop();
    await expect(
      startGateway({ ADMIN_EMAIL: `boss${unique()}@test.example`, ADMIN_USERNAME: player.username, ADMIN_PHONE: uniquePhone() }, storage),
    ).rejects.toThrow(/ADMIN_USERNAME/);
  });
});
