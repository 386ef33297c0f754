import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect, sql } from 'kysely';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../gateway/src/db/index.js';
import { migrate } from '../../gateway/src/db/migrations.js';
import { startSession } from '../../gateway/src/lib/sessions.js';
import {
  adminToken,
  createStorage,
  createTournament,
  createUser,
  isoIn,
  startGateway,
  teamFields,
  type Storage,
  type TestGateway,
} from './helpers.js';

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

describe('migration 008-name-skeletons (decision 033)', () => {
  const running: TestGateway[] = [];
  afterAll(async () => {
    for (const gw of running) await gw.stop().catch(() => {});
  });
  /** The storage's database as a bare Kysely, migrated only as far as asked: the gateway of an older release. */
  async function olderRelease(storage: Storage, upTo: string): Promise<Kysely<any>> {
    const db = storage.databaseUrl
      ? new Kysely<any>({ dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: storage.databaseUrl, max: 1 }) }) })
      : new Kysely<any>({ dialect: new SqliteDialect({ database: new SQLite(path.join(storage.dataDir, 'custom-room.sqlite')) }) });
    await migrate(db, storage.databaseUrl ? 'postgres' : 'sqlite', upTo);
    return db;
  }
  const lower = (v: string) => v.normalize('NFC').trim().replace(/\s+/g, ' ').toLowerCase();

  it('keys the names stored before it: look-alikes already stored all stay, the oldest holds the name, new look-alikes are refused', async () => {
    const storage = await createStorage();
    const db = await olderRelease(storage, '004-cache-generation');
    const now = new Date().toISOString();
    const users: Record<string, number> = {};
    for (const username of ['Iron_old', 'lron_old', 'owner_a', 'owner_b', 'owner_c']) {
      const row = await db
        .insertInto('users')
        .values({
          email: `${username}@test.example`,
          phone: `+9199${String(Object.keys(users).length).padStart(8, '0')}`,
          username,
          username_lower: username.toLowerCase(),
          password_hash: 'x',
          roles: 'ROLE_USER',
          created_at: now,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      users[username] = Number(row.id);
    }
    const tournament = await db
      .insertInto('tournaments')
      .values({
        name: 'Old Cup',
        game: 'BGMI',
        description: '',
        start_date: isoIn(10),
        end_date: isoIn(11),
        registration_open: isoIn(-1),
        registration_close: isoIn(9),
        max_teams: 16,
        format: 'Squad',
        platform: 'Mobile',
        entry_fee: 0,
        prize_pool: '',
        cover_image_id: null,
        status: 'Registration Ongoing',
        overview: '',
        created_at: now,
        updated_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const tid = Number(tournament.id);
    // As the old rules let them in: "Soul" and a Cyrillic "Ѕоul"; a squad of four "Jonathan".
    const teams: [string, string, string[]][] = [
      ['owner_a', 'Soul', ['Jonathan', 'a2_old', 'a3_old', 'a4_old']],
      ['owner_b', 'Ѕоul', ['b1_old', 'b2_old', 'b3_old', 'b4_old']],
      ['owner_c', 'Squad C', ['Jonathan\uFE0F', 'Jonathan\u034F', 'Jonathan\u{E0100}', 'Jοnathan']],
    ];
    const rids: number[] = [];
    for (const [owner, teamName, igns] of teams) {
      const row = await db
        .insertInto('registrations')
        .values({
          tournament_id: tid,
          user_id: users[owner],
          team_name: teamName,
          team_name_lower: lower(teamName),
          player1_username: igns[0],
          player2_username: igns[1],
          player3_username: igns[2],
          player4_username: igns[3],
          substitute1_username: '',
          substitute2_username: '',
          payment_status: 'pending',
          payment_reference: '',
          created_at: now,
          updated_at: now,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      rids.push(Number(row.id));
      await db
        .insertInto('registration_igns')
        .values(igns.map((ign) => ({ tournament_id: tid, registration_id: row.id, ign_lower: lower(ign) })))
        .execute();
    }
    await db.destroy();

    const gw = await startGateway({}, storage);
    running.push(gw);
    const admin = await adminToken(gw.api);
    const listed = (await gw.api.get(`/registrations/tournament/${tid}`, admin)).body;
    expect(listed.map((r: any) => [r.teamName, r.player1Username, r.player4Username])).toEqual(
      teams.map(([, name, igns]) => [name, igns[0], igns[3]]),
    );

    // New look-alikes of the stored names are refused.
    const newcomer = await createUser(gw.api);
    const register = (fields: Record<string, string>) => gw.api.post(`/registrations/${tid}`, teamFields(fields), newcomer.token);
    expect((await register({ teamName: 'ＳＯＵＬ' })).body.errors).toEqual({ teamName: 'A team with this name is already registered.' });
    expect((await register({ player2Username: '𝐉𝐨𝐧𝐚𝐭𝐡𝐚𝐧' })).body.errors).toEqual({
      player2Username: '𝐉𝐨𝐧𝐚𝐭𝐡𝐚𝐧 is already playing for another team in this tournament.',
    });
    const account = await gw.api.post('/api/auth/register', {
      email: 'new-iron@test.example',
      phone: '9876501234',
      username: 'IRON_OLD',
      password: 'a good long password',
    });
    expect([account.status, account.body.errors]).toEqual([409, { username: 'This username is already taken.' }]);

    // The oldest of each look-alike group holds the name; the later ones hold it marked with their id.
    const keys = await gw.app.store.db
      .selectFrom('registrations')
      .select(['id', 'team_name_key', 'team_name_shape'])
      .where('tournament_id', '=', tid)
      .orderBy('id')
      .execute();
    expect(keys.map((k) => [k.team_name_key, k.team_name_shape])).toEqual([
      ['soul', 'soul'],
      [`soul\u0001${rids[1]}`, `soul\u0001${rids[1]}`],
      ['squad c', 'squad c'],
    ]);
    const squad = await gw.app.store.db.selectFrom('registration_igns').select('ign_key').where('registration_id', '=', rids[2]!).execute();
    expect(squad.map((r) => r.ign_key).sort()).toEqual(teams[2]![2].map((ign) => `jonathan\u0001${rids[2]}:${lower(ign)}`).sort());
    const users008 = await gw.app.store.db
      .selectFrom('users')
      .select(['username', 'username_key', 'username_shape'])
      .where('username', 'in', ['Iron_old', 'lron_old'])
      .orderBy('id')
      .execute();
    expect(users008).toEqual([
      { username: 'Iron_old', username_key: 'iron_old', username_shape: 'lron_old' },
      { username: 'lron_old', username_key: 'lron_old', username_shape: `lron_old\u0001${users.lron_old}` },
    ]);

    // The later look-alike team keeps playing, and must take a name of its own at its next edit.
    const { token } = await startSession(gw.app.store.db, gw.app.tokens, { id: users.owner_b!, username: 'owner_b', roles: ['ROLE_USER'] });
    const edit = (teamName: string) =>
      gw.api.put(
        `/registrations/${tid}`,
        { ...teams[1]![2].reduce((f, ign, i) => ({ ...f, [`player${i + 1}Username`]: ign }), {}), teamName },
        token,
      );
    expect((await edit('Ѕоul')).body.errors).toEqual({ teamName: 'A team with this name is already registered.' });
    expect((await edit('Soul Reborn')).status).toBe(200);
  });
});

describe('shutdown', () => {
  it('lets a request in flight finish its database work before the database closes', async () => {
    const gw = await startGateway();
    const u = `${Date.now()}`.slice(-8);
    // Registering hashes the password (tens of ms) between two database calls: close in that gap.
    const arrived = new Promise((r) => gw.app.server.once('request', r));
    const pending = gw.api.post('/api/auth/register', {
      email: `late${u}@test.example`,
      phone: `98${u}`,
      username: `late_${u}`,
      password: 'correct horse battery',
    });
    await arrived;
    await new Promise((r) => setTimeout(r, 5));
    await gw.stop();
    const res = await pending;
    expect(res.status).toBe(201);
  });
});
