import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGateway, unique, type ApiResponse, type TestGateway } from './helpers.js';

function expectLimited(res: ApiResponse) {
  expect(res.status).toBe(429);
  expect(res.body.message).toMatch(/^Too many attempts\. Please wait \d+ seconds and try again\.$/);
  const retryAfter = Number(res.headers.get('retry-after'));
  expect(retryAfter).toBeGreaterThan(0);
  expect(retryAfter).toBeLessThanOrEqual(60);
}

const someone = () => `reset${unique()}@test.example`;

describe('password reset requests per client address', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startGateway({
      RATE_LIMIT: 'on',
      RATE_LIMIT_RESET_MAX: '2',
      RATE_LIMIT_RESET_CLIENT_MAX: '4',
      RATE_LIMIT_WINDOW_SECONDS: '60',
    });
    gw.app.mailer.send = async () => {};
  });
  afterAll(() => gw.stop());

  /** A request that seems to come from this client (the test gateway trusts X-Forwarded-For from loopback). */
  const ask = (email: unknown, ip: string) =>
    gw.api.request('POST', '/api/auth/password-reset/request', { json: { email }, headers: { 'x-forwarded-for': ip } });

  it('stops one client asking for many different emails, while another client still gets through', async () => {
    for (let i = 0; i < 4; i++) expect((await ask(someone(), '198.51.100.20')).status).toBe(202);
    expectLimited(await ask(someone(), '198.51.100.20'));
    expect((await ask(someone(), '198.51.100.21')).status).toBe(202);
  });

  it('counts malformed requests from the client too', async () => {
    for (let i = 0; i < 4; i++) expect((await ask('not-an-email', '198.51.100.30')).status).toBe(400);
    expectLimited(await ask(someone(), '198.51.100.30'));
  });

  it('limits one email however many addresses ask for it', async () => {
    const victim = someone();
    expect((await ask(victim, '203.0.113.1')).status).toBe(202);
    expect((await ask(victim, '203.0.113.2')).status).toBe(202);
    expectLimited(await ask(victim, '203.0.113.3'));
    expect((await ask(someone(), '203.0.113.3')).status).toBe(202);
  });
});

describe('password reset limits with the default numbers', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startGateway({ RATE_LIMIT: 'on' });
    gw.app.mailer.send = async () => {};
  });
  afterAll(() => gw.stop());

  it('let a crowd behind one address (a hostel, a mobile carrier\'s NAT) ask for their own resets', async () => {
    const ip = '192.0.2.99';
    for (let i = 0; i < 15; i++) {
      const res = await gw.api.request('POST', '/api/auth/password-reset/request', { json: { email: someone() }, headers: { 'x-forwarded-for': ip } });
      expect(res.status).toBe(202);
    }
  });

  it('still stop one client from asking for a long list of emails', async () => {
    const ip = '192.0.2.100';
    const statuses: number[] = [];
    for (let i = 0; i < 40; i++) {
      const res = await gw.api.request('POST', '/api/auth/password-reset/request', { json: { email: someone() }, headers: { 'x-forwarded-for': ip } });
      statuses.push(res.status);
    }
    expect(statuses.filter((s) => s === 202)).toHaveLength(gw.config.RATE_LIMIT_RESET_CLIENT_MAX);
    expect(statuses.at(-1)).toBe(429);
  });
});
