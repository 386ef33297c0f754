import crypto from 'node:crypto';
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toForm } from '../support/builders';
import {
  FORM,
  GatewayApi,
  Stack,
  errorLines,
  caughtUpLogSince,
  logSize,
  pageRoutes,
  postForm,
  routeFiles,
  routeUrl,
  rssBytes,
  webLogin,
} from './web-helpers';

// Issue 10, web defects 5, 6 and 8 and the web's share of the attack list, against the production
// build behind the web server (server/) and a real gateway: cookie flags, refused posts, oversized bodies,
// open redirects, security headers on every page, HSTS only on trusted https.

let stack: Stack;
let api: GatewayApi;
let trusted: { url: string; pid: number; log: string };
let tid: string;
let adminCookie: string;
let player: Awaited<ReturnType<GatewayApi['createPlayer']>>;
const MB = 1024 * 1024;

beforeAll(async () => {
  stack = await Stack.start({ label: 'web-security' });
  // The same build behind a proxy it trusts: this test process on loopback plays the proxy.
  trusted = await stack.startExtraWeb({ TRUST_PROXY: '127.0.0.1' });
  api = new GatewayApi(stack.info);
  tid = String((await api.createTournament()).id);
  player = await api.createPlayer();
  adminCookie = (await webLogin(stack.info.webUrl, stack.info.admin.email, stack.info.admin.password)).cookie;
}, 90_000);
afterAll(() => stack?.stop());

