import crypto from 'node:crypto';
import http from 'node:http';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unique, type Player, type Tournament } from '../e2e/support/api';
import { GatewayApi, Stack, attr, errorLines, getPage, logSince, logSize, parseHtml, postForm, webLogin } from './web-helpers';

// Decision 024: the web server (server/) answers anonymous public pages from its page cache, checked against the
// gateway's /generation. Against the production build and a real gateway: a signed-in visitor (or one
// with a flash message) never gets the shared copy and their page is never shared; a write through the
// gateway shows on the very next anonymous page; every cached answer carries a CSP whose script hashes
// are exactly its inline scripts.

let stack: Stack;
let api: GatewayApi;
let tournament: Tournament;
let pages: string[];
let logStart: number;

const PLAIN_ANONYMOUS = { 'accept-encoding': 'gzip' };

/** An anonymous GET (no cookie) as a browser sends it; the body decoded. */
async function anonymous(path: string, headers: Record<string, string> = PLAIN_ANONYMOUS) {
  const res = await fetch(stack.info.webUrl + path, { headers, redirect: 'manual' });
  return { res, html: await res.text(), cache: res.headers.get('x-page-cache') };
}

/** Fetches until the page answers from the cache (the first request may render it). */
async function warm(path: string) {
  for (let i = 0; i < 3; i++) {
    const page = await anonymous(path);
    expect(page.res.status, path).toBe(200);
    if (page.cache === 'hit') return page;
  }
  throw new Error(`${path} never came from the page cache`);
}

/** The CSP's script-src sources of a page. */
const scriptSources = (res: Response) =>
  (/(?:^|;)\s*script-src ([^;]*)/.exec(res.headers.get('content-security-policy') ?? '')?.[1] ?? '').trim().split(/\s+/);

/** 'sha256-…' of every inline script of the page, as a browser hashes it. */
function inlineScriptHashes(html: string) {
  return parseHtml(html)
    .elements.filter((el) => el.tag === 'script' && attr(el, 'src') === undefined)
    .map((el) => `'sha256-${crypto.createHash('sha256').update(el.content, 'utf8').digest('base64')}'`);
}

const profileLabel = (username: string) => `Your profile (${username})`;

beforeAll(async () => {
  stack = await Stack.start({ label: 'web-page-cache' });
  api = new GatewayApi(stack.info);
  tournament = await api.createTournament({ name: `Cache Cup ${unique()}` });
  await api.createTournament({ name: `Second Cup ${unique()}` });
  pages = [
    '/',
    '/tournaments',
    `/tournaments/${tournament.id}`,
    `/tournaments/${tournament.id}/points-table`,
    `/tournaments/${tournament.id}/points-table?day=1`,
    '/about',
  ];
  logStart = logSize(stack.info.webLog);
}, 90_000);

afterAll(async () => {
  if (stack) expect(errorLines(logSince(stack.info.webLog, logStart)), 'errors in the web log').toEqual([]);
  await stack?.stop();
});

