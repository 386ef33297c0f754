import { type Db } from './kit.js';

export const key = '017-group-times-and-not-played';

export async function up(db: Db): Promise<void> {
  // Issue 27: groups hosted one after another (the minutes between two groups' starts, remembered for
  // the schedule form), and group matches the organiser marked as not played (who and when).
  await db.schema
    .alterTable('stages')
    .addColumn('group_gap_minutes', 'integer', (c: any) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.alterTable('matches').addColumn('not_played_at', 'text').execute();
  await db.schema.alterTable('matches').addColumn('not_played_by', 'text').execute();
}
