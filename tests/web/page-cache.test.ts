import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { GenerationSource, generationReader } from '~/utils/gateway-generation.server';
import {
  chooseEncoding,
  MAX_PAGE_AGE_MS,
  pageCacheApplies,
  PageStore,
  pinInlineScripts,
  preparePage,
  storable,
} from '~/utils/page-cache.server';

// Decision 024: the parts of the page cache that decide what is served: the strict, shared generation
// read; which requests and answers may use the cache; scripts pinned by hash; the bounded store.

/** A reader whose reads the test ends by hand, in order. */
function manualReader() {
  const reads: { resolve: (v: string) => void; reject: (e: Error) => void }[] = [];
  const read = () => new Promise<string>((resolve, reject) => reads.push({ resolve, reject }));
  return { read, reads };
}

const tick = () => new Promise((r) => setImmediate(r));

describe('GenerationSource', () => {
  it('answers a caller with a read that started after it called, never one already under way', async () => {
    const { read, reads } = manualReader();
    const source = new GenerationSource(read);
    const first = source.current();
    expect(reads).toHaveLength(1);
    // Arrives while read 1 is under way: a write may have ended just before, which read 1 might not see.
    const second = source.current();
    const third = source.current();
    expect(reads).toHaveLength(1);
    reads[0]!.resolve('g1');
    expect(await first).toBe('g1');
    await tick();
    expect(reads).toHaveLength(2); // the next read started as soon as read 1 ended, for both waiting callers
    reads[1]!.resolve('g2');
    expect(await second).toBe('g2');
    expect(await third).toBe('g2');
    expect(source.reads).toBe(2);
  });

  it('a failed read is null for its callers, and the next caller starts a new read', async () => {
    const errors: unknown[] = [];
    const { read, reads } = manualReader();
    const source = new GenerationSource(read, (err) => errors.push(err));
    const first = source.current();
    reads[0]!.reject(new Error('connection refused'));
    expect(await first).toBeNull();
    expect(errors).toHaveLength(1);
    const again = source.current();
    expect(reads).toHaveLength(2);
    reads[1]!.resolve('g');
    expect(await again).toBe('g');
  });

  it('gives up waiting after the wait, while the read goes on', async () => {
    const { read } = manualReader();
    const source = new GenerationSource(read);
    const started = Date.now();
    expect(await source.currentWithin(50)).toBeNull();
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it('a gateway without the endpoint (404) is not asked again for a while', async () => {
    let calls = 0;
    const source = new GenerationSource(async () => {
      calls++;
      throw Object.assign(new Error('generation answered 404'), { status: 404 });
    });
    expect(await source.current()).toBeNull();
    expect(await source.current()).toBeNull();
    expect(calls).toBe(1);
  });
});

describe('generationReader', () => {
  let server: http.Server | undefined;
  afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

  async function stub(handler: http.RequestListener) {
    server = http.createServer(handler);
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }

  it('reads {"generation": …} from GET /generation', async () => {
    const url = await stub((req, res) => {
      expect(req.url).toBe('/generation');
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ generation: 'abc.7' }));
    });
    expect(await generationReader(url, 500)()).toBe('abc.7');
  });

  it('refuses other statuses, other bodies and slow answers', async () => {
    let mode = 'status';
    const url = await stub((_req, res) => {
      if (mode === 'status') return void res.writeHead(503).end('{"generation":"x"}');
      if (mode === 'body') return void res.end('{"generation":7}');
      setTimeout(() => res.end('{"generation":"late"}'), 400);
    });
    await expect(generationReader(url, 100)()).rejects.toThrow(/503/);
    mode = 'body';
    await expect(generationReader(url, 100)()).rejects.toThrow(/not understood/);
    mode = 'slow';
    await expect(generationReader(url, 100)()).rejects.toThrow(/timed out/);
  });
});

describe('what may use the page cache', () => {
  // Who is anonymous is the server's one answer per request (decision 031; tests/web/session-state.test.ts).
  const anonymous = { anonymous: true };
  const signedIn = { anonymous: false };

  it('GET and HEAD of the public pages, for an anonymous visitor only', () => {
    for (const path of ['/', '/tournaments', '/tournaments/12', '/tournaments/12/points-table', '/about']) {
      expect(pageCacheApplies('GET', path, anonymous), path).toBe(true);
      expect(pageCacheApplies('HEAD', path, anonymous), path).toBe(true);
      expect(pageCacheApplies('GET', path, signedIn), path).toBe(false);
      expect(pageCacheApplies('HEAD', path, signedIn), path).toBe(false);
      expect(pageCacheApplies('POST', path, anonymous), path).toBe(false);
    }
    for (const path of [
      '/admin',
      '/profile',
      '/payment',
      '/videos',
      '/tournaments/12/update-team',
      '/tournaments.data',
      '/tournaments/12.data',
      '/login',
    ]) {
      expect(pageCacheApplies('GET', path, anonymous), path).toBe(false);
    }
  });

  const page = (init: { status?: number; headers?: Record<string, string> } = {}) =>
    new Response('<html></html>', {
      status: init.status ?? 200,
      headers: {
        'content-type': 'text/html; charset=utf-8',
        'cache-control': 'public, max-age=30, stale-while-revalidate=60',
        'content-security-policy': "default-src 'self'; script-src 'self' 'nonce-abc='",
        ...init.headers,
      },
    });

  it('only a public 200 HTML page that set no cookie and carries the nonce CSP is kept', () => {
    expect(storable(page())).toBe(true);
    expect(storable(page({ status: 503 }))).toBe(false);
    expect(storable(page({ status: 404 }))).toBe(false);
    expect(storable(page({ headers: { 'cache-control': 'private, no-store' } }))).toBe(false);
    expect(storable(page({ headers: { 'cache-control': 'no-store' } }))).toBe(false);
    expect(storable(page({ headers: { 'set-cookie': '__session=x; Path=/' } }))).toBe(false);
    expect(storable(page({ headers: { 'content-type': 'application/json' } }))).toBe(false);
    expect(storable(page({ headers: { 'content-security-policy': "script-src 'self'" } }))).toBe(false);
  });
});

