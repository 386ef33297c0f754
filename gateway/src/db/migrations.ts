import crypto from 'node:crypto';
import { Migrator, sql, type Kysely, type Migration, type MigrationProvider } from 'kysely';
import type { Dialect } from './index.js';
import { GENERATION_SHARDS } from './generation.js';
import { lowerName, nameKeys } from '@custom-room/contract';

type Db = Kysely<any>;

/** Migrations live in code so the compiled gateway needs no files beside it. Never edit a shipped one: add a new one. */
function migrations(dialect: Dialect): Record<string, Migration> {
  const pg = dialect === 'postgres';
  const id = (t: any) =>
    pg ? t.addColumn('id', 'serial', (c: any) => c.primaryKey()) : t.addColumn('id', 'integer', (c: any) => c.primaryKey().autoIncrement());
  const blob = pg ? 'bytea' : 'blob';

  return {
    '001-initial': {
      async up(db: Db) {
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
      },
    },
    // Decision 019: every token names a session row, read by primary key on each authenticated call.
    '002-sessions': {
      async up(db: Db) {
        await db.schema
          .createTable('sessions')
          .ifNotExists()
          .addColumn('id', 'text', (c) => c.primaryKey())
          .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
          .addColumn('created_at', 'text', (c) => c.notNull())
          .addColumn('expires_at', 'text', (c) => c.notNull())
          .execute();
        await db.schema.createIndex('sessions_user').ifNotExists().on('sessions').column('user_id').execute();
        await db.schema.createIndex('sessions_expires').ifNotExists().on('sessions').column('expires_at').execute();
      },
    },
    // Decision 022: device tokens (a browser that has logged in to the account) and failed logins.
    '003-login-protection': {
      async up(db: Db) {
        await db.schema
          .createTable('login_devices')
          .ifNotExists()
          .addColumn('id', 'text', (c) => c.primaryKey()) // SHA-256 of the device token
          .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
          .addColumn('created_at', 'text', (c) => c.notNull())
          .addColumn('last_used_at', 'text', (c) => c.notNull())
          .addColumn('expires_at', 'text', (c) => c.notNull())
          .execute();
        await db.schema.createIndex('login_devices_user').ifNotExists().on('login_devices').column('user_id').execute();
        await id(db.schema.createTable('login_failures').ifNotExists())
          .addColumn('address', 'text', (c: any) => c.notNull())
          .addColumn('account', 'text', (c: any) => c.notNull()) // user:<id>, or the email/phone asked for when no such account
          .addColumn('device_id', 'text', (c: any) => c) // the valid device token the attempt carried, if any
          .addColumn('failed_at', 'text', (c: any) => c.notNull())
          .execute();
        await db.schema
          .createIndex('login_failures_account')
          .ifNotExists()
          .on('login_failures')
          .columns(['account', 'failed_at'])
          .execute();
        await db.schema
          .createIndex('login_failures_address')
          .ifNotExists()
          .on('login_failures')
          .columns(['address', 'failed_at'])
          .execute();
        await db.schema
          .createIndex('login_failures_device')
          .ifNotExists()
          .on('login_failures')
          .columns(['device_id', 'failed_at'])
          .execute();
        await db.schema.createIndex('login_failures_time').ifNotExists().on('login_failures').column('failed_at').execute();
      },
    },
    // Decision 023: a counter that every write changing a public answer bumps in its own transaction.
    // Sharded by tournament so writes to different tournaments never wait on one row; readers sum it.
    '004-cache-generation': {
      async up(db: Db) {
        await db.schema
          .createTable('cache_generation')
          .ifNotExists()
          .addColumn('shard', 'integer', (c) => c.primaryKey())
          .addColumn('value', 'bigint', (c) => c.notNull().defaultTo(0))
          .addColumn('epoch', 'text', (c) => c.notNull()) // the same random value in every row: tells one database's counter from another's
          .execute();
        const epoch = crypto.randomBytes(6).toString('hex');
        await db
          .insertInto('cache_generation')
          .values(Array.from({ length: GENERATION_SHARDS }, (_, shard) => ({ shard, value: 0, epoch })))
          .execute();
      },
    },
    // Decision 030: one row per password reset request, for an account or not, so that both cost the same write.
    '006-password-reset-requests': {
      async up(db: Db) {
        await id(db.schema.createTable('password_reset_requests').ifNotExists())
          .addColumn('email_hash', 'text', (c: any) => c.notNull()) // SHA-256 of the email asked for, lower-cased
          .addColumn('requested_at', 'text', (c: any) => c.notNull())
          .execute();
        await db.schema
          .createIndex('password_reset_requests_time')
          .ifNotExists()
          .on('password_reset_requests')
          .column('requested_at')
          .execute();
      },
    },
    // Decision 032: the JPEG of each cover for link previews, made once (at upload, or on its first
    // request for covers stored before) and shared by every gateway process.
    '007-image-jpeg': {
      async up(db: Db) {
        await db.schema
          .createTable('image_jpegs')
          .ifNotExists()
          .addColumn('id', 'text', (c) => c.primaryKey()) // the cover's id (images.id)
          .addColumn('width', 'integer', (c) => c.notNull())
          .addColumn('height', 'integer', (c) => c.notNull())
          .addColumn('data', blob, (c) => c.notNull())
          .addColumn('created_at', 'text', (c) => c.notNull())
          .execute();
      },
    },
    // Decision 033: names compare by two Unicode TR39 skeletons (lib/name-keys.ts), each unique where the
    // name must be. Existing rows get theirs here, oldest first; a row whose key an older row already
    // holds keeps that key marked with its own id, so the migration never fails on look-alikes already
    // stored, and the older name keeps blocking new look-alikes.
    '008-name-skeletons': {
      async up(db: Db) {
        const columns: [string, string][] = [
          ['users', 'username_key'],
          ['users', 'username_shape'],
          ['registrations', 'team_name_key'],
          ['registrations', 'team_name_shape'],
          ['registration_igns', 'ign_key'],
          ['registration_igns', 'ign_shape'],
        ];
        await inTransaction(db, async (trx) => {
          for (const [table, column] of columns) {
            await trx.schema
              .alterTable(table)
              .addColumn(column, 'text', (c) => c.notNull().defaultTo(''))
              .execute();
          }
          await fillNameKeys(trx);
          await trx.schema.createIndex('users_username_key').on('users').column('username_key').unique().execute();
          await trx.schema.createIndex('users_username_shape').on('users').column('username_shape').unique().execute();
          for (const kind of ['key', 'shape']) {
            await trx.schema
              .createIndex(`registrations_team_name_${kind}`)
              .on('registrations')
              .columns(['tournament_id', `team_name_${kind}`])
              .unique()
              .execute();
            await trx.schema
              .createIndex(`registration_igns_${kind}`)
              .on('registration_igns')
              .columns(['tournament_id', `ign_${kind}`])
              .unique()
              .execute();
          }
        });
      },
    },
    // Decision 029: a UTR pays for one registration. payment_utr holds it while it is that
    // registration's reference and is unique (NULLs never clash). Older data may already share a
    // reference: the oldest registration keeps the claim, the others stay NULL (their reference is
    // kept and the admin page flags them), so this never fails on such data. The rule is inlined:
    // a shipped migration must not change when the form's rules do.
    '009-payment-references': {
      async up(db: Db) {
        await db.schema.alterTable('registrations').addColumn('payment_utr', 'text').execute();
        // One statement, portable to both databases: the old rules allowed only letters and digits, so
        // a reference that is 12 characters, all digits, not one digit repeated, is a UTR as it stands.
        const digitsOnly = '0123456789'.split('').reduce((expr, d) => sql`replace(${expr}, ${sql.lit(d)}, '')`, sql`payment_reference`);
        await sql`
          update registrations set payment_utr = payment_reference
          where id in (
            select min(id) from registrations
            where length(payment_reference) = 12
              and ${digitsOnly} = ''
              and replace(payment_reference, substr(payment_reference, 1, 1), '') <> ''
            group by payment_reference
          )`.execute(db);
        await db.schema.createIndex('registrations_payment_utr').on('registrations').column('payment_utr').unique().execute();
        // "Is this reference on another registration?" and the admin page's flag, without a scan.
        await db.schema.createIndex('registrations_payment_reference').on('registrations').column('payment_reference').execute();
      },
    },
    // Issue 18, decision 041: stages, groups and slots. Group 0 is the implicit group of a tournament
    // without stages, so the two unique keys that gain the group stay plain columns on both databases.
    '010-stages': {
      async up(outer: Db) {
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
            .columns([
              'tournament_id',
              'registration_id',
              'day',
              'group_id',
              'absent',
              'position_points',
              'finishes',
              'wins',
              'total_points',
            ])
            .execute();
          await db.schema.createIndex('match_results_group').on('match_results').columns(['group_id', 'day', 'match_no']).execute();
        });
      },
    },
    // Issue 19: the outbox. A write that a player must hear about records its event here, in its own
    // transaction; the notification worker fans it out to the player's list, email and push.
    '011-outbox': {
      async up(db: Db) {
        await id(db.schema.createTable('notification_events'))
          .addColumn('kind', 'text', (c: any) => c.notNull())
          .addColumn('tournament_id', 'integer', (c: any) => c.notNull())
          .addColumn('audience', 'text', (c: any) => c.notNull())
          .addColumn('data', 'text', (c: any) => c.notNull())
          .addColumn('dedupe_key', 'text', (c: any) => c.unique())
          .addColumn('created_at', 'text', (c: any) => c.notNull())
          .addColumn('fanned_out_at', 'text')
          .execute();
        await db.schema.createIndex('notification_events_pending').on('notification_events').column('fanned_out_at').execute();
      },
    },
    // Issue 19, decision 043: a registration's place (placed, waitlist, released, withdrawn), its payment
    // deadline and the stages' check-in windows. A released or withdrawn team frees its team name and its
    // captain's one-team rule: those unique keys become partial, over placed and waitlisted teams only.
    // SQLite cannot drop a table's own unique constraint, so there the table is rebuilt from its stored
    // definition (whatever columns later migrations of other branches added), foreign keys off meanwhile.
    '012-slot-life': {
      async up(db: Db) {
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
      },
    },
    // Decision 046: in-game character IDs beside the IGNs, unique per tournament, and the organiser's switch requiring them.
    '014-character-ids': {
      async up(db: Db) {
        await db.schema
          .alterTable('tournaments')
          .addColumn('require_character_ids', 'integer', (c) => c.notNull().defaultTo(0))
          .execute();
        await db.schema
          .createTable('registration_character_ids')
          .addColumn('tournament_id', 'integer', (c) => c.notNull())
          .addColumn('registration_id', 'integer', (c) => c.notNull().references('registrations.id').onDelete('cascade'))
          .addColumn('field', 'text', (c) => c.notNull())
          .addColumn('character_id', 'text', (c) => c.notNull())
          .addPrimaryKeyConstraint('registration_character_ids_pk', ['tournament_id', 'character_id'])
          .execute();
        await db.schema
          .createIndex('registration_character_ids_registration')
          .on('registration_character_ids')
          .column('registration_id')
          .execute();
      },
    },
    // Issue 19 (decision 044): the site list, the deliveries by email and push, and the push subscriptions.
    '013-notifications': {
      async up(db: Db) {
        await id(db.schema.createTable('notifications'))
          .addColumn('user_id', 'integer', (c: any) => c.notNull().references('users.id').onDelete('cascade'))
          .addColumn('event_id', 'integer', (c: any) => c.notNull())
          .addColumn('tournament_id', 'integer', (c: any) => c.notNull())
          .addColumn('kind', 'text', (c: any) => c.notNull())
          .addColumn('title', 'text', (c: any) => c.notNull())
          .addColumn('body', 'text', (c: any) => c.notNull())
          .addColumn('link', 'text', (c: any) => c.notNull())
          .addColumn('created_at', 'text', (c: any) => c.notNull())
          .addColumn('read_at', 'text')
          .addUniqueConstraint('notifications_once', ['event_id', 'user_id'])
          .execute();
        await db.schema.createIndex('notifications_user').on('notifications').columns(['user_id', 'id']).execute();
        await db.schema
          .createIndex('notifications_unread')
          .on('notifications')
          .column('user_id')
          .where(sql.ref('read_at'), 'is', null)
          .execute();

        await id(db.schema.createTable('push_subscriptions'))
          .addColumn('user_id', 'integer', (c: any) => c.notNull().references('users.id').onDelete('cascade'))
          .addColumn('endpoint', 'text', (c: any) => c.notNull().unique())
          .addColumn('p256dh', 'text', (c: any) => c.notNull())
          .addColumn('auth', 'text', (c: any) => c.notNull())
          .addColumn('created_at', 'text', (c: any) => c.notNull())
          .execute();
        await db.schema.createIndex('push_subscriptions_user').on('push_subscriptions').column('user_id').execute();

        // One row per (event, account, channel, subscription): a second fan-out of the same event adds nothing.
        await id(db.schema.createTable('notification_deliveries'))
          .addColumn('notification_id', 'integer', (c: any) => c.notNull().references('notifications.id').onDelete('cascade'))
          .addColumn('event_id', 'integer', (c: any) => c.notNull())
          .addColumn('user_id', 'integer', (c: any) => c.notNull())
          .addColumn('tournament_id', 'integer', (c: any) => c.notNull())
          .addColumn('channel', 'text', (c: any) => c.notNull())
          .addColumn('subscription_id', 'integer', (c: any) => c.notNull().defaultTo(0))
          .addColumn('state', 'text', (c: any) => c.notNull().defaultTo('pending'))
          .addColumn('attempts', 'integer', (c: any) => c.notNull().defaultTo(0))
          .addColumn('next_attempt_at', 'text', (c: any) => c.notNull())
          .addColumn('lease_until', 'text')
          .addColumn('last_error', 'text')
          .addColumn('created_at', 'text', (c: any) => c.notNull())
          .addColumn('done_at', 'text')
          .addUniqueConstraint('notification_deliveries_once', ['event_id', 'user_id', 'channel', 'subscription_id'])
          .execute();
        await db.schema
          .createIndex('notification_deliveries_due')
          .on('notification_deliveries')
          .column('next_attempt_at')
          .where(sql.ref('state'), '=', 'pending')
          .execute();
        await db.schema
          .createIndex('notification_deliveries_failed')
          .on('notification_deliveries')
          .columns(['tournament_id', 'id'])
          .where(sql.ref('state'), '=', 'failed')
          .execute();
      },
    },
    // Issue 20 (decision 048): every change to a match result, kept. One row per team a write touched,
    // old values null for a first entry, new ones null for a removal; change_id groups the rows of one call.
    '015-result-history': {
      async up(db: Db) {
        await id(db.schema.createTable('result_changes'))
          .addColumn('tournament_id', 'integer', (c: any) => c.notNull())
          .addColumn('change_id', 'integer', (c: any) => c.notNull())
          .addColumn('group_id', 'integer', (c: any) => c.notNull().defaultTo(0))
          .addColumn('day', 'integer', (c: any) => c.notNull())
          .addColumn('match_no', 'integer', (c: any) => c.notNull())
          .addColumn('registration_id', 'integer', (c: any) => c.notNull())
          .addColumn('changed_by', 'integer', (c: any) => c.notNull())
          .addColumn('changed_by_name', 'text', (c: any) => c.notNull())
          .addColumn('changed_at', 'text', (c: any) => c.notNull())
          .addColumn('old_position', 'integer')
          .addColumn('old_wins', 'integer')
          .addColumn('old_finishes', 'integer')
          .addColumn('old_absent', 'integer')
          .addColumn('new_position', 'integer')
          .addColumn('new_wins', 'integer')
          .addColumn('new_finishes', 'integer')
          .addColumn('new_absent', 'integer')
          .execute();
        await db.schema.createIndex('result_changes_tournament').on('result_changes').columns(['tournament_id', 'change_id']).execute();
      },
    },
    // Issue 27 (decision 052): a removed team is barred from coming back, and a team that leaves keeps its
    // character IDs on record (moved out of registration_character_ids, whose key claims them).
    '016-places-after-draw': {
      async up(db: Db) {
        await db.schema.alterTable('registrations').addColumn('rejoin', 'text').execute();
        await db.schema
          .createTable('left_character_ids')
          .addColumn('tournament_id', 'integer', (c) => c.notNull())
          .addColumn('registration_id', 'integer', (c) => c.notNull().references('registrations.id').onDelete('cascade'))
          .addColumn('field', 'text', (c) => c.notNull())
          .addColumn('character_id', 'text', (c) => c.notNull())
          .execute();
        await db.schema.createIndex('left_character_ids_registration').on('left_character_ids').column('registration_id').execute();
      },
    },
    '017-group-times-and-not-played': {
      async up(db: Db) {
        // Issue 27: groups hosted one after another (the minutes between two groups' starts, remembered for
        // the schedule form), and group matches the organiser marked as not played (who and when).
        await db.schema
          .alterTable('stages')
          .addColumn('group_gap_minutes', 'integer', (c: any) => c.notNull().defaultTo(0))
          .execute();
        await db.schema.alterTable('matches').addColumn('not_played_at', 'text').execute();
        await db.schema.alterTable('matches').addColumn('not_played_by', 'text').execute();
      },
    },
    // Issue 27 (decision 055): each tournament's own payee; null keeps the site's default (UPI_PAYEE_VPA / UPI_PAYEE_NAME).
    '018-tournament-payee': {
      async up(db: Db) {
        await db.schema.alterTable('tournaments').addColumn('payee_upi_id', 'text').execute();
        await db.schema.alterTable('tournaments').addColumn('payee_name', 'text').execute();
      },
    },
  };
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

