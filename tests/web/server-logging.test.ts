import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { remixRequest } from '../../server/remix-adapter';
import { serve, withAccessLog } from './support/server-app';

// One request id per request (decision 036): the `reqId` of the web's log lines is the x-request-id
// the Request handed to Remix carries, which the gateway client sends on (app/utils/gateway.server.ts
// requestId()) and the gateway logs as its own reqId.

let web: Awaited<ReturnType<typeof serve>>;
let lines: Record<string, unknown>[];
const handed: string[] = [];

beforeAll(async () => {
  const app = express();
  lines = withAccessLog(app);
  app.get('/static.css', (_req, res) => void res.end('body{}'));
  app.all('*', (req, res) => {
    const request = remixRequest(req, res, undefined)!;
    handed.push(request.headers.get('x-request-id')!);
    req.log.info('inside');
    res.status(req.path === '/broken' ? 503 : 200).end('ok');
  });
  web = await serve(app);
});
afterAll(() => web?.close());

const linesOf = (reqId: string) => lines.filter((l) => l.reqId === reqId);

describe('request id and access lines', () => {
  it("takes a proxy's sane x-request-id, hands it to Remix and logs it as reqId on every line", async () => {
    await fetch(`${web.url}/about`, { headers: { 'x-request-id': 'lb-abc.123:4' } });
    expect(handed.at(-1)).toBe('lb-abc.123:4');
    const own = linesOf('lb-abc.123:4');
    expect(own.map((l) => l.msg)).toEqual(['inside', 'GET /about 200']);
    expect(own[1]).toMatchObject({ level: 'info', req: { method: 'GET', url: '/about' }, res: { statusCode: 200 } });
    expect(own[1]!.responseTime).toEqual(expect.any(Number));
  });

  it('makes a new id for a missing or insane one, and Remix gets that same id', async () => {
    for (const given of [undefined, 'x'.repeat(200), 'has spaces', 'a\u00e9']) {
      await fetch(`${web.url}/about`, { headers: given ? { 'x-request-id': encodeURI(given) === given ? given : encodeURI(given) } : {} });
      const id = handed.at(-1)!;
      expect(id).toMatch(/^[0-9a-f-]{36}$/);
      expect(linesOf(id).map((l) => l.msg)).toEqual(['inside', 'GET /about 200']);
    }
  });

  it('logs URLs without secret query values, and a 5xx answer as a warning', async () => {
    await fetch(`${web.url}/broken?token=S3CRET&x=1`, { headers: { 'x-request-id': 'rid-5xx' } });
    const [access] = linesOf('rid-5xx').filter((l) => l.msg !== 'inside');
    expect(access).toMatchObject({ level: 'warn', req: { url: '/broken?token=[redacted]&x=1' }, res: { statusCode: 503 } });
    expect(JSON.stringify(lines)).not.toContain('S3CRET');
  });
});
