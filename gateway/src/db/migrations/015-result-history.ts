import { type Db, type Kit } from './kit.js';

// Issue 20 (decision 048): every change to a match result, kept. One row per team a write touched,
// old values null for a first entry, new ones null for a removal; change_id groups the rows of one call.
export const key = '015-result-history';

export async function up(db: Db, { id }: Kit): Promise<void> {
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
}
