import { describe, expect, it } from 'vitest';
import { BOOT_CAP_MS, deferModuleScripts } from '~/utils/deferred-scripts.server';

// Decision 028: what Remix 2.17's <Scripts> renders (v3_lazyRouteDiscovery and v3_singleFetch on), as
// the server sent it before the rewrite. The browser-side proof is tests/e2e/first-paint.spec.ts.
const NONCE = 'bm9uY2Utb25l';
const page = (scripts: string) =>
  `<!DOCTYPE html><html lang="en-IN"><head><style>body{}</style></head><body><main id="main"><h1>Tournaments</h1>` +
  `<img src="/images/a-800.webp" fetchpriority="high"/></main>${scripts}</body></html>` +
  `<!--$--><script nonce="${NONCE}">window.__remixContext.streamController.enqueue("[]");</script><!--/$-->`;

const remixScripts =
  '<link rel="modulepreload" href="/build/entry.client-PVFTG3LN.js"/>' +
  '<link rel="modulepreload" href="/build/_shared/chunk-MDBSB4YF.js"/>' +
  '<link rel="modulepreload" href="/build/root-VIIS7Y34.js"/>' +
  '<link rel="modulepreload" href="/build/routes/tournaments._index-PMN27QJ7.js"/>' +
  `<script nonce="${NONCE}">window.__remixContext = {"future":{}};</script>` +
  `<script nonce="${NONCE}" type="module" async="">;
import * as route0 from "/build/root-VIIS7Y34.js";
import * as route1 from "/build/routes/tournaments._index-PMN27QJ7.js";
window.__remixManifest = {
  "entry": {
    "module": "/build/entry.client-PVFTG3LN.js",
    "imports": ["/build/_shared/chunk-MDBSB4YF.js"]
  },
  "url": "/build/manifest-C22A8DFF.js"
};
window.__remixRouteModules = {"root":route0,"routes/tournaments._index":route1};

import("/build/entry.client-PVFTG3LN.js");</script>`;

const moduleScript = (html: string) => /<script\b[^>]*type="module"[^>]*>([\s\S]*?)<\/script>/.exec(html)![1]!;

describe('deferModuleScripts', () => {
  const html = deferModuleScripts(page(remixScripts));

  it('leaves the page nothing to fetch before the boot: no preload href, no static import', () => {
    // Nothing the browser warns about either: no modulepreload without href (decision 036).
    expect(html).not.toMatch(/<link rel="modulepreload"/);
    expect(html.match(/<link rel="x-held-modulepreload" data-href="[^"]+"\/>/g)).toHaveLength(4);
    expect(moduleScript(html)).not.toMatch(/^\s*import\s+[^(]/m);
  });

  it("waits for load and a painted frame, capped, before the imports, then runs the rest of Remix's script in order", () => {
    const body = moduleScript(html);
    const wait = body.indexOf('addEventListener("load"');
    const restore = body.indexOf('l.href=l.dataset.href;l.rel="modulepreload"');
    const routes = body.indexOf(
      'const [route0,route1]=await Promise.all([import("/build/root-VIIS7Y34.js"),import("/build/routes/tournaments._index-PMN27QJ7.js")])',
    );
    const manifest = body.indexOf('window.__remixManifest = {');
    const modules = body.indexOf('window.__remixRouteModules = {"root":route0,"routes/tournaments._index":route1};');
    const entry = body.indexOf('import("/build/entry.client-PVFTG3LN.js");');
    expect(body).toContain('requestAnimationFrame');
    expect(body).toContain(`setTimeout(r,${BOOT_CAP_MS})`);
    expect([wait, restore, routes, manifest, modules, entry].every((i) => i >= 0)).toBe(true);
    expect(wait < restore && restore < routes && routes < manifest && manifest < modules && modules < entry).toBe(true);
  });

  it('changes nothing else: the nonce, the other scripts, the content, the data stream', () => {
    const tags = (s: string) => s.match(/<script\b[^>]*>/g);
    expect(tags(html)).toEqual(tags(page(remixScripts)));
    const outside = (s: string) =>
      s
        .replace(/<script\b[^>]*type="module"[^>]*>[\s\S]*?<\/script>/, '')
        .replace(/ rel="x-held-modulepreload" data-href=/g, ' rel="modulepreload" href=');
    expect(outside(html)).toBe(outside(page(remixScripts)));
  });

  it('is valid JavaScript with a top-level await (an inline module)', () => {
    // A module body cannot be compiled by Function, but an async function body accepts the same syntax.
    const AsyncFunction = Object.getPrototypeOf(async () => {}).constructor;
    expect(() => new AsyncFunction(moduleScript(html).replace(/^import\(/gm, 'void import('))).not.toThrow();
  });

  it('leaves a page alone when Remix renders its scripts some other way', () => {
    const other = page(remixScripts.replace('import * as route1 from', 'import {default as route1} from'));
    expect(deferModuleScripts(other)).toBe(other);
    const none = page('<p>no scripts</p>');
    expect(deferModuleScripts(none)).toBe(none);
  });
});
