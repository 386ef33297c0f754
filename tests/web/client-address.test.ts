import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { json, startGatewayStub, useStubEnv, type GatewayStub } from './support/gateway-stub';

// Issue 10, defect 1 (web side): the gateway counts rate limits by the X-Forwarded-For the web app
// sends, so that header is the address the web server worked out, never one the browser wrote.

let stub: GatewayStub;
let gateway: typeof import('~/utils/gateway.server');
let client: typeof import('~/utils/client.server');
let env: typeof import('~/utils/env.server');
const saved = { ...process.env };

beforeAll(async () => {
  stub = await startGatewayStub();
  await useStubEnv(stub);
  env = await import('~/utils/env.server');
  gateway = await import('~/utils/gateway.server');
  client = await import('~/utils/client.server');
});
afterAll(() => stub.close());

const spoofed = () => new Request('http://localhost/tournaments', { headers: { 'x-forwarded-for': '198.51.100.9, 10.0.0.1' } });

describe('the client address sent to the gateway', () => {
  it("is never the browser's own X-Forwarded-For", async () => {
    stub.answer((_req, res) => json(res, 200, []));
    await gateway.gateway.listTournaments(spoofed());
    expect(stub.seen.at(-1)!.headers['x-forwarded-for']).toBeUndefined();
  });

  it('is the one address the server gave, inside the request it handles', async () => {
    stub.answer((_req, res) => json(res, 200, []));
    await client.runWithClient({ address: '203.0.113.7' }, async () => {
      await new Promise((r) => setTimeout(r, 5)); // still known after an await
      await gateway.gateway.listTournaments(spoofed());
    });
    expect(stub.seen.at(-1)!.headers['x-forwarded-for']).toBe('203.0.113.7');
  });

  it('belongs to its own request when several run at once', async () => {
    stub.answer((req, res) => setTimeout(() => json(res, 200, []), req.headers['x-forwarded-for'] === '203.0.113.1' ? 30 : 1));
    stub.seen.length = 0;
    await Promise.all(
      ['203.0.113.1', '203.0.113.2', '203.0.113.3'].map((address) =>
        client.runWithClient({ address }, () => gateway.gateway.listTournaments(new Request(`http://localhost/?${address}`))),
      ),
    );
    expect(stub.seen.map((r) => r.headers['x-forwarded-for']).sort()).toEqual(['203.0.113.1', '203.0.113.2', '203.0.113.3']);
  });
});

describe('share images through the web app (issue 27 item 16)', () => {
  it("send the client's address, so the gateway's renders per address count each visitor, and pass 429/503 on with Retry-After", async () => {
    const images = await import('~/utils/share-images.server');
    stub.answer((req, res) => {
      const busy = req.url?.includes('day=2');
      res.writeHead(busy ? 503 : 429, { 'content-type': 'application/json', 'retry-after': busy ? '3' : '41' });
      res.end(JSON.stringify({ message: 'later' }));
    });
    const limited = await client.runWithClient({ address: '203.0.113.9' }, async () =>
      images.pointsTableImage(
        new Request('http://localhost/tournaments/4/points-table.png?day=1', { headers: { 'x-forwarded-for': '198.51.100.9' } }),
        '4',
      ),
    );
    expect(stub.seen.at(-1)!.headers['x-forwarded-for']).toBe('203.0.113.9');
    expect([limited.status, limited.headers.get('retry-after'), limited.headers.get('cache-control')]).toEqual([429, '41', 'no-store']);
    const busy = await images.pointsTableImage(new Request('http://localhost/tournaments/4/points-table.png?day=2'), '4');
    expect([busy.status, busy.headers.get('retry-after')]).toEqual([503, '3']);
  });
});

describe('isHttps', () => {
  it('reads the URL the server built (its protocol already weighs TRUST_PROXY), never the header', () => {
    expect(client.isHttps(new Request('https://play.example/login'))).toBe(true);
    expect(client.isHttps(new Request('http://play.example/login', { headers: { 'x-forwarded-proto': 'https' } }))).toBe(false);
  });
});

describe('TRUST_PROXY (web)', () => {
  afterEach(() => {
    process.env = { ...saved, GATEWAY_URL: stub.base };
    env.resetEnvForTests();
  });
  const trustProxy = (value: string | undefined) => {
    process.env = {
      ...saved,
      GATEWAY_URL: stub.base,
      DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'env-')),
      SESSION_SECRET: 'test-secret-at-least-sixteen',
      TRUST_PROXY: value,
    };
    env.resetEnvForTests();
    return env.getEnv().TRUST_PROXY;
  };

  it('trusts nobody unless set; takes a hop count or a list of addresses and ranges', () => {
    expect(trustProxy(undefined)).toBe(false);
    expect(trustProxy('false')).toBe(false);
    expect(trustProxy('1')).toBe(1);
    expect(trustProxy('10.0.0.0/8, 127.0.0.1,::1,loopback')).toEqual(['10.0.0.0/8', '127.0.0.1', '::1', 'loopback']);
  });

  it('refuses true (every hop) and anything that is not an address, naming the variable', () => {
    for (const bad of ['true', 'proxy.example', '10.0.0.0/33', '127.0.0.1,,::1']) {
      expect(() => trustProxy(bad), bad).toThrow(/^TRUST_PROXY: must be false, a number of proxy hops/);
    }
  });
});
