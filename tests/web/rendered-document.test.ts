import http from 'node:http';
import zlib from 'node:zlib';
import compression from 'compression';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INLINE_CSS_MARK, documentOf, documentResponse, renderedDocument } from '~/utils/document.server';
import { sendDocument } from '../../server/remix-adapter';
import { serve } from './support/server-app';

// Decision 090: a page's head (up to the end of the inline stylesheet) is the same on every page and is
// compressed once; only the page's own bytes are deflated per request, with the head as their dictionary.

const CSS = ':root{--bg:#0f1220}.card{display:grid;gap:.5rem}.card-title{font-weight:700}'.repeat(40);
const HEAD = '<!DOCTYPE html><html lang="en-IN"><head><meta charSet="utf-8"/>';
const marked = `<style id="app-css">${INLINE_CSS_MARK}</style>`;
const page = (title: string, body: string) =>
  `${HEAD}${marked}<title>${title}</title></head><body><main>${body}</main>` +
  '<link rel="modulepreload" href="/build/root-A.js"/>' +
  '<script type="module" async="">import * as route0 from "/build/root-A.js";\nimport("/build/entry.client-B.js");</script></body></html>';
const cards = (n: number) =>
  Array.from({ length: n }, (_, i) => `<article class="card"><h2 class="card-title">BGMI Cup ${i}</h2></article>`).join('');

describe('renderedDocument', () => {
  it('puts the stylesheet in place of the mark and holds the module scripts back', () => {
    const doc = renderedDocument(page('Tournaments', cards(3)), CSS);
    const html = doc.bytes().toString('utf8');
    expect(html.startsWith(`${HEAD}<style id="app-css">${CSS}</style><title>Tournaments</title>`)).toBe(true);
    expect(html).not.toContain(INLINE_CSS_MARK);
    // decision 028's rewrite ran on the page's own part
    expect(html).toContain('<link rel="x-held-modulepreload" data-href="/build/root-A.js"');
    expect(html).not.toMatch(/^import \* as route0/m);
  });

  it('gzips to exactly the page, one member, for pages of any size', async () => {
    for (const n of [0, 1, 50, 800]) {
      const doc = renderedDocument(page(`Page ${n}`, cards(n)), CSS);
      const gz = await doc.gzip();
      expect(gz.subarray(0, 3)).toEqual(Buffer.from([0x1f, 0x8b, 8]));
      expect(zlib.gunzipSync(gz).equals(doc.bytes())).toBe(true);
    }
  });

  it('lets the page point back into the head: smaller than compressing the two apart, about as small as gzip whole', async () => {
    // The cards repeat the stylesheet's class names; without the head as dictionary they could not refer to it.
    const doc = renderedDocument(page('Tournaments', cards(20)), CSS);
    const head = doc.bytes().subarray(0, doc.bytes().length - doc.rest.length);
    const apart =
      zlib.deflateRawSync(head, { level: 9, finishFlush: zlib.constants.Z_SYNC_FLUSH }).length +
      zlib.deflateRawSync(doc.rest, { level: 6 }).length +
      18;
    const gz = (await doc.gzip()).length;
    expect(gz).toBeLessThan(apart);
    expect(gz).toBeLessThanOrEqual(zlib.gzipSync(doc.bytes(), { level: 6 }).length * 1.05);
  });

  it('keeps the head of the last page: a second page shares it', async () => {
    const a = renderedDocument(page('One', cards(2)), CSS);
    const b = renderedDocument(page('Two', cards(5)), CSS);
    expect(zlib.gunzipSync(await b.gzip()).equals(b.bytes())).toBe(true);
    expect(zlib.gunzipSync(await a.gzip()).equals(a.bytes())).toBe(true);
    // a new stylesheet (a new build's) is a new head
    const c = renderedDocument(page('Three', cards(1)), `${CSS}.x{}`);
    expect(c.bytes().toString('utf8')).toContain(`${CSS}.x{}</style>`);
    expect(zlib.gunzipSync(await c.gzip()).equals(c.bytes())).toBe(true);
  });

  it('replaces only the stylesheet element, never the same words in what a user wrote', () => {
    const title = `Cup ${INLINE_CSS_MARK}`;
    const html = renderedDocument(page(title, `<p>${INLINE_CSS_MARK}</p>`), CSS)
      .bytes()
      .toString('utf8');
    expect(html).toContain(`<title>${title}</title>`);
    expect(html).toContain(`<p>${INLINE_CSS_MARK}</p>`);
  });

  it('sends a page without the mark (nothing inlined) as rendered', async () => {
    const html = page('Plain', cards(2)).replace(marked, '<link rel="stylesheet" href="/build/css-bundle-X.css"/>');
    for (const css of [CSS, null]) {
      const doc = renderedDocument(html, css);
      expect(doc.bytes().toString('utf8')).toContain('<link rel="stylesheet" href="/build/css-bundle-X.css"/><title>Plain</title>');
      expect(zlib.gunzipSync(await doc.gzip()).equals(doc.bytes())).toBe(true);
    }
  });

  it('carries the page on the answer Remix passes on, and on no other', () => {
    const doc = renderedDocument(page('A', ''), CSS);
    const response = documentResponse(doc, { status: 404, headers: { 'content-type': 'text/html; charset=utf-8' } });
    expect(response.status).toBe(404);
    expect(response.body).toBeNull();
    expect(documentOf(response)).toBe(doc);
    expect(documentOf(new Response('x'))).toBeUndefined();
  });
});

