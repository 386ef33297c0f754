import { sql } from 'kysely';
import { type Db, type Kit, inTransaction } from './kit.js';

// Issue 18, decision 041: stages, groups and slots. Group 0 is the implicit group of a tournament
// without stages, so the two unique keys that gain the group stay plain columns on both databases.
export const key = '010-stages';

export async function up(outer: Db, { pg, id }: Kit): Promise<void> {
  await inTransaction(outer, async (db) => {
    await id(db.schema.createTable('stages'))
      .addColumn('tournament_id', 'integer', (c: any) => c.notNull().references('tournaments.id'))
      .addColumn('name', 'text', (c: any) => c.notNull())
      .addColumn('ord', 'integer', (c: any) => c.notNull())
      .addColumn('lobby_size', 'integer', (c: any) => c.notNull())
      .addColumn('first_slot', 'integer', (c: any) => c.notNull())
      .addColumn('advance_per_group', 'integer', (c: any) => c.notNull())
      .addColumn('advance_best', 'integer', (c: any) => c.notNull())
      .addColumn('state', 'text', (c: any) => c.notNull())
      .addColumn('draw_method', 'text')
      .addColumn('draw_seed', 'text')
      .addColumn('drawn_at', 'text')
      .addColumn('created_at', 'text', (c: any) => c.notNull())
      .addColumn('updated_at', 'text', (c: any) => c.notNull())
      .addUniqueConstraint('stages_order', ['tournament_id', 'ord'])
      .execute();
    await id(db.schema.createTable('stage_groups'))
      .addColumn('stage_id', 'integer', (c: any) => c.notNull().references('stages.id').onDelete('cascade'))
      .addColumn('name', 'text', (c: any) => c.notNull())
      .addColumn('ord', 'integer', (c: any) => c.notNull())
      .addUniqueConstraint('stage_groups_order', ['stage_id', 'ord'])
      .execute();
    await db.schema
      .createTable('group_slots')
      .addColumn('group_id', 'integer', (c) => c.notNull().references('stage_groups.id').onDelete('cascade'))
      .addColumn('stage_id', 'integer', (c) => c.notNull().references('stages.id').onDelete('cascade'))
      .addColumn('registration_id', 'integer', (c) => c.notNull().references('registrations.id'))
      .addColumn('slot', 'integer', (c) => c.notNull())
      .addUniqueConstraint('group_slots_team', ['stage_id', 'registration_id'])
      .addUniqueConstraint('group_slots_slot', ['group_id', 'slot'])
      .execute();
    await db.schema.createIndex('group_slots_registration').on('group_slots').column('registration_id').execute();
    await db.schema
      .createTable('stage_invites')
      .addColumn('stage_id', 'integer', (c) => c.notNull().references('stages.id').onDelete('cascade'))
      .addColumn('registration_id', 'integer', (c) => c.notNull().references('registrations.id'))
      .addPrimaryKeyConstraint('stage_invites_pk', ['stage_id', 'registration_id'])
      .execute();
    await db.schema
      .createTable('stage_results')
      .addColumn('stage_id', 'integer', (c) => c.notNull().references('stages.id').onDelete('cascade'))
      .addColumn('registration_id', 'integer', (c) => c.notNull().references('registrations.id'))
      .addColumn('group_id', 'integer', (c) => c.notNull())
      .addColumn('group_rank', 'integer', (c) => c.notNull())
      .addColumn('stage_rank', 'integer', (c) => c.notNull())
      .addColumn('qualified', 'integer', (c) => c.notNull())
      .addColumn('via', 'text')
      .addPrimaryKeyConstraint('stage_results_pk', ['stage_id', 'registration_id'])
      .execute();
    await db.schema.createIndex('stage_results_registration').on('stage_results').column('registration_id').execute();

    if (pg) {
      await sql`alter table matches add column group_id integer not null default 0`.execute(db);
      await sql`alter table matches drop constraint matches_slot`.execute(db);
      await sql`alter table matches add constraint matches_slot unique (tournament_id, day, match_no, group_id)`.execute(db);
    } else {
      // SQLite cannot drop a table's unique constraint: the table is rebuilt (nothing references it).
      await id(db.schema.createTable('matches_new'))
        .addColumn('tournament_id', 'integer', (c: any) => c.notNull().references('tournaments.id'))
        .addColumn('day', 'integer', (c: any) => c.notNull())
        .addColumn('match_no', 'integer', (c: any) => c.notNull())
        .addColumn('map', 'text', (c: any) => c.notNull())
        .addColumn('room_id', 'text', (c: any) => c.notNull().defaultTo(''))
        .addColumn('room_password', 'text', (c: any) => c.notNull().defaultTo(''))
        .addColumn('time', 'text', (c: any) => c.notNull())
        .addColumn('created_at', 'text', (c: any) => c.notNull())
        .addColumn('updated_at', 'text', (c: any) => c.notNull())
        .addColumn('group_id', 'integer', (c: any) => c.notNull().defaultTo(0))
        .addUniqueConstraint('matches_slot', ['tournament_id', 'day', 'match_no', 'group_id'])
        .execute();
      await sql`insert into matches_new (id, tournament_id, day, match_no, map, room_id, room_password, time, created_at, updated_at, group_id)
        select id, tournament_id, day, match_no, map, room_id, room_password, time, created_at, updated_at, 0 from matches`.execute(db);
      await sql`drop table matches`.execute(db);
      await sql`alter table matches_new rename to matches`.execute(db);
    }
    await db.schema.createIndex('matches_group').on('matches').column('group_id').execute();

    await db.schema
      .alterTable('match_results')
      .addColumn('group_id', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
    await db.schema
      .alterTable('match_results')
      .addColumn('absent', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
    await db.schema.dropIndex('match_results_placement').execute();
    await db.schema
      .createIndex('match_results_placement')
      .on('match_results')
      .columns(['tournament_id', 'day', 'match_no', 'group_id', 'position'])
      .unique()
      .where(sql.ref('position'), '>', 0)
      .execute();
    // Covers the day and overall sums, with or without a group filter.
    await db.schema.dropIndex('match_results_standings').execute();
    await db.schema
      .createIndex('match_results_standings')
      .on('match_results')
      .columns(['tournament_id', 'registration_id', 'day', 'group_id', 'absent', 'position_points', 'finishes', 'wins', 'total_points'])
      .execute();
    await db.schema.createIndex('match_results_group').on('match_results').columns(['group_id', 'day', 'match_no']).execute();
  });
}
