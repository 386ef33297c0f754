// Issue 16, item 2, older data: migration 009-payment-references must not fail on a database where
// registrations already share a UPI reference; the oldest keeps the UTR, new submits of it are refused,
// and the admin's list flags every registration that shares a reference (decision 029).
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate } from '../../gateway/src/db/migrations.js';
import { adminToken, createStorage, createUser, startGateway, teamFields, unique, type Storage, type TestGateway } from './helpers.js';

const TAKEN =
  'This UTR is already on another registration. Check that you copied the UTR of your own payment; if you did, contact the organiser.';

/** The database as it was before 006-009: migrated up to 004, with registrations written the old way (006-009 then run on it). */
async function olderDatabase(storage: Storage) {
  const db = new Kysely<any>({
    dialect: storage.databaseUrl
      ? new PostgresDialect({ pool: new pg.Pool({ connectionString: storage.databaseUrl, max: 2 }) })
      : new SqliteDialect({ database: new SQLite(path.join(storage.dataDir, 'custom-room.sqlite')) }),
  });
  await migrate(db, storage.databaseUrl ? 'postgres' : 'sqlite', '004-cache-generation');
  const now = new Date().toISOString();
  const later = new Date(Date.now() + 10 * 86_400_000).toISOString();
  const tournament = async (name: string) =>
    (
      await db
        .insertInto('tournaments')
        .values({
          name,
          game: 'BGMI',
          description: 'Older data',
          start_date: later,
          end_date: later,
          registration_open: now,
          registration_close: later,
          max_teams: 16,
          format: 'Squad',
          platform: 'Mobile',
          entry_fee: 100,
          prize_pool: '₹1,000',
          status: 'Registration Ongoing',
          overview: 'Older data',
          points_system: 'bgis-10',
          created_at: now,
          updated_at: now,
        })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id as number;
  const t1 = await tournament(`Old Cup ${unique()}`);
  const t2 = await tournament(`Old Cup ${unique()}`);
  const rows: [number, string, string][] = [
    [t1, 'First Payer', '412345678901'],
    [t1, 'Second Payer', '412345678901'], // the same UTR, accepted by the old rules
    [t2, 'Elsewhere', '412345678901'], // and again in another tournament
    [t1, 'Old Style', 'T2603051830ABC'], // an app transaction id the old rules allowed
    [t1, 'Old Style Too', 'T2603051830ABC'],
    [t1, 'Zeros', '000000000000'],
    [t1, 'Unpaid', ''],
  ];
  const rids: Record<string, number> = {};
  for (const [i, [tid, teamName, reference]] of rows.entries()) {
    const u = unique();
    const user = await db
      .insertInto('users')
      .values({
        email: `old${u}@test.example`,
        phone: `+9188888${String(i).padStart(5, '0')}`,
        username: `old_${u}`,
        username_lower: `old_${u}`,
        password_hash: 'x',
        roles: 'ROLE_USER',
        created_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const team = teamFields({ teamName });
    const reg = await db
      .insertInto('registrations')
      .values({
        tournament_id: tid,
        user_id: user.id,
        team_name: teamName,
        team_name_lower: teamName.toLowerCase(),
        player1_username: team.player1Username,
        player2_username: team.player2Username,
        player3_username: team.player3Username,
        player4_username: team.player4Username,
        substitute1_username: '',
        substitute2_username: '',
        payment_status: reference ? 'submitted' : 'pending',
        payment_reference: reference,
        created_at: now,
        updated_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    rids[teamName] = Number(reg.id);
  }
  await db.destroy();
  return { t1, t2, rids };
}

describe('migration 009-payment-references on older data', () => {
  let gw: TestGateway;
  let admin: string;
  let older: Awaited<ReturnType<typeof olderDatabase>>;

  beforeAll(async () => {
    const storage = await createStorage();
    older = await olderDatabase(storage);
    gw = await startGateway({}, storage); // migrates to the latest
    admin = await adminToken(gw.api);
  });
  afterAll(() => gw?.stop());

  it('migrates: the oldest registration of a UTR holds it, the others keep their reference', async () => {
    const held = await gw.app.store.db
      .selectFrom('registrations')
      .select(['id', 'payment_reference', 'payment_utr'])
      .orderBy('id')
      .execute();
    const utrOf = (name: string) => held.find((r) => Number(r.id) === older.rids[name])?.payment_utr ?? null;
    const referenceOf = (name: string) => held.find((r) => Number(r.id) === older.rids[name])?.payment_reference;
    expect(utrOf('First Payer')).toBe('412345678901');
    for (const name of ['Second Payer', 'Elsewhere', 'Old Style', 'Old Style Too', 'Zeros', 'Unpaid']) expect(utrOf(name), name).toBeNull();
    expect(referenceOf('Second Payer')).toBe('412345678901');
    expect(referenceOf('Old Style')).toBe('T2603051830ABC');
  });

  it("flags every registration that shares a reference on the admin's list, with the other teams and tournaments", async () => {
    const res = await gw.api.get(`/registrations/tournament/${older.t1}`, admin);
    expect(res.status).toBe(200);
    const shared = Object.fromEntries(
      res.body.map((r: any) => [r.teamName, r.sameReferenceAs.map((o: any) => [o.rid, o.tid, o.teamName])]),
    );
    const { rids, t1, t2 } = older;
    expect(shared).toEqual({
      'First Payer': [
        [rids['Second Payer'], t1, 'Second Payer'],
        [rids.Elsewhere, t2, 'Elsewhere'],
      ],
      'Second Payer': [
        [rids['First Payer'], t1, 'First Payer'],
        [rids.Elsewhere, t2, 'Elsewhere'],
      ],
      'Old Style': [[rids['Old Style Too'], t1, 'Old Style Too']],
      'Old Style Too': [[rids['Old Style'], t1, 'Old Style']],
      Zeros: [],
      Unpaid: [],
    });
    // A player never sees the flag.
    const player = await createUser(gw.api);
    expect((await gw.api.get(`/registrations/tournament/${older.t1}`, player.token)).status).toBe(403);
  });

  it('refuses the shared UTR to a new team, and a new UTR is unique again', async () => {
    const [player, other] = [await createUser(gw.api), await createUser(gw.api)];
    for (const p of [player, other]) expect((await gw.api.post(`/registrations/${older.t2}`, teamFields(), p.token)).status).toBe(201);
    const res = await gw.api.post(`/registrations/${older.t2}/payment`, { upiReference: '4123 4567 8901' }, player.token);
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ message: TAKEN, errors: { upiReference: TAKEN } });
    expect((await gw.api.post(`/registrations/${older.t2}/payment`, { upiReference: '512345678901' }, player.token)).status).toBe(200);
    expect((await gw.api.post(`/registrations/${older.t2}/payment`, { upiReference: '512345678901' }, other.token)).status).toBe(409);
  });
});
