import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { endpoints, type Endpoint } from '@custom-room/contract';
import { startGateway, type TestGateway } from './helpers.js';

/**
 * The endpoint table (contract/src/endpoints.ts, decision 035) is the gateway's whole API: every
 * entry is served with its method and path and documented at its OpenAPI path, and the gateway
 * serves nothing else but the infrastructure listed here.
 */

/** Served outside the table on purpose: the OpenAPI document itself (hidden from it). */
const INFRASTRUCTURE: readonly { method: string; url: string }[] = [{ method: 'GET', url: '/openapi.json' }];

/** Fastify's ":name" parameters as OpenAPI's "{name}" (also inside a segment: "/delete:id", "/:imageId-:width.webp"). */
const openApiPath = (url: string) => url.replace(/:([A-Za-z_]\w*)/g, '{$1}');

/**
 * Every (method, path) the gateway serves, read from printRoutes' tree (one node per line, four
 * characters of indentation per level, "(GET, HEAD)" after a node that is a route).
 */
function servedRoutes(tree: string): { method: string; url: string }[] {
  const served: { method: string; url: string }[] = [];
  const stack: string[] = [];
  for (const line of tree.split('\n')) {
    const m = /^((?:[│ ] {3})*)[├└]── (.*?)(?: \(([A-Z, ]+)\))?$/.exec(line);
    if (!m) continue;
    const depth = m[1]!.length / 4;
    stack.length = depth;
    stack.push(m[2]!);
    if (!m[3]) continue;
    for (const method of m[3].split(', ')) {
      // Fastify answers HEAD for every GET by itself (exposeHeadRoutes): not a route of its own.
      if (method !== 'HEAD') served.push({ method, url: stack.join('') });
    }
  }
  return served;
}

let gw: TestGateway;
let doc: { paths: Record<string, Record<string, unknown>> };

beforeAll(async () => {
  gw = await startGateway();
  doc = (await gw.api.get('/openapi.json')).body;
});
afterAll(async () => {
  await gw?.stop();
});

const table = Object.entries(endpoints) as [string, Endpoint][];

describe('the endpoint table', () => {
  it.each(table)('%s is served with its method and path', (_name, endpoint) => {
    expect(gw.app.hasRoute({ method: endpoint.method, url: endpoint.url })).toBe(true);
  });

  it.each(table)('%s is documented at its OpenAPI path', (_name, endpoint) => {
    const path = doc.paths[openApiPath(endpoint.url)];
    expect(path, openApiPath(endpoint.url)).toBeDefined();
    expect(path![endpoint.method.toLowerCase()]).toMatchObject({ summary: endpoint.schema.summary, tags: endpoint.schema.tags });
  });

  it('names each (method, path) once', () => {
    const keys = table.map(([, e]) => `${e.method} ${e.url}`);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('is everything the gateway serves, besides the listed infrastructure', () => {
    const served = servedRoutes(gw.app.printRoutes({ commonPrefix: false }));
    // The parse found the routes (a changed tree format must not pass this test by finding none).
    expect(served.length).toBeGreaterThanOrEqual(table.length);
    const known = new Set([...table.map(([, e]) => `${e.method} ${e.url}`), ...INFRASTRUCTURE.map((r) => `${r.method} ${r.url}`)]);
    // The router prints the names of parameters that share a place in one tree node as ":day|:reportId".
    const expand = (key: string): string[] => {
      const m = /:(\w+)\|:(\w+)/.exec(key);
      return m ? [key.replace(m[0], `:${m[1]}`), key.replace(m[0], `:${m[2]}`)].flatMap(expand) : [key];
    };
    expect(served.map((r) => `${r.method} ${r.url}`).filter((key) => !expand(key).some((k) => known.has(k)))).toEqual([]);
    expect(served.length).toBe(table.length + INFRASTRUCTURE.length);
  });

  it('is everything the OpenAPI document describes', () => {
    const documented = Object.entries(doc.paths).flatMap(([path, ops]) =>
      Object.keys(ops).map((method) => `${method.toUpperCase()} ${path}`),
    );
    const listed = table.map(([, e]) => `${e.method} ${openApiPath(e.url)}`);
    expect(documented.sort()).toEqual(listed.sort());
  });
});
