import { createRequire } from 'node:module';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { createElement as h, type ReactElement } from 'react';
import { describe, expect, it } from 'vitest';

// Decision 078: React 18.3.1's renderToPipeableStream flushed its whole 2 KB buffer when a multi-byte
// character did not fit at its end, unwritten zero bytes included (facebook/react#26228, fixed in 19
// only). A ₹ in a form value came back from the server as NUL + ₹ in CI. patches/react-dom+18.3.1.patch
// applies the upstream fix to both builds of the Node renderer; this fails if the patch is not applied.
const require = createRequire(import.meta.url);
type Renderer = typeof import('react-dom/server');
// Both builds by file (the package's exports name only the one NODE_ENV picks).
const reactDom = path.dirname(require.resolve('react-dom/package.json'));
const builds: Record<string, Renderer> = {
  production: require(path.join(reactDom, 'cjs/react-dom-server.node.production.min.js')) as Renderer,
  development: require(path.join(reactDom, 'cjs/react-dom-server.node.development.js')) as Renderer,
};

function render(renderer: Renderer, element: ReactElement): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const out = new PassThrough();
    const chunks: Buffer[] = [];
    out.on('data', (chunk: Uint8Array) => chunks.push(Buffer.from(chunk)));
    out.on('end', () => resolve(Buffer.concat(chunks)));
    const { pipe } = renderer.renderToPipeableStream(element, { onAllReady: () => pipe(out), onShellError: reject });
  });
}

// A form of many ₹ values after a prefix of every length from 0 to 39 characters: some ₹ lands on the
// last one or two bytes of a 2 KB buffer in several of them (6 of 40 rendered a NUL unpatched).
const page = (prefix: number) =>
  h(
    'form',
    null,
    h('p', null, 'x'.repeat(prefix)),
    ...Array.from({ length: 200 }, (_, i) => h('input', { key: i, name: `prize${i}`, defaultValue: '₹25,000' })),
  );

describe('the server renderer writes only the bytes it encoded', () => {
  for (const [name, renderer] of Object.entries(builds)) {
    it(`${name} build: no NUL and every ₹ intact, wherever the 2 KB buffers end`, async () => {
      for (let prefix = 0; prefix < 40; prefix += 1) {
        const bytes = await render(renderer, page(prefix));
        expect(bytes.includes(0), `a NUL with a prefix of ${prefix}`).toBe(false);
        expect(bytes.toString('utf8').match(/value="₹25,000"/g), `prefix ${prefix}`).toHaveLength(200);
      }
    });
  }
});
