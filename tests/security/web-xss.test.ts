import crypto from 'node:crypto';
import { chromium } from 'playwright';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IGN_FIELDS } from '@custom-room/contract/constants';
import { type Player, type Registration, type Tournament } from '../e2e/support/api';
import {
  GatewayApi,
  Stack,
  attr,
  errorLines,
  getPage,
  caughtUpLogSince,
  logSize,
  pageRoutes,
  parseHtml,
  postForm,
  routeUrl,
  webLogin,
  type HtmlElement,
} from './web-helpers';

// Issue 10, "script payloads in every user-supplied field appear as text, never run": each payload
// is stored through the gateway API in every field a page shows (team name, IGNs, profile, the
// tournament's texts, match map and room details), then every page of app/routes is fetched as
// the player, the admin and a visitor and parsed like a browser would: no element, attribute or
// script the payload made, the payload present as text, the loader data (Remix's inline scripts)
// escaped so `</script>` cannot close it. A few pages are then run in chromium with a dialog trap.

const PAYLOADS = [
  '<script>alert(1)</script>',
  '"><img src=x onerror=alert(1)>',
  'javascript:alert(1)',
  '</title><script>alert(1)</script>',
  '</script><script>alert(1)</script>',
  "'><svg onload=alert(1)>",
  '{{7*7}}',
  '${7*7}',
];

const TOURNAMENT_TEXTS = ['name', 'game', 'description', 'overview', 'prizePool', 'format', 'platform'] as const;

/** What is wrong with a page: elements, attributes and scripts that a payload (not the app) put there. */
function injected(html: string, nonce: string | undefined, hashes: Set<string> = new Set()): string[] {
  const problems: string[] = [];
  for (const el of parseHtml(html).elements) {
    const describe = `<${el.tag} ${el.attrs.map((a) => `${a.name}="${a.value.slice(0, 40)}"`).join(' ')}>`;
    if (el.tag === 'script') {
      // Allowed by this response's nonce, or (a page from the page cache, decision 024) by its hash in the CSP.
      const byNonce = !!nonce && attr(el, 'nonce') === nonce;
      const byHash = attr(el, 'src') === undefined && hashes.has(crypto.createHash('sha256').update(el.content, 'utf8').digest('base64'));
      if (!byNonce && !byHash)
        problems.push(`script allowed by neither this response's nonce nor a hash of its CSP: ${describe} ${el.content.slice(0, 60)}`);
      // Inline data (Remix's context and streamed loader data) must escape "<": nothing in it can end the script.
      if (/<\/?script|<!--/i.test(el.content)) problems.push(`unescaped markup inside a script: ${el.content.slice(0, 120)}`);
    }
    for (const a of el.attrs) {
      if (/^on/.test(a.name)) problems.push(`event handler attribute ${a.name}: ${describe}`);
      if (el.tag === 'img' && a.name === 'src' && /^data:image\/svg\+xml;base64,/.test(a.value)) {
        // The payment QR code: an SVG in an <img> runs nothing, and it holds no text of the page either.
        const svg = Buffer.from(a.value.split(',')[1]!, 'base64').toString('utf8');
        if (/<script|\son\w+=|<foreignObject|alert/i.test(svg)) problems.push(`markup inside the QR SVG: ${svg.slice(0, 200)}`);
        continue;
      }
      if (['href', 'src', 'action', 'formaction', 'poster', 'srcset', 'xlink:href', 'data'].includes(a.name) && isScriptUrl(a.value))
        problems.push(`script URL in ${a.name}: ${describe}`);
    }
    if (['svg', 'iframe', 'object', 'embed', 'base'].includes(el.tag) && !isAppSvg(el))
      problems.push(`unexpected <${el.tag}>: ${describe}`);
    if (el.tag === 'img' && attr(el, 'src') === 'x') problems.push(`injected img: ${describe}`);
  }
  return problems;
}

// The browser strips leading whitespace and control characters, and tabs/newlines anywhere, before reading a URL's scheme.
// eslint-disable-next-line no-control-regex
const isScriptUrl = (value: string) => /^(javascript|vbscript|data):/i.test(value.replace(/[\u0000-\u0020]/g, ''));
/** The app's own icons are inline <svg aria-hidden>; a payload's <svg onload> has no aria-hidden. */
const isAppSvg = (el: HtmlElement) => el.tag === 'svg' && attr(el, 'aria-hidden') === 'true';

interface Planted {
  payload: string;
  tournament: Tournament;
  player: Player;
  cookie: string;
  registration: Registration;
  /** field → the value the gateway stored (what a page must show as text). */
  stored: Record<string, string>;
  /** field → the gateway's refusal (status). */
  refused: Record<string, number>;
}

