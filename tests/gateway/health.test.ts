import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGateway, type TestGateway } from './helpers.js';

describe('operations endpoints', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startGateway();
  });
  afterAll(() => gw.stop());

  it('answers /healthz when the database is reachable', async () => {
    const res = await gw.api.get('/healthz');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ok' });
  });

  it('echoes a well-formed x-request-id and makes one up otherwise', async () => {
    const given = await gw.api.request('GET', '/healthz', { headers: { 'x-request-id': 'web-abc-123' } });
    expect(given.headers.get('x-request-id')).toBe('web-abc-123');
    const bad = await gw.api.request('GET', '/healthz', { headers: { 'x-request-id': 'has spaces and <tags>' } });
    expect(bad.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('publishes the token signing key as a JWKS', async () => {
    const res = await gw.api.get('/.well-known/jwks.json');
    expect(res.status).toBe(200);
    expect(res.body.keys).toHaveLength(1);
    expect(res.body.keys[0]).toMatchObject({ kty: 'EC', crv: 'P-256', alg: 'ES256', use: 'sig' });
    expect(res.body.keys[0].d).toBeUndefined();
  });

  it('answers unknown routes with a JSON 404', async () => {
    const res = await gw.api.get('/no/such/route');
    expect(res.status).toBe(404);
    expect(res.body.message).toMatch(/No route/);
  });

  it('serves a generated OpenAPI 3.1 description', async () => {
    const res = await gw.api.get('/openapi.json');
    expect(res.status).toBe(200);
    expect(res.body.openapi).toBe('3.1.0');
    expect(Object.keys(res.body.paths)).toContain('/healthz');
  });
});
