import type { Db, Kit } from './kit.js';

// Issue 30 (decision 071): teams report a group-match's result with a screenshot, the staff confirm the
// lobby, results stay provisional for a dispute window, teams dispute rows, players' finishes are kept.
export const key = '020-captain-reports';

export async function up(db: Db, { id, blob }: Kit): Promise<void> {
  // A screenshot is kept once (its id is the hash of its re-encoded bytes), with its perceptual hash
  // (decision 072: a small grey thumbnail as text, compared by alignment, not by bits).
  await db.schema
    .createTable('screenshots')
    .addColumn('id', 'text', (c: any) => c.primaryKey())
    .addColumn('content_type', 'text', (c: any) => c.notNull())
    .addColumn('width', 'integer', (c: any) => c.notNull())
    .addColumn('height', 'integer', (c: any) => c.notNull())
    .addColumn('data', blob, (c: any) => c.notNull())
    .addColumn('hash', 'text', (c: any) => c.notNull())
    .addColumn('created_at', 'text', (c: any) => c.notNull())
    .execute();

  await id(db.schema.createTable('match_reports'))
    .addColumn('tournament_id', 'integer', (c: any) => c.notNull())
    .addColumn('group_id', 'integer', (c: any) => c.notNull())
    .addColumn('day', 'integer', (c: any) => c.notNull())
    .addColumn('match_no', 'integer', (c: any) => c.notNull())
    .addColumn('registration_id', 'integer', (c: any) => c.notNull())
    .addColumn('position', 'integer', (c: any) => c.notNull())
    .addColumn('finishes', 'integer', (c: any) => c.notNull())
    .addColumn('players', 'text', (c: any) => c.notNull()) // JSON [{ ign, finishes }]
    .addColumn('screenshot_id', 'text', (c: any) => c.notNull())
    .addColumn('reported_by', 'integer', (c: any) => c.notNull())
    .addColumn('reported_by_name', 'text', (c: any) => c.notNull())
    .addColumn('created_at', 'text', (c: any) => c.notNull())
    .addColumn('updated_at', 'text', (c: any) => c.notNull())
    .addUniqueConstraint('match_reports_team', ['tournament_id', 'group_id', 'day', 'match_no', 'registration_id'])
    .execute();
  await db.schema.createIndex('match_reports_screenshot').on('match_reports').column('screenshot_id').execute();
  await db.schema.createIndex('match_reports_registration').on('match_reports').column('registration_id').execute();
  // Reports whose screenshots look the same, found when a screenshot is sent; each pair both ways.
  await db.schema
    .createTable('report_lookalikes')
    .addColumn('report_id', 'integer', (c: any) => c.notNull())
    .addColumn('other_report_id', 'integer', (c: any) => c.notNull())
    .addColumn('distance', 'integer', (c: any) => c.notNull())
    .addPrimaryKeyConstraint('report_lookalikes_pk', ['report_id', 'other_report_id'])
    .execute();

  // Where reporting stands for one group-match; a row only once something happened to it.
  await db.schema
    .createTable('match_reporting')
    .addColumn('tournament_id', 'integer', (c: any) => c.notNull())
    .addColumn('group_id', 'integer', (c: any) => c.notNull())
    .addColumn('day', 'integer', (c: any) => c.notNull())
    .addColumn('match_no', 'integer', (c: any) => c.notNull())
    .addColumn('closed_at', 'text')
    .addColumn('confirmed_at', 'text')
    .addColumn('confirmed_by_name', 'text')
    .addColumn('provisional_until', 'text')
    .addColumn('reminded_at', 'text')
    .addPrimaryKeyConstraint('match_reporting_pk', ['tournament_id', 'group_id', 'day', 'match_no'])
    .execute();

  // Each player's finishes in a confirmed result (Top fraggers); a team's rows go when its result changes
  // so that they no longer add up.
  await db.schema
    .createTable('result_players')
    .addColumn('tournament_id', 'integer', (c: any) => c.notNull())
    .addColumn('group_id', 'integer', (c: any) => c.notNull())
    .addColumn('day', 'integer', (c: any) => c.notNull())
    .addColumn('match_no', 'integer', (c: any) => c.notNull())
    .addColumn('registration_id', 'integer', (c: any) => c.notNull())
    .addColumn('ign', 'text', (c: any) => c.notNull())
    .addColumn('finishes', 'integer', (c: any) => c.notNull())
    .execute();
  await db.schema
    .createIndex('result_players_match')
    .on('result_players')
    .columns(['tournament_id', 'group_id', 'day', 'match_no', 'registration_id'])
    .execute();

  await id(db.schema.createTable('result_disputes'))
    .addColumn('tournament_id', 'integer', (c: any) => c.notNull())
    .addColumn('group_id', 'integer', (c: any) => c.notNull())
    .addColumn('day', 'integer', (c: any) => c.notNull())
    .addColumn('match_no', 'integer', (c: any) => c.notNull())
    .addColumn('by_registration_id', 'integer', (c: any) => c.notNull())
    .addColumn('about_registration_id', 'integer', (c: any) => c.notNull())
    .addColumn('reason', 'text', (c: any) => c.notNull())
    .addColumn('screenshot_id', 'text')
    .addColumn('state', 'text', (c: any) => c.notNull())
    .addColumn('resolution', 'text')
    .addColumn('resolved_by_name', 'text')
    .addColumn('resolved_at', 'text')
    .addColumn('filed_by', 'integer', (c: any) => c.notNull())
    .addColumn('filed_by_name', 'text', (c: any) => c.notNull())
    .addColumn('created_at', 'text', (c: any) => c.notNull())
    .addUniqueConstraint('result_disputes_once', ['tournament_id', 'group_id', 'day', 'match_no', 'by_registration_id'])
    .execute();
  await db.schema.createIndex('result_disputes_state').on('result_disputes').columns(['tournament_id', 'state']).execute();

  // How long a match lasts (reminders) and how long results stay disputable: the tournament's, and a stage's own.
  await db.schema
    .alterTable('tournaments')
    .addColumn('match_minutes', 'integer', (c: any) => c.notNull().defaultTo(30))
    .execute();
  await db.schema
    .alterTable('tournaments')
    .addColumn('dispute_minutes', 'integer', (c: any) => c.notNull().defaultTo(15))
    .execute();
  await db.schema.alterTable('stages').addColumn('match_minutes', 'integer').execute();
}