describe('pinInlineScripts', () => {
  const hash = (s: string) => crypto.createHash('sha256').update(s, 'utf8').digest('base64');

  it("takes the response's nonce out and hashes exactly the inline scripts that carried it", () => {
    const html =
      '<html><head><script nonce="N1+/=">window.a = "₹";</script></head><body>' +
      '<script nonce="N1+/=" type="module" async="">import("/build/x.js");</script>' +
      '<script>alert("injected without the nonce")</script>' +
      '<script nonce="N1+/=" src="/build/y.js"></script></body></html>';
    const pinned = pinInlineScripts(html, 'N1+/=')!;
    expect(pinned.html).not.toContain('nonce="');
    expect(pinned.html).toContain('<script type="module" async="">import("/build/x.js");</script>');
    expect(pinned.hashes.sort()).toEqual([hash('window.a = "₹";'), hash('import("/build/x.js");')].sort());
    expect(pinned.hashes).not.toContain(hash('alert("injected without the nonce")'));
  });

  it('keeps nothing when the nonce shows up anywhere else', () => {
    expect(pinInlineScripts('<script nonce="N">1</script><meta content="N">', 'N')).toBeNull();
  });

  it('preparePage swaps the nonce CSP for hashes and compresses once per encoding', async () => {
    const html = '<!DOCTYPE html><html><body><script nonce="abc=">x()</script></body></html>';
    const response = new Response(html, {
      headers: {
        'content-type': 'text/html; charset=utf-8',
        'cache-control': 'public, max-age=30',
        vary: 'Cookie',
        'content-security-policy': "default-src 'self'; script-src 'self' 'nonce-abc='",
      },
    });
    const prepared = (await preparePage('http://h/', 'g', response, Buffer.from(html)))!;
    const csp = prepared.variants.gzip.headers['content-security-policy']!;
    // One spelling per name: the server sends these keys as they are, and two spellings went out twice.
    const names = Object.keys(prepared.variants.gzip.headers);
    expect(names.every((name) => name === name.toLowerCase())).toBe(true);
    expect(csp).toContain(`script-src 'self' 'sha256-${hash('x()')}'`);
    expect(csp).not.toContain('nonce');
    expect(prepared.variants.gzip.headers['content-encoding']).toBe('gzip');
    expect(prepared.variants.identity.headers['content-encoding']).toBeUndefined();
    expect(prepared.variants.br.headers.vary).toBe('Cookie, Accept-Encoding');
    const zlib = await import('node:zlib');
    expect(zlib.gunzipSync(prepared.variants.gzip.body).toString()).toBe(prepared.variants.identity.body.toString());
    expect(zlib.brotliDecompressSync(prepared.variants.br.body).toString()).toBe(prepared.variants.identity.body.toString());
  });
});

describe('chooseEncoding', () => {
  it('brotli, then gzip, then none, as the browser weighs them', () => {
    expect(chooseEncoding('gzip, deflate, br, zstd')).toBe('br');
    expect(chooseEncoding('gzip')).toBe('gzip');
    expect(chooseEncoding('br;q=0.5, gzip')).toBe('gzip');
    expect(chooseEncoding('br;q=0, gzip;q=0')).toBe('identity');
    expect(chooseEncoding('*')).toBe('br');
    expect(chooseEncoding(undefined)).toBe('identity');
    expect(chooseEncoding('deflate')).toBe('identity');
  });
});

describe('PageStore', () => {
  const entry = (key: string, generation = 'g', bytes = 10, storedAt = 1000) =>
    ({ key, generation, storedAt, status: 200, variants: {} as never, bytes }) as Parameters<PageStore['set']>[0];

  it('serves a page only under the generation it was rendered in, and not past its age', () => {
    const store = new PageStore(10);
    store.set(entry('/a', 'g1'));
    expect(store.get('/a', 'g1', 1000)).toBeDefined();
    expect(store.get('/a', 'g1', 1000 + MAX_PAGE_AGE_MS + 1)).toBeUndefined();
    store.set(entry('/a', 'g1'));
    expect(store.get('/a', 'g2', 1000)).toBeUndefined();
    expect(store.size).toBe(0);
  });

  it('drops the least recently used page past its entry or byte cap', () => {
    const store = new PageStore(2, 100);
    store.set(entry('/a'));
    store.set(entry('/b'));
    store.get('/a', 'g', 1000);
    store.set(entry('/c'));
    expect(store.get('/b', 'g', 1000)).toBeUndefined();
    expect(store.get('/a', 'g', 1000)).toBeDefined();
    store.set(entry('/big', 'g', 95));
    expect(store.size).toBe(1);
    expect(store.get('/big', 'g', 1000)).toBeDefined();
    store.set(entry('/huge', 'g', 101));
    expect(store.get('/huge', 'g', 1000)).toBeUndefined();
  });
});
