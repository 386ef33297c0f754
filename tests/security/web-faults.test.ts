import net, { type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GatewayApi, Stack, pageRoutes, postForm, routeUrl, webLogin } from './web-helpers';

// Issue 10, Faults: "The gateway stopped or slow: every page answers within a bound with its message,
// forms keep the input, and all recovers when the gateway returns." A web server of the production
// build reaches the gateway through a TCP proxy of this test that passes traffic, holds it for 10 s
// (slow) or refuses connections (stopped).

const TIMEOUT_MS = 1500;
const BOUND_MS = TIMEOUT_MS + 1000;
const SLOW_MS = 10_000;
const NO_INTERNALS = /\bat \S+ \(|ECONNREFUSED|ECONNRESET|TypeError|AbortError|TimeoutError|Error:/;
/** The messages of a page that could not reach the gateway: ours, and the spec's own on the organiser lists (§2). */
const UNREACHABLE = /We could not (reach|load)|Failed to (load|fetch) \w+/;

type Mode = 'pass' | 'slow' | 'stopped';

/** A TCP proxy to the gateway whose behaviour the test switches; switching drops every open connection. */
async function startFaultProxy(target: string) {
  const { hostname, port: targetPort } = new URL(target);
  const sockets = new Set<net.Socket>();
  const timers = new Set<NodeJS.Timeout>();
  let mode: Mode = 'pass';
  const connect = (client: net.Socket) => {
    const upstream = net.connect(Number(targetPort), hostname);
    sockets.add(upstream);
    upstream.on('close', () => sockets.delete(upstream));
    upstream.on('error', () => client.destroy());
    client.on('error', () => upstream.destroy());
    client.pipe(upstream).pipe(client);
  };
  const server = net.createServer((client) => {
    sockets.add(client);
    client.on('close', () => sockets.delete(client));
    client.on('error', () => {});
    if (mode === 'slow') {
      client.pause(); // what the web server sends waits with the connection
      const timer = setTimeout(() => {
        timers.delete(timer);
        if (!client.destroyed) {
          connect(client);
          client.resume();
        }
      }, SLOW_MS);
      timers.add(timer);
    } else connect(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const dropAll = () => {
    for (const timer of timers) clearTimeout(timer);
    timers.clear();
    for (const socket of sockets) socket.destroy();
  };
  return {
    url: `http://127.0.0.1:${port}`,
    async set(next: Mode) {
      if (next === mode) return;
      dropAll();
      if (mode === 'stopped')
        await new Promise<void>((resolve, reject) => server.once('error', reject).listen(port, '127.0.0.1', () => resolve()));
      if (next === 'stopped') await new Promise<void>((resolve) => server.close(() => resolve()));
      mode = next;
    },
    async close() {
      dropAll();
      if (server.listening) await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

let stack: Stack;
let proxy: Awaited<ReturnType<typeof startFaultProxy>>;
let web: { url: string; pid: number; log: string };
let tid: string;
let cookies: { who: string; cookie: string }[];
let urls: string[];
/** Status of each (who, url) with the gateway answering. */
const healthy = new Map<string, number>();

beforeAll(async () => {
  stack = await Stack.start({ label: 'web-faults' });
  proxy = await startFaultProxy(stack.info.gatewayUrl);
  web = await stack.startExtraWeb({ GATEWAY_URL: proxy.url, GATEWAY_TIMEOUT_MS: String(TIMEOUT_MS) });
  const api = new GatewayApi(stack.info);
  const t = await api.createTournament();
  tid = String(t.id);
  const player = await api.createPlayer();
  const teamOwner = await api.createPlayer();
  await api.registerTeam(t.id, teamOwner);
  cookies = [
    { who: 'visitor', cookie: '' },
    { who: 'player', cookie: (await webLogin(web.url, player.email, player.password)).cookie },
    { who: 'team owner', cookie: (await webLogin(web.url, teamOwner.email, teamOwner.password)).cookie },
    { who: 'admin', cookie: (await webLogin(web.url, stack.info.admin.email, stack.info.admin.password)).cookie },
  ];
  urls = pageRoutes()
    .map((r) => routeUrl(r.name, { tournamentId: tid, id: tid, stageId: tid }))
    .filter((u) => u !== '/logout'); // a POST-only route: its GET answers without the gateway
}, 90_000);
afterAll(async () => {
  await proxy?.close();
  await stack?.stop();
});

async function get(url: string, cookie: string) {
  const started = performance.now();
  const res = await fetch(web.url + url, {
    redirect: 'manual',
    headers: cookie ? { cookie } : {},
    signal: AbortSignal.timeout(SLOW_MS + 5000),
  });
  const body = await res.text();
  return { status: res.status, body, ms: performance.now() - started };
}

/** Runs fn over items, `limit` at a time (two cores: a bound on how many pages render at once). */
async function inBatches<T, R>(items: T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = [];
  for (let i = 0; i < items.length; i += limit) results.push(...(await Promise.all(items.slice(i, i + limit).map(fn))));
  return results;
}

const cases = () => cookies.flatMap(({ who, cookie }) => urls.map((url) => ({ who, cookie, url })));

describe('every page with the gateway slow or stopped', () => {
  it('lists the pages', () => {
    expect(urls.length).toBeGreaterThanOrEqual(30);
  });

  it('answers every page normally while the gateway answers', async () => {
    await proxy.set('pass');
    const results = await inBatches(cases(), 6, async (c) => ({ ...c, ...(await get(c.url, c.cookie)) }));
    for (const r of results) {
      expect(r.status, `${r.who} ${r.url}`).toBeLessThan(500);
      healthy.set(`${r.who} ${r.url}`, r.status);
    }
    // Most pages are pages for someone.
    expect(results.filter((r) => r.status === 200).length).toBeGreaterThanOrEqual(urls.length);
  }, 120_000);

  it.each(['slow', 'stopped'] as const)(
    'gateway %s: each page answers within the bound, 503 with its message or as it does without the gateway',
    async (mode) => {
      await proxy.set(mode);
      const results = await inBatches(cases(), 6, async (c) => ({ ...c, ...(await get(c.url, c.cookie)) }));
      const problems: string[] = [];
      for (const r of results) {
        const label = `${r.who} ${r.url}: ${r.status} in ${Math.round(r.ms)} ms`;
        if (r.ms > BOUND_MS) problems.push(`${label} (over ${BOUND_MS} ms)`);
        if (NO_INTERNALS.test(r.body)) problems.push(`${label} shows internals: ${NO_INTERNALS.exec(r.body)![0]}`);
        if (r.status === 503) {
          if (!UNREACHABLE.test(r.body)) problems.push(`${label} without the "could not reach" message`);
        } else if (r.status === 200 && UNREACHABLE.test(r.body)) {
          // A page that degrades in place (its own message inside the page) is fine.
        } else if (r.url === '/login' && r.status === 200 && r.body.includes('name="emailOrPhone"')) {
          // A signed-in visitor is sent on from /login only once the gateway accepts the token (decision 031):
          // without the gateway they get the form, as a visitor does.
        } else if (r.status !== healthy.get(`${r.who} ${r.url}`)) {
          problems.push(`${label}, ${healthy.get(`${r.who} ${r.url}`)} with the gateway up`);
        } else if (r.status >= 500) problems.push(label);
      }
      expect(problems).toEqual([]);
      // The pages that need the gateway said so: not every answer can be the healthy one.
      expect(results.filter((r) => r.status === 503 || UNREACHABLE.test(r.body)).length).toBeGreaterThanOrEqual(urls.length);
    },
    180_000,
  );

  it.each(['slow', 'stopped'] as const)(
    'gateway %s: a login post answers with the form, the input kept and the password not',
    async (mode) => {
      await proxy.set(mode);
      const started = performance.now();
      const res = await postForm(web.url, '/login', {
        emailOrPhone: 'someone@test.example',
        password: 'whatever-password-9',
        redirectTo: '/',
      });
      const body = await res.text();
      expect(performance.now() - started).toBeLessThanOrEqual(BOUND_MS);
      expect(res.status).toBe(503);
      expect(body).toContain('We could not reach the server. Your details are kept');
      expect(body).toMatch(/name="emailOrPhone"[^>]*value="someone@test.example"|value="someone@test.example"[^>]*name="emailOrPhone"/);
      expect(body).not.toContain('whatever-password-9');
      expect(body).not.toMatch(NO_INTERNALS);
    },
    30_000,
  );

  it.each(['slow', 'stopped'] as const)(
    'gateway %s: a team registration post answers with the form and the names kept',
    async (mode) => {
      await proxy.set('pass');
      const player = cookies.find((c) => c.who === 'player')!.cookie;
      expect((await get(`/register/${tid}`, player)).status).toBe(200); // the form is there to fill in
      await proxy.set(mode);
      const fields = {
        teamName: `Slow Squad ${mode}`,
        player1Username: 'alpha_one',
        player2Username: 'bravo_two',
        player3Username: 'charlie_3',
        player4Username: 'delta_four',
        substitute1Username: '',
        substitute2Username: '',
      };
      const started = performance.now();
      const res = await postForm(web.url, `/register/${tid}`, fields, { cookie: player });
      const body = await res.text();
      expect(performance.now() - started).toBeLessThanOrEqual(2 * TIMEOUT_MS + 1000);
      expect(res.status).toBe(503);
      expect(body).toContain('We could not reach the server. Your details are kept');
      for (const value of Object.values(fields).filter(Boolean)) expect(body).toContain(`value="${value}"`);
      expect(body).not.toMatch(NO_INTERNALS);
    },
    30_000,
  );

  it('recovers: with the gateway back, every page answers as it did before', async () => {
    await proxy.set('pass');
    const results = await inBatches(cases(), 6, async (c) => ({ ...c, ...(await get(c.url, c.cookie)) }));
    const differing = results.filter((r) => r.status !== healthy.get(`${r.who} ${r.url}`)).map((r) => `${r.who} ${r.url}: ${r.status}`);
    expect(differing).toEqual([]);
    // And the forms work again.
    const player = cookies.find((c) => c.who === 'player')!.cookie;
    expect((await get(`/register/${tid}`, player)).body).not.toMatch(UNREACHABLE);
  }, 120_000);
});
