import { sql } from 'kysely';
import { type Db, type Kit } from './kit.js';

// Issue 19, decision 043: a registration's place (placed, waitlist, released, withdrawn), its payment
// deadline and the stages' check-in windows. A released or withdrawn team frees its team name and its
// captain's one-team rule: those unique keys become partial, over placed and waitlisted teams only.
// SQLite cannot drop a table's own unique constraint, so there the table is rebuilt from its stored
// definition (whatever columns later migrations of other branches added), foreign keys off meanwhile.
export const key = '012-slot-life';

export async function up(db: Db, { pg }: Kit): Promise<void> {
  const columns: [string, string, ((c: any) => any)?][] = [
    ['place', 'text', (c: any) => c.notNull().defaultTo('placed')],
    ['placed_at', 'text'],
    ['pay_by', 'text'],
    ['released_at', 'text'],
    ['released_reason', 'text'],
  ];
  if (pg) {
    for (const [name, type, build] of columns)
      await db.schema
        .alterTable('registrations')
        .addColumn(name, type as any, build)
        .execute();
    await sql`alter table registrations drop constraint registrations_one_per_user`.execute(db);
    await sql`alter table registrations drop constraint registrations_team_name`.execute(db);
    await slotLife(db);
  } else {
    await rebuildSqliteRegistrations(db, columns, slotLife);
  }
}

/** Migration 012 after the registrations table lost its two unique constraints (see there). */
async function slotLife(db: Db) {
  const active = sql<boolean>`place in ('placed', 'waitlist')`;
  await sql`update registrations set placed_at = created_at`.execute(db);
  await db.schema.dropIndex('registrations_team_name_key').ifExists().execute();
  await db.schema.dropIndex('registrations_team_name_shape').ifExists().execute();
  const uniqueActive = async (name: string, cols: string[]) =>
    db.schema.createIndex(name).on('registrations').columns(cols).unique().where(active).execute();
  await uniqueActive('registrations_one_per_user', ['tournament_id', 'user_id']);
  await uniqueActive('registrations_team_name', ['tournament_id', 'team_name_lower']);
  await uniqueActive('registrations_team_name_key', ['tournament_id', 'team_name_key']);
  await uniqueActive('registrations_team_name_shape', ['tournament_id', 'team_name_shape']);
  // Counting places and finding the waitlist's head; the deadline sweep.
  await db.schema.createIndex('registrations_place').on('registrations').columns(['tournament_id', 'place', 'id']).execute();
  await db.schema.createIndex('registrations_pay_by').on('registrations').columns(['place', 'pay_by']).execute();

  await db.schema.alterTable('tournaments').addColumn('payment_deadline_hours', 'integer').execute();
  await db.schema.alterTable('tournaments').addColumn('payment_deadline_at', 'text').execute();
  await db.schema.alterTable('stages').addColumn('check_in_opens_at', 'text').execute();
  await db.schema.alterTable('stages').addColumn('check_in_closes_at', 'text').execute();
  await db.schema.alterTable('stages').addColumn('no_shows', 'text').execute();
  await db.schema
    .createTable('stage_check_ins')
    .addColumn('stage_id', 'integer', (c) => c.notNull().references('stages.id').onDelete('cascade'))
    .addColumn('registration_id', 'integer', (c) => c.notNull().references('registrations.id'))
    .addColumn('checked_in_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('stage_check_ins_pk', ['stage_id', 'registration_id'])
    .execute();
}

/**
 * Migration 012 on SQLite: the registrations table without its two unique constraints (one team per
 * account, team name), plus the new columns, by SQLite's own recipe (sqlite.org/lang_altertable.html,
 * "other kinds of table schema changes"): foreign keys off, a new table from the stored definition, the
 * rows copied, the old one dropped, the new one renamed, its indexes made again, the keys checked.
 */
async function rebuildSqliteRegistrations(db: Db, columns: [string, string, ((c: any) => any)?][], then: (db: Db) => Promise<void>) {
  const { rows } = await sql<{ type: string; name: string; sql: string | null }>`
    select type, name, sql from sqlite_master where tbl_name = 'registrations'`.execute(db);
  const table = rows.find((r) => r.type === 'table')?.sql;
  if (!table) throw new Error('registrations table not found');
  const withoutKeys = table
    .replace(/,\s*constraint\s+"?registrations_one_per_user"?\s+unique\s*\([^)]*\)/i, '')
    .replace(/,\s*constraint\s+"?registrations_team_name"?\s+unique\s*\([^)]*\)/i, '')
    .replace(/^create table\s+"?registrations"?/i, 'create table "registrations_new"');
  if (/registrations_one_per_user|constraint\s+"?registrations_team_name"?\s/i.test(withoutKeys)) {
    throw new Error('registrations: could not find its unique constraints to drop');
  }
  const indexes = rows.filter((r) => r.type === 'index' && r.sql).map((r) => r.sql!);
  await sql`pragma foreign_keys = off`.execute(db);
  try {
    await sql`begin`.execute(db);
    try {
      await sql.raw(withoutKeys).execute(db);
      await sql`insert into registrations_new select * from registrations`.execute(db);
      await sql`drop table registrations`.execute(db);
      await sql`alter table registrations_new rename to registrations`.execute(db);
      for (const index of indexes) await sql.raw(index).execute(db);
      for (const [name, type, build] of columns)
        await db.schema
          .alterTable('registrations')
          .addColumn(name, type as any, build)
          .execute();
      await then(db);
      const broken = await sql`pragma foreign_key_check`.execute(db);
      if (broken.rows.length > 0) throw new Error(`registrations rebuild broke ${broken.rows.length} foreign keys`);
      await sql`commit`.execute(db);
    } catch (err) {
      await sql`rollback`.execute(db);
      throw err;
    }
  } finally {
    await sql`pragma foreign_keys = on`.execute(db);
  }
}
