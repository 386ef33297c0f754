// Decision 033 figures: the cost of a name's keys, and of migration 008 over 4 000 users, teams and 16 000 IGN rows.
// node scripts/bench-name-keys.mjs [postgres-url]   (after npm run build:gateway; the PostgreSQL run uses a throw-away schema)
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect, PostgresDialect } from 'kysely';
import pg from 'pg';
const root = process.cwd();
const t0 = performance.now();
const { nameKeys } = await import(path.join(root, 'contract/dist/name-keys.js'));
console.log(`loading lib/name-keys (unhomoglyph's table and its regular expression): ${(performance.now() - t0).toFixed(1)} ms`);
const t1 = performance.now();
nameKeys('Team Soul');
nameKeys('Team Soul 2');
console.log(`first two calls: ${(performance.now() - t1).toFixed(1)} ms`);
const { migrate } = await import(path.join(root, 'gateway/dist/db/migrations.js'));

for (const [label, s] of [
  ['Jonathan', 'Jonathan'],
  ['TEAM SOUL 🔥 सोल', 'TEAM SOUL 🔥 सोल'],
  ['20 math bold letters', '𝐒𝐨𝐮𝐥'.repeat(5)],
  ['5000 x', 'x'.repeat(5000)],
]) {
  const n = s.length > 100 ? 500 : 50_000;
  const t = performance.now();
  for (let i = 0; i < n; i++) nameKeys(s);
  console.log(`nameKeys(${label}): ${(((performance.now() - t) * 1000) / n).toFixed(2)} µs/call`);
}

const TOURNAMENTS = 40,
  TEAMS = 100; // 4 000 teams, 16 000 IGN rows, 4 000 users
const lower = (v) => v.normalize('NFC').trim().replace(/\s+/g, ' ').toLowerCase();
async function bench(dialect, db) {
  await migrate(db, dialect, '004-cache-generation');
  const now = new Date().toISOString();
  const users = [];
  for (let i = 0; i < TOURNAMENTS * TEAMS; i++)
    users.push({
      email: `u${i}@x.in`,
      phone: `+91${9000000000 + i}`,
      username: `user_${i}`,
      username_lower: `user_${i}`,
      password_hash: 'x',
      roles: 'ROLE_USER',
      created_at: now,
    });
  for (let i = 0; i < users.length; i += 500)
    await db
      .insertInto('users')
      .values(users.slice(i, i + 500))
      .execute();
  for (let t = 0; t < TOURNAMENTS; t++) {
    const tr = await db
      .insertInto('tournaments')
      .values({
        name: `Cup ${t}`,
        game: 'BGMI',
        description: '',
        start_date: now,
        end_date: now,
        registration_open: now,
        registration_close: now,
        max_teams: TEAMS,
        format: 'Squad',
        platform: 'Mobile',
        entry_fee: 0,
        prize_pool: '',
        cover_image_id: null,
        status: 'Upcoming',
        overview: '',
        created_at: now,
        updated_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    for (let k = 0; k < TEAMS; k++) {
      const igns = [1, 2, 3, 4].map((p) => `P${p} Player ${t}-${k}`);
      const r = await db
        .insertInto('registrations')
        .values({
          tournament_id: tr.id,
          user_id: t * TEAMS + k + 1,
          team_name: `Team Soul ${k}`,
          team_name_lower: `team soul ${k}`,
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
      await db
        .insertInto('registration_igns')
        .values(igns.map((g) => ({ tournament_id: tr.id, registration_id: r.id, ign_lower: lower(g) })))
        .execute();
    }
  }
  const t = performance.now();
  await migrate(db, dialect);
  console.log(
    `${dialect}: migration 008 over ${users.length} users, ${TOURNAMENTS * TEAMS} teams, ${TOURNAMENTS * TEAMS * 4} IGN rows: ${((performance.now() - t) / 1000).toFixed(2)} s`,
  );
}
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'h-names-bench-'));
const sdb = new Kysely({ dialect: new SqliteDialect({ database: new SQLite(path.join(dir, 'b.sqlite')) }) });
await bench('sqlite', sdb);
await sdb.destroy();
if (process.argv[2]) {
  const schema = `bench_${crypto.randomBytes(4).toString('hex')}`;
  const c = new pg.Client({ connectionString: process.argv[2] });
  await c.connect();
  await c.query(`create schema ${schema}`);
  await c.end();
  const url = new URL(process.argv[2]);
  url.searchParams.set('options', `-c search_path=${schema}`);
  const pdb = new Kysely({ dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: url.toString(), max: 1 }) }) });
  await bench('postgres', pdb);
  await pdb.destroy();
  const c2 = new pg.Client({ connectionString: process.argv[2] });
  await c2.connect();
  await c2.query(`drop schema ${schema} cascade`);
  await c2.end();
}
fs.rmSync(dir, { recursive: true, force: true });
