import type { Kysely } from 'kysely';
import type { Dialect } from '../types.js';

export type Db = Kysely<any>;

/** What a migration may ask of the dialect it runs on. */
export interface Kit {
  pg: boolean;
  /** Adds the table's integer primary key `id`, numbered by the database. */
  id: (table: any) => any;
  /** The binary column type. */
  blob: 'bytea' | 'blob';
}

/** One migration: its file's name is its key, the name it is recorded under in kysely_migration. */
export interface MigrationFile {
  key: string;
  up(db: Db, kit: Kit): Promise<void>;
}

export function kitFor(dialect: Dialect): Kit {
  const pg = dialect === 'postgres';
  return {
    pg,
    id: (t) =>
      pg
        ? t.addColumn('id', 'serial', (c: any) => c.primaryKey())
        : t.addColumn('id', 'integer', (c: any) => c.primaryKey().autoIncrement()),
    blob: pg ? 'bytea' : 'blob',
  };
}

/** Runs fn in a transaction: PostgreSQL's migrations already are in one, SQLite's are not. */
export function inTransaction(db: Db, fn: (trx: Db) => Promise<void>): Promise<void> {
  return db.isTransaction ? fn(db) : db.transaction().execute(fn);
}