describe('session cookie and HSTS', () => {
  it('is HttpOnly and SameSite=Lax, and not Secure on plain http', async () => {
    const { setCookie, res } = await webLogin(stack.info.webUrl, player.email, player.password);
    expect(setCookie).toMatch(/;\s*HttpOnly/i);
    expect(setCookie).toMatch(/;\s*SameSite=Lax/i);
    expect(setCookie).toMatch(/;\s*Path=\//i);
    expect(setCookie).not.toMatch(/;\s*Secure/i);
    expect(res.headers.get('strict-transport-security')).toBeNull();
  });

  it("believes nobody's X-Forwarded-Proto when no proxy is trusted: no Secure cookie, no HSTS", async () => {
    const { setCookie, res } = await webLogin(stack.info.webUrl, player.email, player.password, { 'x-forwarded-proto': 'https' });
    expect(setCookie).not.toMatch(/;\s*Secure/i);
    expect(res.headers.get('strict-transport-security')).toBeNull();
    const page = await fetch(`${stack.info.webUrl}/`, { headers: { 'x-forwarded-proto': 'https' } });
    expect(page.headers.get('strict-transport-security')).toBeNull();
  });

  it('behind a trusted proxy on https: Secure cookie and HSTS on pages and files alike; never on its plain http', async () => {
    const https = { 'x-forwarded-proto': 'https' };
    const { setCookie, res } = await webLogin(trusted.url, player.email, player.password, https);
    expect(setCookie).toMatch(/;\s*Secure/i);
    expect(setCookie).toMatch(/;\s*HttpOnly/i);
    expect(res.headers.get('strict-transport-security')).toBe('max-age=31536000; includeSubDomains');
    for (const pathname of ['/', '/tournaments', '/favicon.svg', '/no-such-page-here']) {
      const onHttps = await fetch(trusted.url + pathname, { headers: https });
      expect(onHttps.headers.get('strict-transport-security'), pathname).toBe('max-age=31536000; includeSubDomains');
      const onHttp = await fetch(trusted.url + pathname);
      expect(onHttp.headers.get('strict-transport-security'), pathname).toBeNull();
    }
    const plain = await webLogin(trusted.url, player.email, player.password);
    expect(plain.setCookie).not.toMatch(/;\s*Secure/i);
  });
});

describe('bad requests get their 4xx and a short page, never a 500 or an error in the log', () => {
  const actionUrls = () =>
    routeFiles()
      .filter((r) => r.hasAction)
      .map((r) => routeUrl(r.name, { tournamentId: tid, id: tid, stageId: tid }));

  const broken = '--XYZ\r\nContent-Disposition: form-data; name="emailOrPhone"\r\n\r\nsomeone';
  const attacks: { name: string; status: number; text: RegExp; init: () => RequestInit; admin?: boolean }[] = [
    {
      name: 'cross-site Origin',
      status: 403,
      text: /This form was sent from another site/,
      init: () => ({ method: 'POST', headers: { origin: 'https://evil.example', 'content-type': FORM }, body: 'a=1' }),
    },
    // The one cross-site check (decision 036): the server's, before any action; a signed-in victim is the case that matters.
    {
      name: 'cross-site Origin, signed in as the admin',
      status: 403,
      text: /This form was sent from another site/,
      admin: true,
      init: () => ({
        method: 'POST',
        headers: { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site', 'content-type': FORM },
        body: 'a=1',
      }),
    },
    {
      name: 'Origin: null',
      status: 403,
      text: /This form was sent from another site/,
      init: () => ({ method: 'POST', headers: { origin: 'null', 'content-type': FORM }, body: 'a=1' }),
    },
    {
      name: 'Sec-Fetch-Site: cross-site',
      status: 403,
      text: /This form was sent from another site/,
      init: () => ({ method: 'POST', headers: { 'sec-fetch-site': 'cross-site', 'content-type': FORM }, body: 'a=1' }),
    },
    {
      name: 'unreadable Origin',
      status: 403,
      text: /This form was sent from another site/,
      init: () => ({ method: 'POST', headers: { origin: 'not a url', 'content-type': FORM }, body: 'a=1' }),
    },
    {
      name: 'a JSON body',
      status: 415,
      text: /form posts only/,
      init: () => ({ method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"emailOrPhone":"x"}' }),
    },
    {
      name: 'a text body',
      status: 415,
      text: /form posts only/,
      init: () => ({ method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'hello' }),
    },
    { name: 'no content type', status: 415, text: /form posts only/, init: () => ({ method: 'POST', body: new Uint8Array([1, 2, 3]) }) },
    {
      name: 'multipart without boundary',
      status: 400,
      text: /could not be read/,
      init: () => ({ method: 'POST', headers: { 'content-type': 'multipart/form-data' }, body: broken }),
    },
    // Sent as the admin, so the upload routes (which read multipart themselves) get as far as reading it.
    {
      name: 'a broken multipart body',
      status: 400,
      text: /could not be read/,
      admin: true,
      init: () => ({ method: 'POST', headers: { 'content-type': 'multipart/form-data; boundary=XYZ' }, body: broken }),
    },
    { name: 'PUT', status: 405, text: /GET.*POST/, init: () => ({ method: 'PUT', headers: { 'content-type': FORM }, body: 'a=1' }) },
    { name: 'PATCH', status: 405, text: /GET.*POST/, init: () => ({ method: 'PATCH', headers: { 'content-type': FORM }, body: 'a=1' }) },
    { name: 'DELETE', status: 405, text: /GET.*POST/, init: () => ({ method: 'DELETE' }) },
  ];

  it.each(attacks)('$name → $status on every form route', async ({ status, text, init, admin }) => {
    const from = logSize(stack.info.webLog);
    const urls = actionUrls();
    expect(urls.length).toBeGreaterThanOrEqual(10);
    for (const url of urls) {
      const base = init();
      const headers = new Headers(base.headers);
      if (admin) headers.set('cookie', adminCookie);
      const res = await fetch(stack.info.webUrl + url, { ...base, headers, redirect: 'manual' });
      const body = await res.text();
      expect(res.status, `${base.method} ${url}`).toBe(status);
      expect(res.headers.get('content-type'), url).toMatch(/^text\/html/);
      expect(body, url).toMatch(text);
      if (status === 405) expect(res.headers.get('allow')).toBe('GET, HEAD, POST');
    }
    // Also a page no route has an action for, and a Remix data URL.
    const other = init();
    const res = await fetch(`${stack.info.webUrl}/tournaments.data`, { ...other, headers: new Headers(other.headers), redirect: 'manual' });
    expect(res.status).toBe(status);
    expect(errorLines(await caughtUpLogSince(stack.info, from))).toEqual([]);
  });

  it("still takes this site's own posts: urlencoded, multipart, and Remix's data requests (JavaScript)", async () => {
    const wrong = { emailOrPhone: player.email, password: 'not-the-password-1' };
    const urlencoded = await postForm(stack.info.webUrl, '/login', wrong);
    expect(urlencoded.status).toBe(401);
    expect(await urlencoded.text()).toContain('Log in');

    const form = toForm(wrong);
    const multipart = await fetch(`${stack.info.webUrl}/login`, {
      method: 'POST',
      headers: { origin: stack.info.webUrl, 'sec-fetch-site': 'same-origin' },
      body: form,
    });
    expect(multipart.status).toBe(401);

    const data = await postForm(stack.info.webUrl, '/login.data', { ...wrong }, { 'sec-fetch-site': 'same-origin' });
    expect(data.status).toBe(401);
    expect(data.headers.get('content-type')).toMatch(/text\/x-script/);
    const ok = await postForm(stack.info.webUrl, '/login.data', { emailOrPhone: player.email, password: player.password, redirectTo: '/' });
    expect([200, 202, 204]).toContain(ok.status);
    expect(ok.headers.get('set-cookie')).toMatch(/HttpOnly/);
  });
});

describe('body size', () => {
  const memoryBefore = async () => {
    await fetch(`${stack.info.webUrl}/login`);
    return rssBytes(stack.info.webPid);
  };

  it('answers a 50 MB form post 413 at once, without reading it into memory', async () => {
    const before = await memoryBefore();
    const started = Date.now();
    const res = await fetch(`${stack.info.webUrl}/login`, {
      method: 'POST',
      headers: { 'content-type': FORM },
      body: Buffer.alloc(50 * MB, 'a'),
    });
    expect(res.status).toBe(413);
    expect(await res.text()).toMatch(/larger than this page accepts/);
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(rssBytes(stack.info.webPid) - before).toBeLessThan(30 * MB);
  });

  it('cuts a 50 MB body sent without a length (chunked) at the limit', async () => {
    const before = await memoryBefore();
    const chunk = new Uint8Array(MB).fill(97);
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent++ < 50) controller.enqueue(chunk);
        else controller.close();
      },
    });
    const res = await fetch(`${stack.info.webUrl}/register`, {
      method: 'POST',
      headers: { 'content-type': FORM },
      body,
      duplex: 'half',
    } as RequestInit);
    expect(res.status).toBe(413);
    expect(rssBytes(stack.info.webPid) - before).toBeLessThan(30 * MB);
  });

  it('caps multipart at 64 KB on ordinary forms, but lets the admin tournament form carry its cover (and caps that too)', async () => {
    const junk = () => {
      const form = new FormData();
      form.set('name', 'Oversized Cup');
      form.set('coverImage', new Blob([new Uint8Array(200 * 1024).fill(1)], { type: 'image/png' }), 'cover.png');
      return form;
    };
    const login = await fetch(`${stack.info.webUrl}/login`, { method: 'POST', headers: { origin: stack.info.webUrl }, body: junk() });
    expect(login.status).toBe(413);

    // 200 KB reaches the route: its own reading says what is wrong with the file (415, the form shown again).
    const upload = await fetch(`${stack.info.webUrl}/admin/add-tournament`, {
      method: 'POST',
      headers: { origin: stack.info.webUrl, cookie: adminCookie },
      body: junk(),
    });
    expect(upload.status).toBe(415);
    expect(await upload.text()).toContain('Please upload only image files.');

    const huge = await fetch(`${stack.info.webUrl}/admin/add-tournament`, {
      method: 'POST',
      headers: { origin: stack.info.webUrl, cookie: adminCookie, 'content-type': 'multipart/form-data; boundary=XYZ' },
      body: Buffer.alloc(25 * MB, 'a'),
    });
    expect(huge.status).toBe(413);
  });
});

