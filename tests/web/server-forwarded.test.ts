import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientAddress, forwardedHeaders, requestUrl } from '../../server/forwarded';
import { serve } from './support/server-app';

// Forwarded headers are believed only from TRUST_PROXY (decision 020): from anyone else they are dropped.

async function start(trust: false | string[]) {
  const app = express();
  app.set('trust proxy', trust);
  app.use(forwardedHeaders(app.get('trust proxy fn')));
  app.get('*', (req, res) => {
    res.json({
      forwarded: Object.fromEntries(Object.entries(req.headers).filter(([name]) => name.includes('forward'))),
      address: clientAddress(req),
      url: requestUrl(req)?.href ?? null,
    });
  });
  return serve(app);
}

const spoofed = {
  'x-forwarded-for': '203.0.113.9',
  'x-forwarded-host': 'evil.example',
  'x-forwarded-proto': 'https',
  'x-forwarded-port': '443',
  forwarded: 'for=203.0.113.9;proto=https',
};

describe('untrusted peer (TRUST_PROXY unset)', () => {
  let web: Awaited<ReturnType<typeof start>>;
  beforeAll(async () => (web = await start(false)));
  afterAll(() => web?.close());

  it('drops every forwarded header, so the socket address, Host and http are what count; no HSTS on http', async () => {
    const res = await fetch(`${web.url}/about?x=1`, { headers: spoofed });
    expect(res.headers.get('strict-transport-security')).toBeNull();
    const seen = await res.json();
    expect(seen.forwarded).toEqual({});
    expect(seen.address).toBe('127.0.0.1');
    expect(seen.url).toBe(`${web.url}/about?x=1`);
  });
});

describe('trusted proxy (TRUST_PROXY=loopback)', () => {
  let web: Awaited<ReturnType<typeof start>>;
  beforeAll(async () => (web = await start(['loopback'])));
  afterAll(() => web?.close());

  it("believes the proxy: the client's address, host and https, and sends HSTS", async () => {
    // As @remix-run/express: the port comes from X-Forwarded-Host, else from Host.
    const res = await fetch(`${web.url}/about`, { headers: { ...spoofed, 'x-forwarded-host': 'cr.example:443' } });
    expect(res.headers.get('strict-transport-security')).toBe('max-age=31536000; includeSubDomains');
    const seen = await res.json();
    expect(seen.address).toBe('203.0.113.9');
    expect(seen.url).toBe('https://cr.example/about');
  });
});

describe('clientAddress', () => {
  it('strips the IPv4-in-IPv6 prefix (the gateway counts rate limits by the address)', () => {
    const req = (ip: string) => ({ ip, socket: { remoteAddress: ip } }) as unknown as express.Request;
    expect(clientAddress(req('::ffff:10.0.0.7'))).toBe('10.0.0.7');
    expect(clientAddress(req('::1'))).toBe('::1');
  });
});
