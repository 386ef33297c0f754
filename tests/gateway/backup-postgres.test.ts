import { spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { adminToken, createTournament, createUser, startGateway, TEST_DATABASE_URL, type TestGateway } from './helpers.js';

/**
 * README "Deploying", backups on PostgreSQL, run exactly as written there: `pg_dump -Fc -d
 * "$DATABASE_URL" -f custom-room.dump`, then `pg_restore --no-owner -d "$DATABASE_URL" custom-room.dump`
 * into an empty database, and a gateway started on the restored copy has every account and
 * tournament. Each database is a real one of its own (as in production), made and dropped here,
 * not a schema of the shared test database.
 */
// Runs in the PostgreSQL pass of the gateway project only (vitest.config.ts leaves it out on SQLite).
describe('PostgreSQL backup and restore (pg_dump / pg_restore)', () => {
  const running: TestGateway[] = [];
  const databases: string[] = [];
  const admin = () => new pg.Client({ connectionString: TEST_DATABASE_URL });
  const urlOf = (name: string) => {
    const url = new URL(TEST_DATABASE_URL!);
    url.pathname = `/${name}`;
    url.searchParams.delete('options');
    return url.toString();
  };
  async function createDatabase(): Promise<string> {
    const name = `bk_${crypto.randomBytes(6).toString('hex')}`;
    const client = admin();
    await client.connect();
    try {
      await client.query(`create database ${name}`);
    } finally {
      await client.end();
    }
    databases.push(name);
    return urlOf(name);
  }
  afterAll(async () => {
    for (const gw of running) await gw.stop().catch(() => {});
    const client = admin();
    await client.connect();
    for (const name of databases) await client.query(`drop database if exists ${name} with (force)`).catch(() => {});
    await client.end();
  });
  const run = (command: string, ...args: string[]) =>
    spawnSync(command, args, { encoding: 'utf8', env: { ...process.env, PGCONNECT_TIMEOUT: '10' } });

  it('a pg_dump of the live database restores into an empty one that a gateway starts on with everything in it', async () => {
    const liveUrl = await createDatabase();
    const live = await startGateway({}, { dataDir: fs.mkdtempSync(path.join(os.tmpdir(), 'gw-bk-')), databaseUrl: liveUrl });
    running.push(live);
    const user = await createUser(live.api);
    const tournament = await createTournament(live.api, await adminToken(live.api), { name: 'Dumped Cup' });

    const dump = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'pg-dump-')), 'custom-room.dump');
    const dumped = run('pg_dump', '-Fc', '-d', liveUrl, '-f', dump);
    expect(dumped.stderr).toBe('');
    expect(dumped.status).toBe(0);
    expect(fs.statSync(dump).size).toBeGreaterThan(0);

    const restoredUrl = await createDatabase();
    const restored = run('pg_restore', '--no-owner', '-d', restoredUrl, dump);
    expect(restored.stderr).toBe('');
    expect(restored.status).toBe(0);

    const gw = await startGateway({}, { dataDir: fs.mkdtempSync(path.join(os.tmpdir(), 'gw-rs-')), databaseUrl: restoredUrl });
    running.push(gw);
    expect((await gw.api.post('/api/auth/login', { emailOrPhone: user.email, password: user.password })).status).toBe(200);
    expect((await gw.api.get(`/tournaments/${tournament.id}`)).body.name).toBe('Dumped Cup');
    // The restored copy takes writes: its id sequences came along (a new tournament does not collide).
    const next = await createTournament(gw.api, await adminToken(gw.api), { name: 'After Restore Cup' });
    expect(next.id).toBeGreaterThan(tournament.id);
  });
});
