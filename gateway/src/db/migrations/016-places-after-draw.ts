import { type Db } from './kit.js';

// Issue 27 (decision 052): a removed team is barred from coming back, and a team that leaves keeps its
// character IDs on record (moved out of registration_character_ids, whose key claims them).
export const key = '016-places-after-draw';

export async function up(db: Db): Promise<void> {
  await db.schema.alterTable('registrations').addColumn('rejoin', 'text').execute();
  await db.schema
    .createTable('left_character_ids')
    .addColumn('tournament_id', 'integer', (c) => c.notNull())
    .addColumn('registration_id', 'integer', (c) => c.notNull().references('registrations.id').onDelete('cascade'))
    .addColumn('field', 'text', (c) => c.notNull())
    .addColumn('character_id', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('left_character_ids_registration').on('left_character_ids').column('registration_id').execute();
}
