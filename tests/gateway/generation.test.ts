import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { coalesce } from '@custom-room/toolkit';
import { bumpGeneration } from '../../gateway/src/db/generation.js';
import { openDatabase, type DatabaseHandle } from '../../gateway/src/db/index.js';
import { adminToken, createStorage, createTournament, createUser, startGateway, teamFields, type TestGateway } from './helpers.js';

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

describe('coalesce (how PostgreSQL reads the generation)', () => {
  it('never hands a caller a run that started before it called; callers waiting share the next run', async () => {
    const release: Array<() => void> = [];
    let runs = 0;
    const read = coalesce(
      () =>
        new Promise<number>((resolve) => {
          const n = ++runs;
          release.push(() => resolve(n));
        }),
    );
    const flush = () => new Promise((r) => setImmediate(r));
    const first = read();
    const [second, third] = [read(), read()]; // arrived while run 1 was under way
    expect(runs).toBe(1);
    release[0]!();
    expect(await first).toBe(1);
    await flush();
    expect(runs).toBe(2);
    const fourth = read(); // arrived while run 2 was under way
    release[1]!();
    expect([await second, await third]).toEqual([2, 2]);
    await flush();
    expect(runs).toBe(3);
    release[2]!();
    expect(await fourth).toBe(3);
    expect(runs).toBe(3);
  });
});

describe('settleWrites: whose answer waits out the generation lease (decision 023)', () => {
  let store: DatabaseHandle;
  beforeAll(async () => {
    const storage = await createStorage();
    store = await openDatabase({ databaseUrl: storage.databaseUrl, dataDir: storage.dataDir });
  });
  afterAll(() => store.close());

  it('a write after a bump; a read only if the bump committed while it was answered (a GET that released places on its way)', async () => {
    const before = performance.now();
    await store.writeTransaction((trx) => bumpGeneration(trx, 1));
    const after = performance.now();
    if (store.dialect === 'sqlite') {
      // Read per turn of the event loop: nothing to wait out.
      expect([store.settleWrites(), store.settleWrites(before)]).toEqual([undefined, undefined]);
      return;
    }
    expect(store.settleWrites()).toBeInstanceOf(Promise); // a write's answer
    expect(store.settleWrites(before)).toBeInstanceOf(Promise); // a read that saw the bump made
    expect(store.settleWrites(after)).toBeUndefined(); // a read that started after it
    await store.settleWrites();
    expect(store.settleWrites()).toBeUndefined(); // the lease has run out
  });
});
