import crypto from 'node:crypto';
import { createLocalJWKSet, decodeJwt, jwtVerify } from 'jose';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Mail } from '../../gateway/src/lib/mailer.js';
import {
  createAdmin,
  createUser,
  forge,
  foreignKey,
  loginAgain,
  nowSeconds,
  startGateway,
  tamper,
  unsigned,
  type TestGateway,
} from './helpers.js';

const ADMIN_CALL = '/tournaments/admin/summary';
const day = 86_400;

describe('tokens the gateway refuses', () => {
  let gw: TestGateway;
  let mails: Mail[];

  beforeAll(async () => {
    gw = await startGateway();
    gw.app.mailer.send = async (mail) => {
      mails.push(mail);
    };
  });
  beforeEach(() => {
    mails = [];
  });
  afterAll(() => gw.stop());

  const me = (token: string) => gw.api.get('/api/auth/me', token);
  const adminCall = (token: string) => gw.api.get(ADMIN_CALL, token);

  /** 401 with a message from /api/auth/me and from an admin call: never 403, never 200. */
  async function expectRefused(token: string) {
    for (const res of [await me(token), await adminCall(token)]) {
      expect(res.status).toBe(401);
      expect(res.body.message).toBe('Please log in to continue.');
    }
  }

  async function expectAccepted(token: string) {
    expect((await me(token)).status).toBe(200);
    expect((await adminCall(token)).status).toBe(200);
  }

  it('accepts an admin token re-made by the forging helper unchanged, so each refusal below is about its one change', async () => {
    const admin = await createAdmin(gw);
    await expectAccepted(admin.token);
    await expectAccepted(await forge(gw, admin.token));
    // A player's genuine token reaches the admin check and is refused there: 403.
    const player = await createUser(gw.api);
    expect((await adminCall(player.token)).status).toBe(403);
  });

  it("accepts an iat slightly ahead of our clock (another machine's clock skew)", async () => {
    const admin = await createAdmin(gw);
    await expectAccepted(await forge(gw, admin.token, { claims: { iat: nowSeconds() + 30 } }));
  });

  const attacks: [string, (gw: TestGateway, token: string) => Promise<string> | string][] = [
    ['alg: none, no signature', (_gw, t) => unsigned(t)],
    ['signed by another key (with our kid)', (gw, t) => forge(gw, t, { key: foreignKey() })],
    [
      'HS256 keyed with our public key (algorithm confusion)',
      async (gw, t) => {
        const publicJwk = JSON.stringify((await gw.api.get('/.well-known/jwks.json')).body.keys[0]);
        return forge(gw, t, { header: { alg: 'HS256' }, key: new TextEncoder().encode(publicJwk) });
      },
    ],
    ['expired an hour ago', (gw, t) => forge(gw, t, { claims: { iat: nowSeconds() - 2 * 3600, exp: nowSeconds() - 3600 } })],
    ['without exp', (gw, t) => forge(gw, t, { claims: { exp: undefined } })],
    ['without iat', (gw, t) => forge(gw, t, { claims: { iat: undefined } })],
    ['without sub', (gw, t) => forge(gw, t, { claims: { sub: undefined } })],
    [
      'with an iat a year ahead',
      (gw, t) => forge(gw, t, { claims: { iat: nowSeconds() + 365 * day, exp: nowSeconds() + 365 * day + 3600 } }),
    ],
    ['with an iat ten minutes ahead (beyond the clock skew)', (gw, t) => forge(gw, t, { claims: { iat: nowSeconds() + 600 } })],
    [
      'older than the maximum age, though not expired',
      (gw, t) => forge(gw, t, { claims: { iat: nowSeconds() - gw.config.JWT_TTL_SECONDS - 3600, exp: nowSeconds() + 3600 } }),
    ],
    ['for a foreign audience', (gw, t) => forge(gw, t, { claims: { aud: 'another-app' } })],
    ['without an audience', (gw, t) => forge(gw, t, { claims: { aud: undefined } })],
    ['from another issuer', (gw, t) => forge(gw, t, { claims: { iss: 'someone-else' } })],
    ['with an unknown kid', (gw, t) => forge(gw, t, { header: { kid: 'not-our-key' } })],
    ['without a kid', (gw, t) => forge(gw, t, { header: { kid: undefined } })],
    ['without a session id (as tokens before decision 019)', (gw, t) => forge(gw, t, { claims: { sid: undefined } })],
    ['naming a session that does not exist', (gw, t) => forge(gw, t, { claims: { sid: crypto.randomBytes(16).toString('base64url') } })],
    ['with a sub that is not a whole number', (gw, t) => forge(gw, t, { claims: { sub: `${decodeJwt(t).sub}.0` } })],
  ];

  it.each(attacks)('refuses an admin token %s with 401', async (_name, attack) => {
    const admin = await createAdmin(gw);
    await expectRefused(await attack(gw, admin.token));
    await expectAccepted(admin.token); // the genuine token still works: only the change was refused
  });

  describe('ROLE_ADMIN added by hand to a player token', () => {
    const withAdmin = { roles: ['ROLE_USER', 'ROLE_ADMIN'] };

    it('refuses it with the original signature, unsigned, or re-signed with another key: 401', async () => {
      const player = await createUser(gw.api);
      await expectRefused(tamper(player.token, withAdmin));
      await expectRefused(unsigned(player.token, withAdmin));
      await expectRefused(await forge(gw, player.token, { claims: withAdmin, key: foreignKey() }));
    });

    it('grants nothing even when signed with our key: roles come from the database', async () => {
      const player = await createUser(gw.api);
      const forged = await forge(gw, player.token, { claims: withAdmin });
      const res = await me(forged);
      expect(res.status).toBe(200);
      expect(res.body.roles).toEqual(['ROLE_USER']);
      expect((await adminCall(forged)).status).toBe(403);
    });
  });

  describe('tokens for users who are not there', () => {
    it('refuses a token for a user id that never existed with 401, also on admin calls (not 403)', async () => {
      const admin = await createAdmin(gw);
      await expectRefused(await forge(gw, admin.token, { claims: { sub: '2147483000' } }));
      await expectRefused(
        await forge(gw, admin.token, { claims: { sub: '2147483000', sid: crypto.randomBytes(16).toString('base64url') } }),
      );
    });

    it('refuses a token whose session belongs to another user', async () => {
      const admin = await createAdmin(gw);
      const player = await createUser(gw.api);
      // The player's open session with the admin's id: still not the admin.
      await expectRefused(await forge(gw, admin.token, { claims: { sid: decodeJwt(player.token).sid } }));
    });

    it('refuses the token of a deleted user with 401, on me and on admin calls', async () => {
      const admin = await createAdmin(gw);
      const player = await createUser(gw.api);
      await expectAccepted(admin.token);
      await gw.app.store.db.deleteFrom('users').where('id', 'in', [admin.id, player.id]).execute();
      await expectRefused(admin.token);
      await expectRefused(player.token);
    });
  });

  describe('ended tokens', () => {
    it("logout ends this token only: 401 everywhere after, the same account's other login keeps working", async () => {
      const admin = await createAdmin(gw);
      const otherDevice = await loginAgain(gw, admin);
      const res = await gw.api.request('POST', '/api/auth/logout', { token: admin.token });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ message: 'You have been logged out.' });
      await expectRefused(admin.token);
      expect((await gw.api.request('POST', '/api/auth/logout', { token: admin.token })).status).toBe(401);
      expect((await gw.api.get('/api/profile/get', admin.token)).status).toBe(401);
      await expectAccepted(otherDevice);
    });

    it('logout takes an empty JSON body too, and needs a token', async () => {
      const player = await createUser(gw.api);
      expect((await gw.api.post('/api/auth/logout', {}, player.token)).status).toBe(200);
      expect((await me(player.token)).status).toBe(401);
      expect((await gw.api.request('POST', '/api/auth/logout')).status).toBe(401);
      expect((await gw.api.request('POST', '/api/auth/logout-all')).status).toBe(401);
    });

    it("logout-all ends every token of the account, and only that account's", async () => {
      const admin = await createAdmin(gw);
      const otherDevice = await loginAgain(gw, admin);
      const bystander = await createUser(gw.api);
      const res = await gw.api.request('POST', '/api/auth/logout-all', { token: otherDevice });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ message: 'You have been logged out on every device.' });
      await expectRefused(admin.token);
      await expectRefused(otherDevice);
      expect((await me(bystander.token)).status).toBe(200);
      await expectAccepted(await loginAgain(gw, admin)); // a new login works
    });

    it('a password reset ends every token issued before it', async () => {
      const admin = await createAdmin(gw);
      const otherDevice = await loginAgain(gw, admin);
      expect((await gw.api.post('/api/auth/password-reset/request', { email: admin.email })).status).toBe(202);
      await gw.app.afterAnswer.settled(); // the mail is sent after the answer
      const link = /https?:\/\/\S+/.exec(mails.at(-1)!.text)![0];
      const resetToken = new URL(link).searchParams.get('token')!;
      await expectAccepted(admin.token); // asking for a link ends nothing: anyone can ask
      expect((await gw.api.post('/api/auth/password-reset/confirm', { token: resetToken, password: 'a brand new password' })).status).toBe(
        200,
      );
      await expectRefused(admin.token);
      await expectRefused(otherDevice);
      await expectAccepted(await loginAgain(gw, { email: admin.email, password: 'a brand new password' }));
    });
  });

  describe('what a token carries', () => {
    it('has sub, sid, iat, exp, issuer and audience, and verifies against the JWKS with issuer and audience checked', async () => {
      const player = await createUser(gw.api);
      const jwks = createLocalJWKSet((await gw.api.get('/.well-known/jwks.json')).body);
      const { payload, protectedHeader } = await jwtVerify(player.token, jwks, {
        issuer: 'custom-room-gateway',
        audience: 'custom-room',
        requiredClaims: ['exp', 'iat', 'sub', 'sid'],
        maxTokenAge: gw.config.JWT_TTL_SECONDS,
      });
      expect(protectedHeader).toMatchObject({ alg: 'ES256', typ: 'JWT', kid: expect.any(String) });
      expect(payload).toMatchObject({ sub: String(player.id), username: player.username, roles: ['ROLE_USER'], sid: expect.any(String) });
      expect(payload.exp! - payload.iat!).toBe(gw.config.JWT_TTL_SECONDS);
      // The web app's check today (no audience option) keeps accepting it.
      expect((await jwtVerify(player.token, jwks)).payload.sub).toBe(String(player.id));
    });

    it('gives every login its own session id', async () => {
      const player = await createUser(gw.api);
      const second = await loginAgain(gw, player);
      expect(decodeJwt(second).sid).not.toBe(decodeJwt(player.token).sid);
    });
  });
});

describe('sessions across restarts', () => {
  it('keeps open sessions across a restart, and drops expired ones at start', async () => {
    const first = await startGateway();
    const player = await createUser(first.api);
    const ended = await createUser(first.api);
    await first.app.store.db
      .updateTable('sessions')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('user_id', '=', ended.id)
      .execute();
    await first.stop();
    const second = await first.start();
    try {
      expect((await second.api.get('/api/auth/me', player.token)).status).toBe(200);
      const rows = await second.app.store.db.selectFrom('sessions').select('user_id').where('user_id', '=', ended.id).execute();
      expect(rows).toEqual([]);
    } finally {
      await second.stop();
    }
  });
});
