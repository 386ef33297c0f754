// Issue 28, one way to authorise (decision 058): every protected call of the endpoint table answers
// 401 to an anonymous caller and 403 to a player on an admin or crew call (decision 065), before its body or parameters are
// read, whatever they are; and a route outside the table must declare its access or the gateway does
// not start.
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { endpoints, type Endpoint } from '@custom-room/contract';
import { accessControl } from '../../gateway/src/plugins/auth.js';
import { createUser, startGateway, type TestGateway, type TestUser } from './helpers.js';

let gw: TestGateway;
let player: TestUser;

beforeAll(async () => {
  gw = await startGateway();
  player = await createUser(gw.api);
});
afterAll(() => gw?.stop());

/** The path with each ":param" given a value its schema refuses (so only the access hook can answer first). */
const badPath = (url: string) => url.replace(/:(\w+)/g, 'not-an-id');
const table: [string, Endpoint][] = Object.entries(endpoints);
const protectedCalls = table.filter(([, e]) => e.access !== 'public');
/** A site admin's calls and the crew's (decision 065): a player with no part anywhere may make none of them. */
const adminCalls = protectedCalls.filter(([, e]) => e.access === 'admin' || e.access.startsWith('staff:'));

/** A body that is not JSON at all, with a content type no call accepts as such. */
async function send(method: string, url: string, token?: string) {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (token) headers.authorization = `Bearer ${token}`;
  const body = method === 'GET' || method === 'DELETE' ? undefined : '{"broken": ';
  const res = await fetch(gw.url + badPath(url), { method, headers, body });
  return { status: res.status, body: (await res.json()) as { message: string } };
}

describe('protected calls answer 401/403 before 400', () => {
  it('the table marks the calls the bearer token documents, and every admin call documents it', () => {
    expect(protectedCalls.length).toBeGreaterThan(40);
    for (const [key, e] of protectedCalls) expect(e.schema.security, key).toBeDefined();
    for (const [key, e] of table) if (e.access === 'public') expect(e.schema.security, key).toBeUndefined();
    expect(adminCalls.length).toBeGreaterThan(30);
  });

  it.each(protectedCalls)('%s: anonymous with a malformed body and path gets 401', async (_key, e) => {
    const res = await send(e.method, e.url);
    expect(res.status).toBe(401);
    expect(res.body.message).toBeTruthy();
  });

  it.each(adminCalls)('%s: a player with a malformed body and path gets 403', async (_key, e) => {
    const res = await send(e.method, e.url, player.token);
    expect(res.status).toBe(403);
    // A player has no part anywhere: every such call answers as before organisers existed.
    expect(res.body.message).toBe('Admins only.');
  });

  it('a signed-in caller with a malformed body then gets 400, so the body is still checked', async () => {
    const res = await send('POST', endpoints.markNotificationsRead.url, player.token);
    expect(res.status).toBe(400);
  });
});

describe('a route must say who may call it', () => {
  it('refuses at registration a route outside the table without config.access', async () => {
    const app = Fastify();
    accessControl(app);
    expect(() => app.get('/not-in-the-table', async () => 'x')).toThrow(/does not declare its access/);
  });

  it('refuses a route that contradicts the table', async () => {
    const app = Fastify();
    accessControl(app);
    expect(() => app.get(endpoints.stageEntrants.url, { config: { access: 'public' } }, async () => 'x')).toThrow(
      /differs from the endpoint table/,
    );
  });

  it('takes a declared access outside the table', async () => {
    const app = Fastify();
    accessControl(app);
    app.get('/declared', { config: { access: 'public' } }, async () => 'ok');
    const res = await app.inject({ url: '/declared' });
    expect(res.body).toBe('ok');
    await app.close();
  });
});
