import { Migrator, sql, type Kysely, type Migration, type MigrationProvider } from 'kysely';
import { MIGRATIONS } from './migrations/index.js';
import { kitFor } from './migrations/kit.js';
import type { Dialect } from './types.js';

/** Migrations live in code (one file each in migrations/) so the compiled gateway needs no files beside it. */
class InlineProvider implements MigrationProvider {
  constructor(private readonly dialect: Dialect) {}
  async getMigrations(): Promise<Record<string, Migration>> {
    const kit = kitFor(this.dialect);
    return Object.fromEntries(MIGRATIONS.map((m) => [m.key, { up: (db: Kysely<any>) => m.up(db, kit) }]));
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
