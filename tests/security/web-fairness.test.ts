import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unique } from '../e2e/support/api';
import { GatewayApi, Stack, webLogin } from './web-helpers';

// Issue 16, item 11 (decision 031): 300 parallel requests with a bogus session cookie from one client
// took all 32 request slots of the web server, and a real player's /my-tournaments waited behind them.
// Checked by behaviour, not timing: a web server with 4 slots (so 1 per client address) reaches the
// gateway through a proxy of this test that holds every tournament-list call until released. Two
// flooding clients (127.0.0.2 and 127.0.0.3; the server sees the socket's address) each send requests
// that render the list; a player on 127.0.0.1 must get their page while every flood request is held.

let stack: Stack;
let api: GatewayApi;
let holder: Awaited<ReturnType<typeof startHoldingProxy>>;
let web: { url: string };

/** A pass-through to the gateway that holds `GET /tournaments` while `holding`; counts what it holds per X-Forwarded-For (the client the web server saw). */
async function startHoldingProxy(target: string) {
  const held: { client: string; release: () => void }[] = [];
  const waiters: (() => void)[] = [];
  let holding = false;
  let mostHeld = new Map<string, number>();
  const heldBy = (client: string) => held.filter((h) => h.client === client).length;
  const server = http.createServer((req, res) => {
    const forward = () => {
      const upstream = http.request(new URL(req.url ?? '/', target), { method: req.method, headers: req.headers }, (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      });
      upstream.on('error', () => res.destroy());
      req.pipe(upstream);
    };
    if (!holding || req.method !== 'GET' || req.url !== '/tournaments') return forward();
    const client = String(req.headers['x-forwarded-for']);
    const entry = { client, release: forward };
    held.push(entry);
    // A call the web server gave up on (its gateway timeout) is no longer held by anyone.
    res.on('close', () => held.includes(entry) && held.splice(held.indexOf(entry), 1));
    mostHeld.set(client, Math.max(mostHeld.get(client) ?? 0, heldBy(client)));
    for (const wake of waiters.splice(0)) wake();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    hold() {
      holding = true;
      mostHeld = new Map();
    },
    heldBy,
    mostHeld: () => Object.fromEntries(mostHeld),
    /** Resolves once at least n calls are held. */
    async untilHeld(n: number) {
      while (held.length < n) await new Promise<void>((resolve) => waiters.push(resolve));
    },
    /** Stops holding and lets every held call through. */
    releaseAll() {
      holding = false;
      for (const h of held.splice(0)) h.release();
    },
    close: () =>
      new Promise<void>((resolve) => {
        holding = false;
        for (const h of held.splice(0)) h.release();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A GET from a given local address (the client address the web server sees), on a connection of its own. */
function getFrom(localAddress: string, url: string, cookie: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { localAddress, agent: false, headers: { cookie } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
  });
}

beforeAll(async () => {
  stack = await Stack.start({ label: 'web-fairness' });
  api = new GatewayApi(stack.info);
  await api.createTournament({ name: `Fair Cup ${unique()}` });
  holder = await startHoldingProxy(stack.info.gatewayUrl);
  web = await stack.startExtraWeb({ GATEWAY_URL: holder.url, WEB_MAX_ACTIVE_REQUESTS: '4' });
}, 90_000);

afterAll(async () => {
  await holder?.close();
  await stack?.stop();
});

describe('item 11: request slots shared fairly between clients (addresses; signed-in accounts, decision 086)', () => {
  it("two clients flooding with bogus session cookies hold one slot each; a player's page gets through; the floods then finish", async () => {
    const player = await api.createPlayer();
    const { cookie } = await webLogin(web.url, player.email, player.password);

    holder.hold();
    const floods = ['127.0.0.2', '127.0.0.3'].flatMap((address) =>
      Array.from({ length: 6 }, (_, i) => getFrom(address, `${web.url}/tournaments?flood=${unique()}${i}`, '__session=bogus')),
    );
    await holder.untilHeld(2);

    // Every flood request is still held at the gateway (none can finish) while the player's page is answered.
    const mine = await getFrom('127.0.0.1', `${web.url}/my-tournaments`, cookie);
    expect(mine.status).toBe(200);
    expect(mine.body).toContain(`Your profile (${player.username})`);
    expect(holder.heldBy('127.0.0.2')).toBe(1);
    expect(holder.heldBy('127.0.0.3')).toBe(1);

    holder.releaseAll();
    const answers = await Promise.all(floods);
    expect(answers.map((a) => a.status)).toEqual(Array(12).fill(200));
    // Never more than one slot per flooding client, though the server had four.
    expect(holder.mostHeld()).toEqual({ '127.0.0.2': 1, '127.0.0.3': 1 });
  });

  it('signed-in players behind one address (a carrier NAT) are a client each: they fill every slot, not one (decision 086)', async () => {
    const players = await Promise.all(Array.from({ length: 4 }, () => api.createPlayer()));
    const cookies = await Promise.all(players.map(async (p) => (await webLogin(web.url, p.email, p.password)).cookie));

    holder.hold();
    const pages = cookies.map((cookie, i) => getFrom('127.0.0.4', `${web.url}/tournaments?nat=${unique()}${i}`, cookie));
    // Per address they would hold one slot, and this would wait for ever: per account, all four are in at once.
    await holder.untilHeld(4);
    expect(holder.heldBy('127.0.0.4')).toBe(4);

    holder.releaseAll();
    expect((await Promise.all(pages)).map((a) => a.status)).toEqual(Array(4).fill(200));
  });
});
