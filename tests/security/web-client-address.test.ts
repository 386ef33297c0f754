import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GatewayApi, Stack, postForm, startRecordingProxy } from './web-helpers';

// Issue 10, defect 1 (web side): the gateway limits login, sign-up and reset per client address, and
// learns that address from the X-Forwarded-For the web app sends. Rotating one's own X-Forwarded-For
// got 25 wrong logins through with no 429. Here the gateway runs with its rate limits on.

let stack: Stack;
let api: GatewayApi;
let recorder: Awaited<ReturnType<typeof startRecordingProxy>>;
let direct: { url: string };
let behindProxy: { url: string };

beforeAll(async () => {
  stack = await Stack.start({ label: 'web-client-address', gatewayEnv: { RATE_LIMIT: 'on' } });
  api = new GatewayApi(stack.info);
  // Two more web servers on the same gateway, through a proxy that records what the gateway is told:
  // one trusting nobody (the default), one behind a trusted proxy (this test process, on loopback).
  recorder = await startRecordingProxy(stack.info.gatewayUrl);
  direct = await stack.startExtraWeb({ GATEWAY_URL: recorder.url });
  behindProxy = await stack.startExtraWeb({ GATEWAY_URL: recorder.url, TRUST_PROXY: '127.0.0.1' });
}, 90_000);
afterAll(async () => {
  await recorder?.close();
  await stack?.stop();
});

/** The X-Forwarded-For the gateway got with the login a web server sent for this form post. */
async function addressTheGatewaySaw(webUrl: string, forwardedFor: string) {
  const before = recorder.seen.length;
  const res = await postForm(
    webUrl,
    '/login',
    { emailOrPhone: 'nobody@test.example', password: 'wrong-password-1' },
    { 'x-forwarded-for': forwardedFor },
  );
  expect([401, 429]).toContain(res.status);
  const logins = recorder.seen.slice(before).filter((r) => r.method === 'POST' && r.path === '/api/auth/login');
  expect(logins).toHaveLength(1);
  return logins[0]!.forwardedFor;
}

describe('the client address the gateway counts by', () => {
  it('rotating X-Forwarded-For on /login does not get past the login limit', async () => {
    const victim = await api.createPlayer();
    const statuses: number[] = [];
    const bodies: string[] = [];
    for (let i = 1; i <= 25; i++) {
      const res = await postForm(
        stack.info.webUrl,
        '/login',
        { emailOrPhone: victim.email, password: `wrong-password-${i}` },
        { 'x-forwarded-for': `198.51.100.${i}` },
      );
      statuses.push(res.status);
      bodies.push(await res.text());
    }
    const first = statuses.indexOf(429);
    expect(first, `statuses: ${statuses.join(' ')}`).toBeGreaterThan(0);
    expect(first).toBeLessThanOrEqual(20);
    expect(
      statuses.slice(first).every((s) => s === 429),
      `statuses: ${statuses.join(' ')}`,
    ).toBe(true);
    expect(bodies[first]).toContain('Too many attempts');
  });

  it("is the connection's address when no proxy is trusted, whatever the client writes", async () => {
    expect(await addressTheGatewaySaw(direct.url, '203.0.113.5')).toBe('127.0.0.1');
    expect(await addressTheGatewaySaw(direct.url, '203.0.113.6, 10.0.0.2')).toBe('127.0.0.1');
  });

  it("is the trusted proxy's hop, one address, when TRUST_PROXY names the proxy", async () => {
    expect(await addressTheGatewaySaw(behindProxy.url, '203.0.113.5')).toBe('203.0.113.5');
    // Only the hop our proxy added is believed; what the client wrote before it is not.
    expect(await addressTheGatewaySaw(behindProxy.url, '198.51.100.77, 203.0.113.6')).toBe('203.0.113.6');
  });

  it('never reaches the gateway as a list, nor as the header the client sent', async () => {
    const sent = recorder.seen.filter((r) => r.path === '/api/auth/login').map((r) => r.forwardedFor);
    expect(sent.length).toBeGreaterThanOrEqual(4);
    for (const value of sent) expect(value).toMatch(/^[\d.:a-f]+$/);
  });
});
