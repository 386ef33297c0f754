import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { redactUrl } from '~/utils/log-url.server';
import { FORM_LIMIT, formGuard, type GuardLocals } from '../../server/form-guard';
import { refusals } from '../../server/refusal';
import { routeFiles, routeUrl } from '../security/web-helpers';
import { serve, withAccessLog } from './support/server-app';

// The form guard of the web server (decision 036) is the web app's one cross-site check: no action
// checks the origin itself any more. Every POST passes it before Remix, whatever the route.

const reached: { method: string; path: string; body: string | null }[] = [];
let web: Awaited<ReturnType<typeof serve>>;
let lines: Record<string, unknown>[];

beforeAll(async () => {
  const app = express();
  lines = withAccessLog(app);
  app.use(formGuard(refusals(redactUrl)));
  app.all('*', (req, res) => {
    const body = (res.locals as GuardLocals).body;
    reached.push({ method: req.method, path: req.path, body: Buffer.isBuffer(body) ? body.toString() : body ? 'stream' : null });
    if (body && !Buffer.isBuffer(body)) body.resume();
    res.status(200).end('reached');
  });
  web = await serve(app);
});
afterAll(() => web?.close());

const FORM = 'application/x-www-form-urlencoded';
const actionUrls = () =>
  routeFiles()
    .filter((r) => r.hasAction)
    .map((r) => routeUrl(r.name, { tournamentId: '7', id: '7', stageId: '7' }));

describe('the one cross-site check', () => {
  const crossSite: Record<string, Record<string, string>> = {
    'a foreign Origin': { origin: 'https://evil.example' },
    'a foreign Origin with an empty Sec-Fetch-Site': { origin: 'https://evil.example', 'sec-fetch-site': '' },
    'Sec-Fetch-Site: cross-site': { 'sec-fetch-site': 'cross-site', origin: 'https://evil.example' },
    'Sec-Fetch-Site: same-site': { 'sec-fetch-site': 'same-site' },
    'Origin: null': { origin: 'null' },
  };

  it.each(Object.entries(crossSite))(
    'refuses %s with 403 on every route with an action (and its .data URL), before the route',
    async (_name, headers) => {
      const urls = actionUrls();
      // login, register, logout, the profile and team forms, payment, the admin forms …
      expect(urls.length).toBeGreaterThanOrEqual(16);
      for (const url of urls.flatMap((u) => [u, `${u}.data`])) {
        const before = reached.length;
        const res = await fetch(web.url + url + '?token=S3CRET', {
          method: 'POST',
          headers: { 'content-type': FORM, cookie: '__session=signed-in', ...headers },
          body: 'a=1',
        });
        expect(res.status, url).toBe(403);
        expect(await res.text(), url).toContain('This form was sent from another site');
        expect(res.headers.get('cache-control')).toBe('no-store');
        expect(reached.length, url).toBe(before);
      }
    },
  );

  it('takes same-origin posts, and posts without Origin (SameSite=Lax cookies cover those)', async () => {
    for (const headers of [{ origin: web.url, 'sec-fetch-site': 'same-origin' }, { origin: web.url }, {}] as Record<string, string>[]) {
      const res = await fetch(`${web.url}/login`, {
        method: 'POST',
        headers: { 'content-type': FORM, ...headers },
        body: 'emailOrPhone=a%40b.in',
      });
      expect(res.status).toBe(200);
      expect(reached.at(-1)).toEqual({ method: 'POST', path: '/login', body: 'emailOrPhone=a%40b.in' });
    }
  });

  it('logs each refusal as one warning with the request id and no secret', async () => {
    const res = await fetch(`${web.url}/reset-password?token=S3CRET`, {
      method: 'POST',
      headers: { 'content-type': FORM, origin: 'https://evil.example', 'x-request-id': 'rid-form-guard-1' },
      body: 'a=1',
    });
    expect(res.status).toBe(403);
    const refusal = lines.find((l) => l.msg === 'request refused' && l.reqId === 'rid-form-guard-1');
    expect(refusal).toMatchObject({ level: 'warn', status: 403, reason: 'origin evil.example', url: '/reset-password?token=[redacted]' });
    expect(JSON.stringify(lines)).not.toContain('S3CRET');
  });
});

