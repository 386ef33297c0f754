import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect, sql, type SqliteDatabase } from 'kysely';
import { LRUCache } from 'lru-cache';
import pg from 'pg';
import { coalesce } from '@custom-room/toolkit';
import { GENERATION_LEASE_MS, GENERATION_SQL, Generation, bumpedIn } from './generation.js';
import { isoAt } from './instant.js';
import { migrate } from './migrations.js';
import type { Database } from './schema.js';
import type { Db, Dialect, Trx } from './types.js';

export type { Db, Dialect, Trx } from './types.js';

/** A write failed for lack of space or an I/O error (decision 032); cleared by the next write that succeeds (on SQLite, with 4 MB free). */
export interface StorageFault {
  /** When the first failed write of this episode failed (ISO 8601). */
  since: string;
  code: string;
}

export interface DatabaseHandle {
  db: Db;
  dialect: Dialect;
  /**
   * Runs fn in a transaction that takes the write lock up front (SQLite: BEGIN IMMEDIATE). On
   * PostgreSQL a deadlock or serialization failure runs fn once more, in a new transaction (decision
   * 032): fn must not have effects outside the database that a second run would repeat.
   */
  writeTransaction<T>(fn: (trx: Trx) => Promise<T>): Promise<T>;
  /** The storage fault of the latest failed write, until a write succeeds; undefined when writes work. */
  storageFault(): StorageFault | undefined;
  /** Records err when it is a storage fault (any write, in a transaction or not). */
  noteWriteFailure(err: unknown): void;
  /** A real write: true when it commits and the storage has room (the fault is cleared), false on a storage fault. */
  probeWrite(): Promise<boolean>;
  /** Locks one tournament row until the transaction ends (PostgreSQL: FOR UPDATE; SQLite holds the database lock already). */
  lockTournament(
    trx: Trx,
    tournamentId: number,
  ): Promise<
    | { id: number; max_teams: number; status: string; registration_open: string; registration_close: string; deleted_at: string | null }
    | undefined
  >;
  /**
   * The cache generation (decision 023), strict: it reflects every write whose answer was sent before
   * the call (SQLite: every write committed before it; PostgreSQL: through the lease).
   * Callers share one read that starts after all of them called: SQLite once per turn of the event
   * loop on a separate connection (`PRAGMA data_version` skips even the sum while no other
   * connection has committed); PostgreSQL one query at a time.
   */
  generation(): Promise<Generation>;
  /**
   * Before a write's answer is sent: on PostgreSQL a promise that resolves once the lease has run
   * out after this process's latest commit that bumped the generation (at most 20 ms; decision 023),
   * so nobody hears of a write while a read started before it can still answer. Otherwise undefined.
   * With since (a performance.now() instant), only for a commit at or after it: a read (GET) that wrote
   * on its way (a lazy release, decision 043) waits, and one that did not is never held up.
   */
  settleWrites(since?: number): Promise<void> | undefined;
  close(): Promise<void>;
}

export interface DatabaseOptions {
  databaseUrl?: string;
  dataDir: string;
  /** SQLite file name inside dataDir (tests give each file its own). */
  sqliteFile?: string;
  /**
   * The time a storage fault is dated by (ms): the app's clock. A handle opened alone (a script, a
   * test of the database) dates it by the system's time.
   */
  now?: () => number;
}

type DialectHandle = Omit<DatabaseHandle, 'storageFault' | 'noteWriteFailure' | 'probeWrite'> & {
  /** False while the storage is known to be (nearly) full: SQLite asks its file system; PostgreSQL cannot. */
  hasRoom(): boolean;
};

/**
 * SQLite on a full disk still commits small writes that fit in pages its files already hold (a
 * recycled WAL), so a write that succeeds does not show the disk has room again. Below this much free
 * space a storage fault stays reported: about a WAL's growth between two checkpoints (1000 pages).
 */
export const MIN_FREE_BYTES = 4 * 1024 * 1024;