let stack: Stack;
let api: GatewayApi;
let adminCookie: string;
const planted: Planted[] = [];

const nonceOf = (res: Response) => /'nonce-([^']+)'/.exec(res.headers.get('content-security-policy') ?? '')?.[1];
const hashesOf = (res: Response) =>
  new Set([...(res.headers.get('content-security-policy') ?? '').matchAll(/'sha256-([^']+)'/g)].map((m) => m[1]!));

/** Six distinct IGNs made of the payload (a team cannot repeat one), cut to the 30-character limit. */
const ignVariant = (payload: string, i: number) => (i === 0 ? payload : `${'abcdef'[i]}${payload}`).slice(0, 30);

async function plant(payload: string, i: number): Promise<Planted> {
  const stored: Record<string, string> = {};
  const refused: Record<string, number> = {};
  const texts = Object.fromEntries(TOURNAMENT_TEXTS.map((f) => [f, payload]));
  let tournament: Tournament;
  try {
    tournament = await api.createTournament(texts);
    for (const f of TOURNAMENT_TEXTS) stored[`tournament.${f}`] = String(tournament[f]);
  } catch (err) {
    // A field that refuses the payload is left at its default, one at a time.
    const status = (err as { status: number }).status;
    expect(status).toBe(400);
    const accepted: Record<string, string> = {};
    for (const f of TOURNAMENT_TEXTS) {
      try {
        await api.createTournament({ [f]: payload, name: `probe ${i} ${f}` });
        accepted[f] = payload;
      } catch (e) {
        refused[`tournament.${f}`] = (e as { status: number }).status;
      }
    }
    tournament = await api.createTournament({ ...accepted, name: accepted.name ?? `XSS ${i}` });
    for (const f of Object.keys(accepted)) stored[`tournament.${f}`] = String(tournament[f as keyof Tournament]);
  }

  const player = await api.createPlayer();
  const team = Object.fromEntries(IGN_FIELDS.map((f, n) => [f, ignVariant(payload, n)]));
  const registration = await api.request<Registration & Record<string, string>>('POST', `/registrations/${tournament.id}`, {
    token: player.token,
    json: { teamName: payload, ...team },
    expect: [201, 400],
  });
  if ('rid' in registration) {
    stored.teamName = registration.teamName;
    for (const f of IGN_FIELDS) stored[f] = registration[f]!;
  } else throw new Error(`team refused for ${payload}: ${JSON.stringify(registration)}`);

  const profile = await api.request<Record<string, string>>('POST', '/api/profile/create', {
    token: player.token,
    json: {
      fullName: payload,
      bio: payload,
      location: payload,
      gender: 'Other',
      dateOfBirth: '2000-01-01',
      profilePictureUrl: `https://example.com/p.png#${encodeURIComponent(payload)}"${payload}`,
    },
    expect: [200, 201, 400],
  });
  if ('message' in profile && !('fullName' in profile)) refused.profile = 400;
  else for (const f of ['fullName', 'bio', 'location', 'profilePictureUrl']) stored[`profile.${f}`] = profile[f]!;

  const match = await api.request<Record<string, string>>('POST', '/matches', {
    token: await api.adminToken(),
    json: { tid: tournament.id, day: 1, matchNo: 1, map: payload, matchId: payload, password: payload, time: '18:30' },
    expect: [201, 400],
  });
  if ('id' in match) for (const f of ['map', 'matchId', 'password']) stored[`match.${f}`] = match[f]!;
  else {
    refused.match = 400;
    // The room fields may refuse markup: store the map alone with plain room details.
    const m = await api.request<Record<string, string>>('POST', '/matches', {
      token: await api.adminToken(),
      json: { tid: tournament.id, day: 1, matchNo: 1, map: payload, matchId: `R${i}00`, password: `P${i}00`, time: '18:30' },
      expect: [201],
    });
    stored['match.map'] = m.map!;
  }
  await api.submitPoints(tournament.id, { day: 1, match: 1, team: registration, position: 1, finishes: 0 }); // a lobby of one team (decision 029)
  const cookie = (await webLogin(stack.info.webUrl, player.email, player.password)).cookie;
  return { payload, tournament, player, cookie, registration, stored, refused };
}

beforeAll(async () => {
  stack = await Stack.start({ label: 'web-xss' });
  api = new GatewayApi(stack.info);
  adminCookie = (await webLogin(stack.info.webUrl, stack.info.admin.email, stack.info.admin.password)).cookie;
  for (const [i, payload] of PAYLOADS.entries()) planted.push(await plant(payload, i));
}, 90_000);
afterAll(() => stack?.stop());

describe('the checker itself', () => {
  it('finds a payload that broke out of text, an attribute or a script', () => {
    const page = (body: string) =>
      `<!DOCTYPE html><html><head><title>T</title><script nonce="n">var a=1</script></head><body>${body}</body></html>`;
    expect(
      injected(page('<p>&lt;script&gt;alert(1)&lt;/script&gt;</p><input value="&quot;&gt;&lt;img src=x onerror=alert(1)&gt;">'), 'n'),
    ).toEqual([]);
    expect(injected(page('<p><script>alert(1)</script></p>'), 'n')).not.toEqual([]);
    expect(injected(page('<input value=""><img src=x onerror=alert(1)>">'), 'n')).not.toEqual([]);
    expect(injected(page('<a href="  javascript:alert(1)">x</a>'), 'n')).not.toEqual([]);
    expect(
      injected(page('<script nonce="n">window.__remixContext = {"a":"</script><script>alert(1)</script>"}</script>'), 'n'),
    ).not.toEqual([]);
    expect(injected(page('<svg onload=alert(1)>'), 'n')).not.toEqual([]);
    expect(injected('<html><head><title></title><script>alert(1)</script></title></head></html>', 'n')).not.toEqual([]);
    // A cached page: its scripts are allowed by hash; one the payload made is not.
    const hashed = new Set([crypto.createHash('sha256').update('var a=1', 'utf8').digest('base64')]);
    expect(injected('<html><head><script>var a=1</script></head><body></body></html>', undefined, hashed)).toEqual([]);
    expect(
      injected('<html><head><script>var a=1</script></head><body><script>alert(1)</script></body></html>', undefined, hashed),
    ).not.toEqual([]);
  });
});

describe('script payloads in every user-supplied field', () => {
  it('are stored where the rules allow them, and refused by the UPI reference and username rules', async () => {
    for (const p of planted) {
      expect(Object.keys(p.stored).length, p.payload).toBeGreaterThanOrEqual(10);
      for (const [field, value] of Object.entries(p.stored)) {
        if (field !== 'profile.profilePictureUrl')
          expect(p.payload.startsWith(value) || value.endsWith(p.payload.slice(0, 29)), `${field}: ${value}`).toBe(true);
      }
      const upi = await api.request('POST', `/registrations/${p.tournament.id}/payment`, {
        token: p.player.token,
        json: { upiReference: p.payload },
        expect: [400],
      });
      expect(upi).toHaveProperty('message');
      const user = await api.request('POST', '/api/auth/register', {
        json: { email: `x${Date.now()}@test.example`, phone: '9123456780', username: p.payload, password: 'a-long-password-1' },
        expect: [400],
      });
      expect(user).toHaveProperty('message');
    }
    // Through the web forms too: the UPI form and a javascript: picture URL are refused with their messages.
    const p = planted[0]!;
    const upi = await postForm(stack.info.webUrl, `/payment?rid=${p.registration.rid}`, { upiReference: p.payload }, { cookie: p.cookie });
    expect(upi.status).toBe(400);
    const picture = await postForm(
      stack.info.webUrl,
      '/profile/edit',
      { fullName: 'Someone', profilePictureUrl: 'javascript:alert(1)' },
      { cookie: p.cookie },
    );
    expect(picture.status).toBe(400);
    expect(await picture.text()).toMatch(/Profile picture URL must be a web address/);
    const direct = await api.request('PUT', '/api/profile/update', {
      token: p.player.token,
      json: { fullName: 'Someone', profilePictureUrl: 'javascript:alert(1)' },
      expect: [400],
    });
    expect(JSON.stringify(direct)).toMatch(/Profile picture URL/);
  });

  it('appear as text on every page, never as markup, in the HTML, the meta tags and the loader data', async () => {
    const from = logSize(stack.info.webLog);
    const problems: string[] = [];
    /** field → pages that showed its stored value as text, per payload. */
    const shownOn = new Map<string, Set<string>>();
    let pages = 0;
    for (const p of planted) {
      const tid = String(p.tournament.id);
      const urls = pageRoutes()
        .filter((r) => r.name !== 'logout')
        .map((r) => {
          const url = routeUrl(r.name, { tournamentId: tid, id: tid, stageId: tid });
          if (r.name === 'payment') return `${url}?rid=${p.registration.rid}`;
          if (r.name === 'admin.add-points.$tournamentId') return `${url}?day=1&match=1`;
          return url;
        });
      for (const [who, cookie] of [
        ['player', p.cookie],
        ['admin', adminCookie],
        ['visitor', ''],
      ] as const) {
        for (const url of urls) {
          const res = await getPage(stack.info.webUrl, url, cookie);
          const html = await res.text();
          expect(res.status, `${url} as ${who}`).toBeLessThan(500);
          if (res.status !== 200 && res.status !== 404) continue;
          pages += 1;
          for (const problem of injected(html, nonceOf(res), hashesOf(res))) problems.push(`${p.payload} | ${url} as ${who}: ${problem}`);
          // Markup characters never appear raw: React escapes text and attribute values, Remix escapes "<" in its scripts.
          if (/[<>"]/.test(p.payload)) expect(html.includes(p.payload), `${p.payload} raw in ${url} as ${who}`).toBe(false);
          const parsed = parseHtml(html);
          const visible = [parsed.text, ...parsed.elements.flatMap((e) => e.attrs.map((a) => a.value))].join('\n');
          for (const [field, value] of Object.entries(p.stored)) {
            if (visible.includes(value)) {
              const key = `${p.payload} ${field}`;
              if (!shownOn.has(key)) shownOn.set(key, new Set());
              shownOn.get(key)!.add(url);
            }
          }
          // The loader data in the page's inline scripts does carry the payload (escaped): the script check above saw it.
          if (p.payload.includes('alert(1)') && url === `/tournaments/${tid}`) {
            expect(
              parsed.elements.some((e) => e.tag === 'script' && e.content.includes('alert(1)')),
              `loader data of ${url}`,
            ).toBe(true);
          }
          // Template syntax is shown as typed, never evaluated.
          if (p.payload === '{{7*7}}' && url === `/tournaments/${tid}`) expect(parsed.text).toContain('{{7*7}}');
        }
      }
      // The og: and meta tags of the tournament page carry the name as an attribute value, nothing more.
      const page = parseHtml(await (await getPage(stack.info.webUrl, `/tournaments/${tid}`)).text());
      const ogTitle = page.elements.find((e) => e.tag === 'meta' && attr(e, 'property') === 'og:title');
      if (p.stored['tournament.name']) expect(attr(ogTitle!, 'content'), p.payload).toContain(p.stored['tournament.name']);
      const title = page.elements.find((e) => e.tag === 'title');
      if (p.stored['tournament.name']) expect(title!.content, p.payload).toContain(p.stored['tournament.name']);
    }
    expect(problems).toEqual([]);
    // Every stored field was found as text on some page (else the search above proved nothing for it).
    const missing: string[] = [];
    for (const p of planted)
      for (const field of Object.keys(p.stored)) if (!shownOn.has(`${p.payload} ${field}`)) missing.push(`${p.payload} ${field}`);
    expect(missing).toEqual([]);
    expect(errorLines(await caughtUpLogSince(stack.info, from))).toEqual([]);
    const fields = planted.reduce((n, p) => n + Object.keys(p.stored).length, 0);
    console.log(`web-xss: ${PAYLOADS.length} payloads, ${fields} stored payload×field pairs, ${pages} pages parsed, 0 injected`);
  }, 120_000);

  it('run nothing in a browser (chromium, with a dialog trap)', async () => {
    const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox'] });
    try {
      const dialogs: string[] = [];
      const errors: string[] = [];
      for (const [who, cookie] of [
        ['admin', adminCookie],
        ['visitor', ''],
      ] as const) {
        const context = await browser.newContext();
        if (cookie) {
          const [name, value] = cookie.split('=');
          await context.addCookies([{ name: name!, value: value!, url: stack.info.webUrl }]);
        }
        const page = await context.newPage();
        page.on('dialog', (d) => {
          dialogs.push(`${who} ${page.url()}: ${d.message()}`);
          void d.dismiss();
        });
        page.on('pageerror', (e) => errors.push(`${page.url()}: ${e.message}`));
        // The payloads that are markup (text, attribute, title and script breakouts).
        for (const p of planted.slice(0, 6).filter((_, n) => n !== 2)) {
          const tid = p.tournament.id;
          const urls = cookie ? [`/admin/${tid}/registrations`, `/tournament/${tid}/matches`] : [`/tournaments/${tid}`];
          for (const url of urls) {
            await page.goto(stack.info.webUrl + url, { waitUntil: 'load' });
            expect(await page.evaluate(() => document.querySelectorAll('img[src="x"], svg[onload]').length), url).toBe(0);
          }
        }
        // The player's own pages: team, profile, payment.
        if (!cookie) {
          const p = planted[1]!;
          const [name, value] = p.cookie.split('=');
          await context.addCookies([{ name: name!, value: value!, url: stack.info.webUrl }]);
          for (const url of [`/team/${p.tournament.id}`, '/profile', `/payment?rid=${p.registration.rid}`, '/my-tournaments']) {
            await page.goto(stack.info.webUrl + url, { waitUntil: 'load' });
          }
        }
        await context.close();
      }
      expect(dialogs).toEqual([]);
      expect(errors).toEqual([]);
    } finally {
      await browser.close();
    }
  }, 90_000);
});
