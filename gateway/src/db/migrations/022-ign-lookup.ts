import type { Db } from './kit.js';

// Decision 079: a report's look-alike check reads the reports of every team that shares a player's IGN
// with the reporting team, in any tournament. The table's keys all start with the tournament, so that
// lookup read every IGN ever registered (SQLite's plan: SCAN registration_igns), once per IGN of the team,
// at every report: an index on the name alone makes it a search.
export const key = '022-ign-lookup';

export async function up(db: Db): Promise<void> {
  await db.schema.createIndex('registration_igns_lower').on('registration_igns').column('ign_lower').execute();
}
