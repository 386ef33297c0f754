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

  it('documents every call of spec §7 (and our extensions) with its exact method and path', async () => {
    const { paths } = (await gw.api.get('/openapi.json')).body as { paths: Record<string, Record<string, unknown>> };
    const documented = new Set(Object.entries(paths).flatMap(([path, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${path}`)));
    const expected = [
      'GET /tournaments',
      'GET /tournaments/{id}',
      'POST /tournaments/add',
      'PUT /tournaments/admin/update/{id}',
      'DELETE /tournaments/admin/delete{id}',
      'GET /tournaments/{id}/points-table/day',
      'GET /tournaments/{id}/points-table/overall',
      'POST /tournaments/{id}/points-table',
      'POST /api/auth/login',
      'POST /api/auth/register',
      'GET /api/profile/get',
      'POST /api/profile/create',
      'PUT /api/profile/update',
      'POST /registrations/{tournamentId}',
      'GET /registrations/user',
      'GET /registrations/{tournamentId}',
      'PUT /registrations/{tournamentId}',
      'GET /registrations/tournament/{tournamentId}',
      'GET /matches/tournament/{tournamentId}',
      'POST /matches',
      'PUT /matches/{id}',
      'POST /api/auth/password-reset/request',
      'POST /api/auth/password-reset/confirm',
      // Decision 019: ending tokens.
      'POST /api/auth/logout',
      'POST /api/auth/logout-all',
      'GET /healthz',
      'GET /.well-known/jwks.json',
      // The admin screens of issue 8.
      'PUT /tournaments/{id}/points-table/matches/{day}/{match}',
      'GET /tournaments/{id}/points-table/results',
      'GET /tournaments/admin/summary',
      'PUT /registrations/admin/payments',
      'PUT /registrations/admin/{rid}/payment',
    ];
    expect(expected.filter((call) => !documented.has(call))).toEqual([]);
  });
});
