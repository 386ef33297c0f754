// The patched loader call (patches/@remix-run+server-runtime+*.patch, decision 090): the server loads the
// CommonJS build of @remix-run/server-runtime, which copied the page's Request twice for every loader (to strip
// `index` and `_routes`, a WHATWG Request with its headers and signal each time). Without either parameter the
// loader now gets the page's own request; with one, a copy without it, as before. This holds the patch to being
// applied (npm install runs patch-package) and to the stripping it kept.
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';

type CallRouteLoader = (args: {
  loadContext: unknown;
  loader: (args: { request: Request }) => unknown;
  params: Record<string, string>;
  request: Request;
  routeId: string;
  singleFetch: boolean;
}) => Promise<unknown>;
const { callRouteLoader } = createRequire(import.meta.url)('@remix-run/server-runtime/dist/data.js') as {
  callRouteLoader: CallRouteLoader;
};

async function seenBy(request: Request): Promise<Request> {
  let seen: Request | undefined;
  await callRouteLoader({
    loadContext: {},
    loader: ({ request: r }) => {
      seen = r;
      return null;
    },
    params: {},
    request,
    routeId: 'routes/tournaments._index',
    singleFetch: true,
  });
  return seen!;
}

describe("a loader's request", () => {
  it('is the page request itself when there is nothing to strip', async () => {
    const request = new Request('http://web.test/tournaments?show=open', { headers: { cookie: '__session=x' } });
    expect(await seenBy(request)).toBe(request);
  });

  it('is a copy without `index` and `_routes` when the URL has them, headers and signal kept', async () => {
    const controller = new AbortController();
    const request = new Request('http://web.test/tournaments?index&_routes=root&show=open', {
      headers: { cookie: '__session=x' },
      signal: controller.signal,
    });
    const seen = await seenBy(request);
    expect(seen).not.toBe(request);
    expect(seen.url).toBe('http://web.test/tournaments?show=open');
    expect(seen.headers.get('cookie')).toBe('__session=x');
    controller.abort();
    expect(seen.signal.aborted).toBe(true);
  });

  it('keeps an `index` value that names something (only the empty one is the index marker)', async () => {
    const seen = await seenBy(new Request('http://web.test/guide?index=2'));
    expect(new URL(seen.url).searchParams.getAll('index')).toEqual(['2']);
  });
});
