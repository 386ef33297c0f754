import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminToken, createTournament, createUser, startGateway, teamFields, type TestGateway } from './helpers.js';

describe('GET /generation', () => {
  let gw: TestGateway;
  let admin: string;
  beforeAll(async () => {
    gw = await startGateway();
    admin = await adminToken(gw.api);
  });
  afterAll(() => gw.stop());

  const generation = async () => {
    const res = await gw.api.get('/generation');
    expect(res.status).toBe(200);
    return res.body.generation as string;
  };

  it('is public, JSON and never cached', async () => {
    const res = await gw.api.get('/generation');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(Object.keys(res.body)).toEqual(['generation']);
    expect(typeof res.body.generation).toBe('string');
  });

  it('stays the same while nothing public changes, and changes with a write that does', async () => {
    const before = await generation();
    expect(await generation()).toBe(before);
    await createUser(gw.api); // accounts and sessions are not public answers
    expect(await generation()).toBe(before);
    const t = await createTournament(gw.api, admin);
    const afterCreate = await generation();
    expect(afterCreate).not.toBe(before);
    const player = await createUser(gw.api);
    expect((await gw.api.post(`/registrations/${t.id}`, teamFields(), player.token)).status).toBe(201);
    expect(await generation()).not.toBe(afterCreate);
  });

  it('is in the OpenAPI document', async () => {
    const doc = (await gw.api.get('/openapi.json')).body;
    expect(doc.paths['/generation'].get.responses['200']).toBeDefined();
  });
});