describe('the rest of the guard', () => {
  it('refuses other methods with 405 and Allow', async () => {
    const res = await fetch(`${web.url}/login`, { method: 'PUT', body: 'a=1' });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('GET, HEAD, POST');
  });

  it('refuses bodies that are not forms with 415, and multipart without a boundary with 400', async () => {
    expect((await fetch(`${web.url}/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })).status).toBe(
      415,
    );
    expect(
      (await fetch(`${web.url}/login`, { method: 'POST', headers: { 'content-type': 'multipart/form-data' }, body: 'x' })).status,
    ).toBe(400);
    const broken = '--XYZ\r\nContent-Disposition: form-data; name="a"\r\n\r\nb';
    expect(
      (await fetch(`${web.url}/login`, { method: 'POST', headers: { 'content-type': 'multipart/form-data; boundary=XYZ' }, body: broken }))
        .status,
    ).toBe(400);
  });

  it('cuts a form over 64 KB with 413, declared or not', async () => {
    const big = 'a=' + 'x'.repeat(FORM_LIMIT);
    expect((await fetch(`${web.url}/login`, { method: 'POST', headers: { 'content-type': FORM }, body: big })).status).toBe(413);
    const chunked = new ReadableStream({
      start(controller) {
        controller.enqueue(new TextEncoder().encode(big));
        controller.close();
      },
    });
    const res = await fetch(`${web.url}/login`, {
      method: 'POST',
      headers: { 'content-type': FORM },
      body: chunked,
      duplex: 'half',
    } as RequestInit);
    expect(res.status).toBe(413);
  });

  it('streams the admin tournament upload on to the route, counted', async () => {
    const form = new FormData();
    form.set('cover', new Blob([new Uint8Array(FORM_LIMIT * 2)]), 'cover.png');
    const res = await fetch(`${web.url}/admin/add-tournament`, { method: 'POST', body: form });
    expect(res.status).toBe(200);
    expect(reached.at(-1)).toMatchObject({ path: '/admin/add-tournament', body: 'stream' });
  });

  it("streams a team's report and dispute (with their screenshot) on to the route; other team pages stay at 64 KB", async () => {
    for (const path of ['/team/7/reports/1/2', '/team/7/disputes']) {
      const form = new FormData();
      form.set('screenshot', new Blob([new Uint8Array(FORM_LIMIT * 2)]), 'shot.png');
      const res = await fetch(`${web.url}${path}?group=3`, { method: 'POST', body: form });
      expect(res.status, path).toBe(200);
      expect(reached.at(-1)).toMatchObject({ path, body: 'stream' });
    }
    const form = new FormData();
    form.set('screenshot', new Blob([new Uint8Array(FORM_LIMIT * 2)]), 'shot.png');
    expect((await fetch(`${web.url}/team/7/withdraw`, { method: 'POST', body: form })).status).toBe(413);
  });

  it("streams an organiser's bank statement upload on to the route; the statement's own page stays at 64 KB", async () => {
    for (const path of ['/admin/7/statements', '/admin/7/statements.data']) {
      const form = new FormData();
      form.set('statement', new Blob([new Uint8Array(FORM_LIMIT * 2)]), 'statement.csv');
      const res = await fetch(`${web.url}${path}?index`, { method: 'POST', body: form });
      expect(res.status, path).toBe(200);
      expect(reached.at(-1)).toMatchObject({ path, body: 'stream' });
    }
    const form = new FormData();
    form.set('statement', new Blob([new Uint8Array(FORM_LIMIT * 2)]), 'statement.csv');
    expect((await fetch(`${web.url}/admin/7/statements/3`, { method: 'POST', body: form })).status).toBe(413);
  });
});