describe('the web server sends a rendered page', () => {
  let web: Awaited<ReturnType<typeof serve>>;
  const doc = renderedDocument(page('Tournaments', cards(20)), CSS);
  beforeAll(async () => {
    const app = express();
    app.use(compression()); // as server/app.ts mounts it: it must leave the page alone
    app.get('/', (req, res, next) => {
      const response = documentResponse(doc, {
        status: 200,
        headers: { 'content-type': 'text/html; charset=utf-8', 'x-frame-options': 'DENY' },
      });
      sendDocument(req, res, response, documentOf(response)!).catch(next);
    });
    web = await serve(app);
  });
  afterAll(() => web.close());

  const get = (acceptEncoding?: string) =>
    new Promise<{ headers: http.IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
      http
        .get(`${web.url}/`, { headers: acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding } }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => resolve({ headers: res.headers, body: Buffer.concat(chunks) }));
        })
        .on('error', reject);
    });

  it.each(['gzip', 'gzip, deflate, br', 'br;q=1, gzip;q=0.5'])(
    'gzip to a client that takes it (%s), once, with its length',
    async (accept) => {
      const { headers, body } = await get(accept);
      expect(headers['content-encoding']).toBe('gzip');
      expect(headers.vary).toMatch(/Accept-Encoding/i);
      expect(headers['x-frame-options']).toBe('DENY');
      expect(Number(headers['content-length'])).toBe(body.length);
      expect(zlib.gunzipSync(body).equals(doc.bytes())).toBe(true);
    },
  );

  it.each([undefined, 'identity'])('as it is to one that takes no encoding (%s), with its length', async (accept) => {
    const { headers, body } = await get(accept);
    expect(headers['content-encoding']).toBeUndefined();
    expect(headers.vary).toMatch(/Accept-Encoding/i);
    expect(Number(headers['content-length'])).toBe(body.length);
    expect(body.equals(doc.bytes())).toBe(true);
  });

  it.each([
    ['br', 'br', zlib.brotliDecompressSync],
    ['gzip;q=0, deflate', 'deflate', zlib.inflateSync],
  ] as const)('to one that takes another encoding but not gzip (%s), the compression middleware', async (accept, encoding, decode) => {
    const { headers, body } = await get(accept);
    expect(headers['content-encoding']).toBe(encoding);
    expect(decode(body).equals(doc.bytes())).toBe(true);
  });
});
