import { sql } from 'kysely';
import { inTransaction, type Db, type Kit } from './kit.js';

// Issue 29 (decision 065): organisers own tournaments; each tournament has a crew (staff) with a role,
// lobby managers scoped to stages or groups; an activity log and announcements per tournament.
// Every existing tournament goes to the "Site" organiser, owned by the first site admin (or, on a new
// database, by the ADMIN_EMAIL account once it exists: see seed/admin.ts).
export const key = '019-organisers-and-staff';

/** The Site organiser's creation time: the day this migration was written (a migration has no clock). */
const MIGRATED_AT = '2026-11-28T00:00:00.000Z';

export async function up(db: Db, { id }: Kit): Promise<void> {
  await id(db.schema.createTable('organisers'))
    .addColumn('slug', 'text', (c: any) => c.notNull().unique())
    .addColumn('name', 'text', (c: any) => c.notNull())
    .addColumn('about', 'text', (c: any) => c.notNull().defaultTo(''))
    .addColumn('contact', 'text', (c: any) => c.notNull().defaultTo(''))
    .addColumn('logo_image_id', 'text')
    .addColumn('whatsapp', 'text')
    .addColumn('instagram', 'text')
    .addColumn('youtube', 'text')
    .addColumn('discord', 'text')
    // null only for the Site organiser before its first site admin exists
    .addColumn('owner_id', 'integer', (c: any) => c.unique())
    .addColumn('status', 'text', (c: any) => c.notNull())
    .addColumn('is_site', 'integer', (c: any) => c.notNull().defaultTo(0))
    .addColumn('approved_by', 'integer')
    .addColumn('approved_at', 'text')
    .addColumn('created_at', 'text', (c: any) => c.notNull())
    .addColumn('updated_at', 'text', (c: any) => c.notNull())
    .execute();

  await db.schema.alterTable('tournaments').addColumn('organiser_id', 'integer').execute();

  await id(db.schema.createTable('tournament_staff'))
    .addColumn('tournament_id', 'integer', (c: any) => c.notNull())
    .addColumn('user_id', 'integer', (c: any) => c.notNull())
    .addColumn('role', 'text', (c: any) => c.notNull())
    .addColumn('status', 'text', (c: any) => c.notNull())
    .addColumn('token', 'text')
    .addColumn('invited_by', 'integer', (c: any) => c.notNull())
    .addColumn('invited_at', 'text', (c: any) => c.notNull())
    .addColumn('accepted_at', 'text')
    .addUniqueConstraint('tournament_staff_member', ['tournament_id', 'user_id'])
    .execute();
  await db.schema.createIndex('tournament_staff_user').on('tournament_staff').columns(['user_id', 'status']).execute();
  await db.schema.createIndex('tournament_staff_token').on('tournament_staff').column('token').execute();

  await db.schema
    .createTable('staff_scopes')
    .addColumn('staff_id', 'integer', (c: any) => c.notNull().references('tournament_staff.id').onDelete('cascade'))
    .addColumn('stage_id', 'integer', (c: any) => c.notNull())
    // null: every group of the stage
    .addColumn('group_id', 'integer')
    .execute();
  await db.schema.createIndex('staff_scopes_staff').on('staff_scopes').column('staff_id').execute();

  await id(db.schema.createTable('activity'))
    .addColumn('tournament_id', 'integer', (c: any) => c.notNull())
    .addColumn('actor_id', 'integer', (c: any) => c.notNull())
    .addColumn('actor_name', 'text', (c: any) => c.notNull())
    .addColumn('action', 'text', (c: any) => c.notNull())
    .addColumn('detail', 'text', (c: any) => c.notNull())
    .addColumn('at', 'text', (c: any) => c.notNull())
    .execute();
  await db.schema.createIndex('activity_tournament').on('activity').columns(['tournament_id', 'id']).execute();

  await id(db.schema.createTable('announcements'))
    .addColumn('tournament_id', 'integer', (c: any) => c.notNull())
    .addColumn('stage_id', 'integer')
    .addColumn('group_id', 'integer')
    .addColumn('author_id', 'integer', (c: any) => c.notNull())
    .addColumn('author_name', 'text', (c: any) => c.notNull())
    .addColumn('body', 'text', (c: any) => c.notNull())
    .addColumn('at', 'text', (c: any) => c.notNull())
    .execute();
  await db.schema.createIndex('announcements_tournament').on('announcements').columns(['tournament_id', 'id']).execute();

  await inTransaction(db, async (trx) => {
    const admin = await trx
      .selectFrom('users')
      .select('id')
      .where(sql<boolean>`(',' || roles || ',') like '%,ROLE_ADMIN,%'`)
      .orderBy('id')
      .limit(1)
      .executeTakeFirst();
    const now = MIGRATED_AT;
    await trx
      .insertInto('organisers')
      .values({
        slug: 'site',
        name: 'Custom Room',
        owner_id: admin?.id ?? null,
        status: 'approved',
        is_site: 1,
        created_at: now,
        updated_at: now,
      })
      .execute();
    const site = await trx.selectFrom('organisers').select('id').where('slug', '=', 'site').executeTakeFirstOrThrow();
    await trx.updateTable('tournaments').set({ organiser_id: site.id }).execute();
  });
}
