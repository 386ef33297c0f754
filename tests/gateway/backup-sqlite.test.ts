import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { adminToken, createStorage, createTournament, createUser, startGateway, type TestGateway } from './helpers.js';

/** scripts/backup-sqlite.mjs (README "Deploying"): an online copy while the gateway runs, restorable as the database. */
// Runs in the SQLite pass of the gateway project only (vitest.config.ts leaves it out on PostgreSQL).
describe('SQLite online backup', () => {
  const running: TestGateway[] = [];
  afterAll(async () => {
    for (const gw of running) await gw.stop().catch(() => {});
  });
  const backup = (dataDir: string, ...args: string[]) =>
    spawnSync(process.execPath, ['scripts/backup-sqlite.mjs', ...args], { env: { ...process.env, DATA_DIR: dataDir }, encoding: 'utf8' });

  it('copies the live database, last commits (still in the WAL) included, and the copy starts a gateway', async () => {
    const storage = await createStorage();
    const live = await startGateway({}, storage);
    running.push(live);
    const user = await createUser(live.api);
    const tournament = await createTournament(live.api, await adminToken(live.api), { name: 'Backed Up Cup' });
    expect(fs.statSync(path.join(storage.dataDir, 'custom-room.sqlite-wal')).size).toBeGreaterThan(0);

    const dest = path.join(storage.dataDir, 'copy.sqlite');
    const r = backup(storage.dataDir, dest);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('integrity ok');
    expect(backup(storage.dataDir, dest).status).toBe(1); // never overwrites

    const restored = await createStorage();
    fs.copyFileSync(dest, path.join(restored.dataDir, 'custom-room.sqlite'));
    const gw = await startGateway({}, restored);
    running.push(gw);
    expect((await gw.api.post('/api/auth/login', { emailOrPhone: user.email, password: user.password })).status).toBe(200);
    expect((await gw.api.get(`/tournaments/${tournament.id}`)).body.name).toBe('Backed Up Cup');
  });

  it('says so when DATA_DIR has no database', async () => {
    const { dataDir } = await createStorage();
    const r = backup(dataDir);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('no database at');
  });
});