/** Retries once, on PostgreSQL only: SQLite takes its one write lock up front and cannot deadlock. */
export const WRITE_ATTEMPTS = 2;

export async function openDatabase(options: DatabaseOptions): Promise<DatabaseHandle> {
  const { hasRoom, ...dialect } = options.databaseUrl ? openPostgres(options.databaseUrl) : openSqlite(options);
  const handle = withStorageHealth(dialect, hasRoom, options.now ?? Date.now);
  try {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations see each step's schema, not today's
    await migrate(handle.db as Kysely<any>, handle.dialect);
  } catch (err) {
    await handle.close().catch(() => {});
    throw err;
  }
  return handle;
}

/** Tracks storage faults around the dialect's writes (decision 032). */
function withStorageHealth(handle: Omit<DialectHandle, 'hasRoom'>, hasRoom: () => boolean, now: () => number): DatabaseHandle {
  let fault: StorageFault | undefined;
  const clear = () => {
    if (fault && hasRoom()) fault = undefined;
  };
  const noteWriteFailure = (err: unknown) => {
    if (!isStorageFault(err)) return;
    fault ??= { since: isoAt(now()), code: String((err as { code?: unknown }).code ?? 'EIO') };
  };
  const writeTransaction = async <T>(fn: (trx: Trx) => Promise<T>): Promise<T> => {
    try {
      const result = await handle.writeTransaction(fn);
      clear();
      return result;
    } catch (err) {
      noteWriteFailure(err);
      throw err;
    }
  };
  return {
    ...handle,
    writeTransaction,
    storageFault: () => fault,
    noteWriteFailure,
    async probeWrite() {
      try {
        // Rewrites a row with its own value: a real write (a WAL frame, a new row version) that
        // changes nothing anyone reads, not even the cache generation's value.
        await writeTransaction((trx) => sql`update cache_generation set value = value where shard = 0`.execute(trx));
        return fault === undefined;
      } catch (err) {
        if (isStorageFault(err)) return false;
        throw err;
      }
    },
  };
}

/**
 * Kysely's SQLite driver prepares every query anew (~10–50 µs each, ~35 a captain's report); the gateway
 * runs the same few hundred queries all day, so each is prepared once and kept (decision 079). Safe with
 * this driver: it runs a statement to its end (all or run) before it returns, so a kept statement is never
 * still busy when asked for again; only streaming (iterate, which the gateway never uses) would hold one.
 * SQLite itself prepares a kept statement again after a schema change.
 */
function preparedOnce(sqlite: SQLite.Database): SqliteDatabase {
  const statements = new LRUCache<string, SQLite.Statement>({ max: 1000 });
  return {
    close: () => sqlite.close(),
    prepare(query: string) {
      let statement = statements.get(query);
      if (!statement) statements.set(query, (statement = sqlite.prepare(query)));
      return statement;
    },
  };
}

