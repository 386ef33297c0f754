import { sql } from 'kysely';
import { type Db, type Kit } from './kit.js';

export const key = '001-initial';

export async function up(db: Db, { id, blob }: Kit): Promise<void> {
  await id(db.schema.createTable('users'))
    .addColumn('email', 'text', (c: any) => c.notNull().unique())
    .addColumn('phone', 'text', (c: any) => c.notNull().unique())
    .addColumn('username', 'text', (c: any) => c.notNull())
    .addColumn('username_lower', 'text', (c: any) => c.notNull().unique())
    .addColumn('password_hash', 'text', (c: any) => c.notNull())
    .addColumn('roles', 'text', (c: any) => c.notNull().defaultTo('ROLE_USER'))
    .addColumn('created_at', 'text', (c: any) => c.notNull())
    .execute();

  await id(db.schema.createTable('password_resets'))
    .addColumn('user_id', 'integer', (c: any) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('token_hash', 'text', (c: any) => c.notNull().unique())
    .addColumn('expires_at', 'text', (c: any) => c.notNull())
    .addColumn('used_at', 'text')
    .addColumn('created_at', 'text', (c: any) => c.notNull())
    .execute();

  await db.schema
    .createTable('profiles')
    .addColumn('user_id', 'integer', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('full_name', 'text', (c) => c.notNull())
    .addColumn('bio', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('gender', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('date_of_birth', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('location', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('profile_picture_url', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('images')
    .addColumn('id', 'text', (c) => c.notNull())
    .addColumn('width', 'integer', (c) => c.notNull())
    .addColumn('height', 'integer', (c) => c.notNull())
    .addColumn('content_type', 'text', (c) => c.notNull())
    .addColumn('data', blob, (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('images_pk', ['id', 'width'])
    .execute();

  await id(db.schema.createTable('tournaments'))
    .addColumn('name', 'text', (c: any) => c.notNull())
    .addColumn('game', 'text', (c: any) => c.notNull())
    .addColumn('description', 'text', (c: any) => c.notNull())
    .addColumn('start_date', 'text', (c: any) => c.notNull())
    .addColumn('end_date', 'text', (c: any) => c.notNull())
    .addColumn('registration_open', 'text', (c: any) => c.notNull())
    .addColumn('registration_close', 'text', (c: any) => c.notNull())
    .addColumn('max_teams', 'integer', (c: any) => c.notNull())
    .addColumn('format', 'text', (c: any) => c.notNull())
    .addColumn('platform', 'text', (c: any) => c.notNull())
    .addColumn('entry_fee', 'integer', (c: any) => c.notNull())
    .addColumn('prize_pool', 'text', (c: any) => c.notNull())
    .addColumn('cover_image_id', 'text')
    .addColumn('status', 'text', (c: any) => c.notNull())
    .addColumn('overview', 'text', (c: any) => c.notNull())
    .addColumn('points_system', 'text', (c: any) => c.notNull().defaultTo('bgis-10'))
    .addColumn('deleted_at', 'text')
    .addColumn('created_at', 'text', (c: any) => c.notNull())
    .addColumn('updated_at', 'text', (c: any) => c.notNull())
    .execute();
  await db.schema.createIndex('tournaments_live_start').on('tournaments').columns(['deleted_at', 'start_date']).execute();

  await id(db.schema.createTable('registrations'))
    .addColumn('tournament_id', 'integer', (c: any) => c.notNull().references('tournaments.id'))
    .addColumn('user_id', 'integer', (c: any) => c.notNull().references('users.id'))
    .addColumn('team_name', 'text', (c: any) => c.notNull())
    .addColumn('team_name_lower', 'text', (c: any) => c.notNull())
    .addColumn('player1_username', 'text', (c: any) => c.notNull())
    .addColumn('player2_username', 'text', (c: any) => c.notNull())
    .addColumn('player3_username', 'text', (c: any) => c.notNull())
    .addColumn('player4_username', 'text', (c: any) => c.notNull())
    .addColumn('substitute1_username', 'text', (c: any) => c.notNull().defaultTo(''))
    .addColumn('substitute2_username', 'text', (c: any) => c.notNull().defaultTo(''))
    .addColumn('payment_status', 'text', (c: any) => c.notNull().defaultTo('pending'))
    .addColumn('payment_reference', 'text', (c: any) => c.notNull().defaultTo(''))
    .addColumn('created_at', 'text', (c: any) => c.notNull())
    .addColumn('updated_at', 'text', (c: any) => c.notNull())
    .addUniqueConstraint('registrations_one_per_user', ['tournament_id', 'user_id'])
    .addUniqueConstraint('registrations_team_name', ['tournament_id', 'team_name_lower'])
    .execute();
  await db.schema.createIndex('registrations_user').on('registrations').column('user_id').execute();

  await db.schema
    .createTable('registration_igns')
    .addColumn('tournament_id', 'integer', (c) => c.notNull())
    .addColumn('registration_id', 'integer', (c) => c.notNull().references('registrations.id').onDelete('cascade'))
    .addColumn('ign_lower', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('registration_igns_pk', ['tournament_id', 'ign_lower'])
    .execute();
  await db.schema.createIndex('registration_igns_registration').on('registration_igns').column('registration_id').execute();

  await id(db.schema.createTable('matches'))
    .addColumn('tournament_id', 'integer', (c: any) => c.notNull().references('tournaments.id'))
    .addColumn('day', 'integer', (c: any) => c.notNull())
    .addColumn('match_no', 'integer', (c: any) => c.notNull())
    .addColumn('map', 'text', (c: any) => c.notNull())
    .addColumn('room_id', 'text', (c: any) => c.notNull().defaultTo(''))
    .addColumn('room_password', 'text', (c: any) => c.notNull().defaultTo(''))
    .addColumn('time', 'text', (c: any) => c.notNull())
    .addColumn('created_at', 'text', (c: any) => c.notNull())
    .addColumn('updated_at', 'text', (c: any) => c.notNull())
    .addUniqueConstraint('matches_slot', ['tournament_id', 'day', 'match_no'])
    .execute();

  await id(db.schema.createTable('match_results'))
    .addColumn('tournament_id', 'integer', (c: any) => c.notNull().references('tournaments.id'))
    .addColumn('day', 'integer', (c: any) => c.notNull())
    .addColumn('match_no', 'integer', (c: any) => c.notNull())
    .addColumn('registration_id', 'integer', (c: any) => c.notNull().references('registrations.id'))
    .addColumn('position', 'integer', (c: any) => c.notNull())
    .addColumn('wins', 'integer', (c: any) => c.notNull())
    .addColumn('finishes', 'integer', (c: any) => c.notNull())
    .addColumn('position_points', 'integer', (c: any) => c.notNull())
    .addColumn('total_points', 'integer', (c: any) => c.notNull())
    .addColumn('created_at', 'text', (c: any) => c.notNull())
    .addColumn('updated_at', 'text', (c: any) => c.notNull())
    .addUniqueConstraint('match_results_team', ['tournament_id', 'day', 'match_no', 'registration_id'])
    .execute();
  // Two teams cannot share a placement in one match; 0 means "no placement recorded".
  await db.schema
    .createIndex('match_results_placement')
    .on('match_results')
    .columns(['tournament_id', 'day', 'match_no', 'position'])
    .unique()
    .where(sql.ref('position'), '>', 0)
    .execute();
  // Covers the points-table sums (day and overall) so they never touch the table rows.
  await db.schema
    .createIndex('match_results_standings')
    .on('match_results')
    .columns(['tournament_id', 'registration_id', 'day', 'position_points', 'finishes', 'wins', 'total_points'])
    .execute();
}
