import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FORM, Stack, getPage, logSince, logSize, postForm } from './web-helpers';

// Issue 16, item 9 (decision 031): the web server's access log printed password-reset tokens
// (`POST /reset-password?token=…` and the mailed link's GET). Every line the web server writes (access
// log, refusals, Remix's warnings) prints URLs with the values of secret-looking parameters replaced.

let stack: Stack;

beforeAll(async () => {
  stack = await Stack.start({ label: 'web-access-log' });
}, 90_000);
afterAll(() => stack?.stop());

/** The log from `from` on, once it holds `marker` (lines are written as answers finish, not before the client reads them). */
async function logUntil(from: number, marker: string) {
  for (let i = 0; i < 200; i++) {
    const log = logSince(stack.info.webLog, from);
    if (log.includes(marker)) return log;
    await new Promise((resolve) => setImmediate(resolve));
    await getPage(stack.info.webUrl, '/healthz');
  }
  throw new Error(`the web log never showed ${marker}`);
}

describe('item 9: no secrets in the web logs', () => {
  it('reset tokens and other secret-looking query values never reach the log; the paths still do', async () => {
    const secret = () => `S3CRET${crypto.randomBytes(12).toString('hex')}`;
    const secrets: string[] = [];
    const url = (pathname: string, name = 'token') => {
      const value = secret();
      secrets.push(value);
      return `${pathname}?${name}=${value}`;
    };
    const from = logSize(stack.info.webLog);
    const web = stack.info.webUrl;

    // The mailed link, opened; and its form posted (with and without JavaScript), refused by the gateway (unknown token).
    expect((await getPage(web, url('/reset-password'))).status).toBe(200);
    const posted = url('/reset-password');
    const token = posted.split('=')[1]!;
    expect((await postForm(web, posted, { token, password: 'new-password-123', confirmPassword: 'new-password-123' })).status).toBe(400);
    expect(
      (await postForm(web, url('/reset-password.data'), { token, password: 'new-password-123', confirmPassword: 'new-password-123' }))
        .status,
    ).toBe(400);
    // Refusals before Remix (each writes a warning line with the URL): cross-site, wrong method, wrong type.
    expect((await postForm(web, url('/reset-password'), { token }, { origin: 'https://evil.example' })).status).toBe(403);
    expect((await fetch(web + url('/reset-password'), { method: 'PUT' })).status).toBe(405);
    expect(
      (
        await fetch(web + url('/reset-password'), {
          method: 'POST',
          headers: { origin: web, 'content-type': 'application/json' },
          body: '{}',
        })
      ).status,
    ).toBe(415);
    expect(
      (
        await fetch(web + url('/reset-password'), {
          method: 'POST',
          headers: { origin: web, 'content-type': FORM },
          body: 'x'.repeat(1024 * 1024),
        })
      ).status,
    ).toBe(413);
    // The refusal of Remix's old ?_data protocol prints the URL too.
    await getPage(web, `${url('/reset-password')}&_data=routes%2Freset-password`);
    // Other credentials in URLs, on pages answered from the page cache (a hit is logged too) and in a redirect target.
    for (const name of ['access_token', 'api_key', 'password', 'code', 'signature']) {
      const cached = url('/about', name);
      await getPage(web, cached);
      await getPage(web, cached);
    }
    const nested = secret();
    secrets.push(nested);
    await getPage(web, `/login?redirectTo=${encodeURIComponent(`/reset-password?token=${nested}`)}`);

    const marker = `/about?marker=${crypto.randomBytes(6).toString('hex')}`;
    await getPage(web, marker);
    const log = await logUntil(from, marker);
    for (const value of secrets) expect(log, value).not.toContain(value);
    expect(log).not.toMatch(/S3CRET/);
    // Access lines (pino-http, decision 036): "msg" is "METHOD url status", the URL redacted.
    expect(log).toContain('"msg":"GET /reset-password?token=[redacted] 200"');
    expect(log).toContain('"msg":"POST /reset-password?token=[redacted] 400"');
    expect(log).toContain('"msg":"POST /reset-password.data?token=[redacted] 400"');
    expect(log).toContain('"msg":"GET /about?access_token=[redacted] 200"');
    expect(log).toContain('"url":"/reset-password?token=[redacted]"');
    expect(log).toContain('"msg":"GET /login?redirectTo=[redacted] 200"');
  });
});