function openSqlite(options: DatabaseOptions): DialectHandle {
  fs.mkdirSync(options.dataDir, { recursive: true });
  const file = path.join(options.dataDir, options.sqliteFile ?? 'custom-room.sqlite');
  const sqlite = new SQLite(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = FULL'); // WAL's default NORMAL can lose the last commits on power loss
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: preparedOnce(sqlite) }) });

  // Its own connection: one on Kysely's could run inside another request's open write transaction
  // and see (then cache under) a bump that might still roll back. Opened on first use, after migrating.
  let reader: (() => Generation) | undefined;
  let readerConnection: SQLite.Database | undefined;
  const openReader = () => {
    const conn = new SQLite(file);
    readerConnection = conn;
    conn.pragma('busy_timeout = 5000');
    const dataVersion = conn.prepare('pragma data_version').pluck();
    const current = conn.prepare(GENERATION_SQL);
    let seenVersion: unknown;
    let value: Generation;
    return () => {
      // data_version changes when any other connection (this process's writer, another process) commits.
      const version = dataVersion.get();
      if (version !== seenVersion) {
        value = new Generation(current.all() as { shard: number; value: number; epoch: string }[]);
        seenVersion = version;
      }
      return value;
    };
  };
  // Even the pragma starts a read transaction (file-lock system calls, ~12 µs here), so requests
  // share it like on PostgreSQL: every request handled in this turn of the event loop waits for one
  // check run after them (setImmediate), which therefore starts after each of them arrived.
  const generation = coalesce(() => (reader ??= openReader())(), { defer: (start) => void setImmediate(start) });

  return {
    db,
    dialect: 'sqlite',
    generation,
    // SQLite's generation is read per turn, after the request arrived: nothing to wait out.
    settleWrites: () => undefined,
    hasRoom() {
      try {
        const { bavail, bsize } = fs.statfsSync(options.dataDir);
        return bavail * bsize >= MIN_FREE_BYTES;
      } catch {
        return true; // cannot tell: the writes themselves will say
      }
    },
    writeTransaction(fn) {
      // The driver hands out its single connection one caller at a time, so this also serialises writers in-process.
      return db.connection().execute(async (conn) => {
        await sql`begin immediate`.execute(conn);
        try {
          const result = await fn(conn);
          await sql`commit`.execute(conn);
          return result;
        } catch (err) {
          // A full disk or an I/O error can end the transaction by itself (even at COMMIT): a second
          // ROLLBACK would fail and hide the first error; a transaction left open would fail every later write.
          if (sqlite.inTransaction) await sql`rollback`.execute(conn);
          throw err;
        }
      });
    },
    lockTournament(trx, tournamentId) {
      return trx
        .selectFrom('tournaments')
        .select(['id', 'max_teams', 'status', 'registration_open', 'registration_close', 'deleted_at'])
        .where('id', '=', tournamentId)
        .executeTakeFirst();
    },
    async close() {
      readerConnection?.close();
      await db.destroy();
    },
  };
}

function openPostgres(databaseUrl: string): DialectHandle {
  // Give up on a connection attempt after 5 s (an unreachable host otherwise hangs the request).
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 10, connectionTimeoutMillis: 5_000 });
  // A connection the server ends (a restart, a failover) emits 'error': on the pool while idle, on
  // the client while checked out between two queries. Without a listener Node ends the process.
  // The next query on that client fails (answered 503), and the pool replaces it on release.
  pool.on('error', () => {});
  pool.on('connect', (client) => client.on('error', () => {}));
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  // A named statement: parsed once per connection.
  const generationQuery = { name: 'cache-generation', text: GENERATION_SQL };
  // The latest read and when it started, and the latest commit that bumped (decision 023: the lease).
  let lastBumpAt = -Infinity;
  let lease: { startedAt: number; value: Generation } | undefined;
  const read = coalesce(async () => {
    const startedAt = performance.now();
    const { rows } = await pool.query<{ shard: number; value: string; epoch: string }>(generationQuery);
    const value = new Generation(rows);
    if (!lease || lease.startedAt < startedAt) lease = { startedAt, value };
    return value;
  });
  const generation = () => (lease && performance.now() - lease.startedAt < GENERATION_LEASE_MS ? Promise.resolve(lease.value) : read());
  return {
    db,
    dialect: 'postgres',
    generation,
    async writeTransaction(fn) {
      for (let attempt = 1; ; attempt++) {
        let trx: object | undefined;
        try {
          const result = await db.transaction().execute((t) => {
            trx = t;
            return fn(t);
          });
          if (trx && bumpedIn.has(trx)) lastBumpAt = performance.now();
          return result;
        } catch (err) {
          // PostgreSQL rolled the victim back whole, and the winner has its locks now: run it again, once.
          if (attempt < WRITE_ATTEMPTS && isWriteConflict(err)) continue;
          throw err;
        }
      }
    },
    // The database server's disks are not ours to see: a write that succeeds is the only sign of room.
    hasRoom: () => true,
    settleWrites(since = -Infinity) {
      if (lastBumpAt < since) return undefined;
      // Committed bumps: every lease started before them runs out before anyone hears of them.
      // (Timers run on the event loop's cached clock and can come early by a busy turn: measure.)
      const until = lastBumpAt + GENERATION_LEASE_MS + 1;
      if (performance.now() >= until) return undefined;
      return (async () => {
        for (let left = until - performance.now(); left > 0; left = until - performance.now()) {
          await new Promise((resolve) => setTimeout(resolve, Math.ceil(left)));
        }
      })();
    },
    lockTournament(trx, tournamentId) {
      return trx
        .selectFrom('tournaments')
        .select(['id', 'max_teams', 'status', 'registration_open', 'registration_close', 'deleted_at'])
        .where('id', '=', tournamentId)
        .forUpdate()
        .executeTakeFirst();
    },
    close: () => db.destroy(),
  };
}

