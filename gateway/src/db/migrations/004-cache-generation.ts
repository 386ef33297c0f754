import crypto from 'node:crypto';
import { GENERATION_SHARDS } from '../generation.js';
import { type Db } from './kit.js';

// Decision 023: a counter that every write changing a public answer bumps in its own transaction.
// Sharded by tournament so writes to different tournaments never wait on one row; readers sum it.
export const key = '004-cache-generation';

export async function up(db: Db): Promise<void> {
  await db.schema
    .createTable('cache_generation')
    .ifNotExists()
    .addColumn('shard', 'integer', (c) => c.primaryKey())
    .addColumn('value', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('epoch', 'text', (c) => c.notNull()) // the same random value in every row: tells one database's counter from another's
    .execute();
  const epoch = crypto.randomBytes(6).toString('hex');
  await db
    .insertInto('cache_generation')
    .values(Array.from({ length: GENERATION_SHARDS }, (_, shard) => ({ shard, value: 0, epoch })))
    .execute();
}