/** Runs fn in a transaction: PostgreSQL's migrations already are in one, SQLite's are not. */
function inTransaction(db: Db, fn: (trx: Db) => Promise<void>): Promise<void> {
  return db.isTransaction ? fn(db) : db.transaction().execute(fn);
}

/** Migration 008: fills the key columns of every user, team and IGN row (see there). */
async function fillNameKeys(db: Db) {
  /** Hands out keys within one scope (all users, or one tournament) in the order rows are passed. */
  const claims = () => {
    const held = { key: new Set<string>(), shape: new Set<string>() };
    return (name: string, tag: string) => {
      const keys = nameKeys(name);
      const claim = (kind: 'key' | 'shape') => {
        const value = held[kind].has(keys[kind]) ? `${keys[kind]}\u0001${tag}` : keys[kind];
        held[kind].add(value);
        return value;
      };
      return { key: claim('key'), shape: claim('shape') };
    };
  };

  const users = await db.selectFrom('users').select(['id', 'username']).orderBy('id').execute();
  const claimUsername = claims();
  for (const u of users) {
    const { key, shape } = claimUsername(u.username, String(u.id));
    await db.updateTable('users').set({ username_key: key, username_shape: shape }).where('id', '=', u.id).execute();
  }

  const teams = await db
    .selectFrom('registrations')
    .select([
      'id',
      'tournament_id',
      'team_name',
      'player1_username',
      'player2_username',
      'player3_username',
      'player4_username',
      'substitute1_username',
      'substitute2_username',
    ])
    .orderBy('id')
    .execute();
  const igns = await db.selectFrom('registration_igns').select(['tournament_id', 'registration_id', 'ign_lower']).execute();
  const ignsOf = new Map<number, any[]>();
  for (const row of igns) ignsOf.set(Number(row.registration_id), [...(ignsOf.get(Number(row.registration_id)) ?? []), row]);
  const teamClaims = new Map<number, ReturnType<typeof claims>>();
  const ignClaims = new Map<number, ReturnType<typeof claims>>();
  const scope = (map: Map<number, ReturnType<typeof claims>>, tid: number) => map.get(tid) ?? map.set(tid, claims()).get(tid)!;
  for (const team of teams) {
    const tid = Number(team.tournament_id);
    const { key, shape } = scope(teamClaims, tid)(team.team_name, String(team.id));
    await db.updateTable('registrations').set({ team_name_key: key, team_name_shape: shape }).where('id', '=', team.id).execute();
    // An IGN row holds only the lower-case form (decision 007's key): find the name it was made from, in form order.
    const names = [
      team.player1_username,
      team.player2_username,
      team.player3_username,
      team.player4_username,
      team.substitute1_username,
      team.substitute2_username,
    ];
    const order = (lower: string) => {
      const i = names.findIndex((n) => n !== '' && lowerName(n) === lower);
      return i < 0 ? names.length : i;
    };
    const rows = [...(ignsOf.get(Number(team.id)) ?? [])].sort((a: any, b: any) => order(a.ign_lower) - order(b.ign_lower));
    for (const row of rows as any[]) {
      const name = names[order(row.ign_lower)] ?? row.ign_lower;
      const keys = scope(ignClaims, Number(row.tournament_id))(name, `${team.id}:${row.ign_lower}`);
      await db
        .updateTable('registration_igns')
        .set({ ign_key: keys.key, ign_shape: keys.shape })
        .where('tournament_id', '=', row.tournament_id)
        .where('ign_lower', '=', row.ign_lower)
        .execute();
    }
  }
}

class InlineProvider implements MigrationProvider {
  constructor(private readonly dialect: Dialect) {}
  async getMigrations() {
    return migrations(this.dialect);
  }
}

/** Idempotent: applied migrations are recorded in kysely_migration and skipped. upTo stops after that one (tests of a migration). */
export async function migrate(db: Kysely<any>, dialect: Dialect, upTo?: string): Promise<void> {
  // Kysely looks for its own tables in every schema; name ours, or another schema's copy (a
  // neighbouring test schema, say) makes it skip creating them here.
  const schema =
    dialect === 'postgres' ? (await sql<{ schema: string }>`select current_schema() as schema`.execute(db)).rows[0]?.schema : undefined;
  const migrator = new Migrator({ db, provider: new InlineProvider(dialect), ...(schema ? { migrationTableSchema: schema } : {}) });
  const { error, results } = upTo ? await migrator.migrateTo(upTo) : await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    throw new Error(
      `database migration failed${failed ? ` at ${failed.migrationName}` : ''}: ${String((error as Error)?.message ?? error)}`,
    );
  }
}
