import { afterAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { openDatabase } from '../../gateway/src/db/index.js';
import { migrate } from '../../gateway/src/db/migrations.js';
import { adminToken, createStorage, createTournament, createUser, startGateway, type TestGateway } from './helpers.js';

describe('persistence and migrations', () => {
  const running: TestGateway[] = [];
  afterAll(async () => {
    for (const gw of running) await gw.stop().catch(() => {});
  });

  it('keeps accounts and tournaments across a restart on the same storage', async () => {
    const storage = await createStorage();
    const first = await startGateway({}, storage);
    running.push(first);
    const user = await createUser(first.api);
    const tournament = await createTournament(first.api, await adminToken(first.api), { name: 'Persistent Cup' });
    await first.stop();

    const second = await startGateway({}, storage);
    running.push(second);
    const login = await second.api.post('/api/auth/login', { emailOrPhone: user.email, password: user.password });
    expect(login.status).toBe(200);
    const read = await second.api.get(`/tournaments/${tournament.id}`);
    expect(read.status).toBe(200);
    expect(read.body.name).toBe('Persistent Cup');
  });

  it('runs migrations idempotently: a second run and a second start change nothing', async () => {
    const storage = await createStorage();
    const handle = await openDatabase({ databaseUrl: storage.databaseUrl, dataDir: storage.dataDir });
    try {
      const before = await sql<{ name: string }>`select name from kysely_migration order by name`.execute(handle.db);
      await migrate(handle.db, handle.dialect);
      await migrate(handle.db, handle.dialect);
      const after = await sql<{ name: string }>`select name from kysely_migration order by name`.execute(handle.db);
      expect(after.rows).toEqual(before.rows);
      expect(after.rows.length).toBeGreaterThan(0);
    } finally {
      await handle.close();
    }
    // And a gateway starting on the already-migrated storage works.
    const gw = await startGateway({}, storage);
    running.push(gw);
    expect((await gw.api.get('/healthz')).status).toBe(200);
  });

  it('commits durably: SQLite in WAL with full sync and foreign keys; PostgreSQL with synchronous commits', async () => {
    const storage = await createStorage();
    const handle = await openDatabase({ databaseUrl: storage.databaseUrl, dataDir: storage.dataDir });
    try {
      if (handle.dialect === 'sqlite') {
        const mode = await sql<{ journal_mode: string }>`pragma journal_mode`.execute(handle.db);
        const fk = await sql<{ foreign_keys: number }>`pragma foreign_keys`.execute(handle.db);
        const sync = await sql<{ synchronous: number }>`pragma synchronous`.execute(handle.db);
        expect([mode.rows[0]?.journal_mode, fk.rows[0]?.foreign_keys, sync.rows[0]?.synchronous]).toEqual(['wal', 1, 2]);
      } else {
        const sync = await sql<{ synchronous_commit: string }>`show synchronous_commit`.execute(handle.db);
        expect(sync.rows[0]?.synchronous_commit).toBe('on');
      }
    } finally {
      await handle.close();
    }
  });
});

describe('shutdown', () => {
  it('lets a request in flight finish its database work before the database closes', async () => {
    const gw = await startGateway();
    const u = `${Date.now()}`.slice(-8);
    // Registering hashes the password (tens of ms) between two database calls: close in that gap.
    const arrived = new Promise((r) => gw.app.server.once('request', r));
    const pending = gw.api.post('/api/auth/register', { email: `late${u}@test.example`, phone: `98${u}`, username: `late_${u}`, password: 'correct horse battery' });
    await arrived;
    await new Promise((r) => setTimeout(r, 5));
    await gw.stop();
    const res = await pending;
    expect(res.status).toBe(201);
  });
});