describe('page cache: what a hit carries', () => {
  it('every public page comes from the cache on the second anonymous request, same bytes in every encoding', async () => {
    for (const path of pages) {
      const first = await anonymous(path);
      expect(first.res.status, path).toBe(200);
      const hit = await warm(path);
      expect(hit.html, path).toBe(first.html);
      expect(hit.res.headers.get('cache-control'), path).toMatch(/^public\b/);
      expect(hit.res.headers.get('set-cookie'), path).toBeNull();
      for (const encoding of ['br', 'gzip', 'identity']) {
        const other = await anonymous(path, { 'accept-encoding': encoding });
        expect(other.cache, `${path} ${encoding}`).toBe('hit');
        expect(other.res.headers.get('content-encoding') ?? 'identity', `${path} ${encoding}`).toBe(encoding);
        expect(other.html, `${path} ${encoding}`).toBe(first.html);
      }
      const head = await fetch(stack.info.webUrl + path, { method: 'HEAD', headers: PLAIN_ANONYMOUS });
      expect([head.status, head.headers.get('x-page-cache')], `HEAD ${path}`).toEqual([200, 'hit']);
    }
  });

  it('the CSP of every cached answer allows exactly the inline scripts of that page, by hash, with no nonce shared', async () => {
    for (const path of pages) {
      const answers = [await anonymous(path), await warm(path), await warm(path)];
      for (const { res, html, cache } of answers) {
        const sources = scriptSources(res);
        const hashes = inlineScriptHashes(html);
        expect(hashes.length, `${path} (${cache}) has inline scripts`).toBeGreaterThan(0);
        expect(sources.filter((s) => s.startsWith("'sha256-")).sort(), `${path} (${cache})`).toEqual([...new Set(hashes)].sort());
        expect(
          sources.some((s) => s.startsWith("'nonce-")),
          `${path} (${cache}) CSP nonce`,
        ).toBe(false);
        expect(html, `${path} (${cache})`).not.toMatch(/\snonce="/);
      }
    }
  });

  it('a page not cached (signed in) keeps a fresh nonce per response that matches its scripts', async () => {
    const player = await api.createPlayer();
    const { cookie } = await webLogin(stack.info.webUrl, player.email, player.password);
    const nonces = [];
    for (let i = 0; i < 2; i++) {
      const res = await getPage(stack.info.webUrl, '/tournaments', cookie);
      const html = await res.text();
      const nonce = scriptSources(res)
        .find((s) => s.startsWith("'nonce-"))
        ?.slice(7, -1);
      expect(nonce).toBeTruthy();
      const scripts = parseHtml(html).elements.filter((el) => el.tag === 'script');
      expect(scripts.every((el) => attr(el, 'nonce') === nonce)).toBe(true);
      nonces.push(nonce);
    }
    expect(nonces[0]).not.toBe(nonces[1]);
  });
});

describe('page cache: signed-in visitors and flash messages', () => {
  let a: Player;
  let b: Player;
  let cookieA: string;
  let cookieB: string;

  beforeAll(async () => {
    a = await api.createPlayer();
    b = await api.createPlayer();
    cookieA = (await webLogin(stack.info.webUrl, a.email, a.password)).cookie;
    cookieB = (await webLogin(stack.info.webUrl, b.email, b.password)).cookie;
  });

  it('with the cache warm, each signed-in player gets a page of their own, private and never from the cache', async () => {
    for (const path of pages) {
      const shared = await warm(path);
      for (const [me, them, cookie] of [
        [a, b, cookieA],
        [b, a, cookieB],
      ] as const) {
        const res = await getPage(stack.info.webUrl, path, cookie);
        const html = await res.text();
        expect(res.status, path).toBe(200);
        expect(res.headers.get('x-page-cache'), `${path} as ${me.username}`).toBeNull();
        expect(res.headers.get('cache-control'), `${path} as ${me.username}`).toBe('private, no-store');
        expect(html, `${path} as ${me.username}`).toContain(profileLabel(me.username));
        expect(html, `${path} as ${me.username}`).not.toContain(them.username);
      }
      const after = await anonymous(path);
      expect(after.cache, path).toBe('hit');
      expect(after.html, path).toBe(shared.html);
      expect(after.html, path).toContain('Profile and login');
      expect(after.html).not.toContain(a.username);
      expect(after.html).not.toContain(b.username);
    }
  });

  it('a page first rendered for a signed-in player is never served to an anonymous visitor', async () => {
    const path = `/tournaments?first=${unique()}`;
    const mine = await (await getPage(stack.info.webUrl, path, cookieA)).text();
    expect(mine).toContain(profileLabel(a.username));
    const next = await anonymous(path);
    expect(next.cache).toBe('miss');
    expect(next.html).not.toContain(a.username);
    expect((await anonymous(path)).cache).toBe('hit');
  });

  it('a visitor with a flash message (and no sign-in) sees it on a warm page; nobody else does', async () => {
    await warm('/tournaments');
    // Logging out (here without a session) leaves a session holding only the message: nobody is signed in.
    const out = await postForm(stack.info.webUrl, '/logout', {});
    expect(out.status).toBe(302);
    const cookie = out.headers.get('set-cookie')!.split(';')[0]!;
    const res = await getPage(stack.info.webUrl, '/tournaments', cookie);
    const html = await res.text();
    expect(res.headers.get('x-page-cache')).toBeNull();
    expect(html).toContain('You have logged out.');
    const after = await anonymous('/tournaments');
    expect(after.cache).toBe('hit');
    expect(after.html).not.toContain('You have logged out.');
  });
});

describe('page cache: never stale after a write', () => {
  const put = async (t: Tournament, name: string) => {
    const form = new FormData();
    for (const [k, v] of Object.entries(GatewayApi.tournamentFields({ name }))) form.append(k, v);
    await api.request('PUT', `/tournaments/admin/update/${t.id}`, { token: await api.adminToken(), form, expect: [200] });
  };

  it('a tournament renamed by the organiser shows on the next anonymous request of every page', async () => {
    const detailPages = pages.filter((p) => p !== '/about');
    for (const path of detailPages) await warm(path);
    const name = `Renamed Cup ${unique()}`;
    await put(tournament, name);
    for (const path of detailPages) {
      const page = await anonymous(path);
      expect(page.cache, path).toBe('miss');
      expect(page.html, path).toContain(name);
    }
    // and the fresh copies are shared again
    for (const path of detailPages) expect((await anonymous(path)).cache, path).toBe('hit');
  });

  it('a burst of visitors right after a write waits for one render of the new page', async () => {
    const path = `/tournaments/${tournament.id}`;
    await warm(path);
    const name = `Burst Cup ${unique()}`;
    await put(tournament, name);
    const burst = await Promise.all(Array.from({ length: 8 }, () => anonymous(path)));
    for (const page of burst) expect(page.html).toContain(name);
    expect(burst.filter((p) => p.cache === 'miss')).toHaveLength(1);
  });

  it('a team registering changes the count on the tournament page at once', async () => {
    const path = `/tournaments/${tournament.id}`;
    const before = (await warm(path)).html;
    const count = Number(/(\d+) \/ 16 teams/.exec(before)?.[1]);
    await api.registerTeam(tournament.id, await api.createPlayer());
    expect((await anonymous(path)).html).toContain(`${count + 1} / 16 teams`);
  });

  it('points saved by the organiser show on the next anonymous points table', async () => {
    const teamName = `Points Squad ${unique()}`;
    const team = await api.registerTeam(tournament.id, await api.createPlayer(), teamName);
    for (const path of [`/tournaments/${tournament.id}/points-table`, `/tournaments/${tournament.id}/points-table?day=1`]) {
      const before = await warm(path);
      expect(before.html).not.toContain(teamName);
    }
    await api.submitPoints(tournament.id, { day: 1, match: 1, team, position: 1, finishes: 0 }); // finishes bounded by the lobby (decision 029)
    for (const path of [`/tournaments/${tournament.id}/points-table`, `/tournaments/${tournament.id}/points-table?day=1`]) {
      const after = await anonymous(path);
      expect(after.html, path).toContain(teamName);
    }
  });
});

describe('compression of pages rendered per request', () => {
  /** The raw bytes on the wire for a gzip request (fetch would decode them). */
  function rawGzip(path: string, cookie: string): Promise<{ encoding?: string; wire: Buffer }> {
    return new Promise((resolve, reject) => {
      http
        .get(stack.info.webUrl + path, { headers: { 'accept-encoding': 'gzip', cookie } }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => resolve({ encoding: res.headers['content-encoding'], wire: Buffer.concat(chunks) }));
        })
        .on('error', reject);
    });
  }

  it('a signed-in page is gzipped as one stream, not in a deflate block per render chunk', async () => {
    const player = await api.createPlayer();
    const { cookie } = await webLogin(stack.info.webUrl, player.email, player.password);
    const { encoding, wire } = await rawGzip('/tournaments', cookie);
    expect(encoding).toBe('gzip');
    const html = zlib.gunzipSync(wire);
    expect(html.toString()).toContain(player.username);
    // Flushing after every chunk (Remix's stream writer) made this about twice the size of gzipping the page at once.
    expect(wire.length).toBeLessThan(zlib.gzipSync(html).length * 1.1);
  });
});
