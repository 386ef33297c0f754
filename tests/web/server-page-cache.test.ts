import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KeptPage, PageCacheApi, SessionLike } from '../../server/build';
import { pageCacheMiddleware, type KeepPage } from '../../server/page-cache';
import { serve, withAccessLog } from './support/server-app';

// The middleware side of the page cache (decision 024): a kept page is sent before Remix for an
// anonymous visitor under the gateway's current generation; otherwise the request goes on with what
// the Remix adapter needs to keep the page it renders.

type Page = KeptPage & { body: string };
const kept = new Map<string, Page>();
let generation: string | null = 'g1';
let anonymous = true;
const sessionsRead: (string | undefined)[] = [];

const cache: PageCacheApi = {
  cacheable: (method, path) => (method === 'GET' || method === 'HEAD') && path === '/about',
  applies: (method, path, session) => path === '/about' && session.anonymous,
  generation: async () => generation,
  get: (key, gen) => kept.get(`${gen} ${key}`),
  storable: () => true,
  store: async () => null,
  variant: (page) => ({ headers: { 'content-type': 'text/html' }, body: Buffer.from((page as Page).body) }),
};

let web: Awaited<ReturnType<typeof serve>>;
const passed: { keep: Omit<KeepPage, 'done'> | null }[] = [];

beforeAll(async () => {
  const app = express();
  withAccessLog(app);
  const sessionOf = async (req: express.Request): Promise<SessionLike> => {
    sessionsRead.push(req.headers.cookie);
    return { anonymous };
  };
  app.use(pageCacheMiddleware(cache, sessionOf));
  app.get('*', (_req, res) => {
    const keep = (res.locals as { pageCache?: KeepPage }).pageCache;
    passed.push({ keep: keep ? { key: keep.key, generation: keep.generation } : null });
    keep?.done(null);
    res.end('rendered');
  });
  web = await serve(app);
});
afterAll(() => web?.close());

describe('page cache middleware', () => {
  it('sends a page kept under the current generation, before the route', async () => {
    kept.set(`g1 ${web.url}/about`, { status: 200, body: 'kept page' });
    const before = passed.length;
    const res = await fetch(`${web.url}/about`);
    expect(res.headers.get('x-page-cache')).toBe('hit');
    expect(await res.text()).toBe('kept page');
    expect(passed.length).toBe(before);
  });

  it('lets a missing page render, with the key and generation to keep it under', async () => {
    generation = 'g2';
    const res = await fetch(`${web.url}/about?x=1`);
    expect(await res.text()).toBe('rendered');
    expect(passed.at(-1)).toEqual({ keep: { key: `${web.url}/about?x=1`, generation: 'g2' } });
  });

  it('stays out of the way for a visitor who is not anonymous, without a generation, and for other pages', async () => {
    anonymous = false;
    await fetch(`${web.url}/about`);
    expect(passed.at(-1)).toEqual({ keep: null });
    anonymous = true;
    generation = null;
    await fetch(`${web.url}/about`);
    expect(passed.at(-1)).toEqual({ keep: null });
    generation = 'g1';
    const reads = sessionsRead.length;
    await fetch(`${web.url}/my-tournaments`);
    expect(passed.at(-1)).toEqual({ keep: null });
    // No session read for a page the cache never answers.
    expect(sessionsRead.length).toBe(reads);
  });
});
