// Issue 16, items 13 and 16 (decision 030): bodies nested deeper than any call's are refused with 400
// before anything walks them; clients that send their request slowly, or stop, are cut off.
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminToken, startGateway, type TestGateway } from './helpers.js';

const NESTED = 'This request is nested too deeply.';
const nestedArray = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);
const nestedObject = (depth: number) => '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);

describe('deeply nested JSON bodies', () => {
  let gw: TestGateway;
  let admin: string;
  const logs: string[] = [];
  beforeAll(async () => {
    gw = await startGateway({}, undefined, { log: (line) => logs.push(line) });
    gw.app.mailer.send = async () => {};
    admin = await adminToken(gw.api);
  });
  afterAll(() => gw.stop());

  const send = async (method: string, path: string, body: string) => {
    const res = await fetch(gw.url + path, {
      method,
      headers: { 'content-type': 'application/json', authorization: `Bearer ${admin}` },
      body,
    });
    return { status: res.status, body: await res.json().catch(() => null) };
  };

  it('answers 400 with a message, never 500, to a body nested 10,000 levels deep (object, array, in a field) on every call that takes one, and logs no error', async () => {
    const spec = (await gw.api.get('/openapi.json')).body;
    const bodies = {
      object: { text: nestedObject(10_000), errors: { a: NESTED } },
      array: { text: nestedArray(10_000), errors: { request: NESTED } },
      field: { text: `{"teamName":${nestedArray(10_000)}}`, errors: { teamName: NESTED } },
    };
    const wrong: string[] = [];
    let calls = 0;
    for (const [path, operations] of Object.entries<Record<string, any>>(spec.paths)) {
      for (const [method, operation] of Object.entries(operations)) {
        if (!['post', 'put', 'patch', 'delete'].includes(method)) continue;
        calls++;
        const url = path.replace(/\{[^}]+\}/g, '1');
        // The cover-image calls take multipart only and refuse anything else before reading it; a call that takes
        // JSON too (an organiser's page, decision 068) reads the JSON and refuses its nesting like any other.
        const content = operation.requestBody?.content ?? {};
        const multipart = Boolean(content['multipart/form-data']) && !content['application/json'];
        for (const [kind, { text, errors }] of Object.entries(bodies)) {
          const res = await send(method.toUpperCase(), url, text);
          const expected = multipart ? { status: 415 } : { status: 400, body: { message: NESTED, errors } };
          try {
            expect(res).toMatchObject(expected);
          } catch {
            wrong.push(`${method.toUpperCase()} ${path} (${kind}): ${res.status} ${JSON.stringify(res.body)}`);
          }
        }
      }
    }
    expect(calls).toBeGreaterThan(15);
    expect(wrong).toEqual([]);
    const entries = logs.map((line) => JSON.parse(line) as { level: number; err?: unknown });
    expect(entries.filter((e) => e.level >= 50)).toEqual([]);
    expect(logs.filter((line) => line.includes('"stack"'))).toEqual([]);
  });

  it('draws the line at 64 levels: a value 63 deep in an unknown field passes on to the call, 64 deep is refused naming the field', async () => {
    const login = (extra: string) =>
      send('POST', '/api/auth/login', `{"emailOrPhone":"nobody@test.example","password":"a wrong password","extra":${extra}}`);
    expect((await login(nestedArray(63))).status).toBe(401);
    expect(await login(nestedArray(64))).toEqual({ status: 400, body: { message: NESTED, errors: { extra: NESTED } } });
    expect(await login(nestedObject(64))).toEqual({ status: 400, body: { message: NESTED, errors: { extra: NESTED } } });
  });
});

/** A raw connection to the gateway: what it answered, and whether it closed the connection. */
function connect(gw: TestGateway) {
  const socket = net.connect(Number(new URL(gw.url).port), '127.0.0.1');
  let received = '';
  let closed = false;
  socket.on('data', (chunk) => (received += chunk));
  socket.on('error', () => {});
  const whenClosed = new Promise<void>((resolve) => socket.on('close', () => ((closed = true), resolve())));
  return {
    socket,
    received: () => received,
    closed: () => closed,
    whenClosed,
    /** Sends text one byte every everyMs until all is sent or the gateway closes the connection; the bytes sent. */
    async trickle(text: string, everyMs: number): Promise<number> {
      let sent = 0;
      while (sent < text.length && !closed) {
        await new Promise((resolve) => setTimeout(resolve, everyMs));
        if (!closed) socket.write(text[sent++]!);
      }
      return sent;
    },
  };
}

const loginHead = (length: number) =>
  `POST /api/auth/login HTTP/1.1\r\nHost: gateway\r\nContent-Type: application/json\r\nContent-Length: ${length}\r\n\r\n`;

describe('slow clients', () => {
  let gw: TestGateway;
  // Small timeouts through the environment, as an operator sets them: each byte below comes well
  // inside the idle timeout, so only the header and request deadlines can end the trickles.
  beforeAll(async () => {
    gw = await startGateway({ GATEWAY_HEADERS_TIMEOUT_MS: '1000', GATEWAY_REQUEST_TIMEOUT_MS: '1500', GATEWAY_IDLE_TIMEOUT_MS: '1000' });
  });
  afterAll(() => gw.stop());

  it('cuts off a body sent one byte at a time with 408 and a message, before it is complete', async () => {
    const body = JSON.stringify({ emailOrPhone: 'slow@test.example', password: 'p'.repeat(40) });
    const conn = connect(gw);
    conn.socket.write(loginHead(body.length));
    const sent = await conn.trickle(body, 200);
    expect(sent).toBeLessThan(body.length); // so the gateway closed the connection first
    await conn.whenClosed;
    expect(conn.received()).toMatch(/^HTTP\/1\.1 408 Request Timeout\r\n/);
    expect(JSON.parse(conn.received().split('\r\n\r\n')[1]!)).toEqual({
      message: 'The request took too long to arrive. Please try again.',
    });
  });

  it('cuts off headers sent one byte at a time with 408', async () => {
    const conn = connect(gw);
    conn.socket.write('POST /api/auth/login HTTP/1.1\r\nHost: gateway\r\n');
    const padding = `X-Padding: ${'a'.repeat(50)}`;
    const sent = await conn.trickle(padding, 200);
    expect(sent).toBeLessThan(padding.length);
    await conn.whenClosed;
    expect(conn.received()).toMatch(/^HTTP\/1\.1 408 /);
  });

  it('keeps a kept-alive connection through a pause between requests, but closes it when a body stops arriving', async () => {
    const conn = connect(gw);
    conn.socket.write('GET /healthz HTTP/1.1\r\nHost: gateway\r\n\r\n');
    await expect.poll(() => conn.received()).toContain('{"status":"ok"}');
    // Longer than the idle timeout: between requests the keep-alive timeout (72 s) applies, which the
    // web app's connection pool and the load balancer rely on (decision 026).
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(conn.closed()).toBe(false);
    conn.socket.write(`${loginHead(40)}{"emailOrPhone":`);
    // No further byte: the gateway must end it (the cap only keeps a failing run short).
    await Promise.race([conn.whenClosed, new Promise((resolve) => setTimeout(resolve, 10_000))]);
    expect(conn.closed()).toBe(true);
    expect(conn.received().match(/HTTP\/1\.1 200 /g)).toHaveLength(1);
  });
});