describe('redirectTo after login', () => {
  it.each(['https://evil.example/steal', '//evil.example', '/\\evil.example', '/\t/evil.example', 'javascript:alert(1)'])(
    '%s stays on this site',
    async (target) => {
      const res = await postForm(stack.info.webUrl, `/login?${new URLSearchParams({ redirectTo: target })}`, {
        emailOrPhone: player.email,
        password: player.password,
        redirectTo: target,
      });
      expect(res.status).toBe(302);
      const location = res.headers.get('location')!;
      expect(location).toMatch(/^\/(?![/\\])/);
      expect(new URL(location, stack.info.webUrl).origin).toBe(stack.info.webUrl);

      // Already signed in, the login page sends the user on at once: also only within the site.
      const cookie = res.headers.get('set-cookie')!.split(';')[0]!;
      const again = await fetch(`${stack.info.webUrl}/login?${new URLSearchParams({ redirectTo: target })}`, {
        headers: { cookie },
        redirect: 'manual',
      });
      expect(again.status).toBe(302);
      expect(new URL(again.headers.get('location')!, stack.info.webUrl).origin).toBe(stack.info.webUrl);
    },
  );
});

describe('security headers and the CSP on every page', () => {
  it('every route in app/routes answers with the headers and a CSP nonce of its own (script hashes on cached anonymous pages), as the admin and as a visitor', async () => {
    const urls = pageRoutes()
      .map((r) => routeUrl(r.name, { tournamentId: tid, id: tid, stageId: tid }))
      .sort((a, b) => Number(a === '/logout') - Number(b === '/logout'));
    expect(urls.length).toBeGreaterThanOrEqual(30);
    const nonces = new Set<string>();
    let pages = 0;
    for (const cookie of [adminCookie, '']) {
      for (const url of urls) {
        // Follow redirects by hand (login, profile creation …): the page finally shown must carry the headers.
        let target = url;
        let res: Response;
        for (let hop = 0; ; hop++) {
          res = await fetch(stack.info.webUrl + target, { headers: cookie ? { cookie } : {}, redirect: 'manual' });
          if (res.status < 300 || res.status >= 400) break;
          expect(hop, `${url} redirects too often`).toBeLessThan(4);
          const next = new URL(res.headers.get('location')!, stack.info.webUrl);
          expect(next.origin).toBe(stack.info.webUrl);
          target = next.pathname + next.search;
        }
        const where = `${url} (${cookie ? 'admin' : 'visitor'}) → ${target} ${res.status}`;
        expect(res.status, where).toBeLessThan(500);
        expect(res.headers.get('content-type'), where).toMatch(/^text\/html/);
        const csp = res.headers.get('content-security-policy') ?? '';
        expect(csp, where).toContain("default-src 'self'");
        expect(csp, where).toContain("frame-ancestors 'none'");
        expect(csp, where).toContain("object-src 'none'");
        expect(csp, where).not.toMatch(/script-src[^;]*'unsafe-inline'/);
        expect(res.headers.get('x-content-type-options'), where).toBe('nosniff');
        expect(res.headers.get('referrer-policy'), where).toBe('strict-origin-when-cross-origin');
        expect(res.headers.get('x-frame-options'), where).toBe('DENY');
        const html = await res.text();
        if (res.headers.has('x-page-cache')) {
          // An anonymous public page from the page cache (decision 024): no nonce at all, and the CSP
          // lists by hash exactly the inline scripts of this page (tests/security/web-page-cache.test.ts).
          expect(cookie, where).toBe('');
          expect(csp, where).not.toContain("'nonce-");
          expect(html, where).not.toMatch(/<script\b[^>]*\snonce=/);
          const inline = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)].filter((m) => !/\ssrc=/.test(m[1]!));
          expect(inline.length, where).toBeGreaterThan(0);
          for (const [, , content] of inline)
            expect(csp, where).toContain(`'sha256-${crypto.createHash('sha256').update(content!, 'utf8').digest('base64')}'`);
          continue;
        }
        const nonce = /'nonce-([^']+)'/.exec(csp)?.[1];
        expect(nonce, where).toBeTruthy();
        // Every script tag carries this response's nonce.
        const scripts = [...html.matchAll(/<script\b[^>]*>/g)].map((m) => m[0]);
        expect(scripts.length, where).toBeGreaterThan(0);
        for (const tag of scripts) expect(tag, where).toContain(`nonce="${nonce}"`);
        nonces.add(nonce!);
        pages += 1;
      }
    }
    expect(nonces.size).toBe(pages);
  }, 120_000);

  it('the refusal pages carry hardening headers too', async () => {
    const res = await fetch(`${stack.info.webUrl}/login`, {
      method: 'POST',
      headers: { origin: 'null', 'content-type': FORM },
      body: 'a=1',
    });
    expect(res.status).toBe(403);
    expect(res.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('x-frame-options')).toBe('DENY');
  });
});

describe('the web log', () => {
  it('holds no error from the whole run', () => {
    expect(errorLines(fs.readFileSync(stack.info.webLog, 'utf8'))).toEqual([]);
  });
});
