import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CompiledQuery } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type DatabaseHandle } from '../../gateway/src/db/index.js';
import { lookalikeCandidatesQuery } from '../../gateway/src/db/screenshots.js';

// Queries that run at every report must search indexes, never read a whole table that grows with every
// tournament: SQLite's plan on the migrated schema (PostgreSQL gets the same indexes from the same
// migrations; its planner reads small tables whole whatever the indexes, so a plan there proves nothing).
describe('query plans (SQLite)', () => {
  let dir: string;
  let store: DatabaseHandle;
  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'query-plans-'));
    store = await openDatabase({ databaseUrl: undefined, dataDir: dir });
  });
  afterAll(async () => {
    await store.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  async function plan(query: { compile(): CompiledQuery }): Promise<string[]> {
    const compiled = query.compile();
    const result = await store.db.executeQuery<{ detail: string }>(
      CompiledQuery.raw(`explain query plan ${compiled.sql}`, [...compiled.parameters]),
    );
    return result.rows.map((r) => r.detail);
  }

  it("a report's look-alike candidates: its match's reports, its team's, and those of teams sharing an IGN, each by an index (decision 079)", async () => {
    const steps = await plan(lookalikeCandidatesQuery(store.db, { tournamentId: 1, groupId: 2, day: 1, match: 1 }, 5, 7));
    expect(steps.filter((s) => /^SCAN /.test(s))).toEqual([]);
    expect(steps).toContain('SEARCH other USING INDEX registration_igns_lower (ign_lower=?)');
  });
});
