import type { Kysely, Transaction } from 'kysely';
import type { Database } from './schema.js';

// The handle's types, apart from the handle: the migrations and the generation need them, and the
// handle needs both (no import cycle).
export type Dialect = 'sqlite' | 'postgres';
export type Db = Kysely<Database>;
export type Trx = Transaction<Database> | Kysely<Database>;
