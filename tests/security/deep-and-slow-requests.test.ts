// Issue 16, item 13 (decision 030): bodies nested deeper than any call's are refused with 400 before
// anything walks them.
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
    const res = await fetch(gw.url + path, { method, headers: { 'content-type': 'application/json', authorization: `Bearer ${admin}` }, body });
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
        // The cover-image calls take multipart only and refuse anything else before reading it.
        const multipart = Boolean(operation.requestBody?.content?.['multipart/form-data']);
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
    const login = (extra: string) => send('POST', '/api/auth/login', `{"emailOrPhone":"nobody@test.example","password":"a wrong password","extra":${extra}}`);
    expect((await login(nestedArray(63))).status).toBe(401);
    expect(await login(nestedArray(64))).toEqual({ status: 400, body: { message: NESTED, errors: { extra: NESTED } } });
    expect(await login(nestedObject(64))).toEqual({ status: 400, body: { message: NESTED, errors: { extra: NESTED } } });
  });
});