/**
 * True when err is a unique-constraint violation. To narrow it to one constraint, name the
 * PostgreSQL constraint (or index) and a column that SQLite's message names for it; to any of
 * several, pass a list.
 */
export function isUniqueViolation(err: unknown, which?: UniqueIndex | readonly UniqueIndex[]): boolean {
  if (Array.isArray(which)) return which.some((one) => isUniqueViolation(err, one));
  return isOneUniqueViolation(err, which as UniqueIndex | undefined);
}

/** A unique index by its PostgreSQL name and a column SQLite's message names. */
type UniqueIndex = { constraint: string; column: string };

function isOneUniqueViolation(err: unknown, which?: UniqueIndex): boolean {
  const e = err as { code?: string; constraint?: string; message?: string };
  if (e?.code === '23505') return !which || e.constraint === which.constraint;
  if (e?.code === 'SQLITE_CONSTRAINT_UNIQUE' || e?.code === 'SQLITE_CONSTRAINT_PRIMARYKEY') {
    return !which || (e.message ?? '').includes(`.${which.column}`);
  }
  return false;
}

const UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  '57P01', // admin_shutdown: the server is stopping or restarting
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now: starting up or shutting down
  '53300', // too_many_connections
  'SQLITE_BUSY', // another process kept the file locked longer than busy_timeout
  'SQLITE_BUSY_SNAPSHOT',
]);

/**
 * True when err says the database cannot be reached right now (down, restarting, connection cut,
 * busy), as opposed to a bug or a bad statement: the gateway answers 503 and recovers by itself.
 */
export function isDatabaseUnavailable(err: unknown): boolean {
  const e = err as { code?: string; message?: string };
  if (!e || typeof e !== 'object') return false;
  if (e.code && (UNAVAILABLE_CODES.has(e.code) || e.code.startsWith('08'))) return true; // 08xxx: connection exceptions
  return /Connection terminated|connection error and is not queryable|timeout exceeded when trying to connect|Client was closed and is not queryable/i.test(
    e.message ?? '',
  );
}

/**
 * True when PostgreSQL ended the transaction to break a deadlock (40P01) or a serialization failure
 * (40001): nothing of it was stored, and the same transaction run again normally succeeds.
 */
export function isWriteConflict(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return code === '40P01' || code === '40001';
}

/**
 * True when a write failed because the storage cannot take it: the disk (or quota) is full, or it
 * failed to write. SQLite: SQLITE_FULL, SQLITE_IOERR_*; PostgreSQL: 53100 disk_full, 58030 io_error;
 * Node: ENOSPC, EDQUOT, EIO. Nothing of the failed write is stored.
 */
export function isStorageFault(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  if (typeof code !== 'string') return false;
  return (
    code === 'SQLITE_FULL' ||
    code.startsWith('SQLITE_IOERR') ||
    code === '53100' ||
    code === '58030' ||
    code === 'ENOSPC' ||
    code === 'EDQUOT' ||
    code === 'EIO'
  );
}
