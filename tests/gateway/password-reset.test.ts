import crypto from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Trx } from '../../gateway/src/db/index.js';
import type { Mail } from '../../gateway/src/lib/mailer.js';
import { createUser, startGateway, unique, type TestGateway, type TestUser } from './helpers.js';

const REQUESTED = 'If an account exists for that email, we have sent a link to reset the password.';
const DONE = 'Your password has been reset. Please log in.';
const INVALID = 'This reset link is invalid or has expired.';
const WEB_URL = 'https://play.example.test';

describe('password reset', () => {
  let gw: TestGateway;
  let mails: Mail[];

  beforeAll(async () => {
    gw = await startGateway({ WEB_URL });
    // The mailer decorator is a plain property: capture mail instead of logging it.
    gw.app.mailer.send = async (mail) => {
      mails.push(mail);
    };
  });
  beforeEach(() => {
    mails = [];
  });
  afterAll(() => gw.stop());

  /** Asks for a reset link and returns the token from the mail. */
  async function requestToken(email: string): Promise<string> {
    const res = await gw.api.post('/api/auth/password-reset/request', { email });
    expect(res.status).toBe(202);
    await gw.app.afterAnswer.settled(); // the link is made and mailed after the answer
    const mail = mails.at(-1);
    expect(mail).toBeDefined();
    const link = /https?:\/\/\S+/.exec(mail!.text)![0];
    return new URL(link).searchParams.get('token')!;
  }

  const login = (user: Pick<TestUser, 'email'>, password: string) => gw.api.post('/api/auth/login', { emailOrPhone: user.email, password });
  const confirm = (token: string, password: string) => gw.api.post('/api/auth/password-reset/confirm', { token, password });
  const resetRows = (userId: number) =>
    gw.app.store.db.selectFrom('password_resets').selectAll().where('user_id', '=', userId).orderBy('id').execute();

  it("mails a one-hour link to the web app and stores only the token's SHA-256", async () => {
    const user = await createUser(gw.api);
    const before = Date.now();
    const res = await gw.api.post('/api/auth/password-reset/request', { email: ` ${user.email.toUpperCase()} ` });
    expect(res.status).toBe(202);
    expect(res.body).toEqual({ message: REQUESTED });

    await gw.app.afterAnswer.settled();
    expect(mails).toHaveLength(1);
    const mail = mails[0]!;
    expect(mail.to).toBe(user.email);
    expect(mail.subject).toMatch(/reset/i);
    const match = new RegExp(`${WEB_URL}/reset-password\\?token=([A-Za-z0-9_-]+)`).exec(mail.text);
    expect(match).not.toBeNull();
    const token = match![1]!;
    expect(Buffer.from(token, 'base64url')).toHaveLength(32);

    const rows = await resetRows(user.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.token_hash).toBe(crypto.createHash('sha256').update(token).digest('hex'));
    expect(JSON.stringify(rows)).not.toContain(token);
    const validFor = Date.parse(rows[0]!.expires_at) - before;
    expect(validFor).toBeGreaterThan(59 * 60_000);
    expect(validFor).toBeLessThanOrEqual(60 * 60_000 + 5_000);
  });

  it('answers the same 202 for an unknown email and sends nothing', async () => {
    const res = await gw.api.post('/api/auth/password-reset/request', { email: `nobody${unique()}@test.example` });
    expect(res.status).toBe(202);
    expect(res.body).toEqual({ message: REQUESTED });
    await gw.app.afterAnswer.settled();
    expect(mails).toHaveLength(0);
  });

  // Issue 16, item 8 (decision 030): the answer said by its timing whether the email has an account.
  it('answers a known and an unknown email alike and before any work, then does the same write for both, and mails after answering', async () => {
    const user = await createUser(gw.api);
    const events: string[] = [];
    const answered = (request: IncomingMessage, response: ServerResponse) => {
      if (request.url?.startsWith('/api/auth/password-reset/request')) response.once('finish', () => events.push('answered'));
    };
    const store = gw.app.store;
    const writeTransaction = store.writeTransaction;
    const send = gw.app.mailer.send;
    gw.app.server.on('request', answered);
    store.writeTransaction = <T>(fn: (trx: Trx) => Promise<T>) => {
      events.push('stored');
      return writeTransaction.call(store, fn) as Promise<T>;
    };
    gw.app.mailer.send = async (mail) => {
      events.push('mailed');
      mails.push(mail);
    };
    try {
      const answers: { status: number; body: unknown; headers: [string, string][] }[] = [];
      const order: string[][] = [];
      for (const [email, last] of [
        [user.email, 'mailed'],
        [`nobody${unique()}@test.example`, 'stored'],
      ] as const) {
        events.length = 0;
        const res = await gw.api.post('/api/auth/password-reset/request', { email });
        await expect.poll(() => events).toContain(last);
        order.push([...events]);
        const headers = [...res.headers].filter(([name]) => name !== 'date' && name !== 'x-request-id');
        answers.push({ status: res.status, body: res.body, headers });
      }
      expect(order).toEqual([
        ['answered', 'stored', 'mailed'],
        ['answered', 'stored'],
      ]);
      expect(answers[1]).toEqual(answers[0]);
      expect(answers[0]!.status).toBe(202);
      expect(mails.map((m) => m.to)).toEqual([user.email]);
    } finally {
      gw.app.server.off('request', answered);
      store.writeTransaction = writeTransaction;
      gw.app.mailer.send = send;
    }
  });

  it('rejects a malformed email with a field error', async () => {
    const res = await gw.api.post('/api/auth/password-reset/request', { email: 'not-an-email' });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual({ email: 'Enter a valid email address.' });
    expect(mails).toHaveLength(0);
  });

  it('resets the password end to end: the old one stops working, the new one logs in', async () => {
    const user = await createUser(gw.api);
    const token = await requestToken(user.email);
    const res = await confirm(token, 'a brand new password');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ message: DONE });

    expect((await login(user, user.password)).status).toBe(401);
    const fresh = await login(user, 'a brand new password');
    expect(fresh.status).toBe(200);
    expect(fresh.body.username).toBe(user.username);
  });

  it('accepts a token only once', async () => {
    const user = await createUser(gw.api);
    const token = await requestToken(user.email);
    expect((await confirm(token, 'first new password')).status).toBe(200);
    const again = await confirm(token, 'second new password');
    expect(again.status).toBe(400);
    expect(again.body).toEqual({ message: INVALID, errors: { token: INVALID } });
    expect((await login(user, 'first new password')).status).toBe(200);
    expect((await login(user, 'second new password')).status).toBe(401);
  });

  it('rejects an expired token', async () => {
    const user = await createUser(gw.api);
    const token = await requestToken(user.email);
    await gw.app.store.db
      .updateTable('password_resets')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('user_id', '=', user.id)
      .execute();
    const res = await confirm(token, 'a brand new password');
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual({ token: INVALID });
    expect((await login(user, user.password)).status).toBe(200);
  });

  it('rejects an unknown or empty token', async () => {
    const unknown = await confirm(crypto.randomBytes(32).toString('base64url'), 'a brand new password');
    expect(unknown.status).toBe(400);
    expect(unknown.body).toEqual({ message: INVALID, errors: { token: INVALID } });
    const empty = await confirm('', 'a brand new password');
    expect(empty.status).toBe(400);
    expect(Object.keys(empty.body.errors)).toEqual(['token']);
  });

  it('invalidates earlier links when a new one is requested', async () => {
    const user = await createUser(gw.api);
    const first = await requestToken(user.email);
    const second = await requestToken(user.email);
    expect(first).not.toBe(second);
    expect((await confirm(first, 'from the first link')).status).toBe(400);
    expect((await confirm(second, 'from the second link')).status).toBe(200);
  });

  it('rejects a weak new password with a field error and leaves the link usable', async () => {
    const user = await createUser(gw.api);
    const token = await requestToken(user.email);
    const weak = await confirm(token, 'short');
    expect(weak.status).toBe(400);
    expect(weak.body.errors).toEqual({ password: 'Password must be at least 8 characters.' });
    expect((await login(user, user.password)).status).toBe(200);
    expect((await confirm(token, 'long enough now')).status).toBe(200);
  });

  it('still answers 202 when the mail cannot be sent', async () => {
    const user = await createUser(gw.api);
    const send = gw.app.mailer.send;
    gw.app.mailer.send = async () => {
      throw new Error('SMTP is down');
    };
    try {
      const res = await gw.api.post('/api/auth/password-reset/request', { email: user.email });
      expect(res.status).toBe(202);
      await gw.app.afterAnswer.settled();
    } finally {
      gw.app.mailer.send = send;
    }
  });
});
