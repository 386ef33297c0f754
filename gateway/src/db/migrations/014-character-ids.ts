import { type Db } from './kit.js';

// Decision 046: in-game character IDs beside the IGNs, unique per tournament, and the organiser's switch requiring them.
export const key = '014-character-ids';

export async function up(db: Db): Promise<void> {
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
}
