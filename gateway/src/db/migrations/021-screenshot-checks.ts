import type { Db } from './kit.js';

// Decision 077: a report's screenshot is compared with earlier reports after the report is answered, not
// while the captain waits. Until that comparison has run, screenshot_checked_at is null: the lobby view
// says how many are still being compared, and the notification worker runs any a stopped process left.
export const key = '021-screenshot-checks';

export async function up(db: Db): Promise<void> {
  await db.schema.alterTable('match_reports').addColumn('screenshot_checked_at', 'text').execute();
  // Every report sent before this migration was compared while it was sent.
  await db
    .updateTable('match_reports')
    .set((eb) => ({ screenshot_checked_at: eb.ref('updated_at') }))
    .execute();
  await db.schema.createIndex('match_reports_unchecked').on('match_reports').column('screenshot_checked_at').execute();
}
